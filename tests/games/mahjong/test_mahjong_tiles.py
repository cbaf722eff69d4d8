"""Tile, hand, meld and action notation (RULES-mahjong.md §1.2, §1.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qipai.core.game import IllegalAction
from qipai.games.mahjong.actions import parse_action
from qipai.games.mahjong.melds import format_hand, parse_hand, parse_meld
from qipai.games.mahjong.tiles import (
    TILE_NAMES,
    TileError,
    Z,
    format_tiles,
    full_set,
    is_terminal,
    parse_tile,
    parse_tiles,
)


def test_112_tiles_28_kinds() -> None:
    w = full_set()
    assert len(w) == 112 and len(set(w)) == 28 and w.count(Z) == 4
    assert TILE_NAMES[0] == "1m" and TILE_NAMES[9] == "1p" and TILE_NAMES[18] == "1s" and TILE_NAMES[27] == "Z"


def test_spellings() -> None:
    assert parse_tiles("234m 24m") == parse_tiles("22344m") == parse_tiles("2M3m4M 2m4m")
    assert parse_tiles("zz") == parse_tiles("ZZ") == parse_tiles("中中") == [Z, Z]
    assert parse_tile("中") == Z
    assert format_tiles(parse_tiles("ZZ 678p 22344m")) == "22344m 678p ZZ"


@pytest.mark.parametrize("text,token", [("12x", "12x"), ("0m", "0m"), ("m", "m"), ("1234", "1234")])
def test_bad_tiles_name_the_token(text: str, token: str) -> None:
    with pytest.raises(TileError, match=token):
        parse_tiles(text)


def test_terminals() -> None:
    assert [is_terminal(parse_tile(t)) for t in ("1m", "9p", "5s", "Z")] == [True, True, False, False]


def test_hands_and_melds() -> None:
    c, ms = parse_hand("22344m 678p ZZ | chi 567s | peng ZZZ")
    assert format_hand(c, ms) == "22344m 678p ZZ | chi 567s | peng ZZZ"
    assert str(parse_meld("PENG 7p7p7p")) == "peng 777p"
    with pytest.raises(TileError, match="a peng is three identical tiles"):
        parse_meld("peng 778p")
    with pytest.raises(TileError, match="expected 'chi 567s'"):
        parse_meld("kong 7777p")


@pytest.mark.parametrize("text,canon", [
    ("discard 5m", "discard 5m"), ("  DISCARD   5M ", "discard 5m"), ("ting z", "ting Z"),
    ("ting 5m zhidui 7p", "ting 5m zhidui 7p"), ("chi 456m", "chi 456m"), ("chi 4m 5m 6m", "chi 456m"),
    ("chi 456m ting", "chi 456m ting"), ("chi", "chi"), ("peng", "peng"), ("peng 5m", "peng"),
    ("peng ting", "peng ting"), ("hu", "hu"), ("pass", "pass"),
])
def test_action_texts(text: str, canon: str) -> None:
    assert str(parse_action(text)) == canon


@pytest.mark.parametrize("text,msg", [
    ("chi 458m", "three consecutive"), ("chi ZZZ", "three consecutive"), ("discard", "names one tile"),
    ("hu now", "takes nothing"), ("discard 5m zhidui 7p", "zhidui follows ting"), ("kong 5m", "unknown verb"),
])
def test_bad_action_texts(text: str, msg: str) -> None:
    with pytest.raises(IllegalAction, match=msg):
        parse_action(text)


@given(st.lists(st.integers(0, 27), max_size=14))
def test_format_then_parse_is_identity(kinds: list[int]) -> None:
    assert parse_tiles(format_tiles(kinds)) == sorted(kinds)

"""Rule options and presets (RULES.md §8): every preset field, option validation, round trips."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.games.doudizhu import KINDS, PRESETS, Rules, RulesError, preset_name

ALL_KINDS = frozenset(KINDS)
FOUR_PLAYER_KINDS = frozenset(
    [
        "single",
        "pair",
        "triple",
        "triple_pair",
        "straight",
        "pair_straight",
        "plane",
        "plane_pairs",
        "bomb",
        "rocket",
    ]
)

# One row per preset of RULES.md §8, every column spelled out.  "bombs" is (bomb_factor,
# effective_bombs_only); "rocket" is (rocket_factor, effective_bombs_only).  Extras are the other named
# options.
TABLE: dict[str, dict[str, Any]] = {
    "classic": dict(
        players=3,
        bidding="score",
        first_bidder="random_then_rotate",
        all_pass="redeal",
        kitty_visible=True,
        bomb_factor="double",
        effective_bombs_only=False,
        rocket_factor=2,
        kinds=ALL_KINDS,
        bid_seconds=20,
        play_seconds=20,
        first_play_seconds=20,
        autoplay_split=False,
        cap_by_table_points=False,
        chengdu_doubling=False,
        escape_penalty=False,
        forced_bid_hands=False,
        show_hand=False,
    ),
    "jj": dict(
        players=3,
        bidding="score",
        first_bidder="random_then_rotate",
        all_pass="redeal_then_forced",
        kitty_visible=True,
        bomb_factor="double",
        effective_bombs_only=False,
        rocket_factor=2,
        kinds=ALL_KINDS,
        bid_seconds=20,
        play_seconds=20,
        first_play_seconds=30,
        autoplay_split=False,
        cap_by_table_points=False,
        chengdu_doubling=False,
        escape_penalty=False,
        forced_bid_hands=False,
        show_hand=False,
    ),
    "jj_match": dict(
        players=3,
        bidding="score",
        first_bidder="random",
        all_pass="starter_is_landlord",
        kitty_visible=True,
        bomb_factor="linear",
        effective_bombs_only=False,
        rocket_factor=2,
        kinds=ALL_KINDS,
        bid_seconds=20,
        play_seconds=15,
        first_play_seconds=15,
        autoplay_split=True,
        cap_by_table_points=True,
        chengdu_doubling=False,
        escape_penalty=False,
        forced_bid_hands=False,
        show_hand=False,
    ),
    "cantonese": dict(
        players=3,
        bidding="call",
        first_bidder="face_up_card",
        all_pass="redeal",
        kitty_visible=True,
        bomb_factor="double",
        effective_bombs_only=False,
        rocket_factor=2,
        kinds=ALL_KINDS - {"triple_pair", "plane_pairs", "four_two_pairs"},
        bid_seconds=20,
        play_seconds=20,
        first_play_seconds=20,
        autoplay_split=False,
        cap_by_table_points=False,
        chengdu_doubling=False,
        escape_penalty=False,
        forced_bid_hands=False,
        show_hand=False,
    ),
    "effective_bombs": dict(
        players=3,
        bidding="score",
        first_bidder="random_then_rotate",
        all_pass="redeal",
        kitty_visible=True,
        bomb_factor="double",
        effective_bombs_only=True,
        rocket_factor=2,
        kinds=ALL_KINDS,
        bid_seconds=20,
        play_seconds=20,
        first_play_seconds=20,
        autoplay_split=False,
        cap_by_table_points=False,
        chengdu_doubling=False,
        escape_penalty=False,
        forced_bid_hands=False,
        show_hand=False,
    ),
    "chengdu": dict(
        players=3,
        bidding="call",
        first_bidder="spade_five",
        all_pass="redeal",
        kitty_visible=True,
        bomb_factor="double",
        effective_bombs_only=False,
        rocket_factor=2,
        kinds=ALL_KINDS,
        bid_seconds=20,
        play_seconds=20,
        first_play_seconds=20,
        autoplay_split=False,
        cap_by_table_points=False,
        chengdu_doubling=True,
        escape_penalty=True,
        forced_bid_hands=False,
        show_hand=False,
    ),
    "four_player": dict(
        players=4,
        bidding="score",
        first_bidder="random",
        all_pass="redeal_then_dissolve",
        kitty_visible=True,
        bomb_factor="by_size",
        effective_bombs_only=False,
        rocket_factor=3,
        kinds=FOUR_PLAYER_KINDS,
        bid_seconds=20,
        play_seconds=20,
        first_play_seconds=20,
        autoplay_split=False,
        cap_by_table_points=False,
        chengdu_doubling=False,
        escape_penalty=False,
        forced_bid_hands=False,
        show_hand=False,
    ),
    "four_player_show": dict(
        players=4,
        bidding="score",
        first_bidder="random_then_rotate",
        all_pass="redeal",
        kitty_visible=False,
        bomb_factor="double",
        effective_bombs_only=True,
        rocket_factor=2,
        kinds=FOUR_PLAYER_KINDS - {"straight"},
        bid_seconds=20,
        play_seconds=20,
        first_play_seconds=20,
        autoplay_split=False,
        cap_by_table_points=False,
        chengdu_doubling=False,
        escape_penalty=False,
        forced_bid_hands=True,
        show_hand=True,
    ),
}

# What the player count fixes (RULES.md §1, §2, §7).
BY_PLAYERS = {
    3: dict(decks=1, kitty_size=3, landlord_share=2, hand_size=17, rocket_size=2, bomb_max=4),
    4: dict(decks=2, kitty_size=8, landlord_share=3, hand_size=25, rocket_size=4, bomb_max=8),
}


def test_presets_are_exactly_the_table() -> None:
    assert set(PRESETS) == set(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_row(name: str) -> None:
    rules = PRESETS[name]
    row = TABLE[name]
    for field, want in row.items():
        assert getattr(rules, field) == want, f"{name}.{field}"
    for field, want in BY_PLAYERS[row["players"]].items():
        assert getattr(rules, field) == want, f"{name}.{field}"


@pytest.mark.parametrize("name", sorted(TABLE))
def test_unnamed_options_take_the_classic_value(name: str) -> None:
    """RULES.md §8: options not named in a row take the classic value."""
    named = set(TABLE[name]) | set(BY_PLAYERS[3])
    classic = PRESETS["classic"]
    for f in dataclasses.fields(Rules):
        if f.name not in named:
            assert getattr(PRESETS[name], f.name) == getattr(classic, f.name), f"{name}.{f.name}"


def test_classic_is_the_default() -> None:
    assert Rules() == PRESETS["classic"]
    assert Rules().kinds == ALL_KINDS
    assert (Rules().stake, Rules().autoplay, Rules().spring, Rules().anti_spring) == (
        1,
        "passive",
        True,
        True,
    )
    assert (Rules().straight_min, Rules().straight_max, Rules().pair_straight_min, Rules().plane_min) == (
        5,
        12,
        3,
        2,
    )
    assert Rules().bomb_min == 4


def test_table_columns_in_words() -> None:
    """A few cells read straight from RULES.md §8, as a second pair of eyes on TABLE."""
    assert [n for n, r in PRESETS.items() if r.bidding == "call"] == ["cantonese", "chengdu"]
    assert [n for n, r in PRESETS.items() if not r.kitty_visible] == ["four_player_show"]
    assert [n for n, r in PRESETS.items() if r.effective_bombs_only] == [
        "effective_bombs",
        "four_player_show",
    ]
    assert [n for n, r in PRESETS.items() if r.players == 4] == ["four_player", "four_player_show"]
    assert "straight" not in PRESETS["four_player_show"].kinds
    assert "triple_single" not in PRESETS["four_player"].kinds
    assert PRESETS["four_player"].kinds == PRESETS["four_player_show"].kinds | {"straight"}


# --- preset_name ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLE))
def test_preset_name(name: str) -> None:
    rules = PRESETS[name]
    assert preset_name(rules) == name
    assert preset_name(Rules.from_options({"preset": name})) == name
    assert preset_name(rules.replace(stake=rules.stake + 1)) is None
    assert preset_name(rules.replace(stake=rules.stake + 1).replace(stake=rules.stake)) == name


def test_preset_name_of_custom_tables() -> None:
    assert preset_name(Rules()) == "classic"
    assert preset_name(PRESETS["classic"].replace(kinds=ALL_KINDS - {"rocket"})) is None
    # jj differs from classic in all_pass and the landlord's first-play timer only
    assert preset_name(PRESETS["jj"].replace(all_pass="redeal")) is None
    assert preset_name(PRESETS["jj"].replace(all_pass="redeal", first_play_seconds=20)) == "classic"


# --- to_options / from_options ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLE))
def test_options_round_trip(name: str) -> None:
    rules = PRESETS[name]
    opts = rules.to_options()
    assert set(opts) == {f.name for f in dataclasses.fields(Rules)}
    assert opts["kinds"] == [k for k in KINDS if k in rules.kinds]  # a list, in table order
    assert Rules.from_options(opts) == rules
    assert Rules.from_options(json.loads(json.dumps(opts))) == rules
    # any base is overridden by a full option set
    assert Rules.from_options(opts, base=PRESETS["four_player"] if rules.players == 3 else Rules()) == rules


def test_from_options_preset_and_overrides() -> None:
    r = Rules.from_options({"preset": "four_player", "stake": 5})
    assert r.stake == 5 and r.players == 4 and r.bomb_factor == "by_size"
    assert Rules.from_options({}) == PRESETS["classic"]
    assert Rules.from_options({"stake": 2}, base=PRESETS["chengdu"]).chengdu_doubling
    assert Rules.from_options({"kinds": ("single", "pair")}).kinds == frozenset({"single", "pair"})
    assert PRESETS["classic"].replace(bid_seconds=30).bid_seconds == 30


OPTION_VALUES: dict[str, list[Any]] = {
    "bidding": ["score", "call"],
    "first_bidder": ["random_then_rotate", "random", "face_up_card", "spade_five"],
    "all_pass": ["redeal", "starter_is_landlord", "redeal_then_forced", "redeal_then_dissolve"],
    "bomb_factor": ["double", "linear", "by_size"],
    "autoplay": ["passive", "smart"],
    "kitty_visible": [True, False],
    "effective_bombs_only": [True, False],
    "forced_bid_hands": [True, False],
    "chengdu_doubling": [True, False],
    "show_hand": [True, False],
    "escape_penalty": [True, False],
    "autoplay_split": [True, False],
    "cap_by_table_points": [True, False],
    "spring": [True, False],
    "stake": [1, 2, 100],
    "bid_seconds": [5, 20],
    "play_seconds": [15, 20],
    "rocket_factor": [2, 3],
    "straight_min": [5, 6],
    "kinds": [sorted(ALL_KINDS), ["single", "pair", "bomb"], ["single"]],
}


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.dictionaries(st.sampled_from(sorted(OPTION_VALUES)), st.integers(0, 9), max_size=6),
)
def test_random_option_sets_round_trip(base: str, picks: dict[str, int]) -> None:
    opts: dict[str, Any] = {k: OPTION_VALUES[k][i % len(OPTION_VALUES[k])] for k, i in picks.items()}
    rules = Rules.from_options({"preset": base, **opts})
    for k, v in opts.items():
        assert (sorted(rules.kinds) == sorted(v)) if k == "kinds" else getattr(rules, k) == v
    assert Rules.from_options(json.loads(json.dumps(rules.to_options()))) == rules
    assert hash(Rules.from_options(rules.to_options())) == hash(rules)
    name = preset_name(rules)
    assert name is None or PRESETS[name] == rules


# --- errors ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["colour", "player", "Players", "kind", "bomb", ""])
def test_unknown_option_names(name: str) -> None:
    with pytest.raises(RulesError, match=f"unknown rule option {name!r}"):
        Rules.from_options({name: 1})
    with pytest.raises(RulesError, match=f"unknown rule option {name!r}"):
        PRESETS["classic"].replace(**{name: 1})


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"preset": "nope"}, ["unknown preset 'nope'", "classic"]),
        ({"preset": ["classic"]}, ["unknown preset"]),
        ({"players": 5}, ["players", "3 or 4", "5"]),
        ({"players": "3"}, ["players", "whole number", "'3'"]),
        ({"players": True}, ["players", "whole number"]),
        ({"players": 3.0}, ["players", "whole number"]),
        ({"decks": 3}, ["decks", "1 or 2"]),
        ({"players": 4}, ["do not split evenly", "4 players"]),
        ({"players": 4, "decks": 2}, ["do not split evenly"]),  # kitty 3 of 108 does not split
        ({"players": 4, "decks": 2, "kitty_size": 8}, ["landlord_share", "3"]),
        ({"kitty_size": -3}, ["kitty"]),
        ({"kitty_visible": 1}, ["kitty_visible", "true or false"]),
        ({"kitty_visible": "yes"}, ["kitty_visible", "true or false"]),
        ({"bidding": "auction"}, ["bidding", "'auction'", "score", "call"]),
        ({"bidding": 1}, ["bidding", "text"]),
        ({"first_bidder": "dealer"}, ["first_bidder", "'dealer'", "spade_five"]),
        ({"all_pass": "landlord"}, ["all_pass", "'landlord'", "redeal"]),
        ({"bomb_factor": "triple"}, ["bomb_factor", "'triple'", "by_size"]),
        ({"bomb_factor": 2}, ["bomb_factor", "text"]),
        ({"autoplay": "bot"}, ["autoplay", "'bot'", "smart"]),
        ({"kinds": ["single", "bogus"]}, ["unknown kinds", "bogus"]),
        ({"kinds": []}, ["kinds must include single"]),
        ({"kinds": ["pair", "bomb"]}, ["kinds must include single"]),
        ({"kinds": "single"}, ["kinds", "a list of names"]),
        ({"kinds": 5}, ["kinds", "a list of names"]),
        ({"kinds": None}, ["kinds", "a list of names"]),
        ({"kinds": [1, 2]}, ["kinds", "a list of names"]),
        ({"stake": 0}, ["stake", "at least 1"]),
        ({"stake": -2}, ["stake", "at least 1"]),
        ({"bid_seconds": 0}, ["bid_seconds", "at least 1"]),
        ({"play_seconds": -1}, ["play_seconds", "at least 1"]),
        ({"first_play_seconds": 0}, ["first_play_seconds", "at least 1"]),
        ({"rocket_factor": 0}, ["rocket_factor", "at least 1"]),
        ({"straight_min": 13}, ["straight_min"]),
        ({"straight_max": 13}, ["straight_max", "12"]),
        ({"straight_min": 6, "straight_max": 5}, ["straight_min"]),
        ({"pair_straight_max": 13}, ["pair_straight_max"]),
        ({"plane_min": 1}, ["plane_min"]),
        ({"bomb_min": 5}, ["bomb_min", "4..4"]),
        ({"bomb_min": 3}, ["bomb_min"]),
    ],
)
def test_bad_values(options: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(RulesError) as e:
        Rules.from_options(options)
    for w in words:
        assert w in str(e.value)


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_rules_are_frozen_and_hashable() -> None:
    r = PRESETS["classic"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 4  # type: ignore[misc]
    assert {PRESETS[n]: n for n in PRESETS}[Rules()] == "classic"
    assert len({hash(r) for r in PRESETS.values()}) == len(PRESETS)

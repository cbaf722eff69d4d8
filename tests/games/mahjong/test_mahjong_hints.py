"""Hints (public information only): discards that keep the best 向听 with their useful tiles, waits when ready,
and how many of each the seat has not seen."""

from __future__ import annotations

import random

from mahjong_positions import position

from qipai.games.mahjong.hand import meld_sig, shanten_counts, wait_kinds
from qipai.games.mahjong.hints import hints, useful_tiles, waiting_hints
from qipai.games.mahjong.melds import parse_melds
from qipai.games.mahjong.state import MahjongGame, unseen_counts
from qipai.games.mahjong.tiles import parse_tile, parse_tiles, tile_name, to_counts

SIG = meld_sig(parse_melds("chi 567s"))


def test_ready_hand_lists_its_waits_with_unseen_counts() -> None:
    unseen = [4] * 28
    unseen[parse_tile("3m")] = 1
    h = waiting_hints(to_counts(parse_tiles("234m 678p 24m ZZ")), SIG, unseen)
    assert h["shanten"] == 0 and h["waits"] == [{"tile": "3m", "unseen": 1}] and h["unseen"] == 1
    h = waiting_hints(to_counts(parse_tiles("234m 678p 24m ZZ")), SIG, unseen, ready=True)
    assert h["ready"] is True


def test_every_listed_discard_keeps_the_best_and_useful_tiles_are_exact() -> None:
    rng = random.Random(4)
    for _ in range(12):
        pool = [k for k in range(28) for _ in range(4) if not (22 <= k <= 24)]
        c = to_counts(rng.sample(pool, 11))
        unseen = [rng.randint(0, 4) for _ in range(28)]
        h = hints(c, SIG, unseen)
        best = min(shanten_counts([c[k] - (k == x) for k in range(28)], SIG) for x in range(28) if c[x])
        assert h["shanten"] == best
        listed = {d["tile"] for d in h["discards"]}
        for x in range(28):
            if not c[x]:
                continue
            after = [c[k] - (k == x) for k in range(28)]
            s = shanten_counts(after, SIG)
            assert (tile_name(x) in listed) == (s == best)
        for d in h["discards"]:
            x = parse_tile(d["tile"])
            after = [c[k] - (k == x) for k in range(28)]
            if "waits" in d:
                assert [w["tile"] for w in d["waits"]] == [tile_name(k) for k in wait_kinds(after, SIG)]
                continue
            expect = [y for y in range(28) if after[y] < 4 and shanten_counts(
                [after[k] + (k == y) for k in range(28)], SIG) < d["shanten"]]
            assert [u["tile"] for u in d["useful"]] == [tile_name(y) for y in expect]
            assert [u["unseen"] for u in d["useful"]] == [unseen[y] for y in expect]
            assert useful_tiles(after, SIG) == expect


def test_hints_in_observations_use_only_what_the_seat_saw() -> None:
    g = MahjongGame.new(seed=3, dealer=0)
    for s in range(4):
        h = g.observe(s)["hints"]
        u = unseen_counts(g, s)
        items = [i for d in h.get("discards", [h]) for i in d.get("useful", []) + d.get("waits", [])]
        assert all(i["unseen"] == u[parse_tile(i["tile"])] for i in items)


def test_a_ready_seat_is_hinted_its_waits() -> None:
    g = position(hands={0: "19m 19p 19s 258p 2s 8s 7s Z 6s", 1: "234m 678p 24m ZZ",
                        2: "19m 19p 19s 258p 3s 8s 7m Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"},
                 melds={1: "chi 567s"}, ready={1: True}, bao="3p")
    h = g.observe(1)["hints"]
    assert h["ready"] is True and [w["tile"] for w in h["waits"]] == ["3m"]

"""The 宝 (RULES-mahjong.md §5): examples 23 and 24 of §11, 摸宝, 宝中宝, 换宝, who sees it, and the room options
红中满天飞, 刮大风 and 带漏, played through the engine."""

from __future__ import annotations

from mahjong_positions import position

from qipai.games.mahjong.rules import DAQING
from qipai.games.mahjong.tiles import parse_tile

T = parse_tile
OTHERS = {0: "19m 19p 19s 258p 2s 8s 7s Z", 2: "19m 19p 19s 258p 3s 8s 7s Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"}


def _first_ting(rivers: dict[int, str] | None = None, rules: object = DAQING) -> object:
    return position(rules, hands={**OTHERS, 1: "234m 678p 24m ZZ 9p"}, melds={1: "chi 567s"}, turn=1,
                    wall="4s 5s 7s 3p", rivers=rivers)


def test_example_23_first_ting_sets_the_bao_from_the_tail() -> None:
    g = _first_ting()
    g.apply("ting 9p", 1)
    assert g.bao == T("3p") and g.wall_count == 3 - 1 + 0  # one to the 宝; seat 2 has drawn one since
    assert g.ready[1]
    assert g.observe(1)["bao"] == "3p"
    for s in (0, 2, 3, None):
        assert g.observe(s)["bao"] is None
        assert g.observe(s)["bao_set"] is True
    assert [e["action"] for e in g.log if e["seat"] is None] == ["bao"]
    assert "tile" not in next(e for e in g.log if e["action"] == "bao")


def test_example_23_a_dead_bao_is_replaced_at_once() -> None:
    g = _first_ting(rivers={0: "3p", 2: "3p", 3: "3p"})
    g.apply("ting 9p", 1)
    assert g.old_bao == [T("3p")] and g.bao == T("7s")
    assert g.observe(0)["old_bao"] == ["3p"] and g.observe(0)["bao"] is None
    assert g.observe(1)["bao"] == "7s"
    assert g.wall_count == 1  # 4 - 2 宝 tiles - seat 2's draw


def _ex24(waits_on_6m: bool) -> object:
    three = "24m 456p 999s 55p" if not waits_on_6m else "57m 456p 999s 55p"
    return position(hands={0: "6m 147p 258s 369s 88p 9s Z", 1: "19p 19s 258p 2s 3s 7s",
                           2: "11p 99p 11s 99s 3m 3p 7p Z 4m", 3: three},
                    melds={1: "chi 567m", 3: "chi 789s"}, ready={3: True}, rivers={2: "6m"}, bao="6m",
                    wall="1s 2s 5s 4p")


def test_example_24_third_visible_copy_kills_the_bao_after_the_window() -> None:
    g = _ex24(False)
    g.apply("discard 6m", 0)
    assert g.old_bao == [T("6m")] and g.bao == T("4p")
    assert any(e["action"] == "bao dead" and e["tile"] == "6m" for e in g.log)


def test_example_24_a_win_on_that_tile_ends_the_deal_instead() -> None:
    g = _ex24(True)
    g.apply("discard 6m", 0)
    assert g.is_over and g.outcome()["winner"] == 3 and g.old_bao == []


def _ready_one(bao: str, head: str, rules: object = DAQING) -> object:
    """Seat 1 ready on 3m (example 1's hand), seat 0 to discard, the next draw is seat 1's ``head``."""
    return position(rules, hands={0: "19m 19p 19s 258p 2s 8s 7s Z 6s", 1: "234m 678p 24m ZZ",
                                  2: "19m 19p 19s 258p 3s 8s 7s Z", 3: "19m 19p 19s 258p 2s 8s 7m Z"},
                    melds={1: "chi 567s"}, ready={1: True}, bao=bao, wall=f"{head} 1s 2s 5s")


def test_mobao_in_play() -> None:
    g = _ready_one("8p", "8p")
    g.apply("discard 6s", 0)
    out = g.outcome()
    assert out is not None and out["winner"] == 1 and out["how"] == "wild"
    assert out["win"]["read_as"] == "3m" and out["win"]["tile"] == "8p"
    assert out["settlement"]["hand_fans"] == ["self_drawn", "jia", "bao"]
    # the others have no meld (门清): dealer 0 pays 2^(3+1+1), seats 2 and 3 pay 2^(3+1)
    assert out["scores"] == [-32, 64, -16, -16]


def test_bao_zhong_bao_in_play() -> None:
    g = _ready_one("3m", "3m")
    g.apply("discard 6s", 0)
    out = g.outcome()
    assert out["settlement"]["hand_fans"] == ["self_drawn", "jia", "bao", "bao_zhong_bao"]
    assert out["scores"] == [-64, 128, -32, -32]   # 2^(4+1+1) from the dealer, 2^(4+1) from the others


def test_a_ready_player_discards_a_non_winning_draw_automatically() -> None:
    g = _ready_one("8p", "9p")
    g.apply("discard 6s", 0)
    assert not g.is_over
    ev = [e for e in g.log if e["seat"] == 1]
    assert ev[-2]["action"] == "draw" and ev[-1] == {"seat": 1, "action": "discard 9p", "auto": True}
    assert 1 not in g.acting


def test_a_non_ready_player_cannot_mobao() -> None:
    g = _ready_one("8p", "8p")
    g.ready[1] = False
    g.apply("discard 6s", 0)
    assert not g.is_over and g.turn == 1 and g.need == "discard" and "hu" not in g.legal_actions(1)


def test_hongzhong_wild_in_play() -> None:
    rules = DAQING.replace(hongzhong_wild=True)
    g = _ready_one("8p", "Z", rules)
    g.hands[0][T("Z")] -= 1  # keep the copies honest: the drawn 红中 is the fourth
    g.hands[0][T("5s")] += 1
    g.apply("discard 6s", 0)
    out = g.outcome()
    assert out["how"] == "wild" and out["settlement"]["hand_fans"] == ["self_drawn", "jia", "bao"]
    g = _ready_one("8p", "Z")
    g.hands[0][T("Z")] -= 1
    g.hands[0][T("5s")] += 1
    g.apply("discard 6s", 0)
    assert not g.is_over


def test_gua_da_feng_in_play() -> None:
    rules = DAQING.replace(gua_da_feng=True)
    g = position(rules, hands={0: "19m 19p 1s 258p 2s 8s 7s Z 6s 5p", 1: "24m 678p 999s 55s",
                               2: "19m 1p 1s 258p 3s 8s 7s Z 3p 5m", 3: "1m 19p 1s 258p 2s 8s 7m Z 4p 6m"},
                 melds={1: "chi 567s"}, ready={1: True}, bao="1p", wall="9s 1s 2s")
    g.apply("discard 6s", 0)
    out = g.outcome()
    assert out["winner"] == 1 and out["win"]["read_as"] == "3m"
    assert out["settlement"]["hand_fans"] == ["self_drawn", "jia", "bao"]


def _dai_lou(rules: object) -> object:
    return position(rules, hands={**OTHERS, 1: "234m 678p 24m ZZ 9p"}, melds={1: "chi 567s"}, turn=1,
                    wall="4s 5s 7s 3m")


def test_dai_lou_wins_at_the_declaration() -> None:
    g = _dai_lou(DAQING.replace(dai_lou=True))
    g.apply("ting 9p", 1)
    out = g.outcome()
    assert out is not None and out["how"] == "dai_lou" and out["winner"] == 1
    assert out["settlement"]["hand_fans"] == ["self_drawn", "jia", "bao", "bao_zhong_bao"]
    # without the option the same declaration just sets the 宝
    g = _dai_lou(DAQING)
    g.apply("ting 9p", 1)
    assert not g.is_over and g.bao == T("3m")


def test_dai_lou_offered_and_declined_with_auto_hu_off() -> None:
    g = _dai_lou(DAQING.replace(dai_lou=True, auto_hu=False))
    g.apply("ting 9p", 1)
    assert g.acting == (1,) and g.need == "dailou" and g.legal_actions(1) == ["hu", "pass"]
    g.apply("pass", 1)
    assert not g.is_over and g.declined[1]
    assert 1 not in g.acting


def test_auto_hu_off_offers_the_draw_win_and_pass_discards_it() -> None:
    g = _ready_one("8p", "3m", DAQING.replace(auto_hu=False))
    g.apply("discard 6s", 0)
    assert g.acting == (1,) and g.need == "win" and g.legal_actions(1) == ["hu", "pass"]
    g.apply("pass", 1)
    assert g.rivers[1] == [T("3m")] and g.declined[1] and not g.is_over

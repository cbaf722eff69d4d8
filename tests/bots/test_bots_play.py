"""Every bot plays every preset (three and four players) to the end with legal actions, reproducibly."""

from __future__ import annotations

import random

import pytest

from qipai.bots import Bot, bot_names, get_bot
from qipai.games.doudizhu.bots.hand import best_plan
from qipai.games.doudizhu.bots.heuristic import (
    COVER_BELOW,
    COVER_MIN,
    LOW_LEAD_LANDLORD,
    HeuristicBot,
    Situation,
    choose_play,
)
from qipai.games.doudizhu.bots.search import SearchBot, Solver
from qipai.games.doudizhu.bots.view import counts_of_text
from qipai.games.doudizhu.cards import RANK_LETTERS
from qipai.games.doudizhu.combos import classify
from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game


def _rlcard_installed() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def make(name: str, seed: int) -> Bot:
    if name == "search":
        return SearchBot(seed, samples=3, max_candidates=4)
    return get_bot(name, seed)


BOTS = ["random", "passive", "heuristic", "search"] + (["rlcard"] if _rlcard_installed() else [])


def play(preset: str, seed: int, names: list[str]) -> Game:
    r = PRESETS[preset]
    g = Game.new(r, seed)
    bots = [make(names[s % len(names)], seed * 10 + s) for s in range(r.players)]
    phases = set()
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        legal = g.legal_actions()
        phases.add(g.phase)
        action = bots[seat].act(g.observe(seat), list(legal))
        assert action in legal, (preset, names, action, legal)
        g.apply(action, seat)
    return g


def test_registry_knows_the_bots() -> None:
    assert {"random", "passive", "heuristic", "search", "rlcard"} <= set(bot_names())


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("name", BOTS)
def test_every_bot_plays_every_preset(preset: str, name: str) -> None:
    # the bot in most seats (a table of passive bots alone would redeal forever: they never bid), and the
    # bot among others
    play(preset, 1, [name] if name != "passive" else [name, name, "heuristic"])
    play(preset, 2, [name, "heuristic", "random"])


def test_every_phase_is_decided_by_heuristic() -> None:
    seen = set()
    for preset in ("chengdu", "four_player_show", "cantonese", "jj"):
        for seed in range(6):
            r = PRESETS[preset]
            g = Game.new(r, seed)
            bot = HeuristicBot(seed)
            while not g.is_over:
                seen.add(g.phase)
                g.apply(bot.act(g.observe(g.to_act), g.legal_actions()))
    assert {"bid", "double", "show", "play"} <= seen


@pytest.mark.parametrize("name", ["random", "heuristic", "search"] + (["rlcard"] if _rlcard_installed() else []))
def test_games_with_bots_are_reproducible(name: str) -> None:
    a = play("classic", 5, [name]).record()
    b = play("classic", 5, [name]).record()
    assert a == b


def test_search_with_a_time_budget_answers_in_time() -> None:
    import time

    g = Game.new(PRESETS["classic"], 9)
    g.apply("bid 3")
    bot = SearchBot(1, time_budget=0.2)
    t = time.thread_time()  # this thread's CPU time: bounded by the budget however loaded the machine
    a = bot.act(g.observe(g.to_act), g.legal_actions())
    assert time.thread_time() - t < 1.0
    assert a in g.legal_actions()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_plans_partition_the_hand_into_legal_moves(preset: str) -> None:
    r = PRESETS[preset]
    rng = random.Random(preset)
    deck = [k for k in range(15) for _ in range((1 if k >= 13 else 4) * r.decks)]
    for _ in range(150):
        rng.shuffle(deck)
        n = rng.randint(1, r.hand_size + r.kitty_size)
        c = [0] * 15
        for k in deck[:n]:
            c[k] += 1
        plan = best_plan(tuple(c), r)
        total = [0] * 15
        for m in plan.moves:
            assert m in classify(m.counts, r), (preset, m)
            for k in range(15):
                total[k] += m.counts[k]
        assert total == c


def test_solver_small_endgames() -> None:
    r = PRESETS["classic"]

    def t(text: str) -> tuple[int, ...]:
        return tuple(counts_of_text(text))

    s = Solver(r, landlord=0, n=3)
    # the landlord leads 2 then 3 and wins; the farmers' aces cannot stop the 2
    assert s.landlord_wins((t("23"), t("A4"), t("A5")), 0, None, -1)
    # a farmer who leads first goes out with a pair the landlord cannot beat
    assert not s.landlord_wins((t("34"), t("KK"), t("5")), 1, None, -1)


def _situation(seat: int, hand: str, last: str | None, last_by: int, counts: list[int]) -> Situation:
    """Seat ``seat`` of a classic deal (landlord 0) holding ``hand``, facing ``last`` by ``last_by`` (``None``:
    on lead); the other hands hold every card not in ``hand`` or ``last``."""
    rules = PRESETS["classic"]
    mine = tuple(counts_of_text(hand))
    played = counts_of_text(last or "")
    move = None
    if last is not None:
        (move,) = classify(tuple(played), rules)
    rest = [4] * 13 + [1, 1]
    for r in range(15):
        rest[r] -= mine[r] + played[r]
    return Situation(rules, seat, 3, 0, mine, counts, move, last_by, tuple(rest))


def _lead(seat: int, hand: str, counts: list[int]) -> str:
    m = choose_play(_situation(seat, hand, None, seat, counts))
    assert m is not None
    return "".join(RANK_LETTERS[r] * k for r, k in m.parts)


def test_the_farmer_after_the_landlord_leads_a_low_single_for_its_partner_to_cover() -> None:
    """下家走小牌: the farmer the landlord plays before leads its plan's low single (up to 10), so the partner
    can cover it before the landlord plays; the other farmer, and this one against a landlord about to go out or
    with only high singles, lead the plan's weakest play (here the chain of pairs)."""
    hand = "3344558KA"
    assert _lead(1, hand, [17, 9, 12]) == "8"
    assert _lead(1, hand, [LOW_LEAD_LANDLORD, 9, 12]) == "8"
    assert _lead(2, hand, [17, 12, 9]) == "334455"
    assert _lead(1, hand, [LOW_LEAD_LANDLORD - 1, 9, 12]) == "334455"
    assert _lead(1, "334455QKA", [17, 9, 12]) == "334455"


def test_the_farmer_before_the_landlord_covers_a_partners_low_card() -> None:
    """顶牌: the farmer the landlord plays after covers the partner's low single or pair with one from COVER_MIN
    up (the cheapest to the plan), so the landlord cannot shed a low card on it; a high one it lets stand, and
    the farmer the landlord has already answered never overtakes its partner."""
    hand = "3489QKK"
    got = choose_play(_situation(2, hand, "5", 1, [17, 12, 7]))
    assert got is not None and got.kind == "single" and got.main >= COVER_MIN
    assert RANK_LETTERS[got.main] == "Q"  # a loose Q, not one of the pair of kings
    pair = choose_play(_situation(2, "34QQAA", "66", 1, [17, 12, 6]))
    assert pair is not None and pair.kind == "pair" and RANK_LETTERS[pair.main] == "Q"
    high = RANK_LETTERS[COVER_BELOW]
    assert choose_play(_situation(2, "3489Q2B", high, 1, [17, 12, 7])) is None
    # the farmer after the landlord: the landlord has passed on the partner's card, so let it win
    assert choose_play(_situation(1, hand, "5", 2, [17, 7, 12])) is None

"""The search bot's beliefs and estimates: samples explain the others' decisions, the true deal explains a
heuristic's decisions perfectly, and belief-weighted sampling prefers consistent deals."""

from __future__ import annotations

import random
import re

import pytest

from qipai.games.doudizhu.bots.arena import make_bot
from qipai.games.doudizhu.bots.heuristic import HeuristicBot
from qipai.games.doudizhu.bots.research import load_deals, research_game
from qipai.games.doudizhu.bots.search import Sampler, SearchBot
from qipai.games.doudizhu.bots.view import action_moves, counts_of_tokens, read_view
from qipai.games.doudizhu.state import Game


def midgame(deal: int, moves: int) -> Game:
    g = research_game(load_deals(deal + 1)[deal])
    bot = HeuristicBot(0)
    for _ in range(moves):
        g.apply(bot.act(g.observe(g.to_act), g.legal_actions()))
    return g


def test_the_true_deal_explains_the_heuristics_decisions() -> None:
    g = midgame(3, 9)
    seat = g.to_act
    assert seat is not None
    v = read_view(g.observe(seat))
    s = Sampler(v, random.Random(1), belief=0.3)
    assert s.decisions  # the others have decided something
    true = [list(counts_of_tokens([str(c) for c in g.hands[x]])) for x in range(3)]
    assert s.consistency(true) == 1.0
    assert all(0.0 < s.consistency(s._deal()) <= 1.0 for _ in range(20))


def test_beliefs_prefer_consistent_deals() -> None:
    worse = 0
    for deal in range(4):
        g = midgame(deal, 10)
        seat = g.to_act
        assert seat is not None
        v = read_view(g.observe(seat))
        plain = Sampler(v, random.Random(2), belief=1.0)
        judge = Sampler(v, random.Random(0), belief=0.3)
        weighted = Sampler(v, random.Random(2), belief=0.3, proposals=6)
        a = sum(judge.consistency(plain.deal()) for _ in range(60)) / 60
        b = sum(judge.consistency(weighted.deal()) for _ in range(60)) / 60
        worse += b < a
        for h in (plain.deal(), weighted.deal()):
            assert [sum(x) for x in h] == v.card_counts and h[seat] == list(v.hand)
    assert worse == 0


def test_belief_option() -> None:
    bot = make_bot("search:belief=0.3,proposals=4,samples=5", 1)
    assert isinstance(bot, SearchBot) and bot.belief == 0.3 and bot.proposals == 4
    g = midgame(1, 6)
    assert bot.act(g.observe(g.to_act), g.legal_actions()) in g.legal_actions()
    with pytest.raises(ValueError, match="belief"):
        SearchBot(1, belief=0.0)


def test_solve_option_solves_larger_endgames_exactly() -> None:
    bot0 = HeuristicBot(0)
    for deal in load_deals(10):
        g = research_game(deal)
        while not g.is_over and (sum(len(h) for h in g.hands) > 24 or len(g.legal_actions()) < 3):
            g.apply(bot0.act(g.observe(g.to_act), g.legal_actions()))
        if not g.is_over and sum(len(h) for h in g.hands) > 18:
            break
    assert not g.is_over and sum(len(h) for h in g.hands) > 18
    obs, legal = g.observe(g.to_act), g.legal_actions()
    plain, wide = SearchBot(3, samples=6), make_bot("search:samples=6,solve=27,nodes=50000", 3)
    assert isinstance(wide, SearchBot) and (wide.solve_cards, wide.solve_nodes) == (27, 50000)
    assert plain.act(obs, legal) in legal and wide.act(obs, legal) in legal
    v = read_view(obs)
    assert len(plain.candidates(v, action_moves(legal, v.rules), legal)) > 1  # so both did search
    assert plain.last_stats["solved"] == 0 and wide.last_stats["solved"] > 0
    with pytest.raises(ValueError, match="solve"):
        SearchBot(1, solve_nodes=0)
    assert make_bot("search:margin=0", 1).margin == 0.0  # type: ignore[attr-defined]


def test_a_margin_of_one_keeps_the_heuristics_move_unless_it_was_dropped() -> None:
    for deal, moves in ((0, 3), (1, 6), (2, 9), (4, 12)):
        g = midgame(deal, moves)
        obs, legal = g.observe(g.to_act), g.legal_actions()
        bot = SearchBot(2, samples=16, margin=1.0)
        mine = HeuristicBot(0).act(obs, legal)
        got = bot.act(obs, legal)
        assert got == mine or (bot.last_stats and mine not in bot.last_stats["values"])
    with pytest.raises(ValueError, match="search option solve must be a whole number, got 'many'"):
        make_bot("search:solve=many", 1)


@pytest.mark.parametrize(("spec", "message"), [
    ("search:candidates=0", "search option candidates must be at least 1, got 0"),
    ("search:time=-1", "search option time must be at least 0.001, got -1.0"),
    ("search:time=nan", "search option time must be a number, got nan"),
    ("search:time=inf", "search option time must be a number, got inf"),
    ("search:samples=2.5", "search option samples must be a whole number, got '2.5'"),
    ("search:belief=2", "search option belief must be at most 1, got 2.0"),
    ("search:nodes=0", "search option nodes must be at least 1, got 0"),
    ("search:margin=-0.1", "search option margin must be at least 0, got -0.1"),
    ("search:playout=slow", "search option playout must be one of heuristic, fast, learned, got 'slow'"),
    ("search:clock=sun", "search option clock must be one of cpu, wall, got 'sun'"),
    ("search:speed=1", "unknown search option speed: expected time=X (0.001 to 3600), samples=N"),
    ("noisy:p=1.5", "noisy option p must be at most 1, got 1.5"),
    ("noisy:q=1", "unknown noisy option q: expected p=X (0 to 1)"),
    ("heuristic:p=1", "bot 'heuristic' takes no options"),
])
def test_bad_numeric_search_options_say_what_was_wrong(spec: str, message: str) -> None:
    """They once crashed a run (``candidates=0``: an empty max) or ran (``time=-1``)."""
    with pytest.raises(ValueError, match=re.escape(message)):
        make_bot(spec, 1)
    with pytest.raises(ValueError, match="candidates >= 1"):
        SearchBot(1, max_candidates=0)


def test_estimates_cover_the_played_move() -> None:
    g = midgame(2, 4)
    legal = g.legal_actions()
    bot = SearchBot(4, samples=12)
    est = bot.estimate(g.observe(g.to_act), legal, include=[legal[-1]])
    assert legal[-1] in est and all(0.0 <= x <= 1.0 for x in est.values())
    assert est == SearchBot(4, samples=12).estimate(g.observe(g.to_act), legal, include=[legal[-1]])


@pytest.mark.parametrize("preset", ["classic", "four_player", "jj_match", "chengdu"])
def test_known_cards_are_in_the_landlords_hand_and_samples_have_every_count(preset: str) -> None:
    """Plays are public by rank only, so the kitty cards the landlord still holds are tracked by rank; a sample
    must hold exactly each seat's card count (a kitty tracked by suit once gave the landlord cards it had
    played, and another seat an empty hand)."""
    from qipai.games.doudizhu.rules import PRESETS

    r = PRESETS[preset]
    checked = 0
    for seed in range(12):
        g = Game.new(r, seed)
        bot = HeuristicBot(seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            obs = g.observe(seat)
            if g.phase == "play":
                v = read_view(obs)
                for s, known in v.known.items():
                    real = counts_of_tokens([str(c) for c in g.hands[s]])
                    assert all(known[k] <= real[k] for k in range(15)), (preset, seed, s, known, real)
                hands = Sampler(v, random.Random(seed)).deal()
                assert [sum(h) for h in hands] == v.card_counts
                checked += 1
            g.apply(bot.act(obs, g.legal_actions()), seat)
    assert checked > 100


def test_replies_start_with_the_policy_and_are_distinct_legal_moves() -> None:
    from qipai.games.doudizhu.bots.search import Sim
    from qipai.games.doudizhu.combos import beats

    for deal, moves in ((0, 1), (1, 4), (2, 7), (5, 10)):
        g = midgame(deal, moves)
        seat = g.to_act
        assert seat is not None
        v = read_view(g.observe(seat))
        hands = [list(counts_of_tokens([str(c) for c in g.hands[x]])) for x in range(3)]
        sim = Sim(v.rules, hands, 0, seat, v.last, v.last_by, False)
        got = sim.replies(4)
        assert got[0] == sim.policy() and 1 <= len(got) <= 4
        keys = [None if m is None else m.counts for m in got]
        assert len(set(keys)) == len(keys)
        for m in got:
            if m is None:
                assert v.last is not None  # passing only when facing a play
            else:
                assert all(hands[seat][r] >= k for r, k in m.parts)
                assert v.last is None or beats(m, v.last)


def test_an_enemy_choosing_its_reply_never_makes_a_move_look_better() -> None:
    """With ``reply=K`` the enemy's first decision after a move is the best of K replies for it, one of them
    its policy's, on the same samples: no candidate's estimate can rise, and somewhere one falls."""
    fell = False
    for deal, moves in ((0, 0), (1, 3), (2, 5), (3, 8), (4, 2)):
        g = midgame(deal, moves)
        obs, legal = g.observe(g.to_act), g.legal_actions()
        plain = SearchBot(3, samples=24).estimate(obs, legal)
        wary = SearchBot(3, samples=24, reply=4).estimate(obs, legal)
        assert set(plain) == set(wary)
        assert all(wary[a] <= plain[a] for a in plain), (deal, plain, wary)
        fell = fell or any(wary[a] < plain[a] for a in plain)
        assert make_bot("search:samples=8,reply=3", 1).act(obs, legal) in legal
    assert fell
    with pytest.raises(ValueError, match="search option reply must be at most 20"):
        make_bot("search:reply=21", 1)


def test_the_dmc_prior_puts_the_learned_values_best_move_first_and_keeps_it_at_margin_one() -> None:
    """``search:prior=dmc``: the learned action values' best move is the candidate to beat (and their best
    three are compared); with ``margin=1`` it is played unless the samples dropped it."""
    from qipai.games.doudizhu.bots.dmc import DmcBot

    checked = 0
    for deal, moves in ((0, 3), (1, 6), (2, 9), (4, 12), (5, 2)):
        g = midgame(deal, moves)
        obs, legal = g.observe(g.to_act), g.legal_actions()
        bot = make_bot("search:prior=dmc,samples=16,margin=1", 2)
        assert isinstance(bot, SearchBot) and bot.prior == "dmc"
        learned = DmcBot(0)
        theirs = learned.act(obs, legal)
        got = bot.act(obs, legal)
        if len(legal) > 1 and bot.last_stats:
            checked += 1
            top = sorted(learned.last_values, key=lambda a: -learned.last_values[a])[:3]
            assert set(top) <= set(bot.last_stats["compared"]) and bot.last_stats["compared"][0] == top[0]
            assert got == theirs or theirs not in bot.last_stats["values"]
    assert checked >= 3


def test_a_blend_ranks_by_the_learned_offsets() -> None:
    """The blended score is the win rate plus an offset per candidate, in pruning and in the choice: an offset
    larger than any win-rate difference decides."""
    g = midgame(1, 6)
    obs, legal = g.observe(g.to_act), g.legal_actions()
    v = read_view(obs)
    bot = SearchBot(3, samples=16)
    cands = bot.candidates(v, action_moves(legal, v.rules), legal)
    assert len(cands) > 2
    for pick in (1, len(cands) - 1):
        offsets = [5.0 if i == pick else 0.0 for i in range(len(cands))]
        assert SearchBot(3, samples=16).evaluate(v, cands, offsets) == cands[pick][0]
    assert SearchBot(3, samples=16).evaluate(v, cands) == bot.evaluate(v, cands)


def test_learned_values_only_where_they_were_trained() -> None:
    """Four players (or two decks) have no learned values: ``prior=dmc`` and a blend fall back to the
    heuristic's search there."""
    from qipai.games.doudizhu.rules import PRESETS

    g = Game.new(PRESETS["four_player"], seed=5)
    bot0 = HeuristicBot(0)
    while g.phase != "play":
        g.apply(bot0.act(g.observe(g.to_act), g.legal_actions()))
    obs, legal = g.observe(g.to_act), g.legal_actions()
    v = read_view(obs)
    bot = make_bot("search:prior=dmc,blend=0.5,samples=4", 1)
    assert isinstance(bot, SearchBot)
    assert bot._learned_values(v, action_moves(legal, v.rules), legal, obs) == {}
    assert bot.act(obs, legal) in legal
    g3 = midgame(2, 5)
    obs3, legal3 = g3.observe(g3.to_act), g3.legal_actions()
    v3 = read_view(obs3)
    vals = bot._learned_values(v3, action_moves(legal3, v3.rules), legal3, obs3)
    assert set(vals) == set(legal3) and all(-2.0 < x < 2.0 for x in vals.values())


@pytest.mark.parametrize(("spec", "message"), [
    ("search:blend=1", "search option blend must be at most 0.9, got 1.0"),
    ("search:prior=oracle", "search option prior must be one of heuristic, dmc, got 'oracle'"),
])
def test_bad_learned_search_options(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        make_bot(spec, 1)
    with pytest.raises(ValueError, match="search blend"):
        SearchBot(1, blend=1.0)
    with pytest.raises(ValueError, match="search prior"):
        SearchBot(1, prior="oracle")


def test_the_learned_options_say_when_numpy_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """NumPy is an optional extra: without it a spec naming the learned values is refused when the bot is made,
    in one line, not at its first move."""
    import sys

    monkeypatch.setitem(sys.modules, "numpy", None)
    for spec in ("search:prior=dmc", "search:blend=0.3"):
        with pytest.raises(ValueError, match="need NumPy"):
            make_bot(spec, 1)
    assert isinstance(make_bot("search:samples=2", 1), SearchBot)  # the plain search needs none

"""Settlement scenarios (RULES.md §7), including the seeds' own examples."""

from __future__ import annotations

from qipai.games.doudizhu.rules import PRESETS
from qipai.games.doudizhu.state import Game

from ddz_deals import game, hand_ranks, landlord_plays_out

CLASSIC = PRESETS["classic"]
JJ_MATCH = PRESETS["jj_match"]


def bid(g: Game, value: int) -> None:
    """The seat to act bids ``value`` and everybody after passes."""
    g.apply(f"bid {value}")
    while g.phase == "bid":
        g.apply("pass")


def factors(g: Game) -> list[str]:
    assert g.result is not None
    return [str(f) for f in g.result.factors]


def singles_of(g: Game, seat: int) -> list[str]:
    """A seat's cards as single plays, highest first (so the first one beats whatever single is out)."""
    return list(reversed(hand_ranks(g, seat)))


def three_bomb_game(preset: str) -> Game:
    """Seat 0 bids 3 and leads three bombs, then the rest; farmers always pass."""
    g = game(PRESETS[preset], ["33334444555566772", "", ""], "8BR", first_bidder=0)
    g.apply("bid 3")
    landlord_plays_out(g, ["3333", "4444", "5555", "66", "77", "8", "2", "B", "R"])
    return g


def test_double_bombs_and_spring() -> None:
    g = three_bomb_game("classic")
    assert factors(g) == ["bomb ×2", "bomb ×2", "bomb ×2", "spring ×2"]
    assert g.result is not None and g.result.multiplier == 16
    assert g.result.scores == [2 * 3 * 16, -3 * 16, -3 * 16]
    assert g.result.spring and g.result.winner == "landlord"


def test_jj_linear_bombs_three_bombs_times_four() -> None:
    g = three_bomb_game("jj_match")
    assert factors(g) == ["bombs ×4", "spring ×2"]
    assert g.result is not None and g.result.scores == [48, -24, -24]


def test_effective_bombs_led_bombs_count_nothing() -> None:
    g = three_bomb_game("effective_bombs")
    assert factors(g) == ["spring ×2"]


def test_effective_bomb_that_beats_a_play_counts() -> None:
    g = game(PRESETS["effective_bombs"], ["2", "9999", ""], first_bidder=0)
    bid(g, 1)
    g.apply("play 2")
    g.apply("play 9999")  # beats the 2: effective
    g.apply("pass")
    g.apply("pass")
    assert [str(f) for f in __import__("qipai.games.doudizhu.settle", fromlist=["x"]).common_factors(g)] == ["bomb ×2"]


def test_rocket_factor_and_bombs_in_hand_count_nothing() -> None:
    g = game(CLASSIC, ["BR3333", "", ""], first_bidder=0)
    bid(g, 1)
    plays = ["BR"] + [ch for ch in hand_ranks(g, 0) if ch not in "BR"]
    landlord_plays_out(g, plays)  # the 3333 is played as singles: no bomb
    assert factors(g) == ["rocket ×2", "spring ×2"]


def test_four_player_bomb_sizes() -> None:
    rules = PRESETS["four_player"]
    g = game(rules, ["33333344444444", "", "", ""], first_bidder=0)
    bid(g, 1)
    rest = [ch for ch in hand_ranks(g, 0) if ch not in "34"] + [ch for ch in hand_ranks(g, 0) if ch in "34"]
    plays = ["333333", "44444444"] + [ch for ch in rest if ch not in "34"]
    leftovers = hand_ranks(g, 0).replace("3", "", 6).replace("4", "", 8)
    plays = ["333333", "44444444", *list(leftovers)]
    landlord_plays_out(g, plays)
    assert factors(g) == ["bomb of 6 ×2", "bomb of 8 ×3", "spring ×2"]
    out = g.result
    assert out is not None and out.scores == [3 * 12, -12, -12, -12]  # landlord share 3


def test_anti_spring() -> None:
    g = game(CLASSIC, ["3", "456789TJQKA2", ""], first_bidder=0)
    bid(g, 2)
    g.apply("play 3")  # the landlord's only move
    farmer = singles_of(g, 1)
    g.apply(f"play {farmer[0]}")
    g.apply("pass")
    g.apply("pass")
    for ch in farmer[1:]:
        g.apply(f"play {ch}")
        if g.is_over:
            break
        g.apply("pass")
        g.apply("pass")
    out = g.result
    assert out is not None and out.winner == "farmers" and out.anti_spring
    assert factors(g) == ["anti-spring ×2"]
    assert out.scores == [-2 * 2 * 2, 2 * 2, 2 * 2]


def test_stake_scales_scores_and_sum_is_zero() -> None:
    rules = CLASSIC.replace(stake=10)
    g = game(rules, ["", "", ""], first_bidder=0)
    bid(g, 1)
    landlord_plays_out(g, singles_of(g, 0))
    assert g.result is not None and g.result.scores == [40, -20, -20] and sum(g.result.scores) == 0


def _farmer_wins_with(preset_rules, autoplay_seat: int | None, one_card: bool = False) -> Game:  # type: ignore[no-untyped-def]
    """Landlord seat 0 plays twice, then farmer seat 1 goes out; ``autoplay_seat`` goes into auto-play."""
    g = game(preset_rules, ["34", "56789TJQKA2", ""], first_bidder=0)
    bid(g, 1)
    if autoplay_seat is not None and not one_card:
        g.set_autoplay(autoplay_seat, True)
    g.apply("play 3")
    g.apply("pass")
    g.apply("pass")
    g.apply("play 4")
    farmer = singles_of(g, 1)
    for i, ch in enumerate(farmer):
        if one_card and i == len(farmer) - 1 and autoplay_seat is not None:
            g.set_autoplay(autoplay_seat, True)
        g.apply(f"play {ch}")
        if g.is_over:
            break
        g.apply("pass")
        if g.to_act == 0:
            g.apply("pass")
    assert g.result is not None and g.result.winner == "farmers"
    return g


def _landlord_wins_with(preset_rules, autoplay_seat: int | None) -> Game:  # type: ignore[no-untyped-def]
    g = game(preset_rules, ["", "", ""], first_bidder=0)
    bid(g, 1)
    if autoplay_seat is not None:
        g.set_autoplay(autoplay_seat, True)
    landlord_plays_out(g, singles_of(g, 0))
    assert g.result is not None and g.result.winner == "landlord"
    return g


def test_autoplay_split_farmers_lose_autoplayer_pays_all() -> None:
    rules = PRESETS["jj_match"]
    g = _landlord_wins_with(rules, autoplay_seat=2)
    out = g.result
    assert out is not None
    assert out.scores == [4, 0, -4]  # spring ×2: each farmer owed 2; the auto-player pays both
    normal = _landlord_wins_with(CLASSIC, autoplay_seat=2).result
    assert normal is not None and normal.scores == [4, -2, -2]


def test_autoplay_split_farmers_win_autoplayer_gets_nothing() -> None:
    rules = PRESETS["jj_match"]
    out = _farmer_wins_with(rules, autoplay_seat=2).result
    assert out is not None and out.scores == [-2, 2, 0]


def test_autoplay_split_farmers_win_winner_in_autoplay_gets_nothing() -> None:
    out = _farmer_wins_with(PRESETS["jj_match"], autoplay_seat=1).result
    assert out is not None and out.scores == [-2, 0, 2]


def test_autoplay_with_one_card_left_counts_as_not_in_autoplay() -> None:
    out = _farmer_wins_with(PRESETS["jj_match"], autoplay_seat=1, one_card=True).result
    assert out is not None and out.scores == [-2, 1, 1]
    assert out.autoplay == [False, False, False]


def test_minimisation_winner_holds_30_of_200() -> None:
    rules = PRESETS["jj_match"].replace(stake=100)
    g = game(rules, ["", "", ""], first_bidder=0, table_points=[30, 1000, 1000])
    bid(g, 1)
    g.set_autoplay(1, True)
    landlord_plays_out(g, singles_of(g, 0))  # spring ×2: seat 1 in auto-play owes both farmers' 200 each
    out = g.result
    assert out is not None
    assert [(p.payer, p.payee, p.owed, p.paid) for p in out.payments] == [(1, 0, 400, 30)]
    g = game(rules, ["", "", ""], first_bidder=0, table_points=[30, 1000, 1000])
    bid(g, 1)
    landlord_plays_out(g, singles_of(g, 0))
    out = g.result
    assert out is not None
    # owes 200, winner holds 30 → pays 30 (each payment is capped by the winner's points before settlement)
    assert [(p.owed, p.paid) for p in out.payments] == [(200, 30), (200, 30)]
    assert out.scores == [60, -30, -30]


def test_minimisation_loser_holds_120_of_140() -> None:
    rules = PRESETS["jj_match"].replace(stake=70)
    g = game(rules, ["34", "56789TJQKA2", ""], first_bidder=0, table_points=[120, 1000, 1000])
    bid(g, 2)
    g.apply("play 3")
    g.apply("pass")
    g.apply("pass")
    g.apply("play 4")
    for ch in singles_of(g, 1):
        g.apply(f"play {ch}")
        if g.is_over:
            break
        g.apply("pass")
        g.apply("pass")
    out = g.result
    assert out is not None
    # the landlord owes each farmer 140 and holds 120: the first payment is 120, nothing is left for the second
    assert [(p.payer, p.payee, p.owed, p.paid) for p in out.payments] == [(0, 1, 140, 120), (0, 2, 140, 0)]
    assert out.scores == [-120, 120, 0]


# --- a lead time-out with two cards left is auto-play with two cards (§6, §7) -------------------------------
def _farmer_leads_with_two_cards() -> Game:
    """jj_match (auto-play settlement split): seat 0 is landlord; seat 1 (farmer) takes the lead and plays down to
    two cards (K, 5), then it is seat 1's lead."""
    g = game(JJ_MATCH, ["3", "R3456789TJQKA22K5", ""], "", first_bidder=0)
    g.apply("bid 3")
    for a in ["play 3", "play R", "pass", "pass", "play 3456789TJQKA", "pass", "pass", "play 22", "pass", "pass"]:
        g.apply(a)
    assert g.to_act == 1 and sum(g.counts[1]) == 2 and g.trick.last is None
    return g


def test_lead_timeout_with_two_cards_counts_as_autoplay() -> None:
    # §6: on a time-out "the smallest single card is played ... In every case the player is put into auto-play";
    # §7: only "a player who went into auto-play with exactly one card left counts as not in auto-play".  Seat 1
    # timed out holding two cards: it went into auto-play with two cards, not one.
    g = _farmer_leads_with_two_cards()
    g.timeout(1)
    assert g.autoplay[1]
    assert g.autoplay_counted[1]


def test_lead_timeout_with_two_cards_farmer_gets_no_share_of_the_win() -> None:
    # §7 (jj_match): "If farmers win, the farmers not in auto-play share the farmers' whole gain and those in
    # auto-play get 0."
    g = _farmer_leads_with_two_cards()
    g.timeout(1)  # plays the 5; seat 1 is in auto-play
    g.apply("pass")  # seat 2
    g.apply("pass")  # seat 0
    g.apply("play K")  # seat 1 (auto-play plays its last card) goes out: farmers win
    assert g.result is not None and g.result.winner == "farmers"
    # bid 3, anti-spring ×2 (the landlord played only its first lead): 6 a farmer, 12 in all
    assert g.result.multiplier == 2
    assert g.result.scores == [-12, 0, 12]

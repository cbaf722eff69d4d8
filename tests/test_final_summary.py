"""The final summary (大结算) of a table played for a set number of deals, from its settled deals."""

from __future__ import annotations

from qipai.host.series import final_summary


def test_totals_ranks_ties_and_seat_changes() -> None:
    results = [
        {"deal_index": 0, "scores": [4, -2, -2], "players": ["ann", "bob", "cat"], "user_ids": [1, 2, None]},
        {"deal_index": 1, "scores": [-6, 3, 3], "players": ["ann", "bob", "cat"], "user_ids": [1, 2, None]},
        # bob left; dan sat down in his seat
        {"deal_index": 2, "scores": [2, -4, 2], "players": ["ann", "dan", "cat"], "user_ids": [1, 4, None]},
    ]
    s = final_summary(results, 3)
    assert s["deals_total"] == 3 and s["deals_played"] == 3
    rows = {(r["seat"], r["name"]): r for r in s["players"]}
    assert set(rows) == {(0, "ann"), (1, "bob"), (2, "cat"), (1, "dan")}
    assert rows[(2, "cat")]["total"] == 3 and rows[(2, "cat")]["won"] == 2 and rows[(2, "cat")]["user_id"] is None
    assert rows[(0, "ann")]["total"] == 0 and rows[(0, "ann")]["deals"] == 3 and rows[(0, "ann")]["best"] == 4
    assert rows[(1, "bob")]["total"] == 1 and rows[(1, "bob")]["deals"] == 2 and rows[(1, "bob")]["last"] is None
    assert rows[(1, "dan")]["total"] == -4 and rows[(1, "dan")]["last"] == -4 and rows[(1, "dan")]["user_id"] == 4
    assert [r["name"] for r in s["players"]] == ["cat", "bob", "ann", "dan"]
    assert [r["rank"] for r in s["players"]] == [1, 2, 3, 4]
    assert s["winners"] == [2] and [r["winner"] for r in s["players"]] == [True, False, False, False]
    assert s["best_deal"] == {"seat": 0, "name": "ann", "score": 4, "deal_index": 0}


def test_a_tie_shares_first_place_and_all_equal_has_no_winner() -> None:
    tie = final_summary([{"deal_index": 0, "scores": [2, 2, -4], "players": ["a", "b", "c"]}], 1)
    assert [r["rank"] for r in tie["players"]] == [1, 1, 3] and tie["winners"] == [0, 1]
    flat = final_summary([{"deal_index": 0, "scores": [0, 0, 0], "players": ["a", "b", "c"]}], 1)
    assert flat["winners"] == [] and flat["best_deal"] is None
    assert all(r["rank"] == 1 and not r["winner"] for r in flat["players"])

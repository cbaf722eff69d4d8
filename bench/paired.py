"""Compare two arena runs of different A bots against the same B bot on the same deals, deal by deal.

Each run's per-deal score of A (its win share over the deal's two games, and per role) is paired with the other
run's on the same deal; the difference's mean and 95% interval are far tighter than either run's own interval,
because the deal's luck cancels twice over.  Only deals complete in both runs count.

    python bench/paired.py new.json old.json
    python bench/paired.py --net new.json old.json    # runs with bidding: A's net score per deal

With ``--net`` the per-deal measure is A's net score (the sum of A's seats' scores over the deal's two games),
the measure of a run with bidding, where the roles' win rates compare different hands.  Files may be gzipped.
"""

from __future__ import annotations

import sys
from pathlib import Path

from qipai.core.stats import Estimate
from recorded import load


def net_per_deal(path: Path) -> dict[int, float]:
    """A's net score per deal: its seats' scores summed over the deal's two games (complete deals only)."""
    games: dict[int, list[float]] = {}
    for r in load(path)["records"]:
        games.setdefault(r["deal"], []).append(sum(sc for s, sc in zip(r["seats"], r["scores"], strict=True)
                                                   if s == "A"))
    return {d: sum(v) for d, v in games.items() if len(v) == 2}


def per_deal(path: Path) -> dict[int, dict[str, float]]:
    data = load(path)
    out: dict[int, dict[str, float]] = {}
    for r in data["records"]:
        if r["winner"] is None or r["landlord"] is None:
            continue
        ll = r["landlord"]
        a_landlord = r["seats"][ll] == "A"
        farmers = {r["seats"][s] for s in range(len(r["seats"])) if s != ll}
        won_landlord = r["winner"] == "landlord"
        d = out.setdefault(r["deal"], {})
        d["landlord" if a_landlord else "farmers"] = float(won_landlord == a_landlord)
        if not a_landlord and farmers != {"A"}:
            d.pop("farmers", None)
    return {k: v for k, v in out.items() if len(v) == 2}


def diff(a: dict[int, dict[str, float]], b: dict[int, dict[str, float]], key: str | None) -> tuple[float, float, int]:
    deals = sorted(set(a) & set(b))
    xs = []
    for d in deals:
        if key is None:
            xs.append((a[d]["landlord"] + a[d]["farmers"]) / 2 - (b[d]["landlord"] + b[d]["farmers"]) / 2)
        else:
            xs.append(a[d][key] - b[d][key])
    return mean_ci(xs)


def mean_ci(xs: list[float]) -> tuple[float, float, int]:
    """The mean of the per-deal differences, its 95% interval's half width, and their number."""
    e = Estimate.of(xs)
    return e.mean, e.ci, e.n


def check_pairable(pa: Path, pb: Path) -> None:
    """Refuse (:class:`SystemExit`) two runs whose deals are not the same cards: another protocol, seed, rule set
    or deals file deals other cards under the same deal numbers, and pairing them measures nothing.  The games'
    ``cards`` digests are compared deal by deal; a different B bot is said on standard error."""
    a, b = load(pa), load(pb)
    sa, sb = a.get("settings", {}), b.get("settings", {})
    for key in ("protocol", "rules"):
        if sa.get(key) != sb.get(key):
            raise SystemExit(f"cannot pair {pa} and {pb}: their {key} differ ({sa.get(key)!r}, {sb.get(key)!r})")
    cards_a: dict[int, set[str]] = {}
    cards_b: dict[int, set[str]] = {}
    for recs, into in ((a["records"], cards_a), (b["records"], cards_b)):
        for r in recs:
            if r.get("cards"):
                into.setdefault(r["deal"], set()).add(r["cards"])
    for d in sorted(set(cards_a) & set(cards_b)):
        if cards_a[d] != cards_b[d]:
            raise SystemExit(f"cannot pair {pa} and {pb}: deal {d} holds other cards in each (another seed, rules "
                             f"or deals file), so their deals are not the same")
    if sa.get("bot_b") != sb.get("bot_b"):
        print(f"note: B differs ({sa.get('bot_b')!r} in {pa}, {sb.get('bot_b')!r} in {pb})", file=sys.stderr)


def main(argv: list[str]) -> int:
    net = "--net" in argv
    argv = [a for a in argv if a != "--net"]
    if len(argv) != 2:
        print(__doc__)
        return 2
    check_pairable(Path(argv[0]), Path(argv[1]))
    if net:
        na, nb = net_per_deal(Path(argv[0])), net_per_deal(Path(argv[1]))
        deals = sorted(set(na) & set(nb))
        m, ci, n = mean_ci([na[d] - nb[d] for d in deals])
        print(f"net score per deal: A({argv[0]}) {sum(na[d] for d in deals) / n:+.2f}, "
              f"A({argv[1]}) {sum(nb[d] for d in deals) / n:+.2f}; difference {m:+.2f} ± {ci:.2f} over {n} deals")
        return 0
    a, b = per_deal(Path(argv[0])), per_deal(Path(argv[1]))
    for key in (None, "landlord", "farmers"):
        m, ci, n = diff(a, b, key)
        print(f"{key or 'both':<9} A({argv[0]}) − A({argv[1]}): {m:+.3f} ± {ci:.3f} over {n} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

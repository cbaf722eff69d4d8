"""Show that the peer adapters work: python bench/peers_check.py [--games N]

For a handful of fixed hands it prints each installed peer's number of leads (and of distinct
leads), a few sample leads, the answers to a few previous moves, how each peer classifies some
disputed card sets, and a short random self-play run through each peer's own game loop.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.peers import Peer, PeerError, all_peers, random_hands

HANDS = [
    # (hand, previous moves to answer); each prev fits in one deck with its hand, so that OpenSpiel
    # can be put into the position too.
    ("3456667778889TJQK", ["4", "33", "34567", "3334", "33344456", "3334445559TJ", "BR"]),
    # four tens: OpenSpiel has no four-with-two and no chain starting at T (TJQKA)
    ("3456789TTTTJQKA2B", ["4", "88", "34567", "3456789", "5553", "R"]),
    # 18 cards: plane of four with kickers 7778 (DouZero lists it but cannot classify it)
    ("33334445556667778R", ["9", "99TTJJ", "9TJQK"]),
    # DouZero ranks 333444555KKK by its KKK (so it finds no answer)
    ("666777888999JQKA2", ["333444", "33444555", "3334445558TJ", "333444555KKK"]),
    ("333444555666BR", ["7778", "3456789", "TTTJJJ9Q"]),
]
DISPUTED = [
    "33334",
    "33334444",
    "3333BR",
    "333444BR",
    "333355",
    "33334455",
    "333444555666",
    "333444555777",
    "3334445556667778",
    "3334445556667777",
]


def sample(moves: list[str], k: int = 6) -> str:
    if not moves:
        return "-"
    step = max(1, len(moves) // k)
    return " ".join(moves[::step][:k])


def show_hand(peers: list[Peer], hand: str, prevs: list[str]) -> None:
    print(f"\nhand {hand} ({len(hand)} cards)")
    for p in peers:
        try:
            leads = p.leads(hand)
        except PeerError as e:
            print(f"  {p.name:9} leads: {type(e).__name__}: {e}")
            continue
        dups = sum(n - 1 for n in Counter(leads).values())
        print(
            f"  {p.name:9} leads: {len(leads):5} ({len(set(leads))} distinct, {dups} duplicates)"
            f"  e.g. {sample(leads)}"
        )
    for prev in prevs:
        for p in peers:
            try:
                ans = p.answers(hand, prev)
                line = f"{len(ans):4} ({len(set(ans))} distinct)  e.g. {sample(ans, 5)}"
            except PeerError as e:
                line = f"{type(e).__name__}: {e}"
            print(f"  vs {prev:13} {p.name:9} [{p.classify(prev) or 'rejected'}] {line}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="random self-play games per peer")
    args = ap.parse_args()

    peers = all_peers(only_available=False)
    for p in peers:
        print(f"{p.name:9} {'installed ' + (p.version() or '?') if p.available() else 'NOT installed'}")
    peers = [p for p in peers if p.available()]
    if not peers:
        print("no peer installed; see bench/PEERS_NOTES.md for the install commands")
        return 1

    for hand, prevs in HANDS:
        show_hand(peers, hand, prevs)

    print("\nrandom hands (random_hands(2, 20, seed=1)):")
    for hand in random_hands(2, 20, seed=1):
        show_hand(peers, hand, [])

    print("\nclassify:")
    for cards in DISPUTED:
        print(f"  {cards:18} " + "  ".join(f"{p.name}={'/'.join(p.readings(cards)) or None}" for p in peers))

    print(f"\nrandom self-play, {args.games} games each:")
    for p in peers:
        t = time.perf_counter()
        plays = p.random_selfplay(args.games, seed=1)
        dt = time.perf_counter() - t
        per_game = 1000 * dt / max(1, args.games)
        print(f"  {p.name:9} {plays:6} card plays in {dt:6.2f} s ({per_game:.1f} ms/game)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

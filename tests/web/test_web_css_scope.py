"""Each game's stylesheet styles that game only.  The lobby loads every game's view, so every game's CSS file is
linked on every table: a rule of doudizhu.css that names a shell element (``.seat``, ``.hand``, ``.settle-table``)
without its game applies to the Shengji and mahjong tables as well (a wide window's ``top: 9%`` for Dou Dizhu's side
seats once moved mahjong's).  So every selector of a game's CSS file must reach only that game's elements: a compound
with the game's table (``.tablev[data-game="<game>"]``, live or a replay) or one of the game's own classes (its
prefix: ``ddz-``, ``sj-``, ``mj-``), as the element itself or an ancestor of it.  Its @keyframes carry the prefix too.

A static check of the files (no browser): a small CSS reader (comments, at-rules, selector lists, ``:is()`` /
``:where()`` alternatives, ``:not()``), enough for these files; anything it cannot read fails the test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "qipai" / "web" / "js" / "games"
PREFIX = {"doudizhu": "ddz-", "shengji": "sj-", "mahjong": "mj-"}
"""Each game's class prefix (the classes only that game's view makes)."""


def strip_comments(css: str) -> str:
    return re.sub(r"/\*.*?\*/", " ", css, flags=re.S)


def rules(css: str) -> list[tuple[str, str]]:
    """The (prelude, body) of every block: style rules with their selector list, and at-rules (``@media …``) whose
    bodies are read again for their own rules.  Declarations are skipped."""
    out: list[tuple[str, str]] = []
    i, start, n = 0, 0, len(css)
    while i < n:
        c = css[i]
        if c == "{":
            prelude = css[start:i].strip()
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(css[j], 0)
                j += 1
            assert depth == 0, f"unbalanced braces after {prelude!r}"
            body = css[i + 1:j - 1]
            if prelude.startswith(("@media", "@supports", "@container", "@layer")):
                out.extend(rules(body))
            else:
                out.append((prelude, body))
            i = start = j
        elif c == ";":
            start = i + 1  # an at-rule without a block (@import …)
            i += 1
        elif c == "}":
            raise AssertionError(f"a '}}' without its '{{' near {css[max(0, i - 60):i]!r}")
        else:
            i += 1
    return out


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside brackets, parentheses and strings."""
    parts, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


def pseudo_call(sel: str, name: str) -> tuple[int, int, str] | None:
    """The first ``:name(…)`` in ``sel``: its start, its end and what is inside."""
    m = re.search(rf":{name}\(", sel)
    if not m:
        return None
    depth, j = 1, m.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(sel[j], 0)
        j += 1
    return m.start(), j, sel[m.end():j - 1]


def expand(sel: str) -> list[str]:
    """The selector without ``:not(…)`` (what it excludes scopes nothing), each ``:is(…)`` / ``:where(…)`` replaced
    by each of its alternatives in turn: plain selectors that match what ``sel`` matches."""
    while (call := pseudo_call(sel, "not")) is not None:
        sel = sel[:call[0]] + sel[call[1]:]
    for name in ("is", "where"):
        call = pseudo_call(sel, name)
        if call is not None:
            a, b, inner = call
            return [x for alt in split_top(inner) for x in expand(sel[:a] + alt + sel[b:])]
    return [sel]


COMBINATOR = re.compile(r"\s*([>+~])\s*|\s+")


def compounds(sel: str) -> list[tuple[str, str]]:
    """(combinator before it, compound) from left to right; the first compound's combinator is ''."""
    out, last, comb = [], 0, ""
    depth = 0
    i = 0
    while i < len(sel):
        ch = sel[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and (m := COMBINATOR.match(sel, i)) and m.end() > i:
            out.append((comb, sel[last:i]))
            comb = m.group(1) or " "
            last = i = m.end()
            continue
        i += 1
    out.append((comb, sel[last:]))
    return [(c, x) for c, x in out if x]


def scoped(sel: str, game: str) -> bool:
    """Whether every element ``sel`` matches is the game's: some compound holds the game's table or one of its
    prefixed classes and is the subject itself or an ancestor of it (not a sibling)."""
    table = re.compile(rf"""\[data-game=(["']?){game}\1\]""")
    mine = re.compile(rf"\.{re.escape(PREFIX[game])}[\w-]")
    parts = compounds(sel)
    for k, (_, comp) in enumerate(parts):
        own = mine.search(comp) or (re.search(r"\.tablev(?![\w-])", comp) and table.search(comp))
        if not own:
            continue
        after = parts[k + 1][0] if k + 1 < len(parts) else ""
        if after in ("", " ", ">"):
            return True
    return False


def unscoped(game: str) -> list[str]:
    css = strip_comments((WEB / game / f"{game}.css").read_text())
    bad = []
    for m in re.finditer(r"@(?:-webkit-)?keyframes\s+([\w-]+)", css):
        if not m.group(1).startswith(PREFIX[game]):
            bad.append(f"@keyframes {m.group(1)}")
    for prelude, _ in rules(css):
        if prelude.startswith("@"):
            if re.match(r"@(-webkit-)?keyframes|@font-face", prelude):
                continue
            raise AssertionError(f"{game}.css: an at-rule this check cannot read: {prelude}")
        for sel in split_top(prelude):
            bad.extend(sel for alt in expand(sel) if not scoped(alt, game))
    return bad


def test_the_reader_tells_scoped_from_unscoped() -> None:
    ok = ['.tablev[data-game="doudizhu"] .seat', ':where(.tablev[data-game="doudizhu"]) .seat[data-pos="left"]',
          '.tablev.show-counter:where([data-game="doudizhu"]) .seat', ".ddz-settle ul.factors li b",
          ':where(.tablev[data-game="doudizhu"], .ddz-settle) .play-cards .card + .card', ".seat .ddz-said",
          ".ddz-x > .y", ".hand.ddz-hand", ".tablev[data-game=doudizhu]", ".ddz-x:not(.seat)"]
    bad = [".seat", '.seat[data-pos="left"]', ".seat:not(.ddz-x)", ':where(.tablev[data-game="doudizhu"], .seat) .card',
           ".ddz-x + .seat", ".ddz-x ~ .seat", '.seat[data-game="doudizhu"]', '.tablev[data-game="shengji"] .card',
           ".sj-card", ".xddz-card", ".tablevx[data-game=doudizhu] .card", ':is(.ddz-a, .b) .c']
    for sel in ok:
        assert all(scoped(alt, "doudizhu") for alt in expand(sel)), sel
    for sel in bad:
        assert not all(scoped(alt, "doudizhu") for alt in expand(sel)), sel
    css = ("/* a { } */ .a, .b:is(.c, .d) { x: 1; } @media (min-width: 1px) { .e { y: 2; } }"
           " @keyframes k { 50% { o: 1; } }")
    assert [p for p, _ in rules(strip_comments(css))] == [".a, .b:is(.c, .d)", ".e", "@keyframes k"]


@pytest.mark.parametrize("game", sorted(PREFIX))
def test_every_rule_of_a_games_css_is_that_games(game: str) -> None:
    """Every selector of web/js/games/<game>/<game>.css reaches only the game's table or the game's own classes."""
    assert not unscoped(game), f"{game}.css: rules that reach other games' elements: {unscoped(game)}"

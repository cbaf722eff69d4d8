"""``python -m qipai.server [--host H] [--port P] [--database-url URL] …``: the server without the CLI."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import re
from pathlib import Path
from typing import Any, NoReturn

from qipai.host.settings import Settings
from qipai.server.run import check_database, check_services, check_settings, serve

SKIP = ("rooms", "games", "bots", "inline_bots")


class _Parser(argparse.ArgumentParser):
    """An option parser whose mistakes are one line (with the nearest option for a mistyped one), not the usage
    of every option first."""

    def error(self, message: str) -> NoReturn:
        import difflib
        import sys

        known = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
        for typed in re.findall(r"(--[\w-]+)", message) if "unrecognized" in message else []:
            near = difflib.get_close_matches(typed.split("=")[0], known, n=1)
            if near:
                message += f" (did you mean {near[0]}?)"
        every = "--all-options" if self.prog == "qipai serve" else "--help"
        print(f"error: {message}; every option: {self.prog} {every}", file=sys.stderr)
        raise SystemExit(2)


def field_docs() -> dict[str, str]:
    """Each :class:`Settings` field's description: the first sentence of its docstring in the source (empty
    where there is none, or no source)."""
    import ast
    import inspect

    try:
        tree = ast.parse(inspect.getsource(Settings))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for a, b in itertools.pairwise(body):
        if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name) and isinstance(b, ast.Expr) \
                and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str):
            docs[a.target.id] = first_sentence(b.value.value)
    return docs


_ABBREVIATION_END = re.compile(r"(?:^|[\s(])(?:e\.g|i\.e|etc|cf|vs)$", re.IGNORECASE)
"""Text ending in a word whose full stop ends no sentence (``e.g. Dou Dizhu's``)."""


def first_sentence(doc: str) -> str:
    r"""The first sentence of ``doc`` on one line, without its full stop: it ends at the first ". " that is neither
    an abbreviation's (``e.g.``, ``i.e.``) nor inside brackets.

    >>> first_sentence("The bot (empty: the default, e.g. ``heuristic``). More here.")
    'The bot (empty: the default, e.g. ``heuristic``)'
    >>> first_sentence("Seconds to wait,\n    i.e. the delay.  Not this.")
    'Seconds to wait, i.e. the delay'
    """
    text = " ".join(doc.split())
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "." and depth == 0 and text[i + 1:i + 2] == " " and not _ABBREVIATION_END.search(text[:i]):
            return text[:i]
    return text.rstrip(".")


def build_parser(prog: str = "python -m qipai.server") -> argparse.ArgumentParser:
    """A parser with one ``--flag`` per :class:`Settings` field (``bot_fill_wait`` is ``--bot-fill-wait``), each
    with its description, default and environment variable in the help."""
    p = _Parser(prog=prog, usage="%(prog)s [OPTIONS]",
                description="Run the qipai server. Every option is also read from the environment variable named "
                            "beside it; a flag wins over the variable.")
    defaults = Settings()
    docs = field_docs()
    for f in dataclasses.fields(Settings):
        if f.name in SKIP:
            continue
        default = getattr(defaults, f.name)
        flag = "--" + f.name.replace("_", "-")
        shown = ",".join(default) if isinstance(default, tuple) else "unset" if default is None else default
        if f.name == "node_id":
            shown = "the host name and process id"
        said = docs.get(f.name, "").replace("``", "")
        help_text = (f"{said} " if said else "") + f"(default: {shown!s}; QIPAI_{f.name.upper()})"
        help_text = help_text.replace("%", "%%")
        if isinstance(default, bool):
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=help_text)
        elif isinstance(default, int):
            p.add_argument(flag, type=int, default=None, help=help_text)
        elif isinstance(default, float):
            p.add_argument(flag, type=float, default=None, help=help_text)
        elif isinstance(default, tuple):
            p.add_argument(flag, type=lambda v: tuple(x.strip() for x in v.split(",") if x.strip()), default=None,
                           help=help_text)
        elif isinstance(default, Path) or f.name == "static_dir":
            p.add_argument(flag, type=Path, default=None, help=help_text)
        else:
            p.add_argument(flag, type=str, default=None, help=help_text)
    return p


def overrides_from(argv: list[str], prog: str = "python -m qipai.server") -> dict[str, Any]:
    """The settings given as flags in ``argv`` (unset flags are left to ``QIPAI_*`` variables and defaults)."""
    args = build_parser(prog).parse_args(argv)
    return {k: v for k, v in vars(args).items() if v is not None}


def main(argv: list[str] | None = None) -> None:
    """Check the settings and the database as ``qipai serve`` does (a one-line error and exit 2, or 1 for a
    database that cannot be used), then serve."""
    import sys

    try:
        settings = Settings.from_env(**overrides_from(sys.argv[1:] if argv is None else argv))
        check_settings(settings)
    except (ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        check_database(settings)
        check_services(settings)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    serve(settings)


if __name__ == "__main__":
    main()

"""``python -m qipai.server [--host H] [--port P] [--database-url URL] …``: the server without the CLI."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from qipai.host.settings import Settings
from qipai.server.run import check_database, check_services, check_settings, serve

SKIP = ("rooms", "games", "bots", "inline_bots")


def build_parser(prog: str = "python -m qipai.server") -> argparse.ArgumentParser:
    """A parser with one ``--flag`` per :class:`Settings` field (``bot_fill_wait`` is ``--bot-fill-wait``)."""
    p = argparse.ArgumentParser(prog=prog, description="Run the qipai server.")
    defaults = Settings()
    for f in dataclasses.fields(Settings):
        if f.name in SKIP:
            continue
        default = getattr(defaults, f.name)
        flag = "--" + f.name.replace("_", "-")
        if isinstance(default, bool):
            p.add_argument(flag, action=argparse.BooleanOptionalAction, default=None)
        elif isinstance(default, int):
            p.add_argument(flag, type=int, default=None)
        elif isinstance(default, float):
            p.add_argument(flag, type=float, default=None)
        elif isinstance(default, tuple):
            p.add_argument(flag, type=lambda v: tuple(x.strip() for x in v.split(",") if x.strip()), default=None)
        elif isinstance(default, Path) or f.name == "static_dir":
            p.add_argument(flag, type=Path, default=None)
        else:
            p.add_argument(flag, type=str, default=None)
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

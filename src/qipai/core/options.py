"""Rule options as declared data: each option has a type, a range or a list of choices, and a flag saying
whether it moves points.

A game declares its options next to them, in its rules module (Dou Dizhu: the fields of
:class:`qipai.games.doudizhu.rules.Rules` carry an :class:`Option` in their metadata).  Whatever brings options
in — the REST API, the WebSocket, the command line, a game record — checks them with :func:`check_value` /
:meth:`OptionSet.check`, so an option never reaches a rules core with a type or a size it was not made for.

>>> opts = OptionSet([
...     Option("stake", int, 1, lo=1, hi=1_000_000, points=True, doc="the table's base"),
...     Option("bidding", str, "score", choices=("score", "call")),
...     Option("spring", bool, True),
... ])
>>> opts.check({"stake": 5, "bidding": "call"})
{'stake': 5, 'bidding': 'call'}
>>> opts.check({"stake": 10**15})
Traceback (most recent call last):
...
qipai.core.options.OptionError: stake must be at most 1000000, got 1000000000000000
>>> opts.check({"bidding": "auction"})
Traceback (most recent call last):
...
qipai.core.options.OptionError: bidding must be one of score, call, got 'auction'
>>> opts.check({"colour": "red"})
Traceback (most recent call last):
...
qipai.core.options.OptionError: unknown rule option 'colour'
>>> sorted(opts.points_options())
['stake']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

OPTION_TYPES = (bool, int, float, str, list)


class OptionError(ValueError):
    """A rule option is unknown, of the wrong type, or out of its declared range; the message says which."""


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option.

    ``kind`` is ``bool``, ``int``, ``float``, ``str`` or ``list`` (a list of ``choices``).  Numbers must lie in
    ``lo..hi`` (both inclusive; ``None`` is unbounded, which only a ``float`` may be); text must be one of
    ``choices`` when choices are given.  ``points`` marks an option that changes how many points change hands
    (stakes, penalties, caps, minimisation): a table that plays for points keeps its room's value.
    ``nullable`` lets ``None`` stand for "no value" (e.g. no hand limit).
    """

    name: str
    kind: type
    default: Any
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] | None = None
    points: bool = False
    nullable: bool = False
    doc: str = ""

    def __post_init__(self) -> None:
        if self.kind not in OPTION_TYPES:
            raise TypeError(f"option {self.name}: kind must be one of {', '.join(t.__name__ for t in OPTION_TYPES)}")
        if self.kind is int and (self.lo is None or self.hi is None):
            raise TypeError(f"option {self.name}: a whole-number option needs lo and hi")
        if self.kind is list and not self.choices:
            raise TypeError(f"option {self.name}: a list option needs its choices")

    def check(self, value: Any) -> Any:
        """``value`` if it suits this option (a list comes back as a list in ``choices`` order), else
        :class:`OptionError` naming the option and what was wrong."""
        name = self.name
        k = self.kind
        if value is None:
            if self.nullable:
                return None
            if k is not list:
                raise OptionError(f"{name} needs a value")
        if k is bool:
            if not isinstance(value, bool):
                raise OptionError(f"{name} must be true or false, got {short_repr(value)}")
            return value
        if k is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"{name} must be a whole number{self._span()}, got {short_repr(value)}")
            return self._in_range(value)
        if k is float:
            if isinstance(value, bool) or not isinstance(value, int | float) or value != value \
                    or value in (float("inf"), float("-inf")):
                raise OptionError(f"{name} must be a number, got {short_repr(value)}")
            return self._in_range(value)
        if k is str:
            if not isinstance(value, str):
                raise OptionError(f"{name} must be text, got {short_repr(value)}")
            if self.choices is not None and value not in self.choices:
                raise OptionError(f"{name} must be one of {', '.join(self.choices)}, got {short_repr(value)}")
            return value
        # a list of choices
        assert self.choices is not None
        if not isinstance(value, list | tuple | set | frozenset) or not all(isinstance(v, str) for v in value):
            raise OptionError(f"{name} must be a list of names from {', '.join(self.choices)}")
        bad = sorted(set(value) - set(self.choices))
        if bad:
            raise OptionError(f"unknown {name} {', '.join(map(repr, bad))}: expected some of {', '.join(self.choices)}")
        return [c for c in self.choices if c in set(value)]

    def _span(self) -> str:
        """`` from LO to HI`` (or the one bound there is), for messages."""
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None:
            return f" from {_num(lo)} to {_num(hi)}"
        if lo is not None:
            return f" of at least {_num(lo)}"
        return f" of at most {_num(hi)}" if hi is not None else ""

    def _in_range(self, value: float) -> Any:
        lo, hi = self.lo, self.hi
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            if lo is not None and hi is not None and self.kind is int and hi - lo == 1:
                raise OptionError(f"{self.name} must be {_num(lo)} or {_num(hi)}, got {short_repr(value)}")
            if lo is not None and value < lo:
                raise OptionError(f"{self.name} must be at least {_num(lo)}, got {short_repr(value)}")
            assert hi is not None
            raise OptionError(f"{self.name} must be at most {_num(hi)}, got {short_repr(value)}")
        return value

    def describe(self) -> dict[str, Any]:
        """The option as JSON-ready data (for ``/api/games`` and docs)."""
        default = list(self.default) if isinstance(self.default, frozenset | set | tuple) else self.default
        if self.kind is list and isinstance(self.default, frozenset | set | tuple | list):
            default = [c for c in self.choices or () if c in set(self.default)]
        out: dict[str, Any] = {"name": self.name, "type": self.kind.__name__, "default": default}
        if self.lo is not None:
            out["min"] = self.lo
        if self.hi is not None:
            out["max"] = self.hi
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.points:
            out["points"] = True
        if self.nullable:
            out["nullable"] = True
        if self.doc:
            out["doc"] = self.doc
        return out


def short_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error names what it was given without echoing a hostile
    client's kilobytes back.

    >>> short_repr("x" * 100, 12)
    "'xxxxxxxx..."
    """
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


class OptionSet:
    """The declared options of one game, by name."""

    def __init__(self, options: Iterable[Option]) -> None:
        self.by_name: dict[str, Option] = {}
        for o in options:
            if o.name in self.by_name:
                raise TypeError(f"option {o.name} declared twice")
            self.by_name[o.name] = o

    def __iter__(self) -> Any:
        return iter(self.by_name.values())

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __getitem__(self, name: str) -> Option:
        return self.by_name[name]

    def check(self, values: Mapping[str, Any], *, allow: Sequence[str] = ()) -> dict[str, Any]:
        """``values`` checked option by option (unknown names are an error, except those in ``allow``, which
        pass through untouched, e.g. ``preset``)."""
        if not isinstance(values, Mapping):
            raise OptionError("rule options must be an object of option names and values")
        out: dict[str, Any] = {}
        for k, v in values.items():
            if k in allow:
                out[k] = v
                continue
            o = self.by_name.get(k) if isinstance(k, str) else None
            if o is None:
                raise OptionError(f"unknown rule option {short_repr(k)}")
            out[k] = o.check(v)
        return out

    def points_options(self) -> list[str]:
        """Names of the options that move points (a table playing for points keeps its room's values)."""
        return [o.name for o in self.by_name.values() if o.points]

    def describe(self) -> list[dict[str, Any]]:
        return [o.describe() for o in self.by_name.values()]


def options_from_text(declared: OptionSet, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Rule options typed on a command line (text) read by their declared types; other values pass as they are.

    >>> opts = OptionSet([Option("level", str, "3"), Option("step", int, 150, lo=0, hi=1000),
    ...                   Option("throws", bool, True), Option("limit", int, None, lo=1, hi=9, nullable=True)])
    >>> options_from_text(opts, {"level": "2", "step": "20", "throws": "off", "limit": "none"})
    {'level': '2', 'step': 20, 'throws': False, 'limit': None}
    >>> options_from_text(OptionSet([Option("kinds", list, [], choices=("single", "pair", "bomb"))]),
    ...                   {"kinds": "single, pair,bomb"})
    {'kinds': ['single', 'pair', 'bomb']}
    >>> options_from_text(opts, {"speed": "1"})
    Traceback (most recent call last):
    ...
    qipai.core.options.OptionError: unknown rule option 'speed': known options are level, limit, step, throws
    """
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k == "preset":
            out[k] = v
            continue
        if k not in declared:
            names = sorted(o.name for o in declared)
            raise OptionError(f"unknown rule option {k!r}: known options are {', '.join(names)}")
        opt = declared[k]
        if not isinstance(v, str) or opt.kind is str:
            out[k] = v
        elif opt.nullable and v.lower() in ("none", "null", ""):
            out[k] = None
        elif opt.kind is list:  # (names a comma apart: list("single") gave its letters)
            out[k] = [x.strip() for x in v.split(",") if x.strip()]
        elif opt.kind is bool:
            low = v.lower()
            if low not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
                raise OptionError(f"{k} is on or off, got {v!r}")
            out[k] = low in ("1", "true", "yes", "on")
        else:
            try:
                out[k] = opt.kind(v)
            except ValueError:
                what = {"int": "a whole number", "float": "a number"}.get(opt.kind.__name__, opt.kind.__name__)
                raise OptionError(f"{k} must be {what}, got {v!r}") from None
    return out


def pairs_from_text(pairs: Sequence[str] | None, flag: str = "--option") -> dict[str, str]:
    """``KEY=VALUE`` command-line pairs as a dict of text; a pair without ``=`` is an :class:`OptionError`.

    >>> pairs_from_text(["start_level=A", " hand_limit = 3"])
    {'start_level': 'A', 'hand_limit': '3'}
    """
    out: dict[str, str] = {}
    for p in pairs or []:
        k, eq, v = p.partition("=")
        if not eq or not k.strip():
            raise OptionError(f"{flag} takes KEY=VALUE, got {p!r}")
        out[k.strip()] = v.strip()
    return out

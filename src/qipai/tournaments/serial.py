"""Plain JSON for the core's dataclasses: :func:`to_data` turns a dataclass tree into dicts, lists, strings,
numbers, booleans and ``None``; :func:`from_data` rebuilds it from the field annotations.

Supported field types: ``int``, ``str``, ``bool``, ``float``, ``None``, ``X | None``, ``list[X]``,
``tuple[X, ...]``, ``dict[str, X]``, ``Literal[...]`` and nested dataclasses.

>>> from dataclasses import dataclass, field
>>> @dataclass
... class P:
...     name: str
...     tags: tuple[int, ...] = ()
...     sub: dict[str, list[int]] = field(default_factory=dict)
...     note: str | None = None
>>> d = to_data(P("x", (1, 2), {"a": [3]}))
>>> d
{'name': 'x', 'tags': [1, 2], 'sub': {'a': [3]}, 'note': None}
>>> from_data(P, d) == P("x", (1, 2), {"a": [3]})
True
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from typing import Any, TypeVar, get_args, get_origin

from .errors import TournamentError

T = TypeVar("T")
_HINTS: dict[type, dict[str, Any]] = {}


_SCALARS = (bool, int, float, str, type(None))
_FIELDS: dict[type, list[tuple[str, Any]]] = {}
_MISSING: Any = dataclasses.MISSING


def _fields(cls: type) -> list[tuple[str, Any]]:
    fs = _FIELDS.get(cls)
    if fs is None:
        fs = []
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING and isinstance(f.default, _SCALARS):
                fs.append((f.name, f.default))
            elif f.default_factory is not dataclasses.MISSING and f.default_factory in (list, dict):
                fs.append((f.name, f.default_factory()))
            else:
                fs.append((f.name, _MISSING))
        _FIELDS[cls] = fs
    return fs


def to_data(obj: Any, *, skip_defaults: bool = False) -> Any:
    """``obj`` as plain JSON data (dataclasses become dicts of their fields, tuples become lists).  With
    ``skip_defaults``, fields equal to their (scalar or empty) default are left out; :func:`from_data` puts
    them back."""
    t = type(obj)
    if t in _SCALARS:
        return obj
    if t is list or t is tuple:
        return [x if type(x) in _SCALARS else to_data(x, skip_defaults=skip_defaults) for x in obj]
    if t is dict:
        return {str(k): v if type(v) in _SCALARS else to_data(v, skip_defaults=skip_defaults)
                for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {}
        for name, default in _fields(t):
            v = getattr(obj, name)
            if skip_defaults and default is not _MISSING and type(v) is type(default) and v == default:
                continue
            out[name] = v if type(v) in _SCALARS else to_data(v, skip_defaults=skip_defaults)
        return out
    if isinstance(obj, (list, tuple)):
        return [to_data(x, skip_defaults=skip_defaults) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_data(v, skip_defaults=skip_defaults) for k, v in obj.items()}
    if isinstance(obj, _SCALARS):
        return obj
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def _hints(cls: type) -> dict[str, Any]:
    h = _HINTS.get(cls)
    if h is None:
        module = sys.modules.get(cls.__module__)
        h = _HINTS[cls] = typing.get_type_hints(cls, vars(module) if module else None)
    return h


def from_data(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_data` output; a mismatch raises :class:`TournamentError`."""
    origin = get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"unsupported union {tp}")
        return from_data(rest[0], data)
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise TournamentError(f"expected one of {', '.join(map(str, get_args(tp)))}, got {data!r}")
        return data
    if origin is list:
        (arg,) = get_args(tp)
        return [from_data(arg, x) for x in _seq(data)]
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], x) for x in _seq(data))
        items = _seq(data)
        if len(items) != len(args):
            raise TournamentError(f"expected {len(args)} items, got {len(items)}")
        return tuple(from_data(a, x) for a, x in zip(args, items, strict=True))
    if origin is dict:
        _, val = get_args(tp)
        if not isinstance(data, dict):
            raise TournamentError(f"expected an object, got {type(data).__name__}")
        return {str(k): from_data(val, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise TournamentError(f"expected an object for {tp.__name__}, got {type(data).__name__}")
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = from_data(hints[f.name], data[f.name])
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise TournamentError(f"{tp.__name__}: missing field {f.name!r}")
        return tp(**kwargs)
    if tp is Any:
        return data
    if tp is type(None):
        if data is not None:
            raise TournamentError(f"expected null, got {data!r}")
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise TournamentError(f"expected a boolean, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise TournamentError(f"expected a whole number, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise TournamentError(f"expected a number, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise TournamentError(f"expected a string, got {data!r}")
        return data
    raise TypeError(f"unsupported type {tp}")


def _seq(data: Any) -> list[Any]:
    if not isinstance(data, (list, tuple)):
        raise TournamentError(f"expected a list, got {type(data).__name__}")
    return list(data)

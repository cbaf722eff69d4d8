"""Reading untrusted JSON: size, depth and text limits, with an error that says what was wrong.

>>> loads_limited(b'{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads_limited(b"[" * 100 + b"]" * 100)
Traceback (most recent call last):
...
qipai.server.jsonin.BadJson: JSON nested deeper than 32 levels
>>> loads_limited(b'{"name": "\\\\ud800"}')
Traceback (most recent call last):
...
qipai.server.jsonin.BadJson: not valid JSON: text holds an unpaired surrogate (\\ud800…)
"""

from __future__ import annotations

from typing import Any

import orjson

MAX_DEPTH = 32


class BadJson(ValueError):
    """Input that is not JSON we accept; the message says why."""


def loads_limited(raw: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Decode JSON, refusing invalid text, unpaired surrogates and nesting deeper than ``max_depth``."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") > max_depth:  # only then can it nest too deep
        _check_depth(data, max_depth)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as e:
        msg = str(e)
        if "surrogate" in msg:
            raise BadJson("not valid JSON: text holds an unpaired surrogate (\\ud800…)") from None
        if "infinity" in msg or "too large" in msg.lower():
            raise BadJson("not valid JSON here: a number too large (no field takes one beyond 64 bits)") from None
        raise BadJson(f"not valid JSON: {msg}") from None


def _check_depth(data: bytes, max_depth: int) -> None:
    """Count bracket nesting outside strings before parsing (cheap, and no parser recursion at all)."""
    depth = 0
    in_str = False
    esc = False
    for b in data:
        if in_str:
            if esc:
                esc = False
            elif b == 0x5C:  # backslash
                esc = True
            elif b == 0x22:
                in_str = False
        elif b == 0x22:
            in_str = True
        elif b in (0x5B, 0x7B):
            depth += 1
            if depth > max_depth:
                raise BadJson(f"JSON nested deeper than {max_depth} levels")
        elif b in (0x5D, 0x7D):
            depth -= 1

"""Compact JSON text for outgoing messages: orjson when installed (several times faster), else the standard
library.

>>> dumps({"a": [1, "牌"], 2: None})
'{"a":[1,"牌"],"2":null}'
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - orjson is optional
    orjson = None  # type: ignore[assignment,unused-ignore]


def _std(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


if orjson is not None:
    _OPTS = orjson.OPT_NON_STR_KEYS

    def dumps(obj: Any) -> str:
        try:
            text: str = orjson.dumps(obj, option=_OPTS).decode()
        except TypeError:  # e.g. an integer beyond 64 bits
            return _std(obj)
        return text

else:  # pragma: no cover
    dumps = _std

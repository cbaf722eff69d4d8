"""Writing the command line's JSON outputs (arena results, records, standings): valid JSON, into what the user named.

Two things the plain ``path.write_text(json.dumps(...))`` got wrong: Python writes ``NaN`` and ``Infinity`` for
non-finite floats (an estimate of no samples, an interval of one), which no strict JSON reader takes; and
writing beside the file and renaming it over the target (so that a reader never sees half a file) replaced a
pipe or a device such as ``/dev/null`` with a regular file.

>>> finite({"ci": float("inf"), "xs": [1.0, float("nan")], "n": 2})
{'ci': None, 'xs': [1.0, None], 'n': 2}
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


def finite(obj: Any) -> Any:
    """``obj`` with every non-finite float (NaN, ±infinity) replaced by ``None`` (JSON's ``null``)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj


class WriteError(ValueError):
    """An output that cannot be written, in one line: ``cannot write /dev/full: No space left on device`` (a
    ``ValueError``, as the command line reports the other bad-input errors of a run)."""


def write_json(path: Path, obj: Any, *, indent: int = 1, ensure_ascii: bool = True, atomic: bool = False) -> None:
    """Write ``obj`` as strict JSON to ``path`` (non-finite floats as ``null``).

    With ``atomic`` a regular file (or a new one) is written beside and renamed over the target, so that a
    reader never sees half of it (the arena's checkpoints); anything else that exists there (a pipe, a device)
    is written into, never replaced.  Raises :class:`WriteError` when the path cannot be written.
    """
    text = json.dumps(finite(obj), indent=indent, ensure_ascii=ensure_ascii, allow_nan=False)
    try:
        if atomic and (path.is_file() or not path.exists()):
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        else:
            path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise WriteError(f"cannot write {path}: {e.strerror or e}") from e

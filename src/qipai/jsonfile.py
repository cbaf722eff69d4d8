"""Writing the command line's JSON outputs (arena results, records, standings): valid JSON, into what the user named.

Two things the plain ``path.write_text(json.dumps(...))`` got wrong: Python writes ``NaN`` and ``Infinity`` for
non-finite floats (an estimate of no samples, an interval of one), which no strict JSON reader takes; and
writing beside the file and renaming it over the target (so that a reader never sees half a file) replaced a
pipe or a device such as ``/dev/null`` with a regular file.  A name ending in ``.gz`` is written gzipped (as
``bench/results`` keeps arena runs), and :func:`read_json_bytes` reads either.

>>> finite({"ci": float("inf"), "xs": [1.0, float("nan")], "n": 2})
{'ci': None, 'xs': [1.0, None], 'n': 2}
"""

from __future__ import annotations

import gzip
import json
import math
import zlib
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


def write_json(path: Path | str, obj: Any, *, indent: int = 1, ensure_ascii: bool = True,
               atomic: bool = False) -> None:
    """Write ``obj`` as strict JSON to ``path`` (non-finite floats as ``null``).

    With ``atomic`` a regular file (or a new one) is written beside and renamed over the target, so that a
    reader never sees half of it (the arena's checkpoints); anything else that exists there (a pipe, a device)
    is written into, never replaced.  A name ending in ``.gz`` is gzipped (no timestamp in it: the same
    object, the same bytes).  Raises :class:`WriteError` when the path cannot be written.
    """
    path = Path(path)
    data = json.dumps(finite(obj), indent=indent, ensure_ascii=ensure_ascii, allow_nan=False).encode("utf-8")
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    try:
        if atomic and (path.is_file() or not path.exists()):
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
        else:
            path.write_bytes(data)
    except OSError as e:
        raise WriteError(f"cannot write {path}: {e.strerror or e}") from e


def read_json_bytes(raw: bytes) -> Any:
    """The JSON value of a file's bytes, gzipped or not (a leading byte-order mark is allowed).  Raises
    ``gzip.BadGzipFile`` (an ``OSError``) for gzip that is cut short or corrupt, and ``ValueError``
    (``json.JSONDecodeError``, ``UnicodeDecodeError``) for bytes that are not JSON.

    >>> read_json_bytes(gzip.compress(b'{"a": 1}')), read_json_bytes(b'[2]')
    ({'a': 1}, [2])
    >>> read_json_bytes(gzip.compress(b'[1]')[:12])
    Traceback (most recent call last):
    gzip.BadGzipFile: broken gzip data: Compressed file ended before the end-of-stream marker was reached
    """
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (EOFError, zlib.error, gzip.BadGzipFile) as e:
            raise gzip.BadGzipFile(f"broken gzip data: {e}") from None
    return json.loads(raw.decode("utf-8-sig"))

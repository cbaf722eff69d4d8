"""Line input with an optional time limit.

On a POSIX terminal or pipe, lines are read straight from the file descriptor with :func:`select.select`, so a
read can stop when a decision's time runs out and the table can check, without waiting, whether the player
typed something while auto-play runs.  Streams without a usable descriptor (tests that swap ``sys.stdin`` for
a buffer, Windows consoles) are read with ``readline`` and never time out.
"""

from __future__ import annotations

import io
import os
import sys
import time
import unicodedata
from typing import IO

from rich.console import Console
from rich.text import Text

MAX_LINE = 2000
"""The most characters of a line that are kept (far more than any command); the rest of a longer line is
read and dropped, so a pasted or piped megabyte neither fills memory nor comes back whole in an error message."""


def _normal(line: str) -> str:
    """Full-width letters, digits and signs (a Chinese input method's full-width mode: ``３Ｓ``, ``ｐａｓｓ``) read as
    their ASCII selves (Unicode NFKC); Chinese words and suit symbols are unchanged.

    >>> _normal("３３ ｐａｓｓ，大王♥")
    '33 pass,大王♥'
    """
    return unicodedata.normalize("NFKC", line)


class LineReader:
    """Reads one line at a time; :meth:`readline` returns ``None`` when the time is up and raises
    :class:`EOFError` at the end of input.  A line longer than :data:`MAX_LINE` is cut to that length."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.fd: int | None = None
        if os.name == "posix":
            try:
                self.fd = self.stream.fileno()
            except (AttributeError, OSError, io.UnsupportedOperation, ValueError):
                self.fd = None
        self.buf = b""

    @property
    def can_time_out(self) -> bool:
        """Whether :meth:`readline` honours a timeout."""
        return self.fd is not None

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line without its line ending, or ``None`` if ``timeout`` seconds pass first."""
        if self.fd is None:
            line = self.stream.readline(MAX_LINE + 1)
            if not line:
                raise EOFError
            rest = line
            while len(rest) == MAX_LINE + 1 and not rest.endswith("\n"):  # drop the rest of a long line
                rest = self.stream.readline(MAX_LINE + 1)
            return _normal(line.rstrip("\r\n")[:MAX_LINE])
        import select

        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        while b"\n" not in self.buf:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                ready, _, _ = select.select([self.fd], [], [], left)
                if not ready:
                    return None
            chunk = os.read(self.fd, 4096)
            if not chunk:
                if self.buf:
                    rest, self.buf = self.buf, b""
                    return self._text(rest)
                raise EOFError
            if len(self.buf) > 4 * MAX_LINE:  # a line too long: keep its start, drop the rest up to its end
                end = chunk.find(b"\n")
                if end < 0:
                    continue
                chunk = chunk[end:]
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return self._text(line)

    @staticmethod
    def _text(line: bytes) -> str:
        return _normal(line.decode("utf-8", "replace").rstrip("\r")[:MAX_LINE])


def ask_line(console: Console, reader: LineReader, prompt: str, deadline: float | None = None,
             confirm: bool = False) -> str | None:
    """Show ``prompt`` on ``console`` and read a line from ``reader``: ``None`` when the ``deadline`` (a
    :func:`time.monotonic` time) passes.  Ctrl-C reads as ``quit`` (as ``yes`` when ``confirm``: the question
    was whether to leave).  A prompt wider than the console wraps between words, never inside one.  Raises
    :class:`EOFError` at the end of input."""
    console.print(Text(prompt), end="")  # wrapped at word boundaries, the cursor after its last character
    console.file.flush()
    try:
        line = reader.readline(None if deadline is None else max(0.0, deadline - time.monotonic()))
    except KeyboardInterrupt:
        console.print()
        return "yes" if confirm else "quit"
    if line is None:
        console.print()
    return line

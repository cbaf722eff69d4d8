"""Accounts: argon2 password hashes, session tokens (http-only cookie or bearer), guests, rate limits."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import unicodedata
from collections.abc import Mapping

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from qipai.host.limits import Bucket, RateLimiter
from qipai.store import names

__all__ = ["Bucket", "RateLimiter"]

COOKIE = "qipai_session"

_hasher = PasswordHasher()
_DUMMY_HASH = _hasher.hash("qipai: no such account")
"""Verified against when a log-in names no account, so both answers take as long (no name probing)."""


class AuthError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.params = params


def check_name(name: str) -> str:
    """The name to store, or :class:`AuthError` (``bad_name``) saying what is wrong with it."""
    try:
        return names.check_name(name)
    except names.BadName as e:
        raise AuthError("bad_name", str(e), reason=e.reason, min=names.MIN_LEN, max=names.MAX_LEN) from None


def check_password(password: str) -> None:
    """A new password's rules (at registration and on a change; a log-in only compares): 6 to 128
    characters, none of them a control character (NUL, a tab, a line break: nobody types them on purpose, and
    six NULs passed for a password) or an unpaired surrogate."""
    if not 6 <= len(password) <= 128:
        raise AuthError("bad_password", "a password is 6 to 128 characters long", min=6, max=128,
                        reason="length")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in password):
        raise AuthError("bad_password", "a password may not hold unpaired surrogate characters", reason="surrogate")
    if any(unicodedata.category(c) == "Cc" for c in password):
        raise AuthError("bad_password", "a password may not hold control characters (such as NUL, a tab or a "
                                        "line break)", reason="control")


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches; with no hash (no such account, a guest) the work is done all the same
    against a dummy hash and the answer is ``False``."""

    def check() -> bool:
        try:
            ok = _hasher.verify(password_hash or _DUMMY_HASH, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError, UnicodeError):
            return False
        return ok and password_hash is not None

    return await asyncio.to_thread(check)


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def new_token() -> tuple[str, str]:
    """A fresh session token and the hash stored for it."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_from(headers: Mapping[str, str], cookies: Mapping[str, str]) -> str | None:
    """The session token of a request: ``Authorization: Bearer``, then the session cookie.  Never the URL."""
    auth = headers.get("authorization")
    if auth:
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    tok = cookies.get(COOKIE)
    return tok or None


def guest_name() -> str:
    return "guest-" + secrets.token_hex(4)


class LoginBackoff:
    """Failed log-ins per account: after ``after`` failures in a row the account waits before the next try,
    1 s then doubling up to 15 minutes; a success clears it.  (Per account, so changing address does not
    help; per-address limits are :class:`RateLimiter`'s.)"""

    MAX_WAIT = 900.0

    def __init__(self, after: int) -> None:
        self.after = after
        self.fails: dict[str, tuple[int, float]] = {}

    def wait(self, key: str) -> float:
        """Seconds the account must still wait (0: it may try now)."""
        n, last = self.fails.get(key, (0, 0.0))
        if n < self.after:
            return 0.0
        wait = min(self.MAX_WAIT, 2.0 ** (n - self.after))
        return max(0.0, last + wait - time.monotonic())

    def failed(self, key: str) -> None:
        n, _ = self.fails.get(key, (0, 0.0))
        self.fails[key] = (n + 1, time.monotonic())
        if len(self.fails) > 100_000:
            now = time.monotonic()
            self.fails = {k: v for k, v in self.fails.items() if now - v[1] < self.MAX_WAIT}

    def succeeded(self, key: str) -> None:
        self.fails.pop(key, None)

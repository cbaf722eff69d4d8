"""Accounts: argon2 password hashes, session tokens (http-only cookie or bearer), guests, rate limits."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
from collections.abc import Mapping

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

COOKIE = "qipai_session"
NAME_RE = re.compile(r"^[\w\u4e00-\u9fff][\w\u4e00-\u9fff.-]{1,23}$")
RESERVED_PREFIXES = ("guest", "bot")

_hasher = PasswordHasher()


class AuthError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def check_name(name: str) -> str:
    name = name.strip()
    if not NAME_RE.match(name):
        raise AuthError(
            "bad_name", "a name is 2 to 24 letters, digits, '_', '-' or '.', starting with a letter or digit"
        )
    if name.casefold().startswith(RESERVED_PREFIXES):
        raise AuthError("bad_name", "names starting with 'guest' or 'bot' are reserved")
    return name


def check_password(password: str) -> None:
    if not 6 <= len(password) <= 128:
        raise AuthError("bad_password", "a password is 6 to 128 characters long")


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(password_hash: str, password: str) -> bool:
    def check() -> bool:
        try:
            return _hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(check)


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def new_token() -> tuple[str, str]:
    """A fresh session token and the hash stored for it."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_from(headers: Mapping[str, str], cookies: Mapping[str, str], query: Mapping[str, str]) -> str | None:
    """The session token of a request: ``Authorization: Bearer``, then the cookie, then ``?token=``."""
    auth = headers.get("authorization")
    if auth:
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    tok = cookies.get(COOKIE)
    if tok:
        return tok
    return query.get("token") or None


def guest_name() -> str:
    return "guest-" + secrets.token_hex(4)


class RateLimiter:
    """Token buckets keyed by a string (client address)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        self.buckets[key] = (tokens - 1, now)
        if len(self.buckets) > 10000:
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 60}
        return True


class Bucket:
    """A token bucket for one connection."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

"""Accounts: argon2 password hashes, session tokens (http-only cookie or bearer), guests, rate limits."""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import secrets
import time
import unicodedata
from collections.abc import Mapping
from typing import Any

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


INVITE_MISSES = (0.1, 20)
"""Wrong invite codes a client address may try (a second, burst): a code is 6 of 32 characters (30 bits), and
every other lookup (``GET /api/invites/{code}``, ``join``, ``spectate``) was free, so the codes of the open
private tables could be swept.  Only misses count, so a player following invite links never waits."""


def invite_limiter() -> RateLimiter:
    return RateLimiter(*INVITE_MISSES)


def address_key(host: str) -> str:
    """The client address the per-address limits count by: an IPv6 address's /64 network (a home line is given a
    whole /64 and may take a new address of it for every request), an IPv4-mapped IPv6 address's IPv4 address,
    any other address as it is.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("::ffff:192.0.2.7"), address_key("192.0.2.7")
    ('2001:db8:1:2::/64', '192.0.2.7', '192.0.2.7')
    """
    if ":" not in host:
        return host
    try:
        ip = ipaddress.IPv6Address(host.split("%", 1)[0])
    except ValueError:
        return host
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))


def guest_name() -> str:
    return "guest-" + secrets.token_hex(4)


class LoginBackoff:
    """Failed log-ins: after ``after`` failures in a row the next try waits, 1 s then doubling up to 15 minutes;
    a success clears it.

    Failures are counted per account *and client address*, so somebody who guesses wrong from one address locks
    only that address out of the account, not its owner elsewhere; and per account over every address, where the
    wait starts after ``after × ACCOUNT_FACTOR`` failures, which bounds guessing spread over many addresses (only
    such a spread can lock an owner out).  A success clears both.  (Per-address limits on every attempt are
    :class:`RateLimiter`'s.)

    >>> b = LoginBackoff(after=2)
    >>> for _ in range(3):
    ...     b.failed("ann", "10.0.0.1")
    >>> b.wait("ann", "10.0.0.1") > 0, b.wait("ann", "10.0.0.2")
    (True, 0.0)
    """

    MAX_WAIT = 900.0
    ACCOUNT_FACTOR = 20

    def __init__(self, after: int) -> None:
        self.after = after
        self.fails: dict[tuple[str, str], tuple[int, float]] = {}

    def _wait(self, key: tuple[str, str], after: int) -> float:
        n, last = self.fails.get(key, (0, 0.0))
        if n < after:
            return 0.0
        wait = min(self.MAX_WAIT, 2.0 ** (n - after))
        return max(0.0, last + wait - time.monotonic())

    def wait(self, account: str, address: str) -> float:
        """Seconds this address must still wait before it tries this account again (0: it may try now)."""
        return max(self._wait((account, address), self.after),
                   self._wait((account, ""), self.after * self.ACCOUNT_FACTOR))

    def failed(self, account: str, address: str) -> None:
        now = time.monotonic()
        for key in ((account, address), (account, "")):
            n, _ = self.fails.get(key, (0, 0.0))
            self.fails[key] = (n + 1, now)
        if len(self.fails) > 100_000:
            self.fails = {k: v for k, v in self.fails.items() if now - v[1] < self.MAX_WAIT}

    def succeeded(self, account: str, address: str) -> None:
        self.fails.pop((account, address), None)
        self.fails.pop((account, ""), None)

    # the interface the log-in endpoint uses (shared with :class:`SharedLoginBackoff`)
    async def check(self, account: str, address: str) -> float:
        return self.wait(account, address)

    async def fail(self, account: str, address: str) -> None:
        self.failed(account, address)

    async def clear(self, account: str, address: str) -> None:
        self.succeeded(account, address)


class SharedLoginBackoff:
    """:class:`LoginBackoff`'s counts kept in Redis, for several nodes: guesses spread over the nodes count
    together (each node counting its own let a guesser try ``after`` times per node).  Counts expire after the
    longest wait; times are wall-clock seconds, the same on every node."""

    def __init__(self, redis: Any, prefix: str, after: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.after = after

    def _key(self, account: str, address: str) -> str:
        return f"{self.prefix}login:{len(account)}:{account}:{address}"

    async def _wait(self, account: str, address: str, after: int) -> float:
        got = await self.redis.hmget(self._key(account, address), "n", "last")
        n, last = int(got[0] or 0), float(got[1] or 0.0)
        if n < after:
            return 0.0
        wait = min(LoginBackoff.MAX_WAIT, 2.0 ** (n - after))
        return max(0.0, last + wait - time.time())

    async def check(self, account: str, address: str) -> float:
        return max(await self._wait(account, address, self.after),
                   await self._wait(account, "", self.after * LoginBackoff.ACCOUNT_FACTOR))

    async def fail(self, account: str, address: str) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for addr in (address, ""):
            k = self._key(account, addr)
            pipe.hincrby(k, "n", 1)
            pipe.hset(k, "last", repr(time.time()))
            pipe.expire(k, int(LoginBackoff.MAX_WAIT) * 2)
        await pipe.execute()

    async def clear(self, account: str, address: str) -> None:
        await self.redis.delete(self._key(account, address), self._key(account, ""))

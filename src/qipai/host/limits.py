"""Token buckets: per connection (:class:`Bucket`) and per key, e.g. a client address (:class:`RateLimiter`)."""

from __future__ import annotations

import time


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

    def blocked(self, key: str) -> bool:
        """Whether ``key`` has no token left now (takes none: for limits counted on failures only)."""
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.rate) < 1


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

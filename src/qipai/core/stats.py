"""Means and rates with their 95% confidence intervals, for the arenas and the benchmarks."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""


@dataclass
class Estimate:
    """A mean with its 95% confidence half-width and the number of samples."""

    mean: float
    ci: float
    n: int

    @classmethod
    def of(cls, xs: list[float]) -> Estimate:
        """Mean and ``1.96 × standard error`` of samples.

        >>> e = Estimate.of([1.0, 2.0, 3.0]); (e.mean, round(e.ci, 3), e.n)
        (2.0, 1.132, 3)
        """
        n = len(xs)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        m = sum(xs) / n
        if n < 2:
            return cls(m, math.inf, n)
        var = sum((x - m) ** 2 for x in xs) / (n - 1)
        return cls(m, Z95 * math.sqrt(var / n), n)

    @classmethod
    def of_rate(cls, wins: list[float]) -> Estimate:
        """A win rate with the larger half of its 95% Wilson score interval (sound also near 0 and 1).

        >>> e = Estimate.of_rate([1.0] * 60 + [0.0] * 40)
        >>> round(e.mean, 2), round(e.ci, 3)
        (0.6, 0.098)
        """
        n = len(wins)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        p = sum(wins) / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return cls(p, max(abs(centre - half - p), abs(centre + half - p)), n)

    @classmethod
    def of_shares(cls, xs: list[float]) -> Estimate:
        """A mean of shares in [0, 1] (each deal's win rate over its two games) whose interval is the normal
        one of the samples with one share of 0 and one of 1 added, so that a few equal samples do not read as
        certainty (two deals both won said ``1.000 ± 0.000``); over hundreds of samples the two change the
        interval in the fifth decimal.

        >>> e = Estimate.of_shares([1.0, 1.0]); (e.mean, round(e.ci, 3))
        (1.0, 0.49)
        >>> xs = [0.5, 1.0, 0.0, 0.5] * 100
        >>> round(Estimate.of(xs).ci, 4), round(Estimate.of_shares(xs).ci, 4)
        (0.0347, 0.0347)
        """
        e = cls.of(xs)
        if e.n:
            e.ci = cls.of([*xs, 0.0, 1.0]).ci
        return e

    def text(self, digits: int = 3, sign: bool = False) -> str:
        """``0.652 ± 0.009``.

        >>> Estimate(0.25, 0.0123, 40).text(2, sign=True)
        '+0.25 ± 0.01'
        """
        if self.n == 0 or not math.isfinite(self.mean):
            return "-"
        f = f"{{:{'+' if sign else ''}.{digits}f}}"
        return f"{f.format(self.mean)} ± " + (f"{self.ci:.{digits}f}" if math.isfinite(self.ci) else "?")


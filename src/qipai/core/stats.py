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

    def text(self, digits: int = 3, sign: bool = False) -> str:
        """``0.652 ± 0.009``.

        >>> Estimate(0.25, 0.0123, 40).text(2, sign=True)
        '+0.25 ± 0.01'
        """
        if self.n == 0:
            return "-"
        f = f"{{:{'+' if sign else ''}.{digits}f}}"
        return f"{f.format(self.mean)} ± {self.ci:.{digits}f}"

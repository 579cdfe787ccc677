"""95% confidence intervals for measured bots (bench/strength.py, agents/ismcts_vs_random.py)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float
    n: int

    def text(self, digits: int = 2) -> str:
        return f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def __str__(self) -> str:
        return self.text()


def mean_interval(
    values: Sequence[float], lowest: float = -math.inf, highest: float = math.inf
) -> Interval:
    """The mean with its normal-approximation interval on the sample's deviation, cut to what
    the values can be (`lowest`, `highest`); with few values it is rough, and says so by its
    width."""
    n = len(values)
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
    return Interval(mean, max(lowest, mean - half), min(highest, mean + half), n)


def wilson(successes: float, trials: int) -> Interval:
    """The Wilson score interval of a proportion."""
    z = Z95
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    half /= 1 + z * z / trials
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half), trials)

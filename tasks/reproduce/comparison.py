"""
ELMo against a baseline over seeds, as the report judges every claim: the difference of the mean
scores, its 95% confidence interval and a one-sided test of "ELMo is better", both Welch's (unequal
variances, Welch-Satterthwaite degrees of freedom), which need no assumption that two setups spread
alike. One run against one run is never judged.

The verdicts:

- **reproduced**: the one-sided test passes at 5% (p < 0.05) with at least 3 seeds a side;
- **ELMo behind**: the whole 95% interval is below 0;
- **inconclusive**: anything else (the interval includes 0, or the test passes with fewer than 3
  seeds a side, or a side has a single seed and so no interval at all).
"""

import math
import statistics
from typing import NamedTuple, Optional, Sequence

from scipy import stats

CONFIDENCE = 0.95
ALPHA = 0.05  # the one-sided test's level
MIN_SEEDS = 3  # a side, for "reproduced"

REPRODUCED, BEHIND, INCONCLUSIVE = "reproduced", "ELMo behind", "inconclusive"


class Comparison(NamedTuple):
    difference: float  # mean(elmo) - mean(baseline)
    low: Optional[float]  # the 95% interval of the difference; None with a single seed on a side
    high: Optional[float]
    p_value: Optional[float]  # one-sided, against "ELMo is no better"
    n_baseline: int
    n_elmo: int

    @property
    def verdict(self) -> str:
        if self.high is not None and self.high < 0:
            return BEHIND
        if self.p_value is not None and self.p_value < ALPHA and min(self.n_baseline, self.n_elmo) >= MIN_SEEDS:
            return REPRODUCED
        return INCONCLUSIVE

    def interval(self) -> str:
        """'+1.04 [−0.55, +2.63]', or '+1.04 (no interval: one seed on a side)'."""
        if self.low is None:
            return f"{self.difference:+.2f} (no interval: {self.seeds()})"
        return f"{self.difference:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"

    def seeds(self) -> str:
        if self.n_baseline == self.n_elmo:
            return f"n = {self.n_baseline} a side"
        return f"n = {self.n_baseline} baseline, {self.n_elmo} ELMo"

    def reason(self) -> str:
        """Why the verdict is what it is, with the test: for the report's Main reason column."""
        if self.low is None:
            return f"{self.seeds()}: no spread, so no interval or test"
        test = f"one-sided p = {self.p_value:.3f} ({self.seeds()})"
        if self.verdict == REPRODUCED:
            return f"ELMo ahead: {test}"
        if self.verdict == BEHIND:
            return f"the 95% interval is below 0: {test}"
        if self.p_value < ALPHA:
            return f"{test}: ahead at 5%, but fewer than {MIN_SEEDS} seeds a side"
        return f"the 95% interval includes 0: {test}"


def compare(baseline: Sequence[float], elmo: Sequence[float]) -> Comparison:
    """Welch's interval and one-sided test for mean(elmo) - mean(baseline); each side needs a score."""
    if not baseline or not elmo:
        raise ValueError("a comparison needs at least one score a side")
    difference = statistics.fmean(elmo) - statistics.fmean(baseline)
    n_base, n_elmo = len(baseline), len(elmo)
    if n_base < 2 or n_elmo < 2:
        return Comparison(difference, None, None, None, n_base, n_elmo)
    share_base = statistics.variance(baseline) / n_base
    share_elmo = statistics.variance(elmo) / n_elmo
    error = math.sqrt(share_base + share_elmo)
    if error == 0:  # every seed scored the same on both sides: the difference is all there is
        p_value = 0.0 if difference > 0 else 1.0 if difference < 0 else 0.5
        return Comparison(difference, difference, difference, p_value, n_base, n_elmo)
    freedom = (share_base + share_elmo) ** 2 / (share_base**2 / (n_base - 1) + share_elmo**2 / (n_elmo - 1))
    margin = stats.t.ppf(0.5 + CONFIDENCE / 2, freedom) * error
    p_value = float(stats.t.sf(difference / error, freedom))
    return Comparison(difference, difference - margin, difference + margin, p_value, n_base, n_elmo)

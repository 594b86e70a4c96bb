import pytest

from tasks.reproduce.comparison import BEHIND, INCONCLUSIVE, REPRODUCED, compare

# The cpu plan's coreference test F1 (results/cpu/coref-*-seed{1,2,3}.json), the case issue 40 names.
COREF_BASELINE = [46.234, 46.586, 45.159]
COREF_ELMO = [46.402, 47.692, 47.016]


def test_welchs_interval_and_one_sided_test_on_the_coreference_runs():
    found = compare(COREF_BASELINE, COREF_ELMO)
    assert found.difference == pytest.approx(1.044, abs=1e-3)
    assert (found.low, found.high) == (pytest.approx(-0.546, abs=2e-3), pytest.approx(2.634, abs=2e-3))
    assert found.p_value == pytest.approx(0.0707, abs=5e-4)  # t = 1.84 on 3.4 degrees of freedom
    assert found.verdict == INCONCLUSIVE  # the old rule (beyond the larger seed spread) called it reproduced
    assert found.reason() == "the 95% interval includes 0: one-sided p = 0.071 (n = 3 a side)"
    assert found.interval() == "+1.04 [-0.55, +2.63]"


def test_scipy_agrees_on_the_test():
    from scipy import stats

    expected = stats.ttest_ind(COREF_ELMO, COREF_BASELINE, equal_var=False, alternative="greater")
    assert compare(COREF_BASELINE, COREF_ELMO).p_value == pytest.approx(expected.pvalue, rel=1e-9)


@pytest.mark.parametrize(
    "baseline, elmo, verdict",
    [
        ([50.0, 50.5, 49.5], [52.0, 52.5, 51.5], REPRODUCED),
        ([50.0, 50.5], [52.0, 52.5], INCONCLUSIVE),  # ahead at 5%, but two seeds a side
        ([52.85, 53.4, 52.3], [49.6, 50.0, 49.2], BEHIND),
        ([50.0, 53.0, 47.0], [51.0, 54.0, 48.0], INCONCLUSIVE),
        ([50.0], [60.0], INCONCLUSIVE),  # one run against one run is never judged
    ],
)
def test_the_verdicts(baseline, elmo, verdict):
    assert compare(baseline, elmo).verdict == verdict


def test_identical_seeds_give_the_difference_alone():
    found = compare([50.0, 50.0, 50.0], [51.0, 51.0, 51.0])
    assert (found.low, found.high, found.p_value, found.verdict) == (1.0, 1.0, 0.0, REPRODUCED)
    with pytest.raises(ValueError):
        compare([], [1.0])

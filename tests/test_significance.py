"""metrics.compare.significance against independent references: scipy (live) and closed forms for the t-test and the
incomplete beta, brute-force enumeration of all 2^n sign flips for the randomization test, hand arithmetic for Holm."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import stats

from metrics.compare.significance import (
    bootstrap_ci,
    compare_paired,
    holm,
    paired_t_test,
    randomization_test,
    regularized_incomplete_beta,
    t_two_sided_p,
    wins_ties_losses,
)


def paired_samples(n: int, seed: int, shift: float = 0.03) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 1, n)
    return a, np.clip(a + rng.normal(shift, 0.15, n), 0, 1)


def brute_force_p(d: np.ndarray) -> float:
    """Share of all 2^n sign patterns whose |mean| reaches the observed |mean| (written independently)."""
    observed = abs(sum(d) / len(d))
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        if abs(sum(s * x for s, x in zip(signs, d, strict=True)) / len(d)) >= observed - 1e-12:
            hits += 1
    return hits / 2 ** len(d)


# --- incomplete beta and t ---


BETA_CLOSED_FORMS = [  # I_x(a, b) where the Beta CDF has a closed form
    (1, 1, lambda x: x),
    (3, 1, lambda x: x**3),
    (1, 4, lambda x: -math.expm1(4 * math.log1p(-x))),  # 1 - (1 - x)^4 without cancellation
    (0.5, 0.5, lambda x: 2 / math.pi * math.asin(math.sqrt(x))),
    (2, 2, lambda x: 3 * x**2 - 2 * x**3),
]


@pytest.mark.parametrize("a, b, closed_form", BETA_CLOSED_FORMS)
@pytest.mark.parametrize("x", [1e-9, 0.001, 0.1, 0.37, 0.5, 0.9, 0.999])
def test_incomplete_beta_matches_closed_forms(a, b, closed_form, x):
    assert regularized_incomplete_beta(a, b, x) == pytest.approx(closed_form(x), rel=1e-10, abs=1e-300)


def test_incomplete_beta_ends_and_range():
    assert regularized_incomplete_beta(2, 3, 0.0) == 0.0
    assert regularized_incomplete_beta(2, 3, 1.0) == 1.0
    with pytest.raises(ValueError):
        regularized_incomplete_beta(2, 3, 1.5)


@pytest.mark.parametrize("t", [0.0, 0.3, -1.2, 2.0, 3.7, -8.0, 40.0])
def test_t_p_value_matches_closed_forms(t):
    # df = 1 is the Cauchy distribution; df = 2 has the CDF 1/2 + t / (2 sqrt(2 + t^2)).
    assert t_two_sided_p(t, 1) == pytest.approx(1 - 2 / math.pi * math.atan(abs(t)), rel=1e-12, abs=1e-15)
    assert t_two_sided_p(t, 2) == pytest.approx(1 - abs(t) / math.sqrt(2 + t * t), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("df", [1, 2, 5, 29, 99, 1000, 6979])
@pytest.mark.parametrize("t", [0.0, 0.3, -1.2, 2.0, 3.7, -8.0, 40.0])
def test_t_p_value_matches_scipy(t, df):
    expected = 2 * stats.t.sf(abs(t), df)
    assert t_two_sided_p(t, df) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("n, seed, shift", [(2, 1, 0.1), (5, 2, 0.0), (20, 3, 0.05), (50, 4, 0.03), (500, 5, 0.01)])
def test_paired_t_test_matches_scipy_ttest_rel(n, seed, shift):
    a, b = paired_samples(n, seed, shift)
    ours = paired_t_test(a, b)
    ref = stats.ttest_rel(b, a)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.df == n - 1
    assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    assert not ours.note


def test_t_test_of_nearly_identical_differences_is_silent():
    # b - a is 0.1 up to float rounding: the spread is 3e-17, and scipy's ttest_rel warns of precision loss there.
    a = np.array([0.1, 0.2, 0.7])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = paired_t_test(a, a + 0.1)
    d = (a + 0.1) - a
    assert result.statistic == pytest.approx(d.mean() / (d.std(ddof=1) / math.sqrt(3)), rel=1e-12)
    assert result.p_value < 1e-20


def test_t_test_degenerate_inputs():
    assert paired_t_test([0.5], [0.7]).statistic is None
    assert paired_t_test([0.5], [0.7]).p_value == 1.0
    assert "undefined" in paired_t_test([0.5], [0.7]).note
    same = paired_t_test([0.1, 0.4, 0.9], [0.1, 0.4, 0.9])  # identical runs: every difference 0
    assert same.statistic is None and same.p_value == 1.0 and "0 / 0" in same.note
    shifted = paired_t_test([0.25, 0.5, 0.75], [0.5, 0.75, 1.0])  # every query +0.25: spread 0
    assert shifted.statistic == math.inf and shifted.p_value == 0.0 and "infinite" in shifted.note
    with pytest.raises(ValueError):
        paired_t_test([0.1, 0.2], [0.1])


# --- randomization ---


@pytest.mark.parametrize("n, seed", [(3, 1), (6, 2), (9, 3), (12, 4)])
def test_randomization_enumerates_every_sign_flip_for_small_n(n, seed):
    a, b = paired_samples(n, seed, 0.1)
    result = randomization_test(a, b)  # 2^n <= 10,000: exact
    assert result.exact and result.n_permutations == 2**n and len(result.null) == 2**n
    assert result.p_value == brute_force_p(b - a)
    assert result.observed == pytest.approx(float(np.mean(b - a)), abs=1e-15)


def test_sampled_randomization_agrees_with_exact_enumeration():
    a, b = paired_samples(16, 7, 0.06)  # 65,536 patterns > 10,000 permutations: sampled
    exact = brute_force_p(b - a)
    result = randomization_test(a, b)
    assert not result.exact and result.n_permutations == 10_000 and len(result.null) == 10_000
    se = math.sqrt(exact * (1 - exact) / 10_000)
    assert abs(result.p_value - exact) < 4 * se + 1 / 10_001
    counted = int((np.abs(result.null) >= abs(result.observed) * (1 - 1e-12)).sum())
    assert result.p_value == (counted + 1) / 10_001  # (count + 1) / (n_perm + 1)


def test_randomization_is_deterministic_with_its_seed():
    a, b = paired_samples(40, 8)
    first, again = randomization_test(a, b, seed=3), randomization_test(a, b, seed=3)
    assert first.p_value == again.p_value and np.array_equal(first.null, again.null)
    assert not np.array_equal(first.null, randomization_test(a, b, seed=4).null)


def test_randomization_degenerate_inputs():
    assert randomization_test([0.2, 0.3], [0.2, 0.3]).p_value == 1.0  # identical: every pattern ties
    zeros = randomization_test(np.full(30, 0.5), np.full(30, 0.5))  # sampled path too
    assert zeros.p_value == 1.0 and zeros.observed == 0.0
    single = randomization_test([0.2], [0.6])
    assert single.exact and single.p_value == 1.0  # one query: +0.4 and -0.4 are equally extreme
    assert randomization_test([], []).p_value == 1.0


def test_randomization_detects_a_clear_win():
    a, b = paired_samples(60, 9, 0.2)
    assert randomization_test(a, b).p_value == 1 / 10_001  # no flip reaches a shift this consistent


# --- bootstrap ---


def test_bootstrap_ci_contains_the_mean_and_is_deterministic():
    a, b = paired_samples(50, 10)
    d = b - a
    ci = bootstrap_ci(d)
    assert ci.low < float(np.mean(d)) < ci.high
    assert ci.mean == pytest.approx(float(np.mean(d)), abs=1e-15)
    assert ci == bootstrap_ci(d)
    assert (ci.low, ci.high) != (bootstrap_ci(d, seed=1).low, bootstrap_ci(d, seed=1).high)
    assert bootstrap_ci(d, level=0.5).high - bootstrap_ci(d, level=0.5).low < ci.high - ci.low


def test_bootstrap_ci_width_is_close_to_the_normal_approximation():
    d = np.random.default_rng(11).normal(0.02, 0.1, 400)
    ci = bootstrap_ci(d)
    half = 1.959964 * d.std(ddof=1) / math.sqrt(len(d))  # the CLT interval the bootstrap should approximate
    assert ci.high - ci.low == pytest.approx(2 * half, rel=0.1)


def test_bootstrap_coverage_on_known_population():
    """Over 200 samples from a population with mean 0.05, about 95% of the intervals cover 0.05."""
    rng = np.random.default_rng(12)
    covered = 0
    for trial in range(200):
        d = rng.normal(0.05, 0.2, 40)
        ci = bootstrap_ci(d, n_resamples=2_000, seed=trial)
        covered += ci.low <= 0.05 <= ci.high
    assert 0.88 <= covered / 200 <= 0.99


def test_bootstrap_degenerate_inputs():
    assert bootstrap_ci([0.3]) == bootstrap_ci([0.3]) and (bootstrap_ci([0.3]).low, bootstrap_ci([0.3]).high) == (
        0.3,
        0.3,
    )
    zeros = bootstrap_ci(np.zeros(10))
    assert (zeros.low, zeros.mean, zeros.high) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        bootstrap_ci([0.1, 0.2], level=95)


# --- Holm and counts ---


def test_holm_by_hand():
    # sorted: 0.01 (x3), 0.02 (x2), 0.04 (x1); then monotone and capped
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])  # 0.03 x 2 = 0.06, 0.04 x 1 -> max 0.06
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # 0.5 x 2 = 1.0; 0.6 x 1 -> max(1.0, 0.6)
    assert holm([0.2]) == [0.2]
    assert holm([]) == []


def test_wins_ties_losses():
    assert wins_ties_losses([0.1, 0.5, 0.3, 0.2], [0.2, 0.5, 0.1, 0.2 + 1e-15]) == (1, 2, 1)


def test_compare_paired_collects_every_statistic():
    a, b = paired_samples(30, 13, 0.05)
    result = compare_paired(a, b)
    assert result.n == 30
    assert result.mean_difference == pytest.approx(b.mean() - a.mean(), abs=1e-15)
    assert (result.wins, result.ties, result.losses) == (int((b > a).sum()), int((b == a).sum()), int((b < a).sum()))
    assert result.t_test.p_value == pytest.approx(stats.ttest_rel(b, a).pvalue, rel=1e-9)
    assert result.ci.low < result.mean_difference < result.ci.high
    empty = compare_paired([], [])
    assert (empty.n, empty.mean_difference, empty.t_test.p_value, empty.randomization.p_value) == (0, 0.0, 1.0, 1.0)


def test_holm_across_metrics_matches_statsmodels():
    """Each test's p-values over the metrics are one family: statsmodels' Holm (multipletests, method="holm") on the
    t-test p's and, separately, on the randomization p's gives the same adjusted values."""
    from statsmodels.stats.multitest import multipletests

    from metrics.compare.significance import holm_across_metrics

    results = {
        name: compare_paired(*paired_samples(12, seed, shift), n_permutations=500, n_resamples=200)
        for name, seed, shift in (("NDCG@10", 1, 0.05), ("AP", 2, 0.0), ("RR@10", 3, 0.12), ("P@10", 4, -0.02))
    }
    adjusted = holm_across_metrics(results)
    assert list(adjusted) == list(results)
    for test, column in (("t_test", 0), ("randomization", 1)):
        p_values = [getattr(results[m], test).p_value for m in results]
        expected = multipletests(p_values, method="holm")[1]
        assert [adjusted[m][column] for m in results] == pytest.approx(list(expected), abs=1e-15)


def test_holm_across_metrics_by_hand():
    """t-test p 0.01, 0.04, 0.03: sorted, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> kept at 0.06. Randomization
    p 0.5, 0.6, 0.2: 0.2 x 3 = 0.6, 0.5 x 2 = 1.0, 0.6 x 1 -> kept at 1.0."""
    from types import SimpleNamespace

    from metrics.compare.significance import holm_across_metrics

    def result(p_t: float, p_r: float) -> SimpleNamespace:
        return SimpleNamespace(t_test=SimpleNamespace(p_value=p_t), randomization=SimpleNamespace(p_value=p_r))

    adjusted = holm_across_metrics({"A": result(0.01, 0.5), "B": result(0.04, 0.6), "C": result(0.03, 0.2)})
    assert list(adjusted) == ["A", "B", "C"]
    assert [adjusted[m][0] for m in "ABC"] == pytest.approx([0.03, 0.06, 0.06])
    assert [adjusted[m][1] for m in "ABC"] == pytest.approx([1.0, 1.0, 0.6])

"""Is run B really better than run A? Paired statistics over per-query scores.

Every function takes two aligned arrays of per-query scores (``a[i]`` and ``b[i]`` are the same query) and looks
at the differences ``d = b - a``. The t-test's p-value comes from scipy.stats; the randomization test and the
bootstrap are written out in numpy, since they are what the compare page teaches (and its null histogram).
Resampling uses ``numpy.random.default_rng(seed)`` with a fixed seed, so a page shows the same p-value on every rerun.

References: Smucker, Allan & Carterette, "A comparison of statistical significance tests for information
retrieval evaluation", CIKM 2007 (randomization vs t-test vs bootstrap); Holm, "A simple sequentially rejective
multiple test procedure", Scand. J. Statistics 6(2), 1979.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

SEED = 42
N_PERMUTATIONS = 10_000
N_RESAMPLES = 10_000
TIE = 1e-12  # |b - a| below this is a tie: two rankings can reach one value by float sums in different orders
_CHUNK = 1_000  # resamples per block: memory stays at _CHUNK x n floats even for 10,000 x 5,000 queries
Scores = Sequence[float] | np.ndarray  # per-query values of one run: a list, or a numpy array (an Evaluation's)


@dataclass(frozen=True)
class TTest:
    """A paired, two-sided Student t-test on the differences."""

    statistic: float | None  # None when t is undefined (fewer than 2 queries, or every difference is 0)
    df: int
    p_value: float
    note: str = ""  # why t is undefined or infinite; empty otherwise


@dataclass(frozen=True)
class Randomization:
    """A paired randomization (sign-flip permutation) test of the mean difference."""

    observed: float  # the mean difference b - a
    p_value: float
    null: np.ndarray  # the mean difference of every permutation (or of every sign pattern when exact)
    n_permutations: int
    exact: bool  # True: all 2^n sign patterns were enumerated; p = share with |mean| >= |observed|
    seed: int
    count: int = 0  # permutations (or patterns) with |mean| >= |observed|


@dataclass(frozen=True)
class BootstrapCI:
    """A percentile bootstrap confidence interval for the mean difference."""

    mean: float
    low: float
    high: float
    level: float
    n_resamples: int
    seed: int


def differences(a: Scores, b: Scores) -> np.ndarray:
    """``b - a`` per query, as float64; the two must be aligned and the same length."""
    first, second = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if first.shape != second.shape or first.ndim != 1:
        raise ValueError(
            f"paired scores must be two 1-D arrays of the same length, got {first.shape} and {second.shape}"
        )
    return second - first


def wins_ties_losses(a: Scores, b: Scores, tie: float = TIE) -> tuple[int, int, int]:
    """How many queries B wins (b > a), ties (|b - a| <= tie) and loses."""
    d = differences(a, b)
    return int((d > tie).sum()), int((np.abs(d) <= tie).sum()), int((d < -tie).sum())


# --- the t distribution (scipy) ---
# scipy is imported on use: scipy.stats takes about a second to import, and pages that never run a t-test load this
# module (Why tools differ, through ir_metrics_lab.core.figures.comparison_charts).


def regularized_incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the CDF of the Beta(a, b) distribution at x (``scipy.special.betainc``)."""
    from scipy import special

    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1], got {x}")
    return float(special.betainc(a, b, x))


def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    from scipy import stats

    return min(1.0, float(2.0 * stats.t.sf(abs(t), df)))


def paired_t_test(a: Scores, b: Scores) -> TTest:
    """Paired two-sided t-test: t = mean(d) / (sd(d) / sqrt(n)) with n - 1 degrees of freedom, p from scipy's t
    distribution (the same t and p as scipy.stats.ttest_rel, checked in the tests).

    Degenerate cases: fewer than 2 queries or every difference 0 give t undefined (None) and p = 1 (no evidence
    of a difference); identical non-zero differences give an infinite t and p = 0, as scipy does.
    """
    d = differences(a, b)
    n = len(d)
    if n < 2:
        return TTest(
            None,
            max(n - 1, 0),
            1.0,
            f"t is undefined with {n} quer{'y' if n == 1 else 'ies'}: the spread of the differences needs at least 2",
        )
    df = n - 1
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        if mean == 0.0:
            return TTest(None, df, 1.0, "every difference is 0, so t is undefined (0 / 0); p = 1: no evidence")
        return TTest(
            math.copysign(math.inf, mean),
            df,
            0.0,
            "every query moved by exactly the same amount: the spread is 0, so t is infinite",
        )
    t = mean / (sd / math.sqrt(n))  # scipy's ttest_rel, without its precision warning when sd is tiny
    return TTest(t, df, t_two_sided_p(t, df))


# --- resampling ---


def randomization_test(
    a: Scores,
    b: Scores,
    n_permutations: int = N_PERMUTATIONS,
    seed: int = SEED,
) -> Randomization:
    """Paired randomization test: if A and B were interchangeable, each query's difference would be as likely
    to have the other sign. Flip signs at random ``n_permutations`` times and count how often the mean
    difference is at least as far from 0 as the observed one (two-sided).

    p = (count + 1) / (n_permutations + 1), counting the observed labelling once (Phipson & Smyth 2010: never 0).
    When 2^n <= n_permutations, every sign pattern is enumerated instead and p is exact: count / 2^n.
    """
    d = differences(a, b)
    n = len(d)
    observed = float(d.mean()) if n else 0.0
    if n == 0:
        return Randomization(0.0, 1.0, np.zeros(0), 0, True, seed, 0)
    threshold = abs(observed) * (1 - 1e-12)  # the same |mean| summed in another order must still count
    if 2**n <= n_permutations:
        patterns = (np.arange(2**n)[:, None] >> np.arange(n)) & 1  # row j: the bits of j, 1 = flip
        null = ((1 - 2 * patterns) @ d) / n
        count = int((np.abs(null) >= threshold).sum())
        return Randomization(observed, count / 2**n, null, 2**n, True, seed, count)
    rng = np.random.default_rng(seed)
    blocks = []
    for start in range(0, n_permutations, _CHUNK):
        size = min(_CHUNK, n_permutations - start)
        signs = 1 - 2 * rng.integers(0, 2, size=(size, n), dtype=np.int8)
        blocks.append((signs @ d) / n)
    null = np.concatenate(blocks)
    count = int((np.abs(null) >= threshold).sum())
    return Randomization(observed, (count + 1) / (n_permutations + 1), null, n_permutations, False, seed, count)


def bootstrap_ci(
    d: Scores,
    level: float = 0.95,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> BootstrapCI:
    """Percentile bootstrap CI for the mean of ``d``: resample the queries with replacement, take the mean of
    each resample, and read the (1 - level)/2 and (1 + level)/2 quantiles of those means."""
    values = np.asarray(d, dtype=np.float64)
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")
    n = len(values)
    if n == 0:
        return BootstrapCI(0.0, 0.0, 0.0, level, 0, seed)
    rng = np.random.default_rng(seed)
    means = np.concatenate(
        [
            values[rng.integers(0, n, size=(min(_CHUNK, n_resamples - start), n))].mean(axis=1)
            for start in range(0, n_resamples, _CHUNK)
        ]
    )
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return BootstrapCI(float(values.mean()), float(low), float(high), level, n_resamples, seed)


# --- several metrics at once ---


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment, in the input order: the i-th smallest p is multiplied by (m - i + 1), capped
    at 1, and kept at least as large as the adjusted p before it (so the order of the p-values is kept)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for position, i in enumerate(order):
        running = max(running, min(1.0, (m - position) * p_values[i]))
        adjusted[i] = running
    return adjusted


def bonferroni(p_values: Sequence[float]) -> list[float]:
    """Bonferroni's adjustment, in the input order: each p multiplied by the number of tests m, capped at 1."""
    m = len(p_values)
    return [min(1.0, m * p) for p in p_values]


@dataclass(frozen=True)
class PairedComparison:
    """Everything the compare page shows for one metric: means, the difference, its CI, counts and both tests."""

    n: int
    mean_a: float
    mean_b: float
    mean_difference: float  # mean(b - a), equal to mean_b - mean_a up to rounding
    ci: BootstrapCI
    wins: int  # queries where B beats A
    ties: int
    losses: int
    t_test: TTest
    randomization: Randomization


def compare_paired(
    a: Scores,
    b: Scores,
    *,
    n_permutations: int = N_PERMUTATIONS,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> PairedComparison:
    """All paired statistics of B against A over the same queries."""
    d = differences(a, b)
    wins, ties, losses = wins_ties_losses(a, b)
    return PairedComparison(
        n=len(d),
        mean_a=float(np.mean(a)) if len(d) else 0.0,
        mean_b=float(np.mean(b)) if len(d) else 0.0,
        mean_difference=float(d.mean()) if len(d) else 0.0,
        ci=bootstrap_ci(d, n_resamples=n_resamples, seed=seed),
        wins=wins,
        ties=ties,
        losses=losses,
        t_test=paired_t_test(a, b),
        randomization=randomization_test(a, b, n_permutations=n_permutations, seed=seed),
    )


def holm_across_metrics(results: Mapping[str, PairedComparison]) -> dict[str, tuple[float, float]]:
    """{metric: (Holm-adjusted p of the t-test, of the randomization test)}: each test's p-values over the metrics
    compared form one family (one pair of runs, several metrics), adjusted together."""
    metrics = list(results)
    t_test = holm([results[m].t_test.p_value for m in metrics])
    randomization = holm([results[m].randomization.p_value for m in metrics])
    return {m: (t_test[i], randomization[i]) for i, m in enumerate(metrics)}

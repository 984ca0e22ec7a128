"""Is run B really better than run A? Paired statistics over per-query scores, in plain numpy.

Every function takes two aligned arrays of per-query scores (``a[i]`` and ``b[i]`` are the same query) and looks
at the differences ``d = b - a``. Nothing here imports scipy: it is a test-only dependency, so the t distribution
is computed by hand (the regularized incomplete beta function, below) and checked against scipy in the tests.
Resampling uses ``numpy.random.default_rng(seed)`` with a fixed seed, so a page shows the same p-value on every rerun.

References: Smucker, Allan & Carterette, "A comparison of statistical significance tests for information
retrieval evaluation", CIKM 2007 (randomization vs t-test vs bootstrap); Holm, "A simple sequentially rejective
multiple test procedure", Scand. J. Statistics 6(2), 1979; Press et al., Numerical Recipes, 3rd ed., §6.4 (betacf).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

SEED = 42
N_PERMUTATIONS = 10_000
N_RESAMPLES = 10_000
TIE = 1e-12  # |b - a| below this is a tie: two rankings can reach one value by float sums in different orders
_CHUNK = 1_000  # resamples per block: memory stays at _CHUNK x n floats even for 10,000 x 5,000 queries


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


def differences(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    """``b - a`` per query, as float64; the two must be aligned and the same length."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired scores must be two 1-D arrays of the same length, got {a.shape} and {b.shape}")
    return b - a


def wins_ties_losses(a: Sequence[float], b: Sequence[float], tie: float = TIE) -> tuple[int, int, int]:
    """How many queries B wins (b > a), ties (|b - a| <= tie) and loses."""
    d = differences(a, b)
    return int((d > tie).sum()), int((np.abs(d) <= tie).sum()), int((d < -tie).sum())


# --- the t distribution, by hand ---


def regularized_incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the CDF of the Beta(a, b) distribution at x.

    Hand-written because scipy (``scipy.special.betainc``) is not a runtime dependency. Numerical Recipes §6.4:
    the continued fraction converges fast for x < (a + 1) / (a + b + 2); otherwise use I_x(a, b) = 1 - I_{1-x}(b, a).
    """
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1], got {x}")
    if x == 0.0 or x == 1.0:
        return x
    # x^a (1-x)^b / (a B(a, b)), in logs so large a, b do not overflow
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, 1.0 - x) / b


def _beta_continued_fraction(a: float, b: float, x: float, max_iterations: int = 10_000, eps: float = 1e-16) -> float:
    """The continued fraction of I_x(a, b), evaluated by the modified Lentz method (Numerical Recipes ``betacf``)."""
    tiny = 1e-300  # stands in for a zero denominator, as Lentz prescribes
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, max_iterations + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))  # even step
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))  # odd step
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            return h
    raise ArithmeticError(f"incomplete beta: no convergence for a={a}, b={b}, x={x}")


def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom: I_{df/(df+t^2)}(df/2, 1/2)."""
    if math.isinf(t):
        return 0.0
    return min(1.0, regularized_incomplete_beta(df / 2.0, 0.5, df / (df + t * t)))


def paired_t_test(a: Sequence[float], b: Sequence[float]) -> TTest:
    """Paired two-sided t-test: t = mean(d) / (sd(d) / sqrt(n)) with n - 1 degrees of freedom (as scipy's ttest_rel).

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
    t = mean / (sd / math.sqrt(n))
    return TTest(t, df, t_two_sided_p(t, df))


# --- resampling ---


def randomization_test(
    a: Sequence[float],
    b: Sequence[float],
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
    d: Sequence[float],
    level: float = 0.95,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
) -> BootstrapCI:
    """Percentile bootstrap CI for the mean of ``d``: resample the queries with replacement, take the mean of
    each resample, and read the (1 - level)/2 and (1 + level)/2 quantiles of those means."""
    d = np.asarray(d, dtype=np.float64)
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")
    n = len(d)
    if n == 0:
        return BootstrapCI(0.0, 0.0, 0.0, level, 0, seed)
    rng = np.random.default_rng(seed)
    means = np.concatenate(
        [
            d[rng.integers(0, n, size=(min(_CHUNK, n_resamples - start), n))].mean(axis=1)
            for start in range(0, n_resamples, _CHUNK)
        ]
    )
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return BootstrapCI(float(d.mean()), float(low), float(high), level, n_resamples, seed)


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
    a: Sequence[float],
    b: Sequence[float],
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

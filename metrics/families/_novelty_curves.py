"""What the diversity families that read a curve at depth k share (metrics.diversity.arithmetic's curves: novelty-gain
sums, the coverage counts): their engine kernels' per-query values, one per kind of curve, and a run's value over the
greedy ideal ranking's for the normalised ones. The families' modules pass their own curve; the arithmetic is the
diversity package's (metrics.diversity), so a readable function and its kernel still agree bit for bit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.diversity import arithmetic as a
from metrics.diversity.readable import Walked, one_topic, per_query

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

# (rank scores, subtopics, alpha, depth) -> the value at each depth: arithmetic.dcg_curve, arithmetic.err_curve
NoveltyCurve = Callable[[Sequence[float], int, float, int], list[float]]
# (covers, subtopics, depth) -> the value at each depth: arithmetic.precision_curve, arithmetic.strec_curve
CoverageCurve = Callable[[list, int, int], list[float]]


def novelty_values(data: Prepared, measure: Measure, curve: NoveltyCurve) -> np.ndarray:
    """A kernel's values for a sum of novelty gains over the ideal ideal: ``curve`` of the top k's gains, read at k."""
    alpha, k = measure.number("alpha"), measure.k

    def value(covers: list, ideal: list, relevant) -> float:
        depth = k or len(covers)
        return a.last(curve(a.scores(covers[:depth], alpha), one_topic(relevant)[0], alpha, depth))

    return per_query(data, value)


def normalised_values(
    data: Prepared, measure: Measure, curve: NoveltyCurve, guard: NoveltyCurve | None = None
) -> np.ndarray:
    """A kernel's values for ``curve`` over the same for the greedy ideal ranking, read at k: 0 where ``guard`` (the
    run's alpha-DCG curve; None: ``curve`` itself) is 0, as :func:`metrics.diversity.arithmetic.normalised`."""
    alpha, k = measure.number("alpha"), measure.k

    def value(covers: list, ideal: list, relevant) -> float:
        n = one_topic(relevant)[0]
        depth = k or len(covers)
        walked = a.scores(covers[:depth], alpha)
        run = curve(walked, n, alpha, depth)
        best = curve(a.scores(ideal[:depth], alpha), n, alpha, depth)
        return a.last(a.normalised(run, best, run if guard is None else guard(walked, n, alpha, depth)))

    return per_query(data, value, alpha)


def coverage_values(data: Prepared, measure: Measure, curve: CoverageCurve) -> np.ndarray:
    """A kernel's values for a count of subtopics covered: ``curve`` of the top k's covers, read at k."""
    k = measure.k

    def value(covers: list, ideal: list, relevant) -> float:
        depth = k or len(covers)
        return a.last(curve(covers[:depth], one_topic(relevant)[0], depth))

    return per_query(data, value)


def over_ideal(
    w: Walked, depth: int, alpha: float, curve: NoveltyCurve, guard: NoveltyCurve | None = None
) -> tuple[float, float, float]:
    """A walked ranking's ``curve`` over the greedy ideal ranking's, at ``depth``: (the value, the run's, the
    ideal's); 0 where ``guard`` (None: ``curve`` itself) of the run is 0."""
    n = w.aspects.subtopics
    run = curve(w.scores, n, alpha, depth)
    ideal = curve(a.scores(w.ideal_covers(alpha)[:depth], alpha), n, alpha, depth)
    value = a.last(a.normalised(run, ideal, run if guard is None else guard(w.scores, n, alpha, depth)))
    return value, a.last(run), a.last(ideal)

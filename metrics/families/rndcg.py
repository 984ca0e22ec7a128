"""NDCG averaged at the R levels (Rndcg). Rndcg (experimental): NDCG taken wherever the ideal gain drops a level, and at
the list's end, averaged.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.catalog.family import GAINS, Family, Teaching, TrecEval
from metrics.core.checks import count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import Gains, LevelGain, gain_of, level_counts, level_gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, position_within
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._gain_walks import (
    Walk,
    _gains_of,
    _Ideal,
    _integer,
    _Sums,
    _walks,
    averaged_worked,
    walk_breakdown,
    walk_values,
)

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def rndcg_walk(values: Sequence[int], levels: Sequence[LevelGain], R: int) -> Walk:
    """trec_eval's ``Rndcg`` (``m_Rndcg.c``): NDCG taken where the ideal gain changes (the R levels) and at the end of
    the ranking, then averaged. R = 0 gives 0; R > 0 with no point gives NaN, as trec_eval's 0/0."""
    n = len(values)
    if R == 0:
        return Walk(0.0, (0.0,) * n, {Term.SUM: 0.0, Term.POINTS: 0})
    ideal = _Ideal(levels)
    previous = ideal.gain
    dcg = best = total = 0.0
    points: list[tuple[int, float]] = []  # (rank the point is shown at, NDCG there)

    def point(at_rank: int) -> None:
        nonlocal total
        if best > 0.0:
            total += dcg / best
            points.append((at_rank, dcg / best))

    i = 0
    while i < n and ideal.gain > 0.0:
        gain = gain_of(values[i], levels)
        ideal.advance()
        if previous != ideal.gain:
            point(max(i, 1))
            previous = ideal.gain
        if gain != 0:
            dcg += gain / math.log2(i + 2)
        if ideal.gain > 0.0:
            best += ideal.gain / math.log2(i + 2)
        i += 1
    if i < n:
        while i < n:
            gain = gain_of(values[i], levels)
            if gain != 0:
                dcg += gain / math.log2(i + 2)
            i += 1
        point(n)
    while ideal.gain > 0.0:
        ideal.advance()
        if previous != ideal.gain:
            point(n)
            previous = ideal.gain
        if ideal.gain > 0.0:
            best += ideal.gain / math.log2(i + 2)
        i += 1
    # trec_eval divides by the number of points even when there is none (R > 0 but no positive ideal gain, as at
    # -l 0 with only grade-0 judgments): 0/0, NaN, printed -nan
    value = total / len(points) if points else math.nan
    contributions = [0.0] * n
    for rank, ndcg_there in points:
        if n:
            contributions[rank - 1] += ndcg_there / len(points)
    return Walk(value, tuple(contributions), {Term.SUM: total, Term.POINTS: len(points)})


def rndcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""NDCG averaged at the R levels: the ranks where the ideal gain drops to the next level.

    trec_eval ``Rndcg`` (experimental).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, only to count R
        (R = 0 gives 0); the gains are the grades, or the gain map's.
    gains : tuple of (int, float) pairs, optional
        A gain per relevance level, e.g. ``((1, 3.0), (2, 9.0))`` (trec_eval's ``NAME.1=3,2=9``); other levels gain
        their own number. Empty (the default): every level gains its number (its grade).

    Returns
    -------
    Breakdown
        ``value`` is Rndcg, from 0 to 1 (NaN in the one case below); ``steps`` has one RankStep per retrieved rank
        of the top k, the rank where a point is taken contributing its NDCG divided by the number of points;
        ``terms`` holds the sum (``Term.SUM``) and the points averaged (``Term.POINTS``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    ndcg, ndcg_rel

    Notes
    -----
    .. math:: \mathrm{Rndcg} = \frac{1}{m} \sum_{j=1}^{m} \mathrm{NDCG@}r_j

    where r_1 < r_2 < ... are the ranks where the ideal gain drops to the next level (5 grade-3, 3 grade-2 docs:
    r = 5, 8, ...) and the list length. Conventions (``m_Rndcg.c``): R = 0 (at the threshold) gives 0; gains as in
    NDCG with a gain map; k keeps the top k. R > 0 with no positive ideal gain (threshold 0 and only grade-0
    judgments) gives NaN, as trec_eval's 0/0.

    Examples
    --------
    >>> rndcg(["a", "b"], {"a": 2, "b": 1}).value
    1.0
    >>> round(rndcg(["a", "b"], {"a": 1, "b": 2}).value, 4)
    0.6799
    """
    top, values = walk_values(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    walk = rndcg_walk(values, level_gains(level_counts(qrels), gains), R)
    return walk_breakdown("Rndcg", top, qrels, k, walk, conventions)


def rndcg_definition(c: Conventions) -> str:
    return (
        r"\mathrm{Rndcg} = \frac{1}{m} \sum_{j=1}^{m} \mathrm{NDCG@}r_j \quad "
        r"(r_j\text{: where the ideal gain drops})"
    )


def rndcg_worked(b: Breakdown) -> str:
    return averaged_worked(r"\mathrm{Rndcg}", b, "NDCG where the ideal gain changes level, and at the list's end")


def rndcg_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    if not _integer(_gains_of(measure)):
        R = data.R.tolist()
        return _walks(data, measure, lambda values, levels, s: rndcg_walk(values, levels, R[s]))
    sums = _Sums(data, measure)
    # the NDCG points: each ideal position i (1..L) where the ideal gain changes (at L it drops to the end), then
    # the end of a ranking longer than L + 1
    slot, gain = sums.ideal_slot, sums.ideal_gain
    position = position_within(slot)
    last = position == sums.length[slot]
    changes = np.zeros(len(slot), dtype=bool)
    changes[1:] = (slot[1:] == slot[:-1]) & (gain[1:] != gain[:-1])
    at_change = np.concatenate([position[changes] - 1, position[last]])  # i: the point sees ranks 1..i
    change_slot = np.concatenate([slot[changes], slot[last]])
    keep = at_change > 0
    at_change, change_slot = at_change[keep], change_slot[keep]
    ends = np.flatnonzero((sums.length > 0) & (sums.length + 1 < sums.n))
    point_slot = np.concatenate([change_slot, ends])
    seen = np.minimum(np.concatenate([at_change, sums.n[ends]]), sums.n[point_slot])
    ideal_at = np.concatenate([at_change, sums.length[ends]])
    order = np.lexsort((np.arange(len(point_slot)), point_slot))  # by query, then changes in order, then the end
    point_slot, seen, ideal_at = point_slot[order], seen[order], ideal_at[order]
    with np.errstate(divide="ignore", invalid="ignore"):
        values = sums.dcg_at(point_slot, seen) / sums.idcg_at(point_slot, ideal_at)
    total = np.bincount(point_slot, weights=values, minlength=data.size)
    points = np.bincount(point_slot, minlength=data.size)
    with np.errstate(invalid="ignore"):  # no point: trec_eval's 0/0 (rndcg_walk)
        return np.where(data.R > 0, total / points, 0.0)


RNDCG = Family(
    key="Rndcg",
    title="NDCG averaged at the R levels",
    help="Rndcg (experimental): NDCG taken wherever the ideal gain drops a level, and at the list's end, averaged.",
    function=rndcg,
    kernel=rndcg_kernel,
    kind="order",
    teaching=Teaching(
        rndcg_definition,
        rndcg_worked,
        terms=(Term.SUM, Term.POINTS),
        plain=("rewards NDCG at every point where the best ranking drops a grade, averaged (an experimental measure)"),
    ),
    cutoff="none",
    written="whole",
    params=(GAINS,),
    trec_eval=TrecEval("Rndcg"),
    order=350,
)

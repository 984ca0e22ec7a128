"""NDCG averaged over relevant documents (ndcg_rel). ndcg_rel (experimental): NDCG at each document with a positive gain
(missed ones at the end), averaged.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.catalog.family import GAINS, Family, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import Gains, LevelGain, gain_of, ieee_divide, level_counts, level_gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
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


def ndcg_rel_walk(values: Sequence[int], levels: Sequence[LevelGain]) -> Walk:
    """trec_eval's ``ndcg_rel`` (``m_ndcg_rel.c``): NDCG at each retrieved document with a positive gain, plus the
    final NDCG for each positive-gain document not retrieved, averaged over the positive-gain documents."""
    n = len(values)
    ideal = _Ideal(levels)
    dcg = best = total = 0.0
    positive = retrieved_positive = 0
    contributions = [0.0] * n
    i = 0
    while i < n and ideal.gain > 0.0:
        gain = gain_of(values[i], levels)
        if gain != 0:
            dcg += gain / math.log2(i + 2)
        ideal.advance()
        if ideal.gain > 0.0:
            positive += 1
            best += ideal.gain / math.log2(i + 2)
        if gain > 0:
            contributions[i] = ieee_divide(dcg, best)
            total += contributions[i]
            retrieved_positive += 1
        i += 1
    while i < n:
        gain = gain_of(values[i], levels)
        if gain != 0:
            dcg += gain / math.log2(i + 2)
        if gain > 0:
            contributions[i] = ieee_divide(dcg, best)
            total += contributions[i]
            retrieved_positive += 1
        i += 1
    while ideal.gain > 0.0:
        ideal.advance()
        if ideal.gain > 0.0:
            positive += 1
            best += ideal.gain / math.log2(i + 2)
        i += 1
    missed = ieee_divide(float(positive - retrieved_positive) * dcg, best)
    total += missed
    value = ieee_divide(total, positive) if total > 0.0 else 0.0
    if n and not math.isnan(missed):
        contributions[-1] += missed
    shares = tuple(ieee_divide(c, positive) if value else 0.0 for c in contributions)
    return Walk(value, shares, {Term.SUM: total, Term.POINTS: positive})


def ndcg_rel(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""NDCG averaged over the relevant documents.

    trec_eval ``ndcg_rel`` (experimental).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). None changes the value (the relevance
        threshold is ignored); ``threshold`` marks the steps' relevant docs (``RankStep.relevant``).
    gains : tuple of (int, float) pairs, optional
        A gain per relevance level, e.g. ``((1, 3.0), (2, 9.0))`` (trec_eval's ``NAME.1=3,2=9``); other levels gain
        their own number. Empty (the default): every level gains its number (its grade).

    Returns
    -------
    Breakdown
        ``value`` is ndcg_rel, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, a rank with
        a positive gain contributing its NDCG@i divided by R_g (the last rank also the missed documents' share);
        ``terms`` holds the sum (``Term.SUM``) and the points averaged (``Term.POINTS``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    ndcg, rndcg

    Notes
    -----
    .. math:: \mathrm{ndcg\_rel} = \frac{1}{R_g} \Bigl( \sum_{d_i \text{ retrieved},\ g_i > 0} \mathrm{NDCG@}i
        + (R_g - r_g) \cdot \mathrm{NDCG@}n \Bigr)

    R_g counts the judged documents with a positive gain, r_g those retrieved. Conventions (``m_ndcg_rel.c``):
    gains as in NDCG with a gain map; no positive gain gives 0; k keeps the top k.

    Examples
    --------
    >>> ndcg_rel(["a", "b"], {"a": 2, "b": 1}).value
    1.0
    >>> round(ndcg_rel(["a", "b"], {"a": 1, "b": 2}).value, 4)
    0.6799
    """
    top, values = walk_values(ranking, qrels, k)
    walk = ndcg_rel_walk(values, level_gains(level_counts(qrels), gains))
    return walk_breakdown("ndcg_rel", top, qrels, k, walk, conventions)


def ndcg_rel_definition(c: Conventions) -> str:
    return r"\mathrm{ndcg\_rel} = \frac{1}{R_g} \sum_{d \text{ with gain} > 0} \mathrm{NDCG@rank}(d)"


def ndcg_rel_worked(b: Breakdown) -> str:
    return averaged_worked(r"\mathrm{ndcg\_rel}", b, "NDCG at each document with a positive gain")


def ndcg_rel_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    if not _integer(_gains_of(measure)):
        return _walks(data, measure, lambda values, levels, _: ndcg_rel_walk(values, levels))
    sums = _Sums(data, measure)
    positive = sums.gain > 0
    slot, rank = sums.slot[positive], sums.rank[positive]
    with np.errstate(divide="ignore", invalid="ignore"):
        at_rows = sums.dcg[positive] / sums.idcg_at(slot, np.minimum(rank, sums.length[slot]))
        total = np.bincount(slot, weights=at_rows, minlength=data.size)
        everything = np.arange(data.size)
        final = sums.dcg_at(everything, sums.n)
        missed = (sums.length - np.bincount(slot, minlength=data.size)).astype(np.float64) * final
        total = total + missed / sums.idcg_at(everything, sums.length)
        return np.where(total > 0.0, total / sums.length, 0.0)


NDCG_REL = Family(
    key="ndcg_rel",
    title="NDCG averaged over relevant documents",
    help="ndcg_rel (experimental): NDCG at each document with a positive gain (missed ones at the end), averaged.",
    function=ndcg_rel,
    kernel=ndcg_rel_kernel,
    kind="order",
    teaching=Teaching(
        ndcg_rel_definition,
        ndcg_rel_worked,
        terms=(Term.SUM, Term.POINTS),
        plain="rewards NDCG at each relevant document, averaged (an experimental measure)",
    ),
    cutoff="none",
    written="whole",
    params=(GAINS,),
    trec_eval=TrecEval("ndcg_rel"),
    order=360,
)

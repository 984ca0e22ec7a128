"""Yet another average precision (YAAP). Robertson's smoothed log-odds of AP: the same order as AP on one query, but
its mean over queries weighs a gain near AP = 0 or 1 more than MAP does.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Teaching, TrecEval, Values
from metrics.core.checks import checked, count_relevant, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families.average_precision import precision_sums
from metrics.teaching.latex import aligned_block, decimal, elided_sum, measure_symbol, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def smoothed_log_odds(precision_sum: float, R: float) -> float:
    """log((1 + S) / (1 + R - S)): YAAP from S, the sum of P@i at the relevant ranks. S <= R, so the denominator is
    at least 1: never a division by 0. math.log is the C library's log, as trec_eval's (numpy's may differ in the
    last bit).

    >>> smoothed_log_odds(0.0, 0), round(smoothed_log_odds(0.0, 3), 4), round(smoothed_log_odds(3.0, 3), 4)
    (0.0, -1.3863, 1.3863)
    """
    return math.log((1.0 + precision_sum) / (1.0 + R - precision_sum))


def yet_another_average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Yet another average precision: the smoothed log-odds of AP.

    trec_eval 10.0 ``yaap``; Robertson, "On Smoothing Average Precision", ECIR 2012.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: only the top k ranks count, as for AP@k. None (the default) looks at the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold`` (a doc is relevant
        if it is judged and its grade >= threshold). ``ap_denominator`` is not: R is always every relevant doc.

    Returns
    -------
    Breakdown
        ``value`` is YAAP, from log(1 / (1 + R)) to log(1 + R); ``steps`` has one RankStep per retrieved rank of the
        top k, whose running value is the YAAP of the list cut there and whose contribution is how much it raised it;
        ``terms`` holds S (``Term.PRECISION_SUM``), R (``Term.R``) and the hits (``Term.HITS``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    average_precision : S / R.

    Notes
    -----
    .. math:: \mathrm{YAAP} = \log \frac{1 + S}{1 + R - S}, \qquad S = \sum_{i \leq k,\ rel(d_i)} P@i = R \cdot AP

    AP is S / R, a share bounded by 0 and 1; YAAP is the log-odds of that share, smoothed by the 1s so that it stays
    finite at AP = 0 and AP = 1 (from log(1 / (1 + R)) to log(1 + R)). On one query it orders rankings exactly as AP
    does; over queries its mean gives a gain near AP = 0 or 1 more weight than MAP does. It is 0 when R = 0 and
    negative whenever S < R / 2.

    Conventions (trec_eval, ``m_yaap.c``): R counts every relevant doc in the qrels, retrieved or not, whatever
    ``ap_denominator`` says; with k, the top k. Steps: each rank's running value is the YAAP of the list cut there,
    and its contribution is how much it raised that value (0 for a non-relevant rank). An empty list already scores
    log(1 / (1 + R)), so the contributions sum to the value minus that start.

    Examples
    --------
    >>> b = yet_another_average_precision(["a", "x", "b"], {"a": 1, "b": 1, "z": 1})  # S = 1/1 + 2/3, R = 3
    >>> round(b.value, 4)  # log((1 + 5/3) / (1 + 3 - 5/3)) = log(8/7)
    0.1335
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    hits, precision_sum, steps = 0, 0.0, []
    running = smoothed_log_odds(precision_sum, R)  # the empty list's value
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = 0.0
        if relevant:
            hits += 1
            precision_sum += hits / rank
            previous, running = running, smoothed_log_odds(precision_sum, R)
            contribution = running - previous
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    value = smoothed_log_odds(precision_sum, R)
    terms = {Term.PRECISION_SUM: precision_sum, Term.R: R, Term.HITS: hits}
    return Breakdown("YAAP", k, value, tuple(steps), terms, conventions)


_SUM_OF_PRECISIONS = r"S = \sum_{d_i \text{ relevant}} \mathrm{P@}i"


def yaap_definition(c: Conventions) -> str:
    relevant_ranks = r"i \leq k,\ d_i \text{ relevant}"
    return rf"\mathrm{{YAAP}} = \log \frac{{1 + S}}{{1 + R - S}}, \qquad S = \sum_{{{relevant_ranks}}} \mathrm{{P@}}i"


def yaap_worked(b: Breakdown) -> str:
    s = measure_symbol("YAAP", b.k)
    R, S = b.terms[Term.R], b.terms[Term.PRECISION_SUM]
    lines = [rf"{s} &= \log \frac{{1 + S}}{{1 + R - S}}, \quad {_SUM_OF_PRECISIONS}"]
    fractions, values, hits = [], [], 0
    for step in b.steps:
        if step.relevant:
            hits += 1
            fractions.append(rf"\frac{{{hits}}}{{{step.rank}}}")
            values.append(hits / step.rank)
    if fractions:
        lines.append(rf"S &= {elided_sum(fractions, values)} = {decimal(S)}")
    else:
        lines.append(r"S &= 0 \quad \text{(no relevant document retrieved)}")
    if not R:
        lines.append(rf"{s} &= \log \frac{{1}}{{1}} = 0 \quad \text{{(no judged relevant document: }} R = 0\text{{)}}")
        return aligned_block(lines)
    numerator, denominator = decimal(1 + S), decimal(1 + R - S)
    lines.append(rf"{s} &= \log \frac{{1 + {decimal(S)}}}{{1 + {whole(R)} - {decimal(S)}}}")
    lines.append(rf"&= \log \frac{{{numerator}}}{{{denominator}}} = {decimal(b.value)}")
    lines.append(rf"&\quad \text{{(AP}} = S / R = {decimal(S / R)}\text{{, the same S)}}")
    empty = rf"\log \frac{{1}}{{1 + {whole(R)}}} = {decimal(smoothed_log_odds(0.0, R))}"
    lines.append(rf"&\quad \text{{(an empty list scores }} {empty}\text{{)}}")
    return aligned_block(lines)


def yaap_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    precision_sum = precision_sums(data, measure.k)
    # one log per query, with math.log: the readable function's (and trec_eval's) bit for bit
    values = [smoothed_log_odds(s, r) for s, r in zip(precision_sum.tolist(), data.R.tolist(), strict=True)]
    return np.array(values, dtype=np.float64)


YET_ANOTHER_AVERAGE_PRECISION = Family(
    key="YAAP",
    title="Yet another average precision",
    function=yet_another_average_precision,
    kernel=yaap_kernel,
    kind="order",
    help="YAAP (Robertson): AP as smoothed log-odds, log((1 + S) / (1 + R - S)) with S = R·AP; it orders one query's "
    "rankings as AP does, but its mean over queries weighs a gain near AP = 0 or 1 more than MAP does.",
    teaching=Teaching(
        yaap_definition,
        yaap_worked,
        terms=(Term.PRECISION_SUM, Term.R, Term.HITS),
        plain=(
            "rewards what AP rewards, putting every relevant document high, but on a log-odds scale: "
            "in the mean over queries, a gain near the best or the worst score counts more than the "
            "same gain mid-way"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("yaap"),
    values=Values(range=None),  # from log(1 / (1 + R)) to log(1 + R): no bound over all R, negative below AP = 1/2
    order=165,
)

"""Binary G (binG). binG (experimental): each relevant document counts 1 / log2(2 + non-relevant ones above it), divided
by R.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Teaching, TrecEval
from metrics.core.checks import count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, position_within, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._gain_walks import Walk, walk_breakdown, walk_values
from metrics.teaching.latex import aligned_block, decimal, elided_sum, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def binary_g_walk(values: Sequence[int], threshold: int, R: int) -> Walk:
    """trec_eval's ``binG`` (``m_binG.c``): each relevant document adds 1 / log2(2 + non-relevant docs above it)."""
    hits, total, contributions = 0, 0.0, []
    for i, value in enumerate(values):
        term = 0.0
        if value >= threshold:
            hits += 1
            term = 1.0 / math.log2(3 + i - hits)
            total += term
        contributions.append(term / R if R else 0.0)
    score = total / R if hits else 0.0
    return Walk(score, tuple(contributions), {Term.SUM: total, Term.R: R, Term.HITS: hits})


def binary_g(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Binary G: like AP, but each relevant document is discounted, logarithmically, by the documents above it that are
    not relevant.

    trec_eval ``binG`` (experimental).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is binG, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, a relevant one
        contributing 1 / (R log2(2 + n_i)); ``terms`` holds the sum (``Term.SUM``), R (``Term.R``) and the relevant
        docs retrieved (``Term.HITS``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    average_precision, normalized_gain

    Notes
    -----
    .. math:: \mathrm{binG} = \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}

    where n_i counts the documents above d_i that are not relevant (or are unjudged). Conventions (``m_binG.c``):
    R = 0, or no relevant document retrieved, gives 0; k keeps the top k.

    Examples
    --------
    >>> binary_g(["r", "x", "r2"], {"r": 1, "r2": 1}).value == (1 + 1 / math.log2(3)) / 2
    True
    """
    top, values = walk_values(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    return walk_breakdown("binG", top, qrels, k, binary_g_walk(values, conventions.threshold, R), conventions)


def bing_definition(c: Conventions) -> str:
    return r"\mathrm{binG} = \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}"


def bing_worked(b: Breakdown) -> str:
    R = whole(b.terms[Term.R])
    lines = [r"\mathrm{binG} &= \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}"]
    if not b.terms[Term.HITS]:
        lines.append(r"&= 0 \quad \text{(no relevant document retrieved)}")
        return aligned_block(lines)
    hits, terms, values = 0, [], []
    for st in b.steps:
        if st.relevant:
            hits += 1
            terms.append(rf"\frac{{1}}{{\log_2 {2 + st.rank - hits}}}")
            values.append(st.contribution)
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {elided_sum(terms, values)} \Bigr) = {decimal(b.value)}")
    return aligned_block(lines)


def binary_g_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
    relevant = grade >= data.conventions.threshold
    slot, rank = slot[relevant], rank[relevant]
    hits = position_within(slot)
    arguments, inverse = np.unique(3 + (rank - 1) - hits, return_inverse=True)
    logs = np.array([math.log2(a) for a in arguments.tolist()], dtype=np.float64)[inverse]
    return ratio(np.bincount(slot, weights=1.0 / logs, minlength=data.size), data.R)


BINARY_G = Family(
    key="binG",
    title="Binary G",
    help="binG (experimental): each relevant document counts 1 / log2(2 + non-relevant ones above it), divided by R.",
    function=binary_g,
    kernel=binary_g_kernel,
    kind="order",
    teaching=Teaching(
        bing_definition,
        bing_worked,
        terms=(Term.SUM, Term.R, Term.HITS),
        plain=("rewards relevant documents with few non-relevant ones above them (an experimental measure)"),
    ),
    cutoff="none",
    written="whole",
    trec_eval=TrecEval("binG"),
    order=330,
)

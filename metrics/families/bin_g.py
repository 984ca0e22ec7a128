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
    value = total / R if hits else 0.0
    return Walk(value, tuple(contributions), {Term.SUM: total, Term.R: R, Term.HITS: hits})


def binary_g(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Binary G (trec_eval ``binG``, experimental): like AP, but each relevant document is discounted by the
    non-relevant (or unjudged) documents above it, logarithmically.

    .. math:: \mathrm{binG} = \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}

    where n_i counts the documents above d_i that are not relevant. Conventions (``m_binG.c``): R = 0, or no
    relevant document retrieved, gives 0; k keeps the top k.

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

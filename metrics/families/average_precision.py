"""Average precision (AP). Average precision: precision at each relevant rank, summed and divided by R.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import TREC_CUTOFFS, Default, Family, Names, Teaching, TrecEval
from metrics.core.checks import checked, count_relevant, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, position_within, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families.num_rel import NUM_REL
from metrics.families.num_rel_ret import NUM_REL_RET
from metrics.teaching.latex import aligned_block, at_cut, decimal, defined, elided_sum, measure_symbol, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Average precision: the precision at each relevant rank, summed and divided by R.

    trec_eval ``map`` (``map_cut_k`` with k); ir_measures ``AP``; ranx ``map@k``; MAP is its mean over queries.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: only the top k ranks count, and AP@k still divides by R, not by min(R, k). None (the default)
        looks at the whole list (trec_eval ``map``).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold`` (a doc is relevant
        if it is judged and its grade >= threshold) and ``ap_denominator``: ``"all"`` divides by R, every relevant doc
        in the qrels; ``"retrieved"`` by the relevant docs retrieved within k.

    Returns
    -------
    Breakdown
        ``value`` is AP@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, a relevant one
        contributing P@i divided by the denominator; ``terms`` holds the sum of the P@i (``Term.PRECISION_SUM``), R
        (``Term.R``), the hits (``Term.HITS``) and the divisor used (``Term.DENOMINATOR``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    geometric_mean_ap, yet_another_average_precision, inferred_average_precision

    Notes
    -----
    .. math:: AP@k = \frac{1}{R} \sum_{i \leq k,\ rel(d_i)} P@i, \qquad P@i = \frac{hits@i}{i}

    Conventions (trec_eval, ``m_map.c``): **R counts every relevant doc in the qrels**, retrieved or not, and
    AP@k keeps dividing by R, not by min(R, k): a relevant doc that was never retrieved counts as precision 0.
    R = 0 gives 0.0. With ``ap_denominator="retrieved"`` the sum is divided by the relevant docs retrieved
    within k instead (RAGAS-style "context precision"), which rewards retrieving little.

    Examples
    --------
    >>> round(average_precision(["r0", "n1", "r1", "r2", "n2"], {f"r{i}": 1 for i in range(10)}, k=3).value, 4)
    0.1667

    z, relevant but never retrieved, counts as precision 0 unless the denominator is the relevant docs retrieved:

    >>> qrels = {"a": 1, "b": 1, "z": 1}
    >>> round(average_precision(["a", "x", "b"], qrels).value, 4)  # (1/1 + 2/3) / 3
    0.5556
    >>> round(average_precision(["a", "x", "b"], qrels, conventions=Conventions(ap_denominator="retrieved")).value, 4)
    0.8333
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    ranks = list(judged(top, qrels, conventions.threshold))
    hits_total = sum(relevant for *_, relevant in ranks)
    denominator = R if conventions.ap_denominator == "all" else hits_total
    hits, precision_sum, running, steps = 0, 0.0, 0.0, []
    for rank, doc, grade, relevant in ranks:
        contribution = 0.0
        if relevant:
            hits += 1
            precision_sum += hits / rank
            contribution = (hits / rank) / denominator if denominator else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    value = precision_sum / denominator if denominator else 0.0
    terms = {Term.PRECISION_SUM: precision_sum, Term.R: R, Term.HITS: hits_total, Term.DENOMINATOR: denominator}
    return Breakdown("AP", k, value, tuple(steps), terms, conventions)


def average_precision_definition(c: Conventions) -> str:
    denominator = Term.R if c.ap_denominator == "all" else r"\mathrm{hits@}k"
    relevant_ranks = r"i \leq k,\ d_i \text{ relevant}"
    return rf"{defined('AP')} = \frac{{1}}{{{denominator}}} \sum_{{{relevant_ranks}}} \mathrm{{P@}}i"


def average_precision_worked(b: Breakdown) -> str:
    s = measure_symbol("AP", b.k)
    by_R = b.conventions.ap_denominator == "all"
    denominator_symbol = Term.R if by_R else rf"\mathrm{{hits{at_cut(b.k)}}}"
    lines = [rf"{s} &= \frac{{1}}{{{denominator_symbol}}} \sum_{{d_i \text{{ relevant}}}} \mathrm{{P@}}i"]
    fractions, values, hits = [], [], 0
    for step in b.steps:
        if step.relevant:
            hits += 1
            fractions.append(rf"\frac{{{hits}}}{{{step.rank}}}")
            values.append(hits / step.rank)
    denominator = whole(b.terms[Term.DENOMINATOR])
    if not b.terms[Term.DENOMINATOR]:
        why = r"(no judged relevant document: } R = 0\text{)" if by_R else r"(no relevant document in the top k)"
        lines.append(rf"&= 0 \quad \text{{{why}}}")
        return aligned_block(lines)
    total = decimal(b.terms[Term.PRECISION_SUM])
    if fractions:
        lines.append(rf"&= \frac{{1}}{{{denominator}}} \Bigl( {elided_sum(fractions, values)} \Bigr)")
    else:
        lines.append(rf"&= \frac{{1}}{{{denominator}}} \cdot 0 \quad \text{{(no relevant document in the top {b.k})}}")
    lines.append(rf"&= \frac{{{total}}}{{{denominator}}} = {decimal(b.value)}")
    if by_R and b.terms[Term.R] > b.terms[Term.HITS]:
        missed = whole(b.terms[Term.R] - b.terms[Term.HITS])
        lines.append(rf"&\quad \text{{({missed} relevant not retrieved: each adds 0)}}")
    return aligned_block(lines)


def precision_sums(data: Prepared, k: int | None) -> np.ndarray:
    """Each query's S: the precision at each relevant rank of the top k, summed in rank order, as the readable
    loop's += (np.bincount accumulates sequentially). AP divides it by R; YAAP takes its smoothed log-odds."""
    relevant = np.flatnonzero(data.relevant())
    slot, rank = data.slot[relevant], data.rank[relevant]
    hits_so_far = position_within(slot)
    keep = rank <= k if k is not None else np.ones(len(rank), dtype=bool)
    return np.bincount(slot[keep], weights=hits_so_far[keep] / rank[keep], minlength=data.size)


def average_precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    denominator = data.R if data.conventions.ap_denominator == "all" else data.hits(measure.k)
    return ratio(precision_sums(data, measure.k), denominator)


def _denominator(k: int | None, conventions: Conventions) -> str:
    """AP's denominator as a measure: R (NumRel), or the relevant documents retrieved in the top k (NumRelRet@k)."""
    if conventions.ap_denominator == "retrieved":
        return NUM_REL_RET.key if k is None else f"{NUM_REL_RET.key}@{k}"
    return NUM_REL.key


AVERAGE_PRECISION = Family(
    key="AP",
    title="Average precision",
    help="Average precision: precision at each relevant rank, summed and divided by R.",
    function=average_precision,
    kernel=average_precision_kernel,
    kind="order",
    teaching=Teaching(
        average_precision_definition,
        average_precision_worked,
        terms=(Term.PRECISION_SUM, Term.R, Term.HITS, Term.DENOMINATOR),
        plain=(
            "rewards putting every relevant document high, not only the first: each one counts by the"
            " share of relevant documents above and at it, and one never retrieved counts 0"
        ),
    ),
    written="both",
    names=Names(spellings=("map", "map_cut"), ir_measures="AP", tools={"ranx": "map@k", "BEIR": "MAP@k"}),
    trec_eval=TrecEval("map_cut", uncut="map", defaults=TREC_CUTOFFS),
    default=Default(2),
    normaliser=_denominator,
    order=70,
)

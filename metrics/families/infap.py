"""Inferred average precision (infAP). infAP: AP estimated from a sampled pool; documents graded below 0 are in the pool
but not judged.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching, TrecEval
from metrics.core.checks import checked, count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import POOL_UNJUDGED, level
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, count_before, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, decimal, elided_sum, plain, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

ESTIMATE_SUM = Term("sum of estimated P@i")

INFAP_EPSILON = 0.00001  # trec_eval.h: keeps infAP's estimated precision defined when nothing above was judged


def inferred_average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Inferred AP: AP estimated from a sampled judgment pool.

    trec_eval ``infAP``; ir_measures ``infAP``. Yilmaz and Aslam, CIKM 2006.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
        A negative grade marks a document in the pool but not judged (sampled out).
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is infAP, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, a relevant one
        contributing its estimated precision divided by R; ``terms`` holds the sum of the estimates
        (``"sum of estimated P@i"``) and R (``Term.R``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    average_precision, bpref

    Notes
    -----
    .. math:: \mathrm{infAP} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left( \frac{1}{i} + \frac{i-1}{i}
        \cdot \frac{r + n + u}{i - 1} \cdot \frac{r + \varepsilon}{r + n + 2\varepsilon} \right)

    at the i-th rank, where r, n and u count the relevant, judged non-relevant and pool-unjudged (negative grade)
    documents above d_i, and ε = 0.00001; the relevant document at rank 1 adds exactly 1. Documents with no qrels
    line (not in the pool) count as zeros in the expected precision; pool-unjudged ones are assumed to be relevant
    in the same proportion as the judged ones. Conventions (trec_eval ``m_infap.c``): R = 0 gives 0; k keeps the
    top k.

    Examples
    --------
    >>> round(inferred_average_precision(["r1", "x", "r2"], {"r1": 1, "r2": 1, "n": 0}).value, 4)
    0.8333
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    relevant_above = nonrelevant_above = unjudged_above = 0
    total = 0.0
    steps: list[RankStep] = []
    for rank, doc in enumerate(top, start=1):
        value = level(qrels, doc)
        relevant = value >= conventions.threshold
        contribution = 0.0
        if value == POOL_UNJUDGED:
            unjudged_above += 1
        elif value >= 0 and not relevant:
            nonrelevant_above += 1
        elif relevant:
            above = rank - 1
            if above == 0:
                estimate = 1.0
            else:
                fj = float(above)
                estimate = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (
                    (relevant_above + nonrelevant_above + unjudged_above) / fj
                ) * ((relevant_above + INFAP_EPSILON) / (relevant_above + nonrelevant_above + 2 * INFAP_EPSILON))
            relevant_above += 1
            total += estimate
            contribution = estimate / R
        running = (steps[-1].running if steps else 0.0) + contribution
        steps.append(RankStep(rank, doc, int(qrels.get(doc, 0)), relevant, contribution, running))
    score = total / R if R else 0.0
    return Breakdown("infAP", k, score, tuple(steps), {ESTIMATE_SUM: total, Term.R: R}, conventions)


def infap_definition(c: Conventions) -> str:
    return (
        r"\mathrm{infAP} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(\frac{1}{i} + \frac{i-1}{i} \cdot "
        r"\frac{r + n + u}{i-1} \cdot \frac{r + \varepsilon}{r + n + 2\varepsilon}\right)"
    )


def infap_worked(b: Breakdown) -> str:
    R = whole(b.terms[Term.R])
    lines = [rf"{plain('infAP')} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} \widehat{{\mathrm{{P@}}i}}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return aligned_block(lines)
    estimates = [(st.rank, st.contribution * b.terms[Term.R]) for st in b.steps if st.relevant]
    terms = [rf"\underbrace{{{decimal(v)}}}_{{{rank}}}" for rank, v in estimates]
    written = elided_sum(terms, [v for _, v in estimates]) if terms else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr)")
    lines.append(rf"&= \frac{{{decimal(b.terms[ESTIMATE_SUM])}}}{{{R}}} = {decimal(b.value)}")
    return aligned_block(lines)


def inferred_average_precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
    threshold = data.conventions.threshold
    relevant = grade >= threshold
    relevant_above = count_before(slot, relevant)[relevant]
    nonrelevant_above = count_before(slot, (grade >= 0) & ~relevant)[relevant]
    unjudged_above = count_before(slot, grade < 0)[relevant]
    above = rank[relevant] - 1
    estimate = np.ones(len(above))
    some = above > 0
    fj = above[some].astype(np.float64)
    ra, na, ua = relevant_above[some], nonrelevant_above[some], unjudged_above[some]
    estimate[some] = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((ra + na + ua) / fj) * (
        (ra + INFAP_EPSILON) / (ra + na + 2 * INFAP_EPSILON)
    )
    return ratio(np.bincount(slot[relevant], weights=estimate, minlength=data.size), data.R)


INFERRED_AP = Family(
    key="infAP",
    title="Inferred average precision",
    help="infAP: AP estimated from a sampled pool; documents graded below 0 are in the pool but not judged.",
    function=inferred_average_precision,
    kernel=inferred_average_precision_kernel,
    kind="order",
    teaching=Teaching(
        infap_definition,
        infap_worked,
        terms=(ESTIMATE_SUM, Term.R),
        plain="rewards what AP rewards, estimated when only a sample of the documents was judged",
    ),
    cutoff="none",
    written="whole",
    names=Names(spellings=("infap",), ir_measures="infAP"),
    trec_eval=TrecEval("infAP"),
    order=270,
)

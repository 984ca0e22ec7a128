"""Binary preference (bpref). bpref: how few judged non-relevant documents each relevant one is ranked below; unjudged
ones are skipped.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching, TrecEval
from metrics.core.checks import checked, count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import level
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, count_before, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, decimal, elided_sum, plain, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

PREFERENCE_SUM = Term("sum of preferences")


def _judged_nonrelevant(qrels: Judgments, threshold: int) -> int:
    return sum(1 for grade in qrels.values() if 0 <= grade < threshold)


def bpref(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Binary preference: how many judged non-relevant documents each relevant document is ranked below, ignoring
    unjudged documents.

    trec_eval ``bpref``; ir_measures ``Bpref``. Buckley and Voorhees, SIGIR 2004.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``: a judged doc is
        relevant if its grade >= threshold, judged non-relevant if 0 <= grade < threshold.

    Returns
    -------
    Breakdown
        ``value`` is bpref, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, a relevant one
        contributing its preference share divided by R; ``terms`` holds the sum of the shares
        (``"sum of preferences"``), R (``Term.R``) and N (``Term.NONRELEVANT``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    gm_bpref : its geometric mean over queries.
    inferred_average_precision : another measure for incomplete judgments.

    Notes
    -----
    .. math:: \mathrm{bpref} = \frac{1}{R} \sum_{d_i \text{ relevant}}
        \left(1 - \frac{\min(n_i,\ R)}{\min(N,\ R)}\right)

    where n_i counts the judged non-relevant documents ranked above d_i and N all judged non-relevant documents
    (0 <= grade < threshold). Conventions (trec_eval ``m_bpref.c``): unjudged documents, negative grades included,
    are skipped; a relevant document with no judged non-relevant one above it adds 1 (even when N = 0); R = 0
    gives 0. k keeps only the top k (as ``-M k``).

    Examples
    --------
    >>> round(bpref(["r1", "n1", "x", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n1": 0}).value, 4)
    0.3333
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    N = _judged_nonrelevant(qrels, conventions.threshold)
    nonrelevant_above, preferences = 0, 0.0
    steps: list[RankStep] = []
    for rank, doc in enumerate(top, start=1):
        value = level(qrels, doc)
        relevant = value >= conventions.threshold
        contribution = 0.0
        if relevant:
            share = 1.0 - min(nonrelevant_above, R) / min(N, R) if nonrelevant_above > 0 else 1.0
            preferences += share
            contribution = share / R
        elif value >= 0:
            nonrelevant_above += 1
        running = (steps[-1].running if steps else 0.0) + contribution
        steps.append(RankStep(rank, doc, int(qrels.get(doc, 0)), relevant, contribution, running))
    score = preferences / R if R else 0.0
    terms = {PREFERENCE_SUM: preferences, Term.R: R, Term.NONRELEVANT: N}
    return Breakdown("bpref", k, score, tuple(steps), terms, conventions)


def bpref_definition(c: Conventions) -> str:
    return (
        r"\mathrm{bpref} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(1 - "
        r"\frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    )


def bpref_worked(b: Breakdown, note: str | None = None) -> str:
    """bpref's worked formula; ``note``, a LaTeX line closing it, says what else is done with the value (say, a
    geometric mean over queries)."""
    R, N = whole(b.terms[Term.R]), whole(b.terms[Term.NONRELEVANT])
    s = plain("bpref")
    share = r"\left(1 - \frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    lines = [rf"{s} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} {share}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return aligned_block(lines)
    shares = [s_.contribution * b.terms[Term.R] for s_ in b.steps if s_.relevant]
    lines.append(rf"&\quad (R = {R},\ N = {N}\ \text{{judged non-relevant; unjudged documents skipped}})")
    written = elided_sum([decimal(v) for v in shares], shares) if shares else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr) = {decimal(b.value)}")
    if note is not None:
        lines.append(note)
    return aligned_block(lines)


def bpref_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    slot, _, grade = data.within(measure.k)
    threshold = data.conventions.threshold
    relevant = grade >= threshold
    above = count_before(slot, (grade >= 0) & ~relevant)[relevant]
    slot = slot[relevant]
    R, N = data.R[slot], data.nonrel[slot]
    share = np.ones(len(slot))
    some = above > 0
    share[some] = 1.0 - np.minimum(above[some], R[some]) / np.minimum(N[some], R[some])
    return ratio(np.bincount(slot, weights=share, minlength=data.size), data.R)


BPREF = Family(
    key="bpref",
    title="Binary preference",
    help="bpref: how few judged non-relevant documents each relevant one is ranked below; unjudged ones are skipped.",
    function=bpref,
    kernel=bpref_kernel,
    kind="order",
    teaching=Teaching(
        bpref_definition,
        bpref_worked,
        terms=(PREFERENCE_SUM, Term.R, Term.NONRELEVANT),
        plain=(
            "rewards ranking relevant documents above the documents judged not relevant, leaving out "
            "the documents nobody judged: it holds up when many documents are unjudged"
        ),
    ),
    cutoff="none",
    written="whole",
    names=Names(ir_measures="Bpref"),
    trec_eval=TrecEval("bpref"),
    order=250,
)

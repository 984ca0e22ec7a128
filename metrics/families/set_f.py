"""Set F (SetF). Weighted harmonic mean of set precision and set recall (trec_eval's beta enters unsquared).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Param, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families._set_counts import _set_counts
from metrics.teaching.latex import aligned_block, decimal

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

BETA = Term("beta")


def set_f(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    beta: float = 1.0,
) -> Breakdown:
    r"""Weighted harmonic mean of set precision and set recall.

    trec_eval ``set_F`` (``set_F.0.5`` sets beta); ir_measures ``SetF``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list, which is then the retrieved set (as trec_eval ``-M k``). None (the default)
        keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).
    beta : float, optional
        The weight of recall against precision, trec_eval's, unsquared (1.0 by default: the F1 of the set); a
        measure name accepts 0 to 1000.

    Returns
    -------
    Breakdown
        ``value`` is set_F, from 0 to 1; ``steps`` has one RankStep per retrieved rank, contributing how much set_F
        rises when the list is extended to that rank; ``terms`` holds the hits (``Term.HITS``), the docs retrieved
        (``Term.RETRIEVED``), R (``Term.R``), set P (``Term.SET_PRECISION``), set recall (``Term.SET_RECALL``) and
        beta (``"beta"``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    f1 : the harmonic mean of P@k and R@k.

    Notes
    -----
    .. math:: \mathrm{set\_F} = \frac{(\beta + 1)\, P\, R}{\beta P + R}

    Conventions (trec_eval ``m_set_F.c``): ``beta`` is the weight of recall against precision and enters as is,
    not squared as in the textbook F_beta (so trec_eval's set_F.0.25 is the textbook F at beta = 0.5). 0.0 when
    nothing relevant was retrieved, or nothing was retrieved, or R = 0. A rank's step is how much set_F rises when
    the list is extended to that rank.

    Examples
    --------
    >>> round(set_f(["a", "x"], {"a": 1, "b": 1, "c": 1, "d": 1}, beta=0.5).value, 4)
    0.375
    >>> round(set_f(["a", "x"], {"a": 1, "b": 1, "c": 1, "d": 1}).value, 4)  # P = 1/2, R = 1/4
    0.3333
    """
    rows, retrieved, R, hits = _set_counts(ranking, qrels, k, conventions)
    steps, previous, so_far = [], 0.0, 0
    for index, (rank, doc, grade, relevant) in enumerate(rows, start=1):
        so_far += relevant
        running = _f(so_far, index, R, beta)
        steps.append(RankStep(rank, doc, grade, relevant, running - previous, running))
        previous = running
    p = hits / retrieved if retrieved else 0.0
    r = hits / R if R else 0.0
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved, Term.R: R, Term.SET_PRECISION: p, Term.SET_RECALL: r}
    terms[BETA] = beta
    return Breakdown("SetF", k, _f(hits, retrieved, R, beta), tuple(steps), terms, conventions)


def _f(hits: int, retrieved: int, R: int, beta: float) -> float:
    if not (hits and retrieved and R):
        return 0.0
    p, r = hits / retrieved, hits / R
    return (beta + 1.0) * p * r / (beta * p + r)


_SET_F = r"\mathrm{set\_F}"


def set_f_definition(c: Conventions) -> str:
    return rf"{_SET_F} = \frac{{(\beta + 1)\, P\, R}}{{\beta P + R}}"


def set_f_worked(b: Breakdown) -> str:
    s = _SET_F
    beta, p, r = b.terms[BETA], b.terms[Term.SET_PRECISION], b.terms[Term.SET_RECALL]
    lines = [rf"{s} &= \frac{{(\beta + 1)\, P\, R}}{{\beta P + R}} \quad (\beta = {beta:g})"]
    if not b.value:
        lines.append(r"&= 0 \quad \text{(nothing relevant retrieved)}")
    else:
        lines.append(
            rf"&= \frac{{{beta + 1:g} \cdot {decimal(p)} \cdot {decimal(r)}}}"
            rf"{{{beta:g} \cdot {decimal(p)} + {decimal(r)}}} = {decimal(b.value)}"
        )
    return aligned_block(lines)


def set_f_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    hits, beta = data.hits(measure.k), measure.number("beta")
    p, r = ratio(hits, data.retrieved(measure.k)), ratio(hits, data.R)
    scored = (hits > 0) & (data.retrieved(measure.k) > 0) & (data.R > 0)
    values = np.zeros(data.size)
    values[scored] = (beta + 1.0) * p[scored] * r[scored] / (beta * p[scored] + r[scored])
    return values


SET_F = Family(
    key="SetF",
    title="Set F",
    help="Weighted harmonic mean of set precision and set recall (trec_eval's beta enters unsquared).",
    function=set_f,
    kernel=set_f_kernel,
    kind="set",
    teaching=Teaching(
        set_f_definition,
        set_f_worked,
        terms=(Term.HITS, Term.RETRIEVED, Term.R, Term.SET_PRECISION, Term.SET_RECALL, BETA),
        plain="rewards a balance of the two: retrieving the relevant documents, and little else",
    ),
    written="whole",
    params=(Param("beta", 1.0, 0.0, 1000.0, "the weight of recall against precision (trec_eval's, unsquared)"),),
    names=Names(ir_measures="SetF"),
    trec_eval=TrecEval("set_F", param="beta"),
    order=230,
)

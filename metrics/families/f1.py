"""F1 (F1). F1@k: the harmonic mean of P@k and R@k.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching
from metrics.core.checks import checked, count_relevant, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, at_cut, decimal, defined, measure_symbol

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def f1(ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL) -> Breakdown:
    r"""F1 at cutoff k: the harmonic mean of P@k and R@k.

    ranx ``f1@k``. trec_eval has no F1 at a cutoff (its ``set_F`` scores the whole retrieved set).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: only the top k ranks count, and P@k divides by k. None (the default) looks at the whole list
        and divides by its length.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is F1@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, contributing how
        much F1 rises when the list is extended to that rank; ``terms`` holds the hits (``Term.HITS``), P@k
        (``Term.PRECISION``), R@k (``Term.RECALL``) and R (``Term.R``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    precision, recall, set_f

    Notes
    -----
    .. math:: F_1@k = \frac{2 \cdot P@k \cdot R@k}{P@k + R@k}

    Conventions (ranx): P@k divides by k and R@k by R, as ``precision`` and ``recall`` do; 0.0 when P@k + R@k = 0 or
    R = 0. trec_eval has no F1 at a cutoff (its ``set_F`` scores the whole retrieved set): combine ``P_k`` and
    ``recall_k``. A rank's contribution is how much F1 rises when the list is extended to that rank.

    Examples
    --------
    >>> round(f1(["a", "x", "b"], {"a": 1, "b": 1, "c": 1, "d": 1}, k=3).value, 4)  # P = 2/3, R = 1/2
    0.5714
    """
    top = checked(ranking, qrels, k)
    divisor = len(ranking) if k is None else k
    R = count_relevant(qrels, conventions.threshold)
    hits, previous, steps = 0, 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        hits += relevant
        running = _f1(hits, divisor, R)
        steps.append(RankStep(rank, doc, grade, relevant, running - previous, running))
        previous = running
    p = hits / divisor if divisor else 0.0
    r = hits / R if R else 0.0
    terms = {Term.HITS: hits, Term.PRECISION: p, Term.RECALL: r, Term.R: R}
    return Breakdown("F1", k, _f1(hits, divisor, R), tuple(steps), terms, conventions)


def _f1(hits: int, divisor: int, R: int) -> float:
    p = hits / divisor if divisor else 0.0
    r = hits / R if R else 0.0
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def f1_definition(c: Conventions) -> str:
    p_k, r_k = r"\mathrm{P@}k", r"\mathrm{R@}k"
    return rf"{defined('F', subscript='1')} = \frac{{2 \cdot {p_k} \cdot {r_k}}}{{{p_k} + {r_k}}}"


def f1_worked(b: Breakdown) -> str:
    s = measure_symbol("F", b.k, subscript="1")
    p, r = b.terms[Term.PRECISION], b.terms[Term.RECALL]
    cut = at_cut(b.k)
    lines = [
        rf"{s} &= \frac{{2 \cdot \mathrm{{P{cut}}} \cdot \mathrm{{R{cut}}}}}{{\mathrm{{P{cut}}} + \mathrm{{R{cut}}}}}",
    ]
    if p + r == 0:
        lines.append(rf"&= 0 \quad \text{{(}}\mathrm{{P{cut}}} + \mathrm{{R{cut}}} = 0\text{{)}}")
    else:
        lines.append(
            rf"&= \frac{{2 \cdot {decimal(p)} \cdot {decimal(r)}}}{{{decimal(p)} + {decimal(r)}}} = {decimal(b.value)}"
        )
    return aligned_block(lines)


def f1_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    hits = data.hits(measure.k)
    p, r = ratio(hits, data.cutoff_divisor(measure.k)), ratio(hits, data.R)
    return ratio(2 * p * r, p + r)  # the readable f1: 2 * p * r / (p + r), 0 when p + r = 0


F1 = Family(
    key="F1",
    title="F1",
    help="F1@k: the harmonic mean of P@k and R@k.",
    function=f1,
    kernel=f1_kernel,
    kind="set",
    teaching=Teaching(
        f1_definition,
        f1_worked,
        terms=(Term.HITS, Term.PRECISION, Term.RECALL, Term.R),
        plain=(
            "rewards a balance of precision and recall in {top}: high only when they are mostly "
            "relevant and hold most of the relevant documents"
        ),
    ),
    names=Names(tools={"ranx": "f1@k"}),
    order=50,
)

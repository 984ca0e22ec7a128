"""Precision (P). Precision@k: the share of the top k that is relevant (divides by k even if fewer were retrieved).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import TREC_CUTOFFS, Default, Family, Names, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._hits import _hits_breakdown
from metrics.teaching.latex import aligned_block, at_cut, decimal, defined, hits_line, measure_symbol, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Precision at cutoff k: the share of the top k that is relevant.

    trec_eval ``P_k``; ir_measures ``P@k``; ranx ``precision@k``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff, and the divisor: only the top k ranks count. None (the default) divides by the length of the
        list (ranx ``precision``).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is P@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, each relevant one
        contributing 1/k; ``terms`` holds the hits (``Term.HITS``) and the divisor (``Term.CUTOFF``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    recall, set_precision

    Notes
    -----
    .. math:: P@k = \frac{hits@k}{k}

    Conventions (trec_eval): relevant means grade >= threshold; unjudged docs are non-relevant. **The divisor is
    always k**, even when fewer than k docs were retrieved ("nonrelevant docs fill in the rest", ``m_P.c``).
    k=None divides by the length of the list (ranx ``precision``); an empty list gives 0.0.

    Examples
    --------
    >>> precision(["d1", "d2", "d3"], {"d1": 1, "d3": 2}, k=10).value
    0.2

    With a threshold of 2, only d3 is relevant:

    >>> precision(["d1", "d2", "d3"], {"d1": 1, "d3": 2}, k=10, conventions=Conventions(threshold=2)).value
    0.1
    """
    divisor = len(ranking) if k is None else k
    hits, steps = _hits_breakdown(ranking, qrels, k, divisor, conventions)
    value = hits / divisor if divisor else 0.0
    return Breakdown("P", k, value, tuple(steps), {Term.HITS: hits, Term.CUTOFF: divisor}, conventions)


def precision_definition(c: Conventions) -> str:
    return rf"{defined('P')} = \frac{{\mathrm{{hits@}}k}}{{k}}"


def precision_worked(b: Breakdown) -> str:
    s, divisor = measure_symbol("P", b.k), whole(b.terms[Term.CUTOFF])
    return aligned_block(
        [
            rf"{s} &= \frac{{\mathrm{{hits{at_cut(b.k)}}}}}{{{'k' if b.k is not None else 'n'}}}",
            hits_line(b),
            rf"{s} &= \frac{{{whole(b.terms[Term.HITS])}}}{{{divisor}}} = {decimal(b.value)}",
        ]
    )


def precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.cutoff_divisor(measure.k))


PRECISION = Family(
    key="P",
    title="Precision",
    help="Precision@k: the share of the top k that is relevant (divides by k even if fewer were retrieved).",
    function=precision,
    kernel=precision_kernel,
    kind="set",
    teaching=Teaching(
        precision_definition,
        precision_worked,
        terms=(Term.HITS, Term.CUTOFF),
        plain=(
            "rewards a high share of relevant documents in {top}, in any order (a short list still "
            "counts as full length)"
        ),
    ),
    names=Names(spellings=("precision",), ir_measures="P", tools={"ranx": "precision@k", "BEIR": "P@k"}),
    trec_eval=TrecEval("P", defaults=TREC_CUTOFFS),
    default=Default(6, cutoff=10),
    order=10,
)

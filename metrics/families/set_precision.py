"""Set precision (SetP). Precision of the whole retrieved list: relevant retrieved / retrieved.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._set_counts import _SET_P, _set_counts, _steps
from metrics.teaching.latex import aligned_block, decimal, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def set_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Precision of the whole retrieved set: hits / retrieved.

    trec_eval ``set_P``; ir_measures ``SetP``.

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

    Returns
    -------
    Breakdown
        ``value`` is set_P, from 0 to 1; ``steps`` has one RankStep per retrieved rank, each relevant one
        contributing 1 / retrieved; ``terms`` holds the hits (``Term.HITS``) and the docs retrieved
        (``Term.RETRIEVED``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    precision : divides by k, even when fewer docs were retrieved.

    Notes
    -----
    .. math:: \mathrm{set\_P} = \frac{\mathrm{hits}}{\mathrm{retrieved}}

    An empty list gives 0.0.

    Examples
    --------
    >>> set_precision(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value
    0.5
    """
    rows, retrieved, _, hits = _set_counts(ranking, qrels, k, conventions)
    value = hits / retrieved if retrieved else 0.0
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved}
    return Breakdown("SetP", k, value, _steps(rows, 1 / retrieved if retrieved else 0.0), terms, conventions)


def set_precision_definition(c: Conventions) -> str:
    return rf"{_SET_P} = \frac{{\mathrm{{hits}}}}{{\mathrm{{retrieved}}}}"


def set_precision_worked(b: Breakdown) -> str:
    s, hits, retrieved = _SET_P, whole(b.terms[Term.HITS]), whole(b.terms[Term.RETRIEVED])
    if not b.terms[Term.RETRIEVED]:
        return aligned_block([rf"{s} &= 0 \quad \text{{(nothing retrieved)}}"])
    fraction = r"\frac{\mathrm{hits}}{\mathrm{retrieved}}"
    return aligned_block([rf"{s} &= {fraction} = \frac{{{hits}}}{{{retrieved}}} = {decimal(b.value)}"])


def set_precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.retrieved(measure.k))


SET_PRECISION = Family(
    key="SetP",
    title="Set precision",
    help="Precision of the whole retrieved list: relevant retrieved / retrieved.",
    function=set_precision,
    kernel=set_precision_kernel,
    kind="set",
    teaching=Teaching(
        set_precision_definition,
        set_precision_worked,
        terms=(Term.HITS, Term.RETRIEVED),
        plain=(
            "rewards retrieving little besides relevant documents: the share of everything retrieved that is relevant"
        ),
    ),
    written="whole",
    names=Names(ir_measures="SetP"),
    trec_eval=TrecEval("set_P"),
    order=210,
)

"""Set average precision (SetAP). Set precision times set recall.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._set_counts import _SET_P, _SET_RECALL, _set_counts, _steps
from metrics.teaching.latex import aligned_block, decimal

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def set_average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Set precision times set recall, the area of the one-point precision-recall "curve".

    trec_eval ``set_map``.

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
        ``value`` is set_map, from 0 to 1; ``steps`` has one RankStep per retrieved rank, each relevant one
        contributing set_recall / retrieved; ``terms`` holds the hits (``Term.HITS``), the docs retrieved
        (``Term.RETRIEVED``), R (``Term.R``), set P (``Term.SET_PRECISION``) and set recall (``Term.SET_RECALL``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    set_precision, set_recall, average_precision

    Notes
    -----
    .. math:: \mathrm{set\_map} = \mathrm{set\_P} \cdot \mathrm{set\_recall}

    Computed as hits² / (retrieved · R), in that order, as trec_eval's ``m_set_map.c`` does. 0.0 when nothing was
    retrieved or R = 0.

    Examples
    --------
    >>> round(set_average_precision(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value, 4)
    0.3333
    """
    rows, retrieved, R, hits = _set_counts(ranking, qrels, k, conventions)
    p = hits / retrieved if retrieved else 0.0
    r = hits / R if R else 0.0
    share = 1 / retrieved * r if retrieved else 0.0  # each hit adds 1/retrieved to set_P, times set_recall
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved, Term.R: R, Term.SET_PRECISION: p, Term.SET_RECALL: r}
    # num_rel_ret² / (num_ret · num_rel), in this order, as m_set_map.c computes it: p · r can differ in the last
    # bit, and then in the 4th decimal at a rounding boundary
    value = hits * hits / (retrieved * R) if retrieved and R else 0.0
    return Breakdown("SetAP", k, value, _steps(rows, share), terms, conventions)


_SET_MAP = r"\mathrm{set\_map}"


def set_average_precision_definition(c: Conventions) -> str:
    return rf"{_SET_MAP} = \mathrm{{set\_P}} \cdot \mathrm{{set\_recall}}"


def set_average_precision_worked(b: Breakdown) -> str:
    s, p, r = _SET_MAP, b.terms[Term.SET_PRECISION], b.terms[Term.SET_RECALL]
    return aligned_block(
        [rf"{s} &= {_SET_P} \cdot {_SET_RECALL} = {decimal(p)} \cdot {decimal(r)} = {decimal(b.value)}"]
    )


def set_average_precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    hits = data.hits(measure.k).astype(np.float64)
    return ratio(hits * hits, data.retrieved(measure.k) * data.R.astype(np.float64))  # as the readable function


SET_AVERAGE_PRECISION = Family(
    key="SetAP",
    title="Set average precision",
    help="Set precision times set recall.",
    function=set_average_precision,
    kernel=set_average_precision_kernel,
    kind="set",
    teaching=Teaching(
        set_average_precision_definition,
        set_average_precision_worked,
        terms=(Term.HITS, Term.RETRIEVED, Term.R, Term.SET_PRECISION, Term.SET_RECALL),
        plain=(
            "rewards both retrieving the relevant documents and retrieving little else (set precision times set recall)"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("set_map"),
    order=240,
)

"""Set recall (SetR). Recall of the whole retrieved list: relevant retrieved / R.

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
from metrics.families._set_counts import _SET_RECALL, _set_counts, _steps
from metrics.teaching.latex import aligned_block, decimal, whole, zero_R_line

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def set_recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Recall of the whole retrieved set: hits / R.

    trec_eval ``set_recall``; ir_measures ``SetR``.

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
        ``value`` is set_recall, from 0 to 1; ``steps`` has one RankStep per retrieved rank, each relevant one
        contributing 1/R; ``terms`` holds the hits (``Term.HITS``) and R (``Term.R``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    recall : the same at a cutoff.

    Notes
    -----
    .. math:: \mathrm{set\_recall} = \frac{\mathrm{hits}}{R}

    R = 0 gives 0.0.

    Examples
    --------
    >>> round(set_recall(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value, 4)
    0.6667
    """
    rows, _, R, hits = _set_counts(ranking, qrels, k, conventions)
    value = hits / R if R else 0.0
    return Breakdown("SetR", k, value, _steps(rows, 1 / R if R else 0.0), {Term.HITS: hits, Term.R: R}, conventions)


def set_recall_definition(c: Conventions) -> str:
    return rf"{_SET_RECALL} = \frac{{\mathrm{{hits}}}}{{R}}"


def set_recall_worked(b: Breakdown) -> str:
    s = _SET_RECALL
    if not b.terms[Term.R]:
        return aligned_block([zero_R_line(s)])
    hits, R = whole(b.terms[Term.HITS]), whole(b.terms[Term.R])
    return aligned_block([rf"{s} &= \frac{{\mathrm{{hits}}}}{{R}} = \frac{{{hits}}}{{{R}}} = {decimal(b.value)}"])


def set_recall_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.R)


SET_RECALL = Family(
    key="SetR",
    title="Set recall",
    help="Recall of the whole retrieved list: relevant retrieved / R.",
    function=set_recall,
    kernel=set_recall_kernel,
    kind="set",
    teaching=Teaching(
        set_recall_definition,
        set_recall_worked,
        terms=(Term.HITS, Term.R),
        plain=("rewards retrieving every relevant document somewhere in the list: the share of them retrieved at all"),
    ),
    written="whole",
    names=Names(ir_measures="SetR"),
    trec_eval=TrecEval("set_recall"),
    order=220,
)

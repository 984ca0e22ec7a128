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
    r"""Recall of the whole retrieved set (trec_eval ``set_recall``; ir_measures ``SetR``): hits / R.

    .. math:: \mathrm{set\_recall} = \frac{\mathrm{hits}}{R}

    R = 0 gives 0.0.

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

"""Relevant documents (NumRel). R: judged relevant documents, retrieved or not.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from metrics.catalog.family import Family
from metrics.core.checks import check_qrels
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._counting import _counted, count_definition, count_worked


def num_rel(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Judged relevant documents, retrieved or not (trec_eval ``num_rel``; ir_measures ``NumRel``): R.

    No rank adds to it: R comes from the qrels alone, so every step contributes 0.

    >>> num_rel(["a"], {"a": 1, "b": 2, "c": 0, "d": -1}).value
    2.0
    """
    check_qrels(qrels)
    R = sum(1 for grade in qrels.values() if grade >= conventions.threshold)
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: False)
    return Breakdown("NumRel", k, float(R), tuple(steps), {Term.R: R}, conventions)


def num_rel_kernel(data, measure) -> np.ndarray:
    return data.R.astype(np.float64)


NUM_REL = Family(
    key="NumRel",
    title="Relevant documents",
    function=num_rel,
    kernel=num_rel_kernel,
    kind="count",
    help="R: judged relevant documents, retrieved or not.",
    definition=count_definition("NumRel"),
    worked=count_worked,
    terms=(Term.R,),
    cutoff="optional",
    trec_eval="num_rel",
    ir_measures="NumRel",
    summary="sum",
    count=True,
    per_query=True,
    written="whole",
    value_range=None,  # whole numbers, summed over queries
    counts_positive_judgments=True,
    order=130,
)

"""Preferences fulfilled among the retrieved, averaged over judgment groups (prefs_avgjg_ret). prefs_avgjg counting
only preferences between two retrieved documents.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking, Term
from metrics.preferences.preference_formulas import group_definition, group_worked
from metrics.preferences.preference_kernels import fulfilled_possible, group_mean, ratio_or_zero
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, averaged_breakdown

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_avgjg_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg counting only preferences between two retrieved documents. (trec_eval ``prefs_avgjg_ret``,
    m_prefs_avgjg_ret.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    u1: a > b fulfilled, 1 / 1; u2: b > a not, 0 / 1:

    >>> prefs_avgjg_ret(['a', 'b'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.5
    """
    return averaged_breakdown("prefs_avgjg_ret", ranking, qrels, k, conventions, "ret")


def prefs_avgjg_ret_definition(c: Conventions) -> str:
    return group_definition("prefs_avgjg_ret", "between retrieved documents")


def prefs_avgjg_ret_worked(b: Breakdown) -> str:
    return group_worked("prefs_avgjg_ret", b)


def prefs_avgjg_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = fulfilled_possible(table, "ret")
    return group_mean(table, ratio_or_zero(fulfilled.astype(np.float64), possible.astype(np.float64)))


PREFS_AVGJG_RET = Family(
    key="prefs_avgjg_ret",
    title="Preferences fulfilled among the retrieved, averaged over judgment groups",
    help="prefs_avgjg counting only preferences between two retrieved documents.",
    function=prefs_avgjg_ret,
    kernel=prefs_avgjg_ret_kernel,
    kind="order",
    teaching=Teaching(
        prefs_avgjg_ret_definition,
        prefs_avgjg_ret_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards ordering the retrieved documents as each judge (e.g. each user) prefers them: the share of that "
            "judge's preferences between two retrieved documents the list fulfils, averaged over the judges"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_avgjg_ret", reads=("prefs", "qrels_prefs")),
    order=700,
)

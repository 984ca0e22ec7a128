"""Preferences fulfilled with a retrieved document, averaged over judgment groups (prefs_avgjg_imp). prefs_avgjg
counting only preferences with a retrieved document.

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


def prefs_avgjg_imp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg counting only preferences with a retrieved document. (trec_eval ``prefs_avgjg_imp``,
    m_prefs_avgjg_imp.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    u1: a > b, a > c fulfilled, b > c left out, 2 / 2; u2: b > a, 0 / 1:

    >>> prefs_avgjg_imp(['a'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.5
    """
    return averaged_breakdown("prefs_avgjg_imp", ranking, qrels, k, conventions, "imp")


def prefs_avgjg_imp_definition(c: Conventions) -> str:
    return group_definition("prefs_avgjg_imp", "with a retrieved document")


def prefs_avgjg_imp_worked(b: Breakdown) -> str:
    return group_worked("prefs_avgjg_imp", b)


def prefs_avgjg_imp_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = fulfilled_possible(table, "imp")
    return group_mean(table, ratio_or_zero(fulfilled.astype(np.float64), possible.astype(np.float64)))


PREFS_AVGJG_IMP = Family(
    key="prefs_avgjg_imp",
    title="Preferences fulfilled with a retrieved document, averaged over judgment groups",
    help="prefs_avgjg counting only preferences with a retrieved document.",
    function=prefs_avgjg_imp,
    kernel=prefs_avgjg_imp_kernel,
    kind="order",
    teaching=Teaching(
        prefs_avgjg_imp_definition,
        prefs_avgjg_imp_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards ordering documents as each judge (e.g. each user) prefers them: the share of that judge's "
            "preferences involving a retrieved document the list fulfils, averaged over the judges"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_avgjg_imp", reads=("prefs", "qrels_prefs")),
    order=710,
)

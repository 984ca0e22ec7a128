"""Preferences fulfilled, averaged over judgment groups (prefs_avgjg). Fulfilled over possible preferences of each
judgment group (a user), averaged over the groups.

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


def prefs_avgjg(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled over possible preferences of each judgment group (a user), averaged over the groups.
    (trec_eval ``prefs_avgjg``, m_prefs_avgjg.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    u1 3 / 3, u2 0 / 1: (1 + 0) / 2, where prefs_simp gives 3 / 4:

    >>> prefs_avgjg(['a', 'b', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.5
    """
    return averaged_breakdown("prefs_avgjg", ranking, qrels, k, conventions, "")


def prefs_avgjg_definition(c: Conventions) -> str:
    return group_definition("prefs_avgjg", "all preferences")


def prefs_avgjg_worked(b: Breakdown) -> str:
    return group_worked("prefs_avgjg", b)


def prefs_avgjg_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = fulfilled_possible(table, "")
    return group_mean(table, ratio_or_zero(fulfilled.astype(np.float64), possible.astype(np.float64)))


PREFS_AVGJG = Family(
    key="prefs_avgjg",
    title="Preferences fulfilled, averaged over judgment groups",
    help="Fulfilled over possible preferences of each judgment group (a user), averaged over the groups.",
    function=prefs_avgjg,
    kernel=prefs_avgjg_kernel,
    kind="order",
    teaching=Teaching(
        prefs_avgjg_definition,
        prefs_avgjg_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards ordering documents as each judge (e.g. each user) prefers them: the share of that judge's "
            "preferences the list fulfils, averaged over the judges"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_avgjg", reads=("prefs", "qrels_prefs")),
    order=690,
)

"""Preferences among the retrieved averaged over judgment groups, as many non-relevant as relevant
(prefs_avgjg_Rnonrel_ret). prefs_avgjg_Rnonrel counting retrieved documents only.

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
from metrics.preferences.preference_kernels import group_mean, rnonrel
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, rnonrel_breakdown

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_avgjg_rnonrel_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg_Rnonrel counting retrieved documents only. (trec_eval ``prefs_avgjg_Rnonrel_ret``,
    m_prefs_avgjg_Rnonrel_ret.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    R = 2 relevant retrieved, N = 1: one fulfilled more for each (of 2), one possible more for each relevant (of
    3): (2 + 2) / (3 + 3):

    >>> prefs_avgjg_rnonrel_ret(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    0.6666666666666666
    """
    return rnonrel_breakdown("prefs_avgjg_Rnonrel_ret", ranking, qrels, k, conventions, True)


def prefs_avgjg_rnonrel_ret_definition(c: Conventions) -> str:
    return group_definition("prefs_avgjg_Rnonrel_ret", "as many non-relevant documents as relevant, retrieved")


def prefs_avgjg_rnonrel_ret_worked(b: Breakdown) -> str:
    return group_worked("prefs_avgjg_Rnonrel_ret", b)


def prefs_avgjg_rnonrel_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = rnonrel(table, True)
    with np.errstate(invalid="ignore"):  # a group's 0 / 0 is NaN, as in trec_eval: its query scores 0
        return group_mean(table, fulfilled / possible)


PREFS_AVGJG_RNONREL_RET = Family(
    key="prefs_avgjg_Rnonrel_ret",
    title="Preferences among the retrieved averaged over judgment groups, as many non-relevant as relevant",
    help="prefs_avgjg_Rnonrel counting retrieved documents only.",
    function=prefs_avgjg_rnonrel_ret,
    kernel=prefs_avgjg_rnonrel_ret_kernel,
    kind="order",
    teaching=Teaching(
        prefs_avgjg_rnonrel_ret_definition,
        prefs_avgjg_rnonrel_ret_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards ranking each judge's relevant documents above the ones that judge found not relevant, counting "
            "only retrieved documents and only as many not-relevant ones as there are relevant ones (as bpref does), "
            "averaged over the judges"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_avgjg_Rnonrel_ret", reads=("prefs", "qrels_prefs")),
    order=730,
)

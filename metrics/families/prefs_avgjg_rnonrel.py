"""Preferences averaged over judgment groups, as many non-relevant as relevant (prefs_avgjg_Rnonrel). prefs_avgjg as
if each group had judged as many non-relevant documents as relevant ones (akin to bpref).

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


def prefs_avgjg_rnonrel(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg as if each group had judged as many non-relevant documents as relevant ones (akin to bpref).
    (trec_eval ``prefs_avgjg_Rnonrel``, m_prefs_avgjg_Rnonrel.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    R = 3 relevant, N = 1 non-relevant: 2 fulfilled preferences more for each of the 2 relevant retrieved, 2
    more possible for each relevant: (3 + 4) / (5 + 6):

    >>> prefs_avgjg_rnonrel(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    0.6363636363636364
    """
    return rnonrel_breakdown("prefs_avgjg_Rnonrel", ranking, qrels, k, conventions, False)


def prefs_avgjg_rnonrel_definition(c: Conventions) -> str:
    return group_definition("prefs_avgjg_Rnonrel", "as many non-relevant documents as relevant")


def prefs_avgjg_rnonrel_worked(b: Breakdown) -> str:
    return group_worked("prefs_avgjg_Rnonrel", b)


def prefs_avgjg_rnonrel_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = rnonrel(table, False)
    with np.errstate(invalid="ignore"):  # a group's 0 / 0 is NaN, as in trec_eval: its query scores 0
        return group_mean(table, fulfilled / possible)


PREFS_AVGJG_RNONREL = Family(
    key="prefs_avgjg_Rnonrel",
    title="Preferences averaged over judgment groups, as many non-relevant as relevant",
    help="prefs_avgjg as if each group had judged as many non-relevant documents as relevant ones (akin to bpref).",
    function=prefs_avgjg_rnonrel,
    kernel=prefs_avgjg_rnonrel_kernel,
    kind="order",
    teaching=Teaching(
        prefs_avgjg_rnonrel_definition,
        prefs_avgjg_rnonrel_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards ranking each judge's relevant documents above the ones that judge found not relevant, counting "
            "only as many of those as there are relevant ones (as bpref does), averaged over the judges"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_avgjg_Rnonrel", reads=("prefs", "qrels_prefs")),
    order=720,
)

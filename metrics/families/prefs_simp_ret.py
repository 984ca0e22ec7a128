"""Preferences fulfilled among the retrieved, simple ratio (prefs_simp_ret). Fulfilled over possible preferences
between two retrieved documents (for collections that change).

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
from metrics.preferences.preference_formulas import ratio_definition, ratio_worked
from metrics.preferences.preference_kernels import fulfilled_possible, per_slot, ratio_or_zero
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, simple_breakdown

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_simp_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled over possible preferences between two retrieved documents (for collections that change).
    (trec_eval ``prefs_simp_ret``, m_prefs_simp_ret.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    a > b is the one preference between retrieved documents, fulfilled:

    >>> prefs_simp_ret(['a', 'b'], {"a": 2, "b": 1, "c": 0}).value
    1.0
    """
    return simple_breakdown("prefs_simp_ret", ranking, qrels, k, conventions, "ret")


def prefs_simp_ret_definition(c: Conventions) -> str:
    return ratio_definition("prefs_simp_ret", "ret")


def prefs_simp_ret_worked(b: Breakdown) -> str:
    return ratio_worked("prefs_simp_ret", b)


def prefs_simp_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = fulfilled_possible(table, "ret")
    numerator, denominator = per_slot(table, fulfilled.astype(float)), per_slot(table, possible.astype(float))
    return ratio_or_zero(numerator, denominator)


PREFS_SIMP_RET = Family(
    key="prefs_simp_ret",
    title="Preferences fulfilled among the retrieved, simple ratio",
    help="Fulfilled over possible preferences between two retrieved documents (for collections that change).",
    function=prefs_simp_ret,
    kernel=prefs_simp_ret_kernel,
    kind="order",
    teaching=Teaching(
        prefs_simp_ret_definition,
        prefs_simp_ret_worked,
        terms=(Term.FULFILLED, Term.POSSIBLE),
        plain=(
            "rewards ordering the retrieved documents as the judges prefer them: the share of their preferences between"
            " two retrieved documents that the list fulfils"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_simp_ret", reads=("prefs", "qrels_prefs")),
    order=640,
)

"""Preferences fulfilled with a retrieved document, simple ratio (prefs_simp_imp). Fulfilled over possible
preferences that involve a retrieved document (two unretrieved: left out).

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


def prefs_simp_imp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled over possible preferences that involve a retrieved document (two unretrieved: left out).
    (trec_eval ``prefs_simp_imp``, m_prefs_simp_imp.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    of the 5 preferences with a retrieved document only b > a is fulfilled (d > c involves none):

    >>> prefs_simp_imp(['b', 'a'], {"a": 0, "b": 1, "c": 2, "d": 3}).value
    0.2
    """
    return simple_breakdown("prefs_simp_imp", ranking, qrels, k, conventions, "imp")


def prefs_simp_imp_definition(c: Conventions) -> str:
    return ratio_definition("prefs_simp_imp", "imp")


def prefs_simp_imp_worked(b: Breakdown) -> str:
    return ratio_worked("prefs_simp_imp", b)


def prefs_simp_imp_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = fulfilled_possible(table, "imp")
    numerator, denominator = per_slot(table, fulfilled.astype(float)), per_slot(table, possible.astype(float))
    return ratio_or_zero(numerator, denominator)


PREFS_SIMP_IMP = Family(
    key="prefs_simp_imp",
    title="Preferences fulfilled with a retrieved document, simple ratio",
    help="Fulfilled over possible preferences that involve a retrieved document (two unretrieved: left out).",
    function=prefs_simp_imp,
    kernel=prefs_simp_imp_kernel,
    kind="order",
    teaching=Teaching(
        prefs_simp_imp_definition,
        prefs_simp_imp_worked,
        terms=(Term.FULFILLED, Term.POSSIBLE),
        plain=(
            "rewards ordering documents as the judges prefer them: the share of their preferences involving at least "
            "one retrieved document that the list fulfils"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_simp_imp", reads=("prefs", "qrels_prefs")),
    order=650,
)

"""Preferences fulfilled, simple ratio (prefs_simp). Fulfilled preferences over all stated ones (one between two
unretrieved documents is not fulfilled).

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


def prefs_simp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled preferences over all stated ones (one between two unretrieved documents is not fulfilled).
    (trec_eval ``prefs_simp``, m_prefs_simp.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    u1's a > b, a > c, b > c are fulfilled, u2's b > a is not: 3 / 4:

    >>> prefs_simp(['a', 'b', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.75
    """
    return simple_breakdown("prefs_simp", ranking, qrels, k, conventions, "")


def prefs_simp_definition(c: Conventions) -> str:
    return ratio_definition("prefs_simp", "")


def prefs_simp_worked(b: Breakdown) -> str:
    return ratio_worked("prefs_simp", b)


def prefs_simp_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, possible = fulfilled_possible(table, "")
    numerator, denominator = per_slot(table, fulfilled.astype(float)), per_slot(table, possible.astype(float))
    return ratio_or_zero(numerator, denominator)


PREFS_SIMP = Family(
    key="prefs_simp",
    title="Preferences fulfilled, simple ratio",
    help="Fulfilled preferences over all stated ones (one between two unretrieved documents is not fulfilled).",
    function=prefs_simp,
    kernel=prefs_simp_kernel,
    kind="order",
    teaching=Teaching(
        prefs_simp_definition,
        prefs_simp_worked,
        terms=(Term.FULFILLED, Term.POSSIBLE),
        plain=(
            "rewards ordering documents as the judges prefer them: the share of their preferences (A preferred to B) "
            "that the list fulfils, a preference between two documents it never retrieved counting as missed"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_simp", reads=("prefs", "qrels_prefs")),
    order=630,
)

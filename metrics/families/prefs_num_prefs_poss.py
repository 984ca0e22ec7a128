"""Preferences possible (prefs_num_prefs_poss). How many preferences the judgment groups state (A preferred to B),
whatever was retrieved.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Teaching, TrecEval, Values
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking, Term
from metrics.preferences.preference_formulas import count_definition, count_worked
from metrics.preferences.preference_kernels import fulfilled_possible, per_slot
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, count_breakdown

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_num_prefs_poss(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""How many preferences the judgment groups state (A preferred to B), whatever was retrieved. (trec_eval
    ``prefs_num_prefs_poss``, m_prefs_num_prefs_poss.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    a > c, a > z, a > b, c > b, z > b:

    >>> prefs_num_prefs_poss(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    5.0
    """
    return count_breakdown("prefs_num_prefs_poss", ranking, qrels, k, conventions, "possible")


def prefs_num_prefs_poss_definition(c: Conventions) -> str:
    return count_definition("prefs_num_prefs_poss", "possible preferences")


def prefs_num_prefs_poss_worked(b: Breakdown) -> str:
    return count_worked("prefs_num_prefs_poss", "possible preferences", b)


def prefs_num_prefs_poss_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    _, possible = fulfilled_possible(table, "")
    return per_slot(table, possible.astype(np.float64))


PREFS_NUM_PREFS_POSS = Family(
    key="prefs_num_prefs_poss",
    title="Preferences possible",
    help="How many preferences the judgment groups state (A preferred to B), whatever was retrieved.",
    function=prefs_num_prefs_poss,
    kernel=prefs_num_prefs_poss_kernel,
    kind="count",
    teaching=Teaching(
        prefs_num_prefs_poss_definition,
        prefs_num_prefs_poss_worked,
        terms=(Term.POSSIBLE,),
        plain=(
            "is no score of the run: it counts the preferences the judges stated (document A preferred to document B), "
            "whatever was retrieved"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_num_prefs_poss", reads=("prefs", "qrels_prefs")),
    values=Values(range=None, summary="sum", count=True),
    order=600,
)

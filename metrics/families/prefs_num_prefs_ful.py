"""Preferences fulfilled (prefs_num_prefs_ful). How many stated preferences A > B the ranking fulfils: A retrieved
above B, or A retrieved and B not.

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


def prefs_num_prefs_ful(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""How many stated preferences A > B the ranking fulfils: A retrieved above B, or A retrieved and B not.
    (trec_eval ``prefs_num_prefs_ful``, m_prefs_num_prefs_ful.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    a > c, a > b (both retrieved, a above) and a > z (z not retrieved):

    >>> prefs_num_prefs_ful(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    3.0
    """
    return count_breakdown("prefs_num_prefs_ful", ranking, qrels, k, conventions, "ful")


def prefs_num_prefs_ful_definition(c: Conventions) -> str:
    return count_definition("prefs_num_prefs_ful", "fulfilled preferences")


def prefs_num_prefs_ful_worked(b: Breakdown) -> str:
    return count_worked("prefs_num_prefs_ful", "fulfilled preferences", b)


def prefs_num_prefs_ful_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    fulfilled, _ = fulfilled_possible(table, "")
    return per_slot(table, fulfilled.astype(np.float64))


PREFS_NUM_PREFS_FUL = Family(
    key="prefs_num_prefs_ful",
    title="Preferences fulfilled",
    help="How many stated preferences A > B the ranking fulfils: A retrieved above B, or A retrieved and B not.",
    function=prefs_num_prefs_ful,
    kernel=prefs_num_prefs_ful_kernel,
    kind="count",
    teaching=Teaching(
        prefs_num_prefs_ful_definition,
        prefs_num_prefs_ful_worked,
        terms=(Term.FULFILLED,),
        plain=(
            "counts the judges' preferences (document A preferred to B) that the list fulfils: A ranked above B, or A "
            "retrieved and B not"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_num_prefs_ful", reads=("prefs", "qrels_prefs")),
    values=Values(range=None, summary="sum", count=True),
    order=610,
)

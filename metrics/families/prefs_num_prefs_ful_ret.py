"""Preferences fulfilled among the retrieved (prefs_num_prefs_ful_ret). How many preferences A > B between two
retrieved documents the ranking fulfils (A ranked above B).

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
from metrics.preferences.preference_kernels import group_counts, per_slot
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, count_breakdown

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_num_prefs_ful_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""How many preferences A > B between two retrieved documents the ranking fulfils (A ranked above B).
    (trec_eval ``prefs_num_prefs_ful_ret``, m_prefs_num_prefs_ful_ret.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    a > c and a > b:

    >>> prefs_num_prefs_ful_ret(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    2.0
    """
    return count_breakdown("prefs_num_prefs_ful_ret", ranking, qrels, k, conventions, "ful_ret")


def prefs_num_prefs_ful_ret_definition(c: Conventions) -> str:
    return count_definition("prefs_num_prefs_ful_ret", "fulfilled preferences between retrieved documents")


def prefs_num_prefs_ful_ret_worked(b: Breakdown) -> str:
    return count_worked("prefs_num_prefs_ful_ret", "fulfilled preferences between retrieved documents", b)


def prefs_num_prefs_ful_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    table = preference_table(data, measure.k)
    return per_slot(table, group_counts(table).counts["ful_ret"].astype(np.float64))


PREFS_NUM_PREFS_FUL_RET = Family(
    key="prefs_num_prefs_ful_ret",
    title="Preferences fulfilled among the retrieved",
    help="How many preferences A > B between two retrieved documents the ranking fulfils (A ranked above B).",
    function=prefs_num_prefs_ful_ret,
    kernel=prefs_num_prefs_ful_ret_kernel,
    kind="count",
    teaching=Teaching(
        prefs_num_prefs_ful_ret_definition,
        prefs_num_prefs_ful_ret_worked,
        terms=(Term.FULFILLED,),
        plain=(
            "counts the judges' preferences (document A preferred to B) between two retrieved documents that the list "
            "fulfils by ranking A above B"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_num_prefs_ful_ret", reads=("prefs", "qrels_prefs")),
    values=Values(range=None, summary="sum", count=True),
    order=620,
)

"""Preferences by document pair, among the retrieved (prefs_pair_ret). prefs_pair over the pairs of two retrieved
documents only.

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
from metrics.preferences.preference_formulas import pair_definition, pair_worked
from metrics.preferences.preference_kernels import pair_values
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, pair_breakdown

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_pair_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_pair over the pairs of two retrieved documents only. (trec_eval ``prefs_pair_ret``,
    m_prefs_pair_ret.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    the one pair of retrieved documents, (a, c): u1 prefers a, u2 c:

    >>> prefs_pair_ret(['a', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"c": 1, "a": 0}}).value
    0.5
    """
    return pair_breakdown("prefs_pair_ret", ranking, qrels, k, conventions, (1,))


def prefs_pair_ret_definition(c: Conventions) -> str:
    return pair_definition("prefs_pair_ret", "ret")


def prefs_pair_ret_worked(b: Breakdown) -> str:
    return pair_worked("prefs_pair_ret", b)


def prefs_pair_ret_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return pair_values(preference_table(data, measure.k), (1,))


PREFS_PAIR_RET = Family(
    key="prefs_pair_ret",
    title="Preferences by document pair, among the retrieved",
    help="prefs_pair over the pairs of two retrieved documents only.",
    function=prefs_pair_ret,
    kernel=prefs_pair_ret_kernel,
    kind="order",
    teaching=Teaching(
        prefs_pair_ret_definition,
        prefs_pair_ret_worked,
        terms=(Term.SUM, Term.PAIRS),
        plain=(
            "rewards ordering the retrieved documents as most judges prefer them: for each pair of retrieved documents,"
            " the share of the judges whose preference the list follows, averaged over the pairs"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_pair_ret", reads=("prefs", "qrels_prefs")),
    order=670,
)

"""Preferences by document pair, with a retrieved document (prefs_pair_imp). prefs_pair over the pairs with a
retrieved document; pairs of two unretrieved documents are left out.

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


def prefs_pair_imp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_pair over the pairs with a retrieved document; pairs of two unretrieved documents are left out.
    (trec_eval ``prefs_pair_imp``, m_prefs_pair_imp.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    (a, b): 1/2; (a, c): 1; (b, c) has no retrieved document: (1/2 + 1) / 2:

    >>> prefs_pair_imp(['a'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.75
    """
    return pair_breakdown("prefs_pair_imp", ranking, qrels, k, conventions, (1, 2))


def prefs_pair_imp_definition(c: Conventions) -> str:
    return pair_definition("prefs_pair_imp", "imp")


def prefs_pair_imp_worked(b: Breakdown) -> str:
    return pair_worked("prefs_pair_imp", b)


def prefs_pair_imp_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return pair_values(preference_table(data, measure.k), (1, 2))


PREFS_PAIR_IMP = Family(
    key="prefs_pair_imp",
    title="Preferences by document pair, with a retrieved document",
    help="prefs_pair over the pairs with a retrieved document; pairs of two unretrieved documents are left out.",
    function=prefs_pair_imp,
    kernel=prefs_pair_imp_kernel,
    kind="order",
    teaching=Teaching(
        prefs_pair_imp_definition,
        prefs_pair_imp_worked,
        terms=(Term.SUM, Term.PAIRS),
        plain=(
            "rewards ordering documents as most judges prefer them: for each pair with at least one retrieved document,"
            " the share of the judges whose preference the list follows, averaged over the pairs"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_pair_imp", reads=("prefs", "qrels_prefs")),
    order=680,
)

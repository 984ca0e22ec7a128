"""Preferences by document pair (prefs_pair). Per document pair, the share of judgment groups preferring the better-
ranked one, averaged over pairs.

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


def prefs_pair(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Per document pair, the share of judgment groups preferring the better-ranked one, averaged over pairs.
    (trec_eval ``prefs_pair``, m_prefs_pair.c.)

    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}``
    (trec_eval ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no
    preference): see metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    (a, b): u1 prefers a, u2 b, 1/2; (a, c) and (b, c): 1 each; (1/2 + 1 + 1) / 3:

    >>> prefs_pair(['a', 'b', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.8333333333333334
    """
    return pair_breakdown("prefs_pair", ranking, qrels, k, conventions, (1, 2, 3))


def prefs_pair_definition(c: Conventions) -> str:
    return pair_definition("prefs_pair", "")


def prefs_pair_worked(b: Breakdown) -> str:
    return pair_worked("prefs_pair", b)


def prefs_pair_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return pair_values(preference_table(data, measure.k), (1, 2, 3))


PREFS_PAIR = Family(
    key="prefs_pair",
    title="Preferences by document pair",
    help="Per document pair, the share of judgment groups preferring the better-ranked one, averaged over pairs.",
    function=prefs_pair,
    kernel=prefs_pair_kernel,
    kind="order",
    teaching=Teaching(
        prefs_pair_definition,
        prefs_pair_worked,
        terms=(Term.SUM, Term.PAIRS),
        plain=(
            "rewards ordering documents as most judges prefer them: for each pair of documents, the share of the judges"
            " whose preference the list follows, averaged over the pairs"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("prefs_pair", reads=("prefs", "qrels_prefs")),
    order=660,
)

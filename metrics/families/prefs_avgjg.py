"""Preferences fulfilled, averaged over judgment groups: each group's (a user's) fulfilled over possible preferences,
averaged over the groups (prefs_avgjg), of the preferences between two retrieved documents (prefs_avgjg_ret) or with a
retrieved document (prefs_avgjg_imp). The three differ only by which preferences they count, so one table declares
them (VARIANTS).

Their readable functions (with the per-rank breakdown), engine kernels, LaTeX formulas and declarations
(metrics.catalog.registry collects them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking, Term
from metrics.families._preference_rows import row_breakdown, row_record
from metrics.preferences.preference_formulas import group_definition, group_worked
from metrics.preferences.preference_kernels import fulfilled_possible, group_mean, ratio_or_zero
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, averaged_breakdown
from metrics.preferences.variants import Variant

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_avgjg(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled over possible preferences of each judgment group (a user), averaged over the groups.

    trec_eval ``prefs_avgjg`` (m_prefs_avgjg.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : PreferenceJudgments
        One query's preferences: ``{group: {subgroup: {doc: level}}}`` (trec_eval ``-R prefs``),
        ``{group: {doc: level}}`` (``-R qrels_prefs``: one subgroup per group) or plain qrels ``{doc: grade}`` (one
        group; a grade below 0 states no preference).
    k : int or None, optional
        The cutoff: only the top k ranks are retrieved. None (the default) takes the whole ranking, as trec_eval does
        (its measure has no cutoff).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). The value reads none of them; ``threshold``
        only says which steps are relevant when ``qrels`` is plain qrels.

    Returns
    -------
    Breakdown
        ``value`` is the mean over the judgment groups of each group's fulfilled over possible preferences (a group with
        none possible adds 0), from 0 to 1; ``steps`` has one RankStep per rank of the (cut) ranking, each fulfilled
        preference credited to its preferred document's rank; ``terms`` holds ``Term.SUM`` (the groups' ratios added)
        and ``Term.GROUPS`` (their number).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one that
        is not a string, plain qrels hold a grade that is not an integer, or a group's preferences contradict each other
        (A > B and B > A) or give a document both level 0 and a level above 0.

    Notes
    -----
    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}`` (trec_eval
    ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no preference): see
    metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    Examples
    --------
    u1 3 / 3, u2 0 / 1: (1 + 0) / 2, where prefs_simp gives 3 / 4:

    >>> prefs_avgjg(['a', 'b', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.5
    """
    return row_breakdown(VARIANTS, prefs_avgjg, averaged_breakdown, ranking, qrels, k, conventions)


def prefs_avgjg_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg counting only preferences between two retrieved documents.

    trec_eval ``prefs_avgjg_ret`` (m_prefs_avgjg_ret.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : PreferenceJudgments
        One query's preferences: ``{group: {subgroup: {doc: level}}}`` (trec_eval ``-R prefs``),
        ``{group: {doc: level}}`` (``-R qrels_prefs``: one subgroup per group) or plain qrels ``{doc: grade}`` (one
        group; a grade below 0 states no preference).
    k : int or None, optional
        The cutoff: only the top k ranks are retrieved. None (the default) takes the whole ranking, as trec_eval does
        (its measure has no cutoff).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). The value reads none of them; ``threshold``
        only says which steps are relevant when ``qrels`` is plain qrels.

    Returns
    -------
    Breakdown
        ``value`` is the mean over the judgment groups of each group's fulfilled over possible preferences between two
        retrieved documents (a group with none possible adds 0), from 0 to 1; ``steps`` has one RankStep per rank of the
        (cut) ranking, each fulfilled preference credited to its preferred document's rank; ``terms`` holds ``Term.SUM``
        (the groups' ratios added) and ``Term.GROUPS`` (their number).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one that
        is not a string, plain qrels hold a grade that is not an integer, or a group's preferences contradict each other
        (A > B and B > A) or give a document both level 0 and a level above 0.

    Notes
    -----
    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}`` (trec_eval
    ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no preference): see
    metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    Examples
    --------
    u1: a > b fulfilled, 1 / 1; u2: b > a not, 0 / 1:

    >>> prefs_avgjg_ret(['a', 'b'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.5
    """
    return row_breakdown(VARIANTS, prefs_avgjg_ret, averaged_breakdown, ranking, qrels, k, conventions)


def prefs_avgjg_imp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg counting only preferences with a retrieved document.

    trec_eval ``prefs_avgjg_imp`` (m_prefs_avgjg_imp.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : PreferenceJudgments
        One query's preferences: ``{group: {subgroup: {doc: level}}}`` (trec_eval ``-R prefs``),
        ``{group: {doc: level}}`` (``-R qrels_prefs``: one subgroup per group) or plain qrels ``{doc: grade}`` (one
        group; a grade below 0 states no preference).
    k : int or None, optional
        The cutoff: only the top k ranks are retrieved. None (the default) takes the whole ranking, as trec_eval does
        (its measure has no cutoff).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). The value reads none of them; ``threshold``
        only says which steps are relevant when ``qrels`` is plain qrels.

    Returns
    -------
    Breakdown
        ``value`` is the mean over the judgment groups of each group's fulfilled over possible preferences with a
        retrieved document (a group with none possible adds 0), from 0 to 1; ``steps`` has one RankStep per rank of the
        (cut) ranking, each fulfilled preference credited to its preferred document's rank; ``terms`` holds ``Term.SUM``
        (the groups' ratios added) and ``Term.GROUPS`` (their number).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one that
        is not a string, plain qrels hold a grade that is not an integer, or a group's preferences contradict each other
        (A > B and B > A) or give a document both level 0 and a level above 0.

    Notes
    -----
    One query's judgments are preferences, ``{group: {subgroup: {doc: level}}}`` or ``{group: {doc: level}}`` (trec_eval
    ``-R prefs``, ``-R qrels_prefs``), or plain qrels (one group; a grade below 0 states no preference): see
    metrics.preferences.readable_preferences. k cuts the ranking (trec_eval's has no cutoff).

    Examples
    --------
    u1: a > b, a > c fulfilled, b > c left out, 2 / 2; u2: b > a, 0 / 1:

    >>> prefs_avgjg_imp(['a'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.5
    """
    return row_breakdown(VARIANTS, prefs_avgjg_imp, averaged_breakdown, ranking, qrels, k, conventions)


# what each group's ratio counts, in the definition's words
EACH = {"": "all preferences", "ret": "between retrieved documents", "imp": "with a retrieved document"}
# one row per family: which preferences it counts (Variant.counted), its names and place
VARIANTS = (
    Variant(
        key="prefs_avgjg",
        function=prefs_avgjg,
        counted="",
        title="Preferences fulfilled, averaged over judgment groups",
        help="Fulfilled over possible preferences of each judgment group (a user), averaged over the groups.",
        plain=(
            "rewards ordering documents as each judge (e.g. each user) prefers them: the share of that judge's "
            "preferences the list fulfils, averaged over the judges"
        ),
        order=690,
    ),
    Variant(
        key="prefs_avgjg_ret",
        function=prefs_avgjg_ret,
        counted="ret",
        title="Preferences fulfilled among the retrieved, averaged over judgment groups",
        help="prefs_avgjg counting only preferences between two retrieved documents.",
        plain=(
            "rewards ordering the retrieved documents as each judge (e.g. each user) prefers them: the share of that "
            "judge's preferences between two retrieved documents the list fulfils, averaged over the judges"
        ),
        order=700,
    ),
    Variant(
        key="prefs_avgjg_imp",
        function=prefs_avgjg_imp,
        counted="imp",
        title="Preferences fulfilled with a retrieved document, averaged over judgment groups",
        help="prefs_avgjg counting only preferences with a retrieved document.",
        plain=(
            "rewards ordering documents as each judge (e.g. each user) prefers them: the share of that judge's "
            "preferences involving a retrieved document the list fulfils, averaged over the judges"
        ),
        order=710,
    ),
)


def _declared(variant: Variant) -> Family:
    """A row's record: each group's fulfilled over possible preferences, of those the row counts, averaged."""

    def kernel(data: Prepared, measure: Measure) -> np.ndarray:
        table = preference_table(data, measure.k)
        fulfilled, possible = fulfilled_possible(table, variant.counted)
        return group_mean(table, ratio_or_zero(fulfilled.astype(np.float64), possible.astype(np.float64)))

    return Family(
        **row_record(
            variant,
            kernel,
            lambda c: group_definition(variant.key, EACH[variant.counted]),
            lambda b: group_worked(variant.key, b),
            (Term.SUM, Term.GROUPS),
        ),
        kind="order",
    )


PREFS_AVGJG, PREFS_AVGJG_RET, PREFS_AVGJG_IMP = (_declared(variant) for variant in VARIANTS)

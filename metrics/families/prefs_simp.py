"""Preferences fulfilled, simple ratio: fulfilled over possible preferences (prefs_simp), those between two retrieved
documents (prefs_simp_ret) or with a retrieved document (prefs_simp_imp). The three differ only by which preferences
they count, so one table declares them (VARIANTS).

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
from metrics.preferences.preference_formulas import ratio_definition, ratio_worked
from metrics.preferences.preference_kernels import fulfilled_possible, per_slot, ratio_or_zero
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, simple_breakdown
from metrics.preferences.variants import Variant

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_simp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled preferences over all stated ones (one between two unretrieved documents is not fulfilled).

    trec_eval ``prefs_simp`` (m_prefs_simp.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the fulfilled preferences over all possible ones, from 0 to 1 (0 when none is possible); ``steps``
        has one RankStep per rank of the (cut) ranking, each fulfilled preference credited to its preferred document's
        rank; ``terms`` holds ``Term.FULFILLED`` and ``Term.POSSIBLE``.

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
    u1's a > b, a > c, b > c are fulfilled, u2's b > a is not: 3 / 4:

    >>> prefs_simp(['a', 'b', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.75
    """
    return row_breakdown(VARIANTS, prefs_simp, simple_breakdown, ranking, qrels, k, conventions)


def prefs_simp_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled over possible preferences between two retrieved documents (for collections that change).

    trec_eval ``prefs_simp_ret`` (m_prefs_simp_ret.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the fulfilled over the possible preferences between two retrieved documents, from 0 to 1 (0 when
        none is possible); ``steps`` has one RankStep per rank of the (cut) ranking, each fulfilled preference credited
        to its preferred document's rank; ``terms`` holds ``Term.FULFILLED`` and ``Term.POSSIBLE``.

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
    a > b is the one preference between retrieved documents, fulfilled:

    >>> prefs_simp_ret(['a', 'b'], {"a": 2, "b": 1, "c": 0}).value
    1.0
    """
    return row_breakdown(VARIANTS, prefs_simp_ret, simple_breakdown, ranking, qrels, k, conventions)


def prefs_simp_imp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Fulfilled over possible preferences that involve a retrieved document (two unretrieved: left out).

    trec_eval ``prefs_simp_imp`` (m_prefs_simp_imp.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the fulfilled over the possible preferences with a retrieved document, from 0 to 1 (0 when none is
        possible); ``steps`` has one RankStep per rank of the (cut) ranking, each fulfilled preference credited to its
        preferred document's rank; ``terms`` holds ``Term.FULFILLED`` and ``Term.POSSIBLE``.

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
    of the 5 preferences with a retrieved document only b > a is fulfilled (d > c involves none):

    >>> prefs_simp_imp(['b', 'a'], {"a": 0, "b": 1, "c": 2, "d": 3}).value
    0.2
    """
    return row_breakdown(VARIANTS, prefs_simp_imp, simple_breakdown, ranking, qrels, k, conventions)


# one row per family: which preferences it counts (Variant.counted), its names and place
VARIANTS = (
    Variant(
        key="prefs_simp",
        function=prefs_simp,
        counted="",
        title="Preferences fulfilled, simple ratio",
        help="Fulfilled preferences over all stated ones (one between two unretrieved documents is not fulfilled).",
        plain=(
            "rewards ordering documents as the judges prefer them: the share of their preferences (A preferred to B) "
            "that the list fulfils, a preference between two documents it never retrieved counting as missed"
        ),
        order=630,
    ),
    Variant(
        key="prefs_simp_ret",
        function=prefs_simp_ret,
        counted="ret",
        title="Preferences fulfilled among the retrieved, simple ratio",
        help="Fulfilled over possible preferences between two retrieved documents (for collections that change).",
        plain=(
            "rewards ordering the retrieved documents as the judges prefer them: the share of their preferences between"
            " two retrieved documents that the list fulfils"
        ),
        order=640,
    ),
    Variant(
        key="prefs_simp_imp",
        function=prefs_simp_imp,
        counted="imp",
        title="Preferences fulfilled with a retrieved document, simple ratio",
        help="Fulfilled over possible preferences that involve a retrieved document (two unretrieved: left out).",
        plain=(
            "rewards ordering documents as the judges prefer them: the share of their preferences involving at least "
            "one retrieved document that the list fulfils"
        ),
        order=650,
    ),
)


def _declared(variant: Variant) -> Family:
    """A row's record: fulfilled over possible preferences, of those the row counts."""

    def kernel(data: Prepared, measure: Measure) -> np.ndarray:
        table = preference_table(data, measure.k)
        fulfilled, possible = fulfilled_possible(table, variant.counted)
        numerator, denominator = per_slot(table, fulfilled.astype(float)), per_slot(table, possible.astype(float))
        return ratio_or_zero(numerator, denominator)

    return Family(
        **row_record(
            variant,
            kernel,
            lambda c: ratio_definition(variant.key, variant.counted),
            lambda b: ratio_worked(variant.key, b),
            (Term.FULFILLED, Term.POSSIBLE),
        ),
        kind="order",
    )


PREFS_SIMP, PREFS_SIMP_RET, PREFS_SIMP_IMP = (_declared(variant) for variant in VARIANTS)

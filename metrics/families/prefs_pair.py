"""Preferences by document pair: per pair, the share of judgment groups preferring the better-ranked document,
averaged over the pairs (prefs_pair), over the pairs of two retrieved documents (prefs_pair_ret) or with a retrieved
document (prefs_pair_imp). The three differ only by which pairs they count, so one table declares them (VARIANTS).

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
from metrics.preferences.preference_formulas import pair_definition, pair_worked
from metrics.preferences.preference_kernels import pair_values
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, pair_breakdown
from metrics.preferences.variants import Variant

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_pair(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Per document pair, the share of judgment groups preferring the better-ranked one, averaged over pairs.

    trec_eval ``prefs_pair`` (m_prefs_pair.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the mean, over the document pairs some group has a preference on, of the share of the groups
        preferring the better-ranked one (pairs of two unretrieved documents count as 0), from 0 to 1 (0 with no pair);
        ``steps`` has one RankStep per rank of the (cut) ranking, each pair's share credited to its better-ranked
        document; ``terms`` holds ``Term.SUM`` (the pairs' shares added) and ``Term.PAIRS`` (their number).

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
    (a, b): u1 prefers a, u2 b, 1/2; (a, c) and (b, c): 1 each; (1/2 + 1 + 1) / 3:

    >>> prefs_pair(['a', 'b', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.8333333333333334
    """
    return row_breakdown(VARIANTS, prefs_pair, pair_breakdown, ranking, qrels, k, conventions)


def prefs_pair_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_pair over the pairs of two retrieved documents only.

    trec_eval ``prefs_pair_ret`` (m_prefs_pair_ret.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the mean, over the pairs of two retrieved documents some group has a preference on, of the share of
        the groups preferring the better-ranked one, from 0 to 1 (0 with no pair); ``steps`` has one RankStep per rank
        of the (cut) ranking, each pair's share credited to its better-ranked document; ``terms`` holds ``Term.SUM``
        (the pairs' shares added) and ``Term.PAIRS`` (their number).

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
    the one pair of retrieved documents, (a, c): u1 prefers a, u2 c:

    >>> prefs_pair_ret(['a', 'c'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"c": 1, "a": 0}}).value
    0.5
    """
    return row_breakdown(VARIANTS, prefs_pair_ret, pair_breakdown, ranking, qrels, k, conventions)


def prefs_pair_imp(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_pair over the pairs with a retrieved document; pairs of two unretrieved documents are left out.

    trec_eval ``prefs_pair_imp`` (m_prefs_pair_imp.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the mean, over the pairs with a retrieved document some group has a preference on, of the share of
        the groups preferring the better-ranked one, from 0 to 1 (0 with no pair); ``steps`` has one RankStep per rank
        of the (cut) ranking, each pair's share credited to its better-ranked document; ``terms`` holds ``Term.SUM``
        (the pairs' shares added) and ``Term.PAIRS`` (their number).

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
    (a, b): 1/2; (a, c): 1; (b, c) has no retrieved document: (1/2 + 1) / 2:

    >>> prefs_pair_imp(['a'], {"u1": {"a": 2, "b": 1, "c": 0}, "u2": {"b": 1, "a": 0}}).value
    0.75
    """
    return row_breakdown(VARIANTS, prefs_pair_imp, pair_breakdown, ranking, qrels, k, conventions)


# one row per family: which pairs it counts (Variant.counted), its names and place
VARIANTS = (
    Variant(
        key="prefs_pair",
        function=prefs_pair,
        counted="",
        title="Preferences by document pair",
        help="Per document pair, the share of judgment groups preferring the better-ranked one, averaged over pairs.",
        plain=(
            "rewards ordering documents as most judges prefer them: for each pair of documents, the share of the judges"
            " whose preference the list follows, averaged over the pairs"
        ),
        order=660,
    ),
    Variant(
        key="prefs_pair_ret",
        function=prefs_pair_ret,
        counted="ret",
        title="Preferences by document pair, among the retrieved",
        help="prefs_pair over the pairs of two retrieved documents only.",
        plain=(
            "rewards ordering the retrieved documents as most judges prefer them: for each pair of retrieved documents,"
            " the share of the judges whose preference the list follows, averaged over the pairs"
        ),
        order=670,
    ),
    Variant(
        key="prefs_pair_imp",
        function=prefs_pair_imp,
        counted="imp",
        title="Preferences by document pair, with a retrieved document",
        help="prefs_pair over the pairs with a retrieved document; pairs of two unretrieved documents are left out.",
        plain=(
            "rewards ordering documents as most judges prefer them: for each pair with at least one retrieved document,"
            " the share of the judges whose preference the list follows, averaged over the pairs"
        ),
        order=680,
    ),
)


def _declared(variant: Variant) -> Family:
    """A row's record: the share of the groups preferring the better-ranked document, over the pairs the row counts."""

    def kernel(data: Prepared, measure: Measure) -> np.ndarray:
        return pair_values(preference_table(data, measure.k), variant.counted)

    return Family(
        **row_record(
            variant,
            kernel,
            lambda c: pair_definition(variant.key, variant.counted),
            lambda b: pair_worked(variant.key, b),
            (Term.SUM, Term.PAIRS),
        ),
        kind="order",
    )


PREFS_PAIR, PREFS_PAIR_RET, PREFS_PAIR_IMP = (_declared(variant) for variant in VARIANTS)

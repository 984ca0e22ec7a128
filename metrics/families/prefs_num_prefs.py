"""Preferences counted: how many the judgment groups state (prefs_num_prefs_poss), how many the ranking fulfils
(prefs_num_prefs_ful) and how many between two retrieved documents it fulfils (prefs_num_prefs_ful_ret). The three
differ only by which preferences they count, so one table declares them (VARIANTS).

Their readable functions (with the per-rank breakdown), engine kernels, LaTeX formulas and declarations
(metrics.catalog.registry collects them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Values
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking
from metrics.families._preference_rows import row_breakdown, row_record
from metrics.preferences.preference_formulas import count_definition, count_worked
from metrics.preferences.preference_kernels import fulfilled_possible, per_slot
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, count_breakdown, counted_term
from metrics.preferences.variants import Variant

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_num_prefs_poss(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""How many preferences the judgment groups state (A preferred to B), whatever was retrieved.

    trec_eval ``prefs_num_prefs_poss`` (m_prefs_num_prefs_poss.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the number of preferences the groups state (a float); ``steps`` has one RankStep per rank of the
        (cut) ranking, each preference counted credited to the better ranked of its retrieved documents (the rest to the
        last rank); ``terms`` holds ``Term.POSSIBLE``.

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
    a > c, a > z, a > b, c > b, z > b:

    >>> prefs_num_prefs_poss(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    5.0
    """
    return row_breakdown(VARIANTS, prefs_num_prefs_poss, count_breakdown, ranking, qrels, k, conventions)


def prefs_num_prefs_ful(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""How many stated preferences A > B the ranking fulfils: A retrieved above B, or A retrieved and B not.

    trec_eval ``prefs_num_prefs_ful`` (m_prefs_num_prefs_ful.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the number of preferences the ranking fulfils (a float); ``steps`` has one RankStep per rank of the
        (cut) ranking, each preference counted credited to the better ranked of its retrieved documents (the rest to the
        last rank); ``terms`` holds ``Term.FULFILLED``.

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
    a > c, a > b (both retrieved, a above) and a > z (z not retrieved):

    >>> prefs_num_prefs_ful(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    3.0
    """
    return row_breakdown(VARIANTS, prefs_num_prefs_ful, count_breakdown, ranking, qrels, k, conventions)


def prefs_num_prefs_ful_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""How many preferences A > B between two retrieved documents the ranking fulfils (A ranked above B).

    trec_eval ``prefs_num_prefs_ful_ret`` (m_prefs_num_prefs_ful_ret.c), from ``-R prefs`` or ``-R qrels_prefs``
    judgments.

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
        ``value`` is the number of preferences between two retrieved documents the ranking fulfils (a float); ``steps``
        has one RankStep per rank of the (cut) ranking, each preference counted credited to the better ranked of its
        retrieved documents (the rest to the last rank); ``terms`` holds ``Term.FULFILLED``.

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
    a > c and a > b:

    >>> prefs_num_prefs_ful_ret(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    2.0
    """
    return row_breakdown(VARIANTS, prefs_num_prefs_ful_ret, count_breakdown, ranking, qrels, k, conventions)


# what each counts, in the formulas' words
COUNTED = {
    "possible": "possible preferences",
    "ful": "fulfilled preferences",
    "ful_ret": "fulfilled preferences between retrieved documents",
}
# one row per family: which preferences it counts (Variant.counted), its names and place
VARIANTS = (
    Variant(
        key="prefs_num_prefs_poss",
        function=prefs_num_prefs_poss,
        counted="possible",
        title="Preferences possible",
        help="How many preferences the judgment groups state (A preferred to B), whatever was retrieved.",
        plain=(
            "is no score of the run: it counts the preferences the judges stated (document A preferred to document B), "
            "whatever was retrieved"
        ),
        order=600,
    ),
    Variant(
        key="prefs_num_prefs_ful",
        function=prefs_num_prefs_ful,
        counted="ful",
        title="Preferences fulfilled",
        help="How many stated preferences A > B the ranking fulfils: A retrieved above B, or A retrieved and B not.",
        plain=(
            "counts the judges' preferences (document A preferred to B) that the list fulfils: A ranked above B, or A "
            "retrieved and B not"
        ),
        order=610,
    ),
    Variant(
        key="prefs_num_prefs_ful_ret",
        function=prefs_num_prefs_ful_ret,
        counted="ful_ret",
        title="Preferences fulfilled among the retrieved",
        help="How many preferences A > B between two retrieved documents the ranking fulfils (A ranked above B).",
        plain=(
            "counts the judges' preferences (document A preferred to B) between two retrieved documents that the list "
            "fulfils by ranking A above B"
        ),
        order=620,
    ),
)


def _declared(variant: Variant) -> Family:
    """A row's record: per query, how many of the preferences the row counts."""

    def kernel(data: Prepared, measure: Measure) -> np.ndarray:
        table = preference_table(data, measure.k)
        fulfilled, possible = fulfilled_possible(table, "ret" if variant.counted == "ful_ret" else "")
        return per_slot(table, (possible if variant.counted == "possible" else fulfilled).astype(np.float64))

    what = COUNTED[variant.counted]
    return Family(
        **row_record(
            variant,
            kernel,
            lambda c: count_definition(variant.key, what),
            lambda b: count_worked(variant.key, what, b),
            (counted_term(variant.counted),),
        ),
        kind="count",
        values=Values(range=None, summary="sum", count=True),
    )


PREFS_NUM_PREFS_POSS, PREFS_NUM_PREFS_FUL, PREFS_NUM_PREFS_FUL_RET = (_declared(variant) for variant in VARIANTS)

"""Preferences averaged over judgment groups, as many non-relevant as relevant: prefs_avgjg as if each group had judged
as many non-relevant documents as relevant ones, akin to bpref (prefs_avgjg_Rnonrel), counting retrieved documents
only (prefs_avgjg_Rnonrel_ret). The two differ only by which documents they count, so one table declares them
(VARIANTS).

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
from metrics.preferences.preference_kernels import group_mean, rnonrel
from metrics.preferences.preference_table import preference_table
from metrics.preferences.readable_preferences import PreferenceJudgments, rnonrel_breakdown
from metrics.preferences.variants import Variant

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def prefs_avgjg_rnonrel(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg as if each group had judged as many non-relevant documents as relevant ones (akin to bpref).

    trec_eval ``prefs_avgjg_Rnonrel`` (m_prefs_avgjg_Rnonrel.c), from ``-R prefs`` or ``-R qrels_prefs`` judgments.

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
        ``value`` is the mean over the judgment groups of each group's fulfilled over possible preferences, with as many
        non-relevant documents as relevant ones (0 when a group has nothing to count), from 0 to 1; ``steps`` has one
        RankStep per rank of the (cut) ranking, each fulfilled preference credited to its preferred document's rank;
        ``terms`` holds ``Term.SUM`` (the groups' ratios added) and ``Term.GROUPS`` (their number).

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
    R = 3 relevant, N = 1 non-relevant: 2 fulfilled preferences more for each of the 2 relevant retrieved, 2
    more possible for each relevant: (3 + 4) / (5 + 6):

    >>> prefs_avgjg_rnonrel(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    0.6363636363636364
    """
    return row_breakdown(VARIANTS, prefs_avgjg_rnonrel, _rnonrel, ranking, qrels, k, conventions)


def prefs_avgjg_rnonrel_ret(
    ranking: Ranking, qrels: PreferenceJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""prefs_avgjg_Rnonrel counting retrieved documents only.

    trec_eval ``prefs_avgjg_Rnonrel_ret`` (m_prefs_avgjg_Rnonrel_ret.c), from ``-R prefs`` or ``-R qrels_prefs``
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
        ``value`` is the mean over the judgment groups of each group's fulfilled over possible preferences among
        retrieved documents, with as many non-relevant documents as relevant ones (0 when a group has nothing to count),
        from 0 to 1; ``steps`` has one RankStep per rank of the (cut) ranking, each fulfilled preference credited to its
        preferred document's rank; ``terms`` holds ``Term.SUM`` (the groups' ratios added) and ``Term.GROUPS`` (their
        number).

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
    R = 2 relevant retrieved, N = 1: one fulfilled more for each (of 2), one possible more for each relevant (of
    3): (2 + 2) / (3 + 3):

    >>> prefs_avgjg_rnonrel_ret(['a', 'b', 'c'], {"a": 2, "b": 0, "c": 1, "z": 1}).value
    0.6666666666666666
    """
    return row_breakdown(VARIANTS, prefs_avgjg_rnonrel_ret, _rnonrel, ranking, qrels, k, conventions)


# what each group's ratio counts, in the definition's words
EACH = {
    "": "as many non-relevant documents as relevant",
    "ret": "as many non-relevant documents as relevant, retrieved",
}
# one row per family: which documents it counts (Variant.counted: "ret", the retrieved only), its names and place
VARIANTS = (
    Variant(
        key="prefs_avgjg_Rnonrel",
        function=prefs_avgjg_rnonrel,
        counted="",
        title="Preferences averaged over judgment groups, as many non-relevant as relevant",
        help="prefs_avgjg as if each group had judged as many non-relevant documents as relevant ones (akin to bpref).",
        plain=(
            "rewards ranking each judge's relevant documents above the ones that judge found not relevant, counting "
            "only as many of those as there are relevant ones (as bpref does), averaged over the judges"
        ),
        order=720,
    ),
    Variant(
        key="prefs_avgjg_Rnonrel_ret",
        function=prefs_avgjg_rnonrel_ret,
        counted="ret",
        title="Preferences among the retrieved averaged over judgment groups, as many non-relevant as relevant",
        help="prefs_avgjg_Rnonrel counting retrieved documents only.",
        plain=(
            "rewards ranking each judge's relevant documents above the ones that judge found not relevant, counting "
            "only retrieved documents and only as many not-relevant ones as there are relevant ones (as bpref does), "
            "averaged over the judges"
        ),
        order=730,
    ),
)


def _rnonrel(
    key: str, ranking: Ranking, qrels: PreferenceJudgments, k: int | None, conventions: Conventions, counted: str
) -> Breakdown:
    """rnonrel_breakdown, told whether the row counts the retrieved documents only."""
    return rnonrel_breakdown(key, ranking, qrels, k, conventions, counted == "ret")


def _declared(variant: Variant) -> Family:
    """A row's record: each group's fulfilled over possible preferences with as many non-relevant documents as
    relevant ones, of the documents the row counts, averaged."""

    def kernel(data: Prepared, measure: Measure) -> np.ndarray:
        table = preference_table(data, measure.k)
        fulfilled, possible = rnonrel(table, variant.counted == "ret")
        with np.errstate(invalid="ignore"):  # a group's 0 / 0 is NaN, as in trec_eval: its query scores 0
            return group_mean(table, fulfilled / possible)

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


PREFS_AVGJG_RNONREL, PREFS_AVGJG_RNONREL_RET = (_declared(variant) for variant in VARIANTS)

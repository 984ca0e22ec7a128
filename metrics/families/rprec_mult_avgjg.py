"""Precision at a multiple of R averaged over judgment groups (RprecMult_avgjg): Rprec_mult on each group's judgments
(trec_eval -R qrels_jg), averaged.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from metrics.catalog.family import Family, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Breakdown, Ranking, Term
from metrics.families.r_precision_multiple import R_PRECISION_MULTIPLE, r_precision_multiple
from metrics.preferences.judgment_groups import (
    JudgmentGroups,
    averaged_breakdown,
    averaged_definition,
    averaged_worked,
)
from metrics.teaching.latex import plain


def rprec_mult_avgjg(
    ranking: Ranking,
    qrels: JudgmentGroups,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    multiple: float = 1.0,
) -> Breakdown:
    r"""Precision at rank x·R averaged over the query's judgment groups, each group at its own R.

    trec_eval ``Rprec_mult_avgjg_x``, from ``-R qrels_jg`` judgments.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : JudgmentGroups
        One query's judgment groups, ``{group: {doc: grade}}`` (trec_eval ``-R qrels_jg``: the second field names the
        group); plain judgments ``{doc: grade}`` are one group.
    k : int or None, optional
        Cuts the ranking at k (trec_eval's measure has no cutoff); None (the default) takes the whole ranking.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``), passed on to each group's Rprec_mult.
    multiple : float, optional
        x: each group's precision is taken at rank x·R, R its relevant documents (trec_eval ``Rprec_mult_avgjg_x``);
        1.0 by default.

    Returns
    -------
    Breakdown
        ``value`` is the groups' precisions at x·R averaged, from 0 to 1; ``steps`` has one RankStep per rank, each
        contribution the groups' contributions averaged (a rank's grade is its highest over the groups); ``terms`` holds
        ``Term.SUM`` (the groups' values added) and ``Term.GROUPS`` (their number).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one that
        is not a string, or a grade (in any group) is not an integer.

    Notes
    -----
    .. math:: \mathrm{RprecMult\_avgjg}_x = \frac{1}{m} \sum_{j=1}^{m} \mathrm{Rprec\_mult}_{x,j}

    Conventions (``m_Rprec_mult_avgjg.c``): each group's value as
    :func:`metrics.families.r_precision_multiple.r_precision_multiple` computes it on that group's judgments; the
    groups in order of their ids. ``qrels`` maps each group to its judgments; plain judgments are one group.

    Examples
    --------
    >>> rprec_mult_avgjg(["a", "b"], {"u1": {"a": 1}, "u2": {"b": 1, "z": 1}}).value  # (1/1 + 1/2) / 2
    0.75
    """
    key = "RprecMult_avgjg"
    return averaged_breakdown(key, r_precision_multiple, ranking, qrels, k, conventions, multiple=multiple)


def rprec_mult_avgjg_definition(c: Conventions) -> str:
    return averaged_definition(plain("RprecMult_avgjg"), r"\mathrm{Rprec\_mult}", "x,j")


def rprec_mult_avgjg_worked(b: Breakdown) -> str:
    return averaged_worked(plain("RprecMult_avgjg"), r"\mathrm{Rprec\_mult}", b, "x,j")


RPREC_MULT_AVGJG = Family(
    key="RprecMult_avgjg",
    title="Precision at a multiple of R averaged over judgment groups",
    help="RprecMult_avgjg@x (trec_eval Rprec_mult_avgjg): precision at rank x·R of each judgment group, averaged.",
    function=rprec_mult_avgjg,
    # one group per slot: metrics.preferences.runs.judgment_group_runs averages a query's groups
    kernel=R_PRECISION_MULTIPLE.kernel,
    kind="order",
    teaching=Teaching(
        rprec_mult_avgjg_definition,
        rprec_mult_avgjg_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards relevant documents in the top x·R results, as each group of judges (e.g. each user) judges "
            "them, R being the number of documents that group judged relevant, averaged over the groups"
        ),
    ),
    params=R_PRECISION_MULTIPLE.params,
    at_param="multiple",
    trec_eval=TrecEval("Rprec_mult_avgjg", defaults=R_PRECISION_MULTIPLE.trec_eval.defaults, reads=("qrels_jg",)),
    order=397,
)

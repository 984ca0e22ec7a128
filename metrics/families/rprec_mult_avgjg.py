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
    r"""Precision at rank x·R averaged over the query's judgment groups (trec_eval ``Rprec_mult_avgjg_x``,
    ``-R qrels_jg``), each group at its own R.

    .. math:: \mathrm{RprecMult\_avgjg}_x = \frac{1}{m} \sum_{j=1}^{m} \mathrm{Rprec\_mult}_{x,j}

    Conventions (``m_Rprec_mult_avgjg.c``): each group's value as
    :func:`metrics.families.r_precision_multiple.r_precision_multiple` computes it on that group's judgments; the
    groups in order of their ids. ``qrels`` maps each group to its judgments; plain judgments are one group.

    >>> rprec_mult_avgjg(["a", "b"], {"u1": {"a": 1}, "u2": {"b": 1, "z": 1}}).value  # (1/1 + 1/2) / 2
    0.75
    """
    key = "RprecMult_avgjg"
    return averaged_breakdown(key, r_precision_multiple, ranking, qrels, k, conventions, multiple=multiple)


def rprec_mult_avgjg_definition(c: Conventions) -> str:
    return averaged_definition(plain("RprecMult_avgjg"), r"\mathrm{Rprec\_mult}_{x}")


def rprec_mult_avgjg_worked(b: Breakdown) -> str:
    return averaged_worked(plain("RprecMult_avgjg"), r"\mathrm{Rprec\_mult}_{x}", b)


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

"""Precision at a multiple of R (RprecMult). Precision at rank x·R (rounded as trec_eval does): precision- or recall-
oriented.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Param, Teaching, TrecEval
from metrics.core.checks import check_qrels, count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._precision_at_r import _precision_at, _precision_at_rank
from metrics.teaching.latex import aligned_block, decimal, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def r_precision_multiple(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    multiple: float = 1.0,
) -> Breakdown:
    r"""Precision at a multiple of R (trec_eval ``Rprec_mult_x``): precision at rank ⌊x·R + 0.9⌋.

    .. math:: \mathrm{Rprec\_mult}_x = \frac{\mathrm{hits@}c}{c}, \quad c = \lfloor x R + 0.9 \rfloor

    Conventions (trec_eval ``m_Rprec_mult.c``): the rank is x·R rounded up unless its fraction is below 0.1; past
    the end of the list the missing ranks count as non-relevant. c = 0 (R = 0) gives 0.0.

    >>> r_precision_multiple(["a", "x", "b", "c"], {"a": 1, "b": 1, "z": 1}, multiple=0.5).value  # c = 2
    0.5
    """
    check_qrels(qrels)
    R = count_relevant(qrels, conventions.threshold)
    cut = int(multiple * R + 0.9)  # C's (long)(x * R + 0.9): truncation of a non-negative double
    return _precision_at("RprecMult", ranking, qrels, k, conventions, cut, R, {Term.R: R})


def r_precision_multiple_definition(c: Conventions) -> str:
    return r"\mathrm{Rprec\_mult}_x = \frac{\mathrm{hits@}c}{c}, \quad c = \lfloor x R + 0.9 \rfloor"


def r_precision_multiple_worked(b: Breakdown) -> str:
    s, cut, hits = r"\mathrm{Rprec\_mult}", whole(b.terms[Term.RANK_CUTOFF]), whole(b.terms[Term.HITS])
    R = whole(b.terms[Term.R])
    lines = [rf"{s} &= \frac{{\mathrm{{hits@}}c}}{{c}}, \quad c = \lfloor x \cdot {R} + 0.9 \rfloor = {cut}"]
    if not b.terms[Term.RANK_CUTOFF]:
        lines.append(r"&= 0 \quad \text{(}c = 0\text{)}")
    else:
        lines.append(rf"&= \frac{{{hits}}}{{{cut}}} = {decimal(b.value)}")
    return aligned_block(lines)


def r_precision_multiple_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    cut = (measure.param("multiple") * data.R + 0.9).astype(np.int64)  # C's (long)(x * R + 0.9)
    return _precision_at_rank(data, cut, measure.k)


R_PRECISION_MULTIPLE = Family(
    key="RprecMult",
    title="Precision at a multiple of R",
    help="Precision at rank x·R (rounded as trec_eval does): precision- or recall-oriented.",
    function=r_precision_multiple,
    kernel=r_precision_multiple_kernel,
    kind="order",
    teaching=Teaching(
        r_precision_multiple_definition,
        r_precision_multiple_worked,
        terms=(Term.R, Term.HITS, Term.RANK_CUTOFF),
        plain=(
            "rewards relevant documents in the top x·R results, where R is the number of relevant "
            "documents the query has"
        ),
    ),
    params=(Param("multiple", 1.0, 0.0, 1000.0, "the multiple x of R"),),
    at_param="multiple",
    trec_eval=TrecEval("Rprec_mult", defaults=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    order=180,
)

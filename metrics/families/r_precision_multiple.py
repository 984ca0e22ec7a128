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
    r"""Precision at a multiple of R: precision at rank ⌊x·R + 0.9⌋.

    trec_eval ``Rprec_mult_x`` (``Rprec_mult_0.20`` ... ``Rprec_mult_2.00``).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list before the precision is taken (as trec_eval ``-M k``). None (the default)
        keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).
    multiple : float, optional
        x, the multiple of R (1.0 by default: R-precision); a measure name accepts 0 to 1000.

    Returns
    -------
    Breakdown
        ``value`` is Rprec_mult_x, from 0 to 1; ``steps`` has one RankStep per retrieved rank (of the top k), each
        relevant one at rank <= c contributing 1/c; ``terms`` holds R (``Term.R``), the hits (``Term.HITS``) and c
        (``Term.RANK_CUTOFF``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    r_precision : x = 1.

    Notes
    -----
    .. math:: \mathrm{Rprec\_mult}_x = \frac{\mathrm{hits@}c}{c}, \quad c = \lfloor x R + 0.9 \rfloor

    Conventions (trec_eval ``m_Rprec_mult.c``): the rank is x·R rounded up unless its fraction is below 0.1; past
    the end of the list the missing ranks count as non-relevant. c = 0 (R = 0) gives 0.0.

    Examples
    --------
    >>> r_precision_multiple(["a", "x", "b", "c"], {"a": 1, "b": 1, "z": 1}, multiple=0.5).value  # c = 2
    0.5
    >>> r_precision_multiple(["a", "x", "b", "c"], {"a": 1, "b": 1, "z": 1}, multiple=2.0).terms
    {'R': 3, 'hits': 2, 'cutoff rank': 6}
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
    cut = (measure.number("multiple") * data.R + 0.9).astype(np.int64)  # C's (long)(x * R + 0.9)
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

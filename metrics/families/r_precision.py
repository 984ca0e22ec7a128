"""R-precision (Rprec). R-precision: precision at rank R (where precision equals recall).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching, TrecEval
from metrics.core.checks import count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._precision_at_r import _precision_at, _precision_at_rank
from metrics.teaching.latex import aligned_block, decimal, whole, zero_R_line

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def r_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""R-precision: precision at rank R, where R is the number of relevant docs.

    trec_eval ``Rprec``; ir_measures ``Rprec``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list before the precision at rank R is taken (as trec_eval ``-M k``). None (the
        default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is Rprec, from 0 to 1; ``steps`` has one RankStep per retrieved rank (of the top k), each relevant
        one at rank <= R contributing 1/R; ``terms`` holds R (``Term.R``), the hits (``Term.HITS``) and the rank
        looked at (``Term.RANK_CUTOFF``, R).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    r_precision_multiple : precision at a multiple of R.

    Notes
    -----
    .. math:: \mathrm{Rprec} = \frac{\mathrm{hits@}R}{R}

    Conventions (trec_eval ``m_Rprec.c``): R counts every judged relevant document, retrieved or not; a list
    shorter than R is padded with non-relevant documents (divide by R all the same). R = 0 gives 0.0.
    At rank R precision equals recall, so Rprec is also R@R.

    Examples
    --------
    >>> r_precision(["a", "x", "b", "c"], {"a": 1, "b": 1, "z": 1}).value  # R = 3: a, x, b hold 2 hits
    0.6666666666666666
    """
    R = count_relevant(qrels, conventions.threshold)
    return _precision_at("Rprec", ranking, qrels, k, conventions, R, R, {Term.R: R})


def r_precision_definition(c: Conventions) -> str:
    return r"\mathrm{Rprec} = \frac{\mathrm{hits@}R}{R}"


def r_precision_worked(b: Breakdown) -> str:
    s = r"\mathrm{Rprec}"
    if not b.terms[Term.R]:
        return aligned_block([zero_R_line(s)])
    R, hits = whole(b.terms[Term.R]), whole(b.terms[Term.HITS])
    at_R = rf"\frac{{\mathrm{{hits@}}{R}}}{{{R}}}"
    return aligned_block(
        [rf"{s} &= \frac{{\mathrm{{hits@}}R}}{{R}} = {at_R} = \frac{{{hits}}}{{{R}}} = {decimal(b.value)}"]
    )


def r_precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return _precision_at_rank(data, data.R, measure.k)


R_PRECISION = Family(
    key="Rprec",
    title="R-precision",
    help="R-precision: precision at rank R (where precision equals recall).",
    function=r_precision,
    kernel=r_precision_kernel,
    kind="order",
    teaching=Teaching(
        r_precision_definition,
        r_precision_worked,
        terms=(Term.R, Term.HITS, Term.RANK_CUTOFF),
        plain=(
            "rewards relevant documents in the top R results, where R is the number of relevant "
            "documents the query has: a query with 3 relevant documents is judged on its first 3"
        ),
    ),
    written="whole",
    names=Names(spellings=("r_prec", "r-prec"), ir_measures="Rprec"),
    trec_eval=TrecEval("Rprec"),
    order=170,
)

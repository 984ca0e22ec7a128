"""R-precision: precision at rank R, where R is the number of relevant documents (trec_eval ``Rprec``), and
precision at multiples of R (``Rprec_mult``).

At rank R, precision equals recall (both are hits / R): R-precision is the point where the two meet.
"""

from __future__ import annotations

from metrics._checks import check_qrels, checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.family import Family, Param
from metrics.latex import aligned_block, decimal, whole, zero_R_line
from metrics.lazy_numpy import np
from metrics.prepared import ratio
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _precision_at(
    family: str, ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, cut: int, R: int, terms
) -> Breakdown:
    """hits in the top ``cut`` / cut, each hit contributing 1/cut (0 when cut = 0)."""
    rows = judged(checked(ranking, qrels, k), qrels, conventions.threshold)
    steps, running, hits = [], 0.0, 0
    for rank, doc, grade, relevant in rows:
        counts = relevant and rank <= cut
        contribution = 1 / cut if counts else 0.0
        hits += counts
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    value = hits / cut if cut else 0.0
    return Breakdown(family, k, value, tuple(steps), {**terms, Term.HITS: hits, Term.RANK_CUTOFF: cut}, conventions)


def r_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""R-precision (trec_eval ``Rprec``; ir_measures ``Rprec``): precision at rank R.

    .. math:: \mathrm{Rprec} = \frac{\mathrm{hits@}R}{R}

    Conventions (trec_eval ``m_Rprec.c``): R counts every judged relevant document, retrieved or not; a list
    shorter than R is padded with non-relevant documents (divide by R all the same). R = 0 gives 0.0.
    At rank R precision equals recall, so Rprec is also R@R.

    >>> r_precision(["a", "x", "b", "c"], {"a": 1, "b": 1, "z": 1}).value  # R = 3: a, x, b hold 2 hits
    0.6666666666666666
    """
    R = count_relevant(qrels, conventions.threshold)
    return _precision_at("Rprec", ranking, qrels, k, conventions, R, R, {Term.R: R})


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


# --- definitions and worked formulas (LaTeX) ---


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


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def _precision_at_rank(data, cut: np.ndarray, k: int | None) -> np.ndarray:
    """hits in the top cut[q] (and the top k) / cut[q], per query; 0 where cut is 0."""
    counted = data.relevant() & data.in_top(k) & (data.rank <= cut[data.slot])
    return ratio(np.bincount(data.slot[counted], minlength=data.size), cut)


def r_precision_kernel(data, measure) -> np.ndarray:
    return _precision_at_rank(data, data.R, measure.k)


def r_precision_multiple_kernel(data, measure) -> np.ndarray:
    cut = (measure.param("multiple") * data.R + 0.9).astype(np.int64)  # C's (long)(x * R + 0.9)
    return _precision_at_rank(data, cut, measure.k)


# --- the families' declarations (metrics.registry collects them) ---

R_PRECISION = Family(
    "Rprec",
    "R-precision",
    r_precision,
    r_precision_kernel,
    "order",
    "R-precision: precision at rank R (where precision equals recall).",
    r_precision_definition,
    r_precision_worked,
    (Term.R, Term.HITS, Term.RANK_CUTOFF),
    spellings=("r_prec", "r-prec"),
    trec_eval="Rprec",
    ir_measures="Rprec",
    usually_cut=False,
    order=170,
)

R_PRECISION_MULTIPLE = Family(
    "RprecMult",
    "Precision at a multiple of R",
    r_precision_multiple,
    r_precision_multiple_kernel,
    "order",
    "Precision at rank x·R (rounded as trec_eval does): precision- or recall-oriented.",
    r_precision_multiple_definition,
    r_precision_multiple_worked,
    (Term.R, Term.HITS, Term.RANK_CUTOFF),
    trec_eval="Rprec_mult",
    params=(Param("multiple", 1.0, 0.0, 1000.0, "the multiple x of R"),),
    at_param="multiple",
    trec_defaults=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
    order=180,
)

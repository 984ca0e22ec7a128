"""R-precision: precision at rank R, where R is the number of relevant documents (trec_eval ``Rprec``), and
precision at multiples of R (``Rprec_mult``).

At rank R, precision equals recall (both are hits / R): R-precision is the point where the two meet.
"""

from __future__ import annotations

from metrics._checks import check_qrels, checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions
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

"""Discounted cumulative gain: graded gains, discounted by log2(rank + 1), normalised by the ideal ordering."""

from __future__ import annotations

from math import log2

from metrics._checks import checked, judged
from metrics.conventions import TREC_EVAL, Conventions, Gain
from metrics.judgments import Gains
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def gain(grade: int, kind: Gain = "linear") -> float:
    """The gain of a grade: the grade itself (linear) or 2^grade - 1 (exp). Grades <= 0 gain nothing.

    >>> gain(3), gain(3, "exp"), gain(-1, "exp")
    (3.0, 7.0, 0.0)
    """
    if grade <= 0:
        return 0.0
    return float(grade) if kind == "linear" else float(2**grade - 1)


def dcg(ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL) -> Breakdown:
    r"""Discounted cumulative gain at cutoff k (ranx ``dcg@k``; ``dcg_burges@k`` with exponential gain).

    .. math:: DCG@k = \sum_{i=1}^{k} \frac{g(d_i)}{\log_2(i + 1)}

    Conventions (trec_eval >= 9.0.4): discount log2(rank + 1), so rank 1 is undiscounted; gain = grade (linear)
    or 2^grade - 1 (``gain="exp"``); unjudged, zero and negative grades gain 0. The threshold is ignored.

    >>> round(dcg(["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}, k=4).value, 4)
    5.7619
    """
    top = checked(ranking, qrels, k)
    total, steps = 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = gain(grade, conventions.gain) / log2(rank + 1)
        total += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, total))
    return Breakdown("DCG", k, total, tuple(steps), {Term.DCG: total}, conventions, graded=True)


def ideal_ranking(ranking: Ranking, qrels: Judgments, *, conventions: Conventions = TREC_EVAL) -> list[str]:
    """The best possible order: judged docs with a positive grade (or, with ``idcg="retrieved"``, the retrieved
    docs), by grade descending; equal grades by doc id, so the order is reproducible.
    """
    pool = qrels.keys() if conventions.idcg == "all" else ranking
    return sorted((d for d in pool if qrels.get(d, 0) > 0), key=lambda d: (-qrels[d], d))


def idcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Ideal DCG at cutoff k: the DCG of the best possible ordering (trec_eval's ndcg denominator).

    .. math:: IDCG@k = \sum_{i=1}^{k} \frac{g(d^*_i)}{\log_2(i + 1)}, \quad d^*\ \text{sorted by grade}

    Conventions (trec_eval, ranx): the ideal list holds **every judged doc with grade > 0, retrieved or not**,
    cut at k; k=None keeps all of them (trec_eval ``ndcg``). ``idcg="retrieved"`` sorts only the retrieved
    list, as some tutorials do: it overrates a run that misses relevant docs.

    >>> round(idcg(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).value, 4)
    3.1309
    """
    checked(ranking, qrels, k)
    ideal = ideal_ranking(ranking, qrels, conventions=conventions)
    best = dcg(ideal if k is None else ideal[:k], qrels, conventions=conventions)
    return Breakdown("IDCG", k, best.value, best.steps, {Term.IDCG: best.value}, conventions, graded=True)


def ndcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""Normalised DCG at cutoff k (trec_eval ``ndcg_cut_k``; ``ndcg`` if k is None; ranx ``ndcg_burges@k``
    with ``gain="exp"``).

    .. math:: NDCG@k = \frac{DCG@k}{IDCG@k}

    Conventions (trec_eval): IDCG from all judged grades (see :func:`idcg`); gain linear; the relevance threshold
    is **ignored** (every positive grade is a gain); IDCG = 0 gives 0.0, not NaN. A list shorter than k is
    padded with non-relevant docs. Each rank's contribution is its DCG term divided by IDCG.

    >>> grades = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1, "d6": 3}  # d6 was never retrieved
    >>> round(ndcg(["d1", "d2", "d3", "d4", "d5"], grades, k=5).value, 4)
    0.8047

    ``gains`` maps levels to gains as trec_eval's ``ndcg.1=3,2=9,4=4.5`` does: see
    :func:`metrics.gain_measures.ndcg_with_gains`, which computes the value then.
    """
    if gains:
        from metrics.gain_measures import ndcg_with_gains  # it builds on metrics.judgments, not on this module

        return ndcg_with_gains(ranking, qrels, k, conventions=conventions, gains=gains)
    actual = dcg(ranking, qrels, k, conventions=conventions)
    best = idcg(ranking, qrels, k, conventions=conventions).value
    steps = tuple(
        RankStep(
            s.rank,
            s.doc_id,
            s.grade,
            s.relevant,
            s.contribution / best if best else 0.0,
            s.running / best if best else 0.0,
        )
        for s in actual.steps
    )
    value = actual.value / best if best else 0.0
    return Breakdown(
        "NDCG", k, value, steps, {Term.DCG: actual.value, Term.IDCG: best}, conventions, graded=True
    )

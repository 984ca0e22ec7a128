"""Average precision: precision at every relevant rank, summed and divided by R. MAP is its mean over queries."""

from __future__ import annotations

import dataclasses

from metrics._checks import checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Average precision (trec_eval ``map``; with k, ``map_cut_k``).

    .. math:: AP@k = \frac{1}{R} \sum_{i \leq k,\ rel(d_i)} P@i, \qquad P@i = \frac{hits@i}{i}

    Conventions (trec_eval, ``m_map.c``): **R counts every relevant doc in the qrels**, retrieved or not, and
    AP@k keeps dividing by R, not by min(R, k): a relevant doc that was never retrieved counts as precision 0.
    R = 0 gives 0.0. With ``ap_denominator="retrieved"`` the sum is divided by the relevant docs retrieved
    within k instead (RAGAS-style "context precision"), which rewards retrieving little.

    >>> round(average_precision(["r0", "n1", "r1", "r2", "n2"], {f"r{i}": 1 for i in range(10)}, k=3).value, 4)
    0.1667
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    ranks = list(judged(top, qrels, conventions.threshold))
    hits_total = sum(relevant for *_, relevant in ranks)
    denominator = R if conventions.ap_denominator == "all" else hits_total
    hits, precision_sum, running, steps = 0, 0.0, 0.0, []
    for rank, doc, grade, relevant in ranks:
        contribution = 0.0
        if relevant:
            hits += 1
            precision_sum += hits / rank
            contribution = (hits / rank) / denominator if denominator else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    value = precision_sum / denominator if denominator else 0.0
    terms = {Term.PRECISION_SUM: precision_sum, Term.R: R, Term.HITS: hits_total, Term.DENOMINATOR: denominator}
    return Breakdown("AP", k, value, tuple(steps), terms, conventions)


def geometric_mean_ap(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Average precision of one query, as trec_eval's ``gm_map`` takes it: the same AP, but the mean over queries
    is geometric, exp(mean(log max(AP, 0.00001))), which rewards being consistent over topics.

    >>> geometric_mean_ap(["a", "x"], {"a": 1}).value
    1.0
    """
    return dataclasses.replace(average_precision(ranking, qrels, k, conventions=conventions), family="GM_AP")

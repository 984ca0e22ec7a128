"""Order-unaware metrics at a cutoff: P@k, R@k, R_cap@k, HitRate@k and F1@k.

Each counts hits@k, the relevant docs among the top k, and divides by something different.
"""

from __future__ import annotations

from metrics._checks import check_k, checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _hits_breakdown(
    ranking: Ranking, qrels: Judgments, k: int | None, divisor: int, conventions: Conventions
) -> tuple[int, list[RankStep]]:
    """Walk the top k; every hit contributes 1/divisor. Returns hits@k and the steps."""
    top = checked(ranking, qrels, k)
    hits, running, steps = 0, 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = 1 / divisor if relevant and divisor else 0.0
        hits += relevant
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return hits, steps


def precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Precision at cutoff k (trec_eval ``P_k``): the share of the top k that is relevant.

    .. math:: P@k = \frac{hits@k}{k}

    Conventions (trec_eval): relevant means grade >= threshold; unjudged docs are non-relevant. **The divisor is
    always k**, even when fewer than k docs were retrieved ("nonrelevant docs fill in the rest", ``m_P.c``).
    k=None divides by the length of the list (ranx ``precision``); an empty list gives 0.0.

    >>> precision(["d1", "d2", "d3"], {"d1": 1, "d3": 2}, k=10).value
    0.2
    """
    divisor = len(ranking) if k is None else k
    hits, steps = _hits_breakdown(ranking, qrels, k, divisor, conventions)
    value = hits / divisor if divisor else 0.0
    return Breakdown("P", k, value, tuple(steps), {Term.HITS: hits, Term.CUTOFF: divisor}, conventions)


def recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Recall at cutoff k (trec_eval ``recall_k``): the share of all relevant docs found in the top k.

    .. math:: R@k = \frac{hits@k}{R}

    Conventions (trec_eval): R counts every judged doc with grade >= threshold, **retrieved or not**.
    R = 0 gives 0.0, not NaN (``m_recall.c``).
    Naming: some people say "recall@k" for "any relevant doc in the top k"; that is HitRate@k here.

    >>> round(recall(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).value, 4)
    0.6667
    """
    R = count_relevant(qrels, conventions.threshold)
    hits, steps = _hits_breakdown(ranking, qrels, k, R, conventions)
    value = hits / R if R else 0.0
    return Breakdown("R", k, value, tuple(steps), {Term.HITS: hits, Term.R: R}, conventions)


def capped_recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Capped recall at cutoff k (BEIR ``R_cap@k``): recall that can reach 1 even when R > k.

    .. math:: R_{cap}@k = \frac{hits@k}{\min(R, k)}

    Conventions: BEIR's definition (``beir/retrieval/custom_metrics.py::recall_cap``); R as in recall.
    R = 0 gives 0.0 (BEIR itself raises ZeroDivisionError). k=None caps at the length of the list.
    trec_eval and ranx have no such measure.

    >>> capped_recall(["r1", "r2", "r3", "n1", "n2"], {f"r{i}": 1 for i in range(1, 8)}, k=5).value
    0.6
    """
    check_k(k)  # k is used below before _hits_breakdown checks it
    R = count_relevant(qrels, conventions.threshold)
    cap = min(R, len(ranking) if k is None else k)
    hits, steps = _hits_breakdown(ranking, qrels, k, cap, conventions)
    value = hits / cap if cap else 0.0
    return Breakdown("R_cap", k, value, tuple(steps), {Term.HITS: hits, Term.R: R, Term.CAP: cap}, conventions)


def hit_rate(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Hit rate at cutoff k (trec_eval ``success_k``): 1 if any relevant doc is in the top k, else 0.

    .. math:: HitRate@k = [\, hits@k \geq 1 \,]

    Conventions (trec_eval): the first relevant rank <= k contributes the whole 1; R = 0 gives 0.
    Naming: ir_measures calls it ``Success@k``, BEIR ``Accuracy@k``, some RAG tools "recall@k".

    >>> hit_rate(["x", "y", "a"], {"a": 1}, k=2).value, hit_rate(["x", "y", "a"], {"a": 1}, k=3).value
    (0.0, 1.0)
    """
    top = checked(ranking, qrels, k)
    hit, steps = 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = 1.0 if relevant and not hit else 0.0
        hit += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, hit))
    return Breakdown("HitRate", k, hit, tuple(steps), {Term.HITS: sum(s.relevant for s in steps)}, conventions)


def f1(ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL) -> Breakdown:
    r"""F1 at cutoff k (ranx ``f1@k``): the harmonic mean of P@k and R@k.

    .. math:: F_1@k = \frac{2 \cdot P@k \cdot R@k}{P@k + R@k}

    Conventions (ranx): P@k divides by k and R@k by R, as above; 0.0 when P@k + R@k = 0 or R = 0.
    trec_eval has no F1 at a cutoff (its ``set_F`` scores the whole retrieved set): combine ``P_k`` and ``recall_k``.
    A rank's contribution is how much F1 rises when the list is extended to that rank.

    >>> round(f1(["a", "x", "b"], {"a": 1, "b": 1, "c": 1, "d": 1}, k=3).value, 4)
    0.5714
    """
    top = checked(ranking, qrels, k)
    divisor = len(ranking) if k is None else k
    R = count_relevant(qrels, conventions.threshold)
    hits, previous, steps = 0, 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        hits += relevant
        running = _f1(hits, divisor, R)
        steps.append(RankStep(rank, doc, grade, relevant, running - previous, running))
        previous = running
    p = hits / divisor if divisor else 0.0
    r = hits / R if R else 0.0
    terms = {Term.HITS: hits, Term.PRECISION: p, Term.RECALL: r, Term.R: R}
    return Breakdown("F1", k, _f1(hits, divisor, R), tuple(steps), terms, conventions)


def _f1(hits: int, divisor: int, R: int) -> float:
    p = hits / divisor if divisor else 0.0
    r = hits / R if R else 0.0
    return 2 * p * r / (p + r) if p + r > 0 else 0.0

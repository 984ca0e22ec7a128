"""trec_eval's set measures: the retrieved list taken as a set, with no cutoff (set_P, set_recall, set_F, set_map).

They equal P, R and F1 at k = the list length. trec_eval computes them from three counts: documents retrieved
(num_ret), relevant (R) and relevant retrieved (hits); so do we, and each relevant rank's step adds its share.
"""

from __future__ import annotations

from metrics._checks import checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _set_counts(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions):
    """(the top-k rows as (rank, doc, grade, relevant), retrieved, R, hits)."""
    rows = list(judged(checked(ranking, qrels, k), qrels, conventions.threshold))
    R = count_relevant(qrels, conventions.threshold)
    return rows, len(rows), R, sum(relevant for *_, relevant in rows)


def _steps(rows, share: float) -> tuple[RankStep, ...]:
    """Each relevant rank adds ``share``."""
    steps, running = [], 0.0
    for rank, doc, grade, relevant in rows:
        contribution = share if relevant else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return tuple(steps)


def set_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Precision of the whole retrieved set (trec_eval ``set_P``; ir_measures ``SetP``): hits / retrieved.

    .. math:: \mathrm{set\_P} = \frac{\mathrm{hits}}{\mathrm{retrieved}}

    An empty list gives 0.0.

    >>> set_precision(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value
    0.5
    """
    rows, retrieved, _, hits = _set_counts(ranking, qrels, k, conventions)
    value = hits / retrieved if retrieved else 0.0
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved}
    return Breakdown("SetP", k, value, _steps(rows, 1 / retrieved if retrieved else 0.0), terms, conventions)


def set_recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Recall of the whole retrieved set (trec_eval ``set_recall``; ir_measures ``SetR``): hits / R.

    .. math:: \mathrm{set\_recall} = \frac{\mathrm{hits}}{R}

    R = 0 gives 0.0.

    >>> round(set_recall(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value, 4)
    0.6667
    """
    rows, _, R, hits = _set_counts(ranking, qrels, k, conventions)
    value = hits / R if R else 0.0
    return Breakdown("SetR", k, value, _steps(rows, 1 / R if R else 0.0), {Term.HITS: hits, Term.R: R}, conventions)


def set_f(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    beta: float = 1.0,
) -> Breakdown:
    r"""Weighted harmonic mean of set precision and set recall (trec_eval ``set_F``; ir_measures ``SetF``).

    .. math:: \mathrm{set\_F} = \frac{(\beta + 1)\, P\, R}{\beta P + R}

    Conventions (trec_eval ``m_set_F.c``): ``beta`` is the weight of recall against precision and enters as is,
    not squared as in the textbook F_beta (so trec_eval's set_F.0.25 is the textbook F at beta = 0.5). 0.0 when
    nothing relevant was retrieved, or nothing was retrieved, or R = 0. A rank's step is how much set_F rises when
    the list is extended to that rank.

    >>> round(set_f(["a", "x"], {"a": 1, "b": 1, "c": 1, "d": 1}, beta=0.5).value, 4)
    0.375
    """
    rows, retrieved, R, hits = _set_counts(ranking, qrels, k, conventions)
    steps, previous, so_far = [], 0.0, 0
    for index, (rank, doc, grade, relevant) in enumerate(rows, start=1):
        so_far += relevant
        running = _f(so_far, index, R, beta)
        steps.append(RankStep(rank, doc, grade, relevant, running - previous, running))
        previous = running
    p = hits / retrieved if retrieved else 0.0
    r = hits / R if R else 0.0
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved, Term.R: R, Term.SET_PRECISION: p, Term.SET_RECALL: r}
    terms[Term.BETA] = beta
    return Breakdown("SetF", k, _f(hits, retrieved, R, beta), tuple(steps), terms, conventions)


def _f(hits: int, retrieved: int, R: int, beta: float) -> float:
    if not (hits and retrieved and R):
        return 0.0
    p, r = hits / retrieved, hits / R
    return (beta + 1.0) * p * r / (beta * p + r)


def set_average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Set precision times set recall (trec_eval ``set_map``), the area of the one-point precision-recall "curve".

    .. math:: \mathrm{set\_map} = \mathrm{set\_P} \cdot \mathrm{set\_recall}

    >>> round(set_average_precision(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value, 4)
    0.3333
    """
    rows, retrieved, R, hits = _set_counts(ranking, qrels, k, conventions)
    p = hits / retrieved if retrieved else 0.0
    r = hits / R if R else 0.0
    share = 1 / retrieved * r if retrieved else 0.0  # each hit adds 1/retrieved to set_P, times set_recall
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved, Term.R: R, Term.SET_PRECISION: p, Term.SET_RECALL: r}
    return Breakdown("SetAP", k, p * r, _steps(rows, share), terms, conventions)

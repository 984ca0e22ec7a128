"""trec_eval's counts for one query: documents retrieved, relevant, relevant retrieved, judged non-relevant retrieved.

Each returns a Breakdown whose value is the count (a float, as trec_eval stores it) and whose steps add 1 at every
rank that counts. trec_eval sums them over queries (``num_ret all`` is the run's total), it does not average.
A qrels grade below 0 is trec_eval's "in the pool, not judged": such a document is neither relevant nor judged
non-relevant.
"""

from __future__ import annotations

from metrics._checks import check_qrels, checked, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _counted(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, counts) -> list[RankStep]:
    """One step per rank of the top k; ``counts(doc, grade, relevant)`` says whether the rank adds 1."""
    steps, running = [], 0.0
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        contribution = 1.0 if counts(doc, grade, relevant) else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return steps


def num_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Documents retrieved (trec_eval ``num_ret``; ir_measures ``NumRet``): the length of the list (or of its top k).

    >>> num_ret(["a", "b", "c"], {"a": 1}).value
    3.0
    """
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: True)
    return Breakdown("NumRet", k, float(len(steps)), tuple(steps), {Term.RETRIEVED: len(steps)}, conventions)


def num_rel(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Judged relevant documents, retrieved or not (trec_eval ``num_rel``; ir_measures ``NumRel``): R.

    No rank adds to it: R comes from the qrels alone, so every step contributes 0.

    >>> num_rel(["a"], {"a": 1, "b": 2, "c": 0, "d": -1}).value
    2.0
    """
    check_qrels(qrels)
    R = sum(1 for grade in qrels.values() if grade >= conventions.threshold)
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: False)
    return Breakdown("NumRel", k, float(R), tuple(steps), {Term.R: R}, conventions)


def num_rel_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Relevant documents retrieved (trec_eval ``num_rel_ret``; ir_measures ``NumRelRet``): hits over the list.

    >>> num_rel_ret(["a", "b", "c"], {"a": 1, "c": 2, "z": 1}).value
    2.0
    """
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: relevant)
    hits = int(sum(s.contribution for s in steps))
    return Breakdown("NumRelRet", k, float(hits), tuple(steps), {Term.HITS: hits}, conventions)


def num_nonrel_judged_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Judged non-relevant documents retrieved (trec_eval ``num_nonrel_judged_ret``): grade 0 up to the threshold.

    An unjudged document, or one with a negative grade (in the pool, not judged), does not count.

    >>> num_nonrel_judged_ret(["a", "b", "c", "d"], {"a": 1, "b": 0, "d": -1}).value
    1.0
    """
    steps = _counted(
        ranking, qrels, k, conventions, lambda doc, grade, relevant: doc in qrels and 0 <= grade < conventions.threshold
    )
    judged_nonrelevant = int(sum(s.contribution for s in steps))
    terms = {Term.JUDGED_NONRELEVANT: judged_nonrelevant}
    return Breakdown("NumNonRelJudgedRet", k, float(judged_nonrelevant), tuple(steps), terms, conventions)


def num_q(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """1 for every evaluated query (trec_eval ``num_q``, summed over queries: how many were evaluated).

    >>> num_q(["a"], {"a": 1}).value
    1.0
    """
    checked(ranking, qrels, k)
    return Breakdown("NumQ", k, 1.0, (), {}, conventions)

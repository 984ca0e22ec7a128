"""Input checks shared by the readable metrics, so every metric rejects bad input with the same words."""

from __future__ import annotations

from collections.abc import Iterator
from numbers import Integral

from metrics.core.errors import InputError
from metrics.core.types import Judgments, Ranking


def check_k(k: object) -> None:
    """A cutoff is None (the whole list) or a positive integer."""
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, Integral):
        raise InputError("cutoff-k", f"k must be a positive integer or None, got {k!r} ({type(k).__name__})")
    if k < 1:
        raise InputError("cutoff-k", f"k must be a positive integer or None, got {k}")


def check_ranking(ranking: Ranking) -> None:
    """A ranking is a sequence of distinct doc ids; trec_eval aborts on a duplicate, so do we."""
    if isinstance(ranking, str):
        raise InputError("input-type", "the ranking must be a sequence of doc ids, not a single string")
    if all(type(doc) is str for doc in ranking) and len(set(ranking)) == len(ranking):
        return  # the usual case, checked at C speed; the loop below finds what is wrong otherwise
    first_rank: dict[str, int] = {}
    for rank, doc in enumerate(ranking, start=1):
        if not isinstance(doc, str):
            raise InputError("input-type", f"doc ids must be strings; rank {rank} holds {doc!r}")
        if doc in first_rank:
            raise InputError(
                "duplicate-doc", f"doc {doc!r} appears twice in the ranking, at ranks {first_rank[doc]} and {rank}"
            )
        first_rank[doc] = rank


def check_qrels(qrels: Judgments) -> None:
    """Grades are integers, as trec_eval requires; a float has to be mapped explicitly."""
    if all(type(grade) is int for grade in qrels.values()):  # the usual case, without the slow ABC check per grade
        return
    for doc, grade in qrels.items():
        if isinstance(grade, bool) or not isinstance(grade, Integral):
            raise InputError(
                "grade-not-integer",
                f"doc {doc!r} has grade {grade!r}; grades must be integers. Map scores explicitly, "
                "e.g. 1 if score >= 0.5 else 0, or round(10 * score)",
            )


def checked(ranking: Ranking, qrels: Judgments, k: int | None) -> Ranking:
    """Validate the inputs of one metric call and return the ranks it looks at (the top k)."""
    check_k(k)
    check_ranking(ranking)
    check_qrels(qrels)
    return ranking if k is None else ranking[:k]


def judged(ranking: Ranking, qrels: Judgments, threshold: int) -> Iterator[tuple[int, str, int, bool]]:
    """Yield (rank, doc, grade, relevant) for each doc; unjudged docs have grade 0 and are never relevant (with
    threshold 0, trec_eval's ``-l 0``, only judged docs count)."""
    for rank, doc in enumerate(ranking, start=1):
        grade = qrels.get(doc)
        yield rank, doc, 0 if grade is None else int(grade), grade is not None and grade >= threshold


def count_relevant(qrels: Judgments, threshold: int) -> int:
    """R: the judged docs with grade >= threshold, retrieved or not."""
    check_qrels(qrels)  # recall and capped recall count R before their other checks run
    return sum(1 for grade in qrels.values() if grade >= threshold)

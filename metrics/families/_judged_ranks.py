"""Which retrieved documents are judged, rank by rank: trec_eval -J's condensed list, each rank's judgment (what
bpref counts above it), the pool's unjudged documents, and the share steps of Judged@k and unj@k.

trec_eval's view of a retrieved document (``metrics.core.judgments``): judged relevant (grade >= threshold), judged
non-relevant (0 <= grade < threshold), in the pool but not judged (a negative grade) or not in the pool (no qrels
line). P@k and AP count both kinds of unjudged document as non-relevant; bpref and infAP do not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import level
from metrics.core.types import Judgments, Ranking, RankStep


def condensed(ranking: Ranking, qrels: Judgments) -> list[str]:
    """The condensed list (trec_eval ``-J``, Sakai 2007): the ranking with its unjudged documents dropped, the judged
    ones moving up. Unjudged means no qrels line or a negative grade, as ``-J`` drops both. Any measure computed on
    it is that measure "on judged documents only"; bpref equals bpref on the full list, since it skips them anyway.

    >>> condensed(["a", "x", "b", "y", "c"], {"a": 1, "b": 0, "y": -1, "c": 2})
    ['a', 'b', 'c']
    """
    return [doc for doc in ranking if level(qrels, doc) >= 0]


Judgment = Literal["relevant", "non-relevant", "unjudged"]


@dataclass(frozen=True, slots=True)
class JudgedRank:
    """One retrieved document as bpref sees it."""

    rank: int
    doc_id: str
    judgment: Judgment  # unjudged: no qrels line, or a negative grade
    nonrelevant_above: int  # judged non-relevant documents ranked above it: bpref's n_i


def judged_ranks(ranking: Ranking, qrels: Judgments, *, conventions: Conventions = TREC_EVAL) -> list[JudgedRank]:
    """Each retrieved document's judgment and the judged non-relevant documents above it (bpref's n_i).

    >>> [(j.doc_id, j.judgment, j.nonrelevant_above) for j in judged_ranks(["n", "x", "r"], {"n": 0, "r": 2})]
    [('n', 'non-relevant', 0), ('x', 'unjudged', 1), ('r', 'relevant', 1)]
    """
    above, rows = 0, []
    for rank, doc in enumerate(ranking, start=1):
        value = level(qrels, doc)
        relevant = value >= conventions.threshold
        judgment: Judgment = "unjudged" if value < 0 else "relevant" if relevant else "non-relevant"
        rows.append(JudgedRank(rank, doc, judgment, above))
        above += judgment == "non-relevant"
    return rows


def in_pool_unjudged(qrels: Judgments, docs: Iterable[str]) -> dict[str, int]:
    """The qrels with ``docs`` marked as in the pool but not judged (grade -1), as a sampled pool for infAP marks
    the documents it did not sample, instead of having no qrels line.

    >>> in_pool_unjudged({"a": 1}, ["x"])
    {'a': 1, 'x': -1}
    """
    return {**qrels, **dict.fromkeys(docs, -1)}


def _share_steps(
    top: Ranking, qrels: Judgments, counted: Callable[[str], bool], divisor: int, conventions: Conventions
) -> tuple[int, list[RankStep]]:
    """How many of ``top`` are ``counted``, and the steps: each counted document contributes 1 / divisor (Judged@k
    and unj@k, the share of the top k that is, or is not, judged)."""
    count = 0
    steps: list[RankStep] = []
    for rank, doc in enumerate(top, start=1):
        is_counted = counted(doc)
        count += is_counted
        contribution = 1 / divisor if is_counted else 0.0
        running = (steps[-1].running if steps else 0.0) + contribution
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    return count, steps

"""The parts trec_eval's five counts (num_q, num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret) share: one
step per counted rank, and their LaTeX (the same shape for all: a number of documents).

Each count's Breakdown has the count as its value (a float, as trec_eval stores it) and steps that add 1 at every
rank that counts. trec_eval sums the counts over queries (``num_ret all`` is the run's total), it does not average.
A qrels grade below 0 is trec_eval's "in the pool, not judged": such a document is neither relevant nor judged
non-relevant.
"""

from __future__ import annotations

from collections.abc import Callable

from metrics.core.checks import checked, judged
from metrics.core.conventions import Conventions
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep
from metrics.teaching.latex import MAX_TERMS, aligned_block, whole


def _counted(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, counts) -> list[RankStep]:
    """One step per rank of the top k; ``counts(doc, grade, relevant)`` says whether the rank adds 1."""
    steps, running = [], 0.0
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        contribution = 1.0 if counts(doc, grade, relevant) else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return steps


_COUNT_LABELS = {
    "NumRet": (r"\mathrm{num\_ret}", r"\text{documents retrieved}"),
    "NumRel": (r"\mathrm{num\_rel}", r"R = \text{judged relevant, retrieved or not}"),
    "NumRelRet": (r"\mathrm{num\_rel\_ret}", r"\text{relevant documents retrieved}"),
    "NumNonRelJudgedRet": (r"\mathrm{num\_nonrel\_judged\_ret}", r"\text{judged non-relevant documents retrieved}"),
    "NumQ": (r"\mathrm{num\_q}", r"\text{1 per evaluated query, summed}"),
}


def count_definition(family: str) -> Callable[[Conventions], str]:
    """The definition of one of trec_eval's counts (the same shape for all: a number of documents)."""
    symbol, meaning = _COUNT_LABELS[family]
    return lambda c: rf"{symbol} = {meaning}"


def count_worked(b: Breakdown) -> str:
    symbol, meaning = _COUNT_LABELS[b.family]
    counted = [s for s in b.steps if s.contribution]
    if b.family in ("NumRel", "NumQ") or not counted:
        return aligned_block([rf"{symbol} &= {whole(b.value)} \quad ({meaning})"])
    ranks = ", ".join(str(s.rank) for s in counted[:MAX_TERMS]) + (r", \ldots" if len(counted) > MAX_TERMS else "")
    return aligned_block([rf"{symbol} &= {whole(b.value)} \quad (\text{{ranks }} {ranks})"])

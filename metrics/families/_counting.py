"""The parts trec_eval's counts (num_q, num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret) share: one step per
counted rank, and their LaTeX (the same shape for all: a number of documents), built from each count's own symbol and
meaning.

Each count's Breakdown has the count as its value (a float, as trec_eval stores it) and steps that add 1 at every
rank that counts. trec_eval sums the counts over queries (``num_ret all`` is the run's total), it does not average.
A qrels grade below 0 is trec_eval's "in the pool, not judged": such a document is neither relevant nor judged
non-relevant.
"""

from __future__ import annotations

from metrics.catalog.family import Teaching
from metrics.core.checks import checked, judged
from metrics.core.conventions import Conventions
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import MAX_TERMS, aligned_block, whole


def _counted(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, counts) -> list[RankStep]:
    """One step per rank of the top k; ``counts(doc, grade, relevant)`` says whether the rank adds 1."""
    steps, running = [], 0.0
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        contribution = 1.0 if counts(doc, grade, relevant) else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return steps


def count_teaching(symbol: str, meaning: str, terms: tuple[Term, ...], *, ranks: bool = True) -> Teaching:
    """A count's definition and worked formula: ``symbol = meaning`` (LaTeX), and its value with the ranks that were
    counted, or, with ``ranks=False`` (a count not taken on the list: num_rel, num_q), with its meaning again."""

    def worked(b: Breakdown) -> str:
        counted = [s for s in b.steps if s.contribution]
        if not ranks or not counted:
            return aligned_block([rf"{symbol} &= {whole(b.value)} \quad ({meaning})"])
        shown = ", ".join(str(s.rank) for s in counted[:MAX_TERMS]) + (r", \ldots" if len(counted) > MAX_TERMS else "")
        return aligned_block([rf"{symbol} &= {whole(b.value)} \quad (\text{{ranks }} {shown})"])

    return Teaching(lambda c: rf"{symbol} = {meaning}", worked, terms=terms)

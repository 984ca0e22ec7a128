"""ndeval's ideal ranking: greedy, each rank taking the document whose subtopics' current gains sum highest, ties to
the document whose id is last in byte order (ndeval's idealResult, which says "tied scores are arbitrarily resolved
by docno"). The greedy is not optimal (the problem is NP-complete), so a run can score above it: alpha-nDCG > 1.

ndeval rescans every document at every rank. Gains only fall, so a document's score can only fall: a heap of scores
last computed, re-scored when it comes out on top, picks the same document with the same arithmetic (a document
whose fresh score equals its stored one beats every other, whose stored score bounds its fresh one, and the heap
breaks equal scores by byte order as ndeval does). Once the best score is 0 every document left ties at 0 and
follows in descending byte order.
"""

from __future__ import annotations

import heapq

from metrics.core.ranking import byte_order
from metrics.diversity.aspects import Aspects


def ideal_ranking(aspects: Aspects, alpha: float) -> list[str]:
    """Every judged document of the topic, in ndeval's ideal order for this alpha."""
    by_bytes = sorted(aspects.docs, key=byte_order)
    position = {doc: i for i, doc in enumerate(by_bytes)}
    decay = 1.0 - alpha
    gain: dict[int, float] = {}

    def fresh(doc: str) -> float:
        score = 0.0
        for s in aspects.of(doc):
            score += gain.get(s, 1.0)
        return score

    heap = [(-fresh(doc), -position[doc], doc) for doc in aspects.covers]
    heapq.heapify(heap)
    order: list[str] = []
    while heap:
        stored, rank_key, doc = heap[0]
        if -stored == 0.0:
            break
        now = fresh(doc)
        if now != -stored:
            heapq.heapreplace(heap, (-now, rank_key, doc))
            continue
        heapq.heappop(heap)
        order.append(doc)
        for s in aspects.of(doc):
            gain[s] = gain.get(s, 1.0) * decay
    placed = set(order)
    order.extend(doc for doc in reversed(by_bytes) if doc not in placed)
    return order

"""Agreement between judges, per topic: Cohen's kappa when each document has two judges, Fleiss' kappa when it has
more; and the disagreements for the teacher to settle.

Only documents whose judges have all judged count (a half-judged document says nothing about agreement). Grades are
categories (0-3, unweighted): kappa is the agreement beyond what chance gives judges grading at the rates they do,
``(p_o - p_e) / (1 - p_e)``; undefined (None) when chance alone agrees fully (every grade the same).

Cohen's kappa (Cohen 1960) takes the two slots of the assignment as its two raters: the first judge of every
document against the second. Fleiss' kappa (Fleiss 1971) needs no fixed raters, only as many grades per document.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ir_metrics_lab.core.shared_task.pooling import Item

GRADES = (0, 1, 2, 3)


def cohen_kappa(pairs: Sequence[tuple[int, int]], categories: Sequence[int] = GRADES) -> float | None:
    """Cohen's kappa of (first judge's grade, second judge's grade) pairs; None for no pairs or p_e = 1.

    >>> cohen_kappa([(1, 1), (0, 0), (1, 0), (0, 0)], (0, 1))
    0.5
    """
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    chance = sum(first[c] * second[c] for c in categories) / (n * n)
    return None if chance == 1 else (observed - chance) / (1 - chance)


def fleiss_kappa(ratings: Sequence[Sequence[int]], categories: Sequence[int] = GRADES) -> float | None:
    """Fleiss' kappa of documents each graded by the same number (at least two) of judges; None for no documents
    or p_e = 1.

    P_i = 1 and 1/3 (mean 2/3), p = (1/3, 2/3) so p_e = 5/9: kappa = (2/3 - 5/9) / (4/9) = 1/4.

    >>> round(fleiss_kappa([(1, 1, 1), (0, 0, 1)], (0, 1)), 12)
    0.25
    """
    if not ratings:
        return None
    m = len(ratings[0])
    if m < 2 or any(len(r) != m for r in ratings):
        raise ValueError("Fleiss' kappa needs the same number, at least two, of grades per document")
    n = len(ratings)
    counts = [Counter(r) for r in ratings]
    agreement = sum((sum(c[k] ** 2 for k in categories) - m) / (m * (m - 1)) for c in counts) / n
    chance = sum((sum(c[k] for c in counts) / (n * m)) ** 2 for k in categories)
    return None if chance == 1 else (agreement - chance) / (1 - chance)


@dataclass(frozen=True, slots=True)
class Agreement:
    topic: str
    method: Literal["Cohen", "Fleiss"]
    documents: int  # the fully judged documents it is computed on
    kappa: float | None


def agreement_per_topic(
    grades: Mapping[Item, Sequence[int]], per_item: int, categories: Sequence[int] = GRADES
) -> list[Agreement]:
    """Per topic (by id): the kappa of its fully judged items. ``grades``: item -> its grades in slot order (each
    item's judges as assigned, those who judged). ``per_item`` < 2 gives no agreement at all."""
    if per_item < 2:
        return []
    complete: dict[str, list[Sequence[int]]] = {}
    for (topic, _), given in sorted(grades.items()):
        complete.setdefault(topic, [])
        if len(given) == per_item:
            complete[topic].append(given)
    if per_item == 2:
        return [
            Agreement(t, "Cohen", len(r), cohen_kappa([(a, b) for a, b in r], categories)) for t, r in complete.items()
        ]
    return [Agreement(t, "Fleiss", len(r), fleiss_kappa(r, categories)) for t, r in complete.items()]


def binary(grades: Mapping[Item, Sequence[int]], threshold: int = 1) -> dict[Item, tuple[int, ...]]:
    """The grades as relevant (1: at least ``threshold``) or not (0): agreement on what the binary measures read."""
    return {item: tuple(int(g >= threshold) for g in given) for item, given in grades.items()}

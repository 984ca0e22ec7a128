"""The qrels built from the class's judgments as they arrive, and the disagreements the teacher settles.

A document's grade is the teacher's, once settled; else, when its judges agree, theirs; else the lower median of the
grades given so far (with two judges, the lower grade: a document counts as relevant only when both say so, the
cautious reading). A pooled document nobody has judged yet is not in the qrels: it is unjudged, which AP reads as not
relevant and bpref skips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ir_metrics_lab.core.shared_task.pooling import Item


def lower_median(grades: Sequence[int]) -> int:
    """The middle grade, the lower of the two middle ones for an even count.

    >>> lower_median([3, 0, 2, 1])
    1
    """
    ordered = sorted(grades)
    return ordered[(len(ordered) - 1) // 2]


def build_qrels(grades: Mapping[Item, Sequence[int]], settled: Mapping[Item, int] | None = None) -> dict[str, dict]:
    """Topic -> {document: grade}, for every item judged at least once or settled, by topic and document id."""
    settled = settled or {}
    qrels: dict[str, dict[str, int]] = {}
    for topic, doc in sorted(set(grades) | set(settled)):
        given = grades.get((topic, doc), ())
        if (topic, doc) in settled:
            grade = settled[topic, doc]
        elif given:
            grade = lower_median(given)
        else:
            continue
        qrels.setdefault(topic, {})[doc] = grade
    return qrels


@dataclass(frozen=True, slots=True)
class Disagreement:
    item: Item
    grades: tuple[int, ...]  # in slot order
    settled: int | None  # the teacher's grade, once settled

    @property
    def spread(self) -> int:
        return max(self.grades) - min(self.grades)


def disagreements(
    grades: Mapping[Item, Sequence[int]], settled: Mapping[Item, int] | None = None
) -> list[Disagreement]:
    """The items whose judges gave different grades, the widest spread first (then by topic and document); settled
    ones included, with the teacher's grade."""
    settled = settled or {}
    found = [Disagreement(item, tuple(g), settled.get(item)) for item, g in grades.items() if len(set(g)) > 1]
    return sorted(found, key=lambda d: (-d.spread, d.item))


def qrels_text(qrels: Mapping[str, Mapping[str, int]]) -> str:
    """The qrels in TREC's format (``topic 0 doc grade``), by topic and document id: the download.

    >>> print(qrels_text({"t2": {"d1": 0}, "t1": {"d9": 3, "d10": 1}}), end="")
    t1 0 d10 1
    t1 0 d9 3
    t2 0 d1 0
    """
    return "".join(f"{t} 0 {d} {qrels[t][d]}\n" for t in sorted(qrels) for d in sorted(qrels[t]))

"""What the judging views show, computed (no Streamlit): the grades' meanings, a phone's "n of m judged", the
projector's progress per topic (judged / pool) and a kappa in plain words.

A pooled document counts as judged once it is in the qrels (ir_metrics_lab.core.shared_task.judgments.build_qrels):
graded by at least one of its judges, or settled by the teacher. It is complete once all its judges have graded it
(or the teacher settled it): only complete documents count towards agreement (agreement.agreement_per_topic).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ir_metrics_lab.core.shared_task.agreement import Agreement
from ir_metrics_lab.core.shared_task.pooling import Item

# The grades 0-3 as a judge reads them (TREC's graded scales say the same in more words).
GRADE_MEANINGS = {
    0: ("not relevant", "nothing on the topic"),
    1: ("marginally relevant", "mentions the topic, adds little"),
    2: ("relevant", "useful on the topic"),
    3: ("highly relevant", "exactly what the topic asks for"),
}
NOT_ENOUGH = "not enough judgments yet"
# Below this many fully judged documents a kappa is shown but not read in words: on a handful of documents one grade
# swings it across bands (a single disagreement on one document gives 0).
MIN_DOCUMENTS = 4


def grade_label(grade: int) -> str:
    """A grade with its meaning in words, as a phone's option shows it.

    >>> grade_label(3)
    '3 · highly relevant: exactly what the topic asks for'
    """
    short, long = GRADE_MEANINGS[grade]
    return f"{grade} · {short}: {long}"


def assigned_to(assigned: Mapping[Item, Sequence[str]], student: str) -> int:
    """How many pooled documents ``student`` was given to judge (the m of a phone's "n of m judged")."""
    return sum(student in judges for judges in assigned.values())


@dataclass(frozen=True, slots=True)
class Progress:
    """One topic's judging (or all topics', ``topic`` None): pooled documents, those judged (in the qrels), those
    complete, and the single judgments given out of those needed."""

    topic: str | None
    pool: int
    judged: int
    complete: int
    given: int
    needed: int

    @property
    def share(self) -> float:
        """judged / pool (0 for an empty pool)."""
        return self.judged / self.pool if self.pool else 0.0


def progress(
    topics: Sequence[str],
    assigned: Mapping[Item, Sequence[str]],
    grades: Mapping[Item, Sequence[int]],
    settled: Mapping[Item, int],
) -> list[Progress]:
    """Per topic, in ``topics``' order (a topic no run retrieved has an empty pool): the judging so far.

    ``assigned``: each pooled item -> its judges; ``grades``: item -> the grades given so far; ``settled``: the
    teacher's grades."""
    rows = []
    for topic in topics:
        items = [item for item in assigned if item[0] == topic]
        given = [len(grades.get(item, ())) for item in items]
        rows.append(
            Progress(
                topic,
                pool=len(items),
                judged=sum(n > 0 or item in settled for item, n in zip(items, given, strict=True)),
                complete=sum(n == len(assigned[item]) or item in settled for item, n in zip(items, given, strict=True)),
                given=sum(given),
                needed=sum(len(assigned[item]) for item in items),
            )
        )
    return rows


def overall(rows: Sequence[Progress]) -> Progress:
    """Every topic's progress added up."""
    return Progress(
        None,
        pool=sum(r.pool for r in rows),
        judged=sum(r.judged for r in rows),
        complete=sum(r.complete for r in rows),
        given=sum(r.given for r in rows),
        needed=sum(r.needed for r in rows),
    )


# Landis and Koch (1977)'s bands, the usual plain-words reading of a kappa.
_BANDS = ((0.2, "slight"), (0.4, "fair"), (0.6, "moderate"), (0.8, "substantial"), (1.0, "almost perfect"))


def kappa_words(kappa: float | None) -> str:
    """A kappa in words (Landis and Koch 1977), NOT_ENOUGH when it is undefined.

    >>> kappa_words(0.5), kappa_words(-0.1), kappa_words(None)
    ('moderate agreement', 'less agreement than chance', 'not enough judgments yet')
    """
    if kappa is None:
        return NOT_ENOUGH
    if kappa < 0:
        return "less agreement than chance"
    return next(f"{words} agreement" for bound, words in _BANDS if kappa <= bound + 1e-12)


def agreement_reading(agreement: Agreement | None, per_item: int) -> str:
    """One topic's agreement as a sentence for the projector: kappa, on how many documents, in words."""
    if per_item < 2:
        return "One judge per document: there is no agreement to measure."
    if agreement is None or agreement.documents == 0:
        return f"Not enough judgments yet: no document has all its {per_item} grades."
    if agreement.kappa is None:
        return (
            f"Not enough judgments yet: all {agreement.documents} fully judged documents got one and the same "
            "grade, so kappa is undefined."
        )
    documents = f"{agreement.documents} document{'s' if agreement.documents != 1 else ''}"
    whose = "Fleiss'" if agreement.method == "Fleiss" else f"{agreement.method}'s"
    if agreement.documents < MIN_DOCUMENTS:
        return f"Not enough judgments yet to read: {whose} kappa {agreement.kappa:.2f} on {documents}."
    return f"{whose} kappa {agreement.kappa:.2f} on {documents}: {kappa_words(agreement.kappa)}."

"""One topic's subtopic judgments as ndeval 4.5 holds them (``Aspects``), built from ndeval's qrels lines or from a
dict ``{subtopic: {doc: grade}}``.

ndeval's conventions, kept here: a judgment of ``rel`` or more makes a document relevant to a subtopic (ndeval: above
0); a subtopic no line judges relevant does not count; when a (subtopic, doc) pair is judged twice the last line
decides whether the document covers it, but every positive line counts towards the subtopic's relevant documents
(ndeval sums them: ``nrelSub``), which only MAP-IA reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from metrics.core.checks import check_qrels
from metrics.core.ranking import byte_order


@dataclass(frozen=True, eq=False)
class Aspects:
    """One topic's judgments: ``docs`` every judged document in byte order (strcmp's, ndeval's), ``covers`` the
    subtopics (ascending) each document is relevant to (documents covering none are absent), ``relevant`` per
    subtopic its positive judgment lines, ``labels`` each subtopic's name as the judgments wrote it."""

    docs: tuple[str, ...]
    covers: Mapping[str, tuple[int, ...]]
    relevant: Mapping[int, int]
    labels: Mapping[int, str]
    grades: Mapping[str, int]  # each judged document's highest grade over the subtopics

    @property
    def subtopics(self) -> int:
        """How many subtopics some line judges relevant (ndeval's ``actualSubtopics``)."""
        return sum(1 for count in self.relevant.values() if count > 0)

    def of(self, doc: str) -> tuple[int, ...]:
        return self.covers.get(doc, ())


def aspects_of_lines(lines: Iterable[tuple[int, str, int]], rel: int = 1, labels: Mapping[int, str] | None = None):
    """Aspects from (subtopic, doc, judgment) lines in file order: the last line of a (subtopic, doc) decides."""
    judged: dict[str, dict[int, bool]] = {}
    relevant: dict[int, int] = {}
    grades: dict[str, int] = {}
    for subtopic, doc, judgment in lines:
        grades[doc] = max(grades.get(doc, judgment), judgment)
        positive = judgment >= rel
        judged.setdefault(doc, {})[subtopic] = positive
        relevant[subtopic] = relevant.get(subtopic, 0) + positive
    docs = tuple(sorted(judged, key=byte_order))
    covers = {doc: tuple(sorted(s for s, on in judged[doc].items() if on)) for doc in docs}
    names = labels if labels is not None else {s: str(s) for s in relevant}
    return Aspects(docs, {doc: c for doc, c in covers.items() if c}, relevant, names, grades)


def aspects_of(qrels: Mapping, rel: int = 1) -> Aspects:
    """Aspects from ``{subtopic: {doc: grade}}`` or plain qrels ``{doc: grade}`` (one subtopic, named "1").

    Subtopics are taken in numeric order when every name is a whole number (ndeval's), else in string order."""
    if not qrels or all(not isinstance(v, Mapping) for v in qrels.values()):
        qrels = {"1": qrels}
    for docs in qrels.values():
        check_qrels(docs)
    names = [str(s) for s in qrels]
    numeric = all(n.isdigit() for n in names)
    ordered = sorted(names, key=lambda n: (int(n), n) if numeric else (0, n))
    number = {name: i for i, name in enumerate(ordered)}
    lines = []
    for subtopic, docs in qrels.items():
        for doc, grade in docs.items():
            if not isinstance(doc, str):
                raise ValueError(f"doc ids must be strings, got {doc!r}")
            lines.append((number[str(subtopic)], doc, int(grade)))
    return aspects_of_lines(lines, rel, {i: name for name, i in number.items()})


def aspects_by_topic(lines: Iterable, rel: int = 1) -> dict[int, Aspects]:
    """Each topic's Aspects, in topic order, from ndeval qrels lines (metrics.io.subtopic_qrels.SubtopicLine)."""
    grouped: dict[int, list[tuple[int, str, int]]] = {}
    for line in lines:
        grouped.setdefault(line.topic, []).append((line.subtopic, line.doc, line.judgment))
    return {topic: aspects_of_lines(grouped[topic], rel) for topic in sorted(grouped)}

"""ir-ndeval's fast path: both files read with numpy (metrics.io.ndeval_arrays) and each topic scored from only the
ranks that cover a subtopic (metrics.diversity.topic.sparse_topic_values). None when a file needs the line-by-line
readers (bad input, which they name, or a rare legal form)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.core.ranking import byte_order
from metrics.diversity.aspects import Aspects
from metrics.diversity.topic import NDEVAL_DEPTH, sparse_topic_values
from metrics.io import ndeval_arrays as fast
from metrics.io.ndeval_run import c_double
from metrics.io.subtopic_qrels import text_of


@dataclass(frozen=True, slots=True)
class Scored:
    """What ir-ndeval prints: the run id, each run topic's values (None: a topic the qrels lack) and the qrels'
    topics."""

    run_id: str
    rows: list[tuple[int, object]]
    judged_topics: set[int]


def fast_scores(qrels_path: str, run_path: str, alpha: float, beta: float, traditional: bool, depth: int):
    """Scored, or None for the line-by-line path."""
    qrels_data = fast.read_bytes(qrels_path)
    run_data = fast.read_bytes(run_path)
    if qrels_data is None or run_data is None:
        return None
    qrels = fast.read_qrels(qrels_data)
    del qrels_data
    if qrels is None:
        return None
    run = fast.read_run(run_data, qrels, traditional, depth, c_double)
    del run_data
    if run is None:
        return None
    aspects, covers = _aspects(qrels)
    covered: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    on = np.flatnonzero(run.judged >= 0)
    for topic, position, doc in zip(
        run.topic[on].tolist(), run.position[on].tolist(), run.judged[on].tolist(), strict=True
    ):
        subtopics = covers.get(doc)
        if subtopics:
            covered.setdefault(topic, []).append((position, subtopics))
    rows: list[tuple[int, object]] = []
    for topic, length in zip(run.topics.tolist(), run.lengths.tolist(), strict=True):
        values = None
        if topic in aspects:
            values = sparse_topic_values(length, covered.get(topic, []), aspects[topic], alpha, beta, NDEVAL_DEPTH)
        rows.append((topic, values))
    return Scored(text_of(run.run_id), rows, set(qrels.topics.tolist()))


def _aspects(qrels: fast.Qrels) -> tuple[dict[int, Aspects], dict[int, tuple[int, ...]]]:
    """Each topic's Aspects (only its documents that cover a subtopic: the others change no value) and each judged
    document's subtopics by its index."""
    order = np.lexsort((qrels.cover_subtopic, qrels.cover_doc))
    by_doc: dict[int, list[int]] = {}
    topic_of: dict[int, int] = {}
    for topic, subtopic, doc in zip(
        qrels.cover_topic[order].tolist(), qrels.cover_subtopic[order].tolist(), qrels.cover_doc[order].tolist(),
        strict=True,
    ):  # fmt: skip
        by_doc.setdefault(doc, []).append(subtopic)
        topic_of[doc] = topic
    covers = {doc: tuple(subtopics) for doc, subtopics in by_doc.items()}
    named: dict[int, dict[str, tuple[int, ...]]] = {int(t): {} for t in qrels.topics.tolist()}
    for doc, subtopics in covers.items():
        name = text_of(qrels.doc_words[doc].tobytes().rstrip(b"\0"))
        named[topic_of[doc]][name] = subtopics
    aspects = {
        topic: Aspects(tuple(sorted(docs, key=byte_order)), docs, qrels.relevant.get(topic, {}), {}, {})
        for topic, docs in named.items()
    }
    return aspects, covers

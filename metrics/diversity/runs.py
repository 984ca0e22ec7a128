"""Whole runs against subtopic judgments: the diversity families' engine kernels on every topic at once, fed ndeval's
subtopics instead of the engine's plain qrels (which give one subtopic a query).

>>> run = {"1": ["b", "a", "x"], "2": ["c"]}
>>> qrels = {"1": {"1": {"a": 1}, "2": {"a": 1}, "3": {"b": 1}}, "2": {"1": {"c": 0}}}
>>> values = evaluate_subtopics(run, qrels, ["alpha_nDCG@2", "StRecall@1"])
>>> round(values["alpha_nDCG@2"]["1"], 4), values["StRecall@1"]
(0.8597, {'1': 0.3333333333333333, '2': 0.0})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from metrics.catalog.family import Measure
from metrics.catalog.measures import parse_measure
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.prepared import Prepared
from metrics.diversity.aspects import aspects_of, aspects_of_lines
from metrics.diversity.readable import COVERS_KEY, Topic
from metrics.io.subtopic_qrels import SubtopicQrels

DIVERSITY = ("ERR_IA", "nERR_IA", "alpha_DCG", "alpha_nDCG", "NRBP", "nNRBP", "AP_IA", "P_IA", "StRecall")
_UNCUT = ("NRBP", "nNRBP", "AP_IA")  # ndeval prints these once, the others at 5, 10 and 20
# ndeval's 21 columns in its order, as ir_measures names them (alpha-nDCG@20 is alpha_nDCG@20, MAP-IA AP_IA)
NDEVAL_COLUMNS = tuple(
    f if f in _UNCUT else f"{f}@{k}" for f in DIVERSITY for k in ((0,) if f in _UNCUT else (5, 10, 20))
)
# ndeval's columns at its depth of 20: what subtopic qrels are scored on when no measure is named (ir-metrics)
NDEVAL_MEASURES = tuple(name for name in NDEVAL_COLUMNS if "@" not in name or name.endswith("@20"))
# the TREC Web track's official diversity measures (ERR-IA@20, alpha-nDCG@20) and subtopic recall: the app's first
HEADLINE = ("alpha_nDCG@20", "ERR_IA@20", "StRecall@20")


def evaluate_subtopics(
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, Mapping[str, int]]] | SubtopicQrels,
    measures: Iterable[str | Measure],
    *,
    conventions: Conventions = TREC_EVAL,
) -> dict[str, dict[str, float]]:
    """Each measure's value per query, for the queries in both the run (``{query: ranking}``, best first) and the
    judgments (``{query: {subtopic: {doc: grade}}}``, or a SubtopicQrels keyed by the run's query ids, whose
    pairs judged twice count as ndeval counts them), as ndeval averages them; the measures are the nine diversity
    families (their kernels compute it, as they do in the engine)."""
    parsed = [m if isinstance(m, Measure) else parse_measure(m) for m in measures]
    wrong = [m.name for m in parsed if m.family not in DIVERSITY]
    if wrong:
        raise ValueError(f"not a diversity measure: {', '.join(wrong)} (the families are {', '.join(DIVERSITY)})")
    judged = qrels.topics if isinstance(qrels, SubtopicQrels) else qrels
    queries = sorted(q for q in judged if q in run)
    prepared: dict[int, Prepared] = {}
    found: dict[str, dict[str, float]] = {}
    for measure in parsed:
        under = measure.conventions_under(conventions)
        if under.threshold not in prepared:
            prepared[under.threshold] = _prepared(run, qrels, queries, under)
        values = measure.record.kernel(prepared[under.threshold], measure)
        found[measure.name] = dict(zip(queries, values.tolist(), strict=True))
    return found


def _prepared(run, qrels, queries: list[str], conventions: Conventions) -> Prepared:
    """What the kernels read: only the topics (Prepared.shared), each with its subtopics."""
    data = Prepared()
    data.conventions = dataclasses.replace(conventions)
    data.size, data.queries = len(queries), tuple(queries)
    topics = []
    for query in queries:
        if isinstance(qrels, SubtopicQrels):
            aspects = aspects_of_lines(qrels.topics[query], rel=conventions.threshold)
        else:
            aspects = aspects_of(qrels[query], rel=conventions.threshold)
        topics.append(Topic([aspects.of(doc) for doc in run[query]], aspects=aspects))
    data.shared(COVERS_KEY, lambda: topics)
    return data

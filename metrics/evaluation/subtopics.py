"""A run scored against subtopic qrels (ndeval's ``topic subtopic docno judgment``) inside
:func:`metrics.evaluate` (``subtopic_qrels=``): the diversity measures' values per query, on ndeval's query set or on
trec_eval's when plain qrels are given too (metrics.evaluation.engine assembles the Evaluation).

The run is the Run every measure reads, in trec_eval's order (score descending, then doc id descending): ndeval's
``-traditional``. ndeval by default orders each topic by the file's rank column; the two agree whenever the ranks
follow the scores (``ir-ndeval`` reads the rank column).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from metrics.catalog.family import Measure
from metrics.core.errors import InputError
from metrics.diversity.aspects import aspects_of_lines
from metrics.diversity.runs import DIVERSITY, evaluate_subtopics
from metrics.io.subtopic_qrels import SubtopicQrels

if TYPE_CHECKING:
    from metrics.evaluation.options import EvaluationOptions
    from metrics.evaluation.slots import QueryCounts
    from metrics.io import Run


@dataclass(frozen=True, eq=False)
class SubtopicValues:
    """The diversity measures' values per query, aligned with ``queries``, and ndeval's query set's counts."""

    queries: tuple[str, ...]
    per_query: dict[str, np.ndarray]
    only_in_run: tuple[str, ...] = ()
    only_in_qrels: tuple[str, ...] = ()
    counts: QueryCounts | None = None


def split(measures: dict[str, Measure]) -> tuple[dict[str, Measure], dict[str, Measure]]:
    """(the diversity measures, the others), each by name as spelled."""
    diverse = {name: m for name, m in measures.items() if m.family in DIVERSITY}
    return diverse, {name: m for name, m in measures.items() if name not in diverse}


def check_options(options: EvaluationOptions, plain: dict[str, Measure], has_qrels: bool) -> None:
    if options.judged_only:
        raise InputError(
            "option-conflict", "judged_only (trec_eval -J) does not go with subtopic qrels: ndeval has no -J"
        )
    if plain and not has_qrels:
        raise InputError(
            "option-conflict",
            f"{', '.join(plain)}: not a diversity measure, so it needs plain qrels; subtopic qrels score only "
            f"{', '.join(DIVERSITY)}",
        )


def on_queries(
    run: Run, subtopics: SubtopicQrels, measures: dict[str, Measure], queries: tuple[str, ...], options
) -> SubtopicValues:
    """The measures on given queries (trec_eval's query set, from the plain qrels): a query the subtopic qrels lack
    scores 0, as ndeval's row for a topic its qrels lack."""
    topics = {query: topic for query in queries if (topic := subtopics.topic_of(query)) is not None}
    values = _values(run, subtopics, measures, topics, options)
    per_query = {
        name: np.array([found.get(query, 0.0) for query in queries], dtype=np.float64) for name, found in values.items()
    }
    return SubtopicValues(queries, per_query)


def on_ndeval_topics(
    run: Run, subtopics: SubtopicQrels, measures: dict[str, Measure], options: EvaluationOptions
) -> SubtopicValues:
    """The measures on ndeval's query set: the run's queries whose topic is judged, in topic order (with
    ``complete``, ndeval's -c, every judged topic: one missing from the run scores as an empty ranking)."""
    from metrics.evaluation.slots import QueryCounts

    run_ids = [str(q) for q in run.query_ids.to_pylist()]
    topics = {query: topic for query in run_ids if (topic := subtopics.topic_of(query)) is not None}
    answered = set(topics.values())
    only_in_run = tuple(query for query in run_ids if query not in topics)
    only_in_qrels = tuple(topic for topic in subtopics.topics if topic not in answered)
    if options.complete:
        topics.update((topic, topic) for topic in only_in_qrels)
    order = {topic: index for index, topic in enumerate(subtopics.topics)}
    queries = tuple(sorted(topics, key=lambda query: (order[topics[query]], query)))
    values = _values(run, subtopics, measures, topics, options)
    per_query = {name: np.array([found[q] for q in queries], dtype=np.float64) for name, found in values.items()}
    threshold = options.conventions.threshold
    no_relevant = sum(1 for q in queries if aspects_of_lines(subtopics.topics[topics[q]], threshold).subtopics == 0)
    counts = QueryCounts(len(queries), len(only_in_run), len(only_in_qrels), no_relevant)
    return SubtopicValues(queries, per_query, only_in_run, only_in_qrels, counts)


def _values(run: Run, subtopics: SubtopicQrels, measures: dict[str, Measure], topics: dict[str, str], options):
    """{measure name: {query: value}} for the queries in ``topics`` ({query: its topic})."""
    every = run.to_rankings()
    cut = options.max_docs  # -M (ndeval's too), checked by the caller
    rankings = {query: every.get(query, [])[:cut] for query in topics}
    keyed = SubtopicQrels(subtopics.name, {query: subtopics.topics[topic] for query, topic in topics.items()})
    found = evaluate_subtopics(rankings, keyed, list(measures.values()), conventions=options.conventions)
    return {name: found[measure.name] for name, measure in measures.items()}

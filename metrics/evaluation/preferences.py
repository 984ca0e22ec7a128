"""A run scored against preference judgments (trec_eval -R prefs, -R qrels_prefs): the judgments joined with the run
into a metrics.families._preference_kernels.PreferenceTable, which the preference families' kernels score.

As trec_eval's form_prefs_counts.c: the queries of the judgments that the run has (all of them with -c, a query
missing from the run retrieving nothing); -M keeps the top of each ranking; -J and -l change nothing (a preference
names two judged documents, and a level only orders them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.catalog import registry
from metrics.catalog.measures import Measure, parse_measures
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.evaluation.engine import Evaluation, QueryCounts, summaries
from metrics.families._preference_kernels import PreferenceTable, group_counts
from metrics.io import InputError, Run, fingerprint
from metrics.io.arrays import bool_numpy, chunked, decoded, int_numpy
from metrics.io.prefs import Preferences, read_prefs

READS = "prefs"  # the -R format whose measures this scores (Family.reads)


def evaluate_preferences(
    run,
    prefs,
    measures: Iterable[str | Measure],
    *,
    conventions: Conventions = TREC_EVAL,
    complete: bool = False,
    max_docs: int | None = None,
    judged_only: bool = False,
) -> Evaluation:
    """Score a run against preferences: ``prefs`` is a prefs file (a path or bytes), a dict {query: {group:
    {subgroup: {doc: level}}}} or metrics.io.prefs.Preferences (``read_qrels_prefs`` reads a qrels file as trec_eval
    -R qrels_prefs does); ``run`` anything metrics.io.read_run reads. The measures are the preference families and
    num_q (Family.reads). ``judged_only`` (-J) changes nothing, as in trec_eval.

    >>> run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}}
    >>> prefs = {"q1": {"u1": {"s": {"a": 2, "b": 1, "c": 0}}, "u2": {"s": {"b": 1, "a": 0}}}}
    >>> result = evaluate_preferences(run, prefs, ["prefs_simp", "prefs_avgjg", "prefs_pair"])
    >>> [round(float(result.per_query[name][0]), 4) for name in ("prefs_simp", "prefs_avgjg", "prefs_pair")]
    [0.75, 0.5, 0.8333]
    """
    parsed = parse_measures(measures)
    for measure in parsed:
        if READS not in registry.family(measure.family).reads:
            raise ValueError(f"{measure.name} is not computed from preferences (trec_eval -R prefs)")
    prefs = read_prefs(prefs)
    judged = sorted(set(prefs.query.to_pylist()))  # byte order: trec_eval's order of the queries
    ranked = ranked_run(run)
    in_run = set(ranked.query.unique().to_pylist()) if ranked.query is not None else set()
    evaluated = [query for query in judged if complete or query in in_run]
    table = preference_table(ranked, prefs, evaluated, max_docs)
    per_query = {measure.name: registry.family(measure.family).kernel(table, measure) for measure in parsed}
    by_name = {measure.name: measure for measure in parsed}
    only_in_run = tuple(sorted(in_run - set(judged)))
    only_in_qrels = tuple(query for query in judged if query not in in_run)
    relevant = np.bincount(table.group_slot, weights=group_counts(table).counts["rel"], minlength=table.size)
    counts = QueryCounts(len(evaluated), len(only_in_run), len(only_in_qrels), int((relevant == 0).sum()))
    return Evaluation(
        tuple(evaluated),
        tuple(parsed),
        per_query,
        summaries(per_query, by_name),
        counts,
        only_in_run,
        only_in_qrels,
        conventions,
        complete,
    )


@dataclass(frozen=True, eq=False)
class RankedRun:
    """A run's rows ranked as trec_eval ranks them for preferences (form_prefs_counts.c): score descending, then
    doc id ascending. (Everywhere else trec_eval breaks ties by doc id descending.)"""

    name: str
    query: pa.Array | None  # per row, grouped by query
    doc: pa.Array
    rank: np.ndarray  # 1-based within the query

    def only(self, query: str) -> RankedRun:
        """The rows of one query."""
        if self.query is None:
            return self
        rows = pc.equal(self.query, pa.scalar(query, pa.string()))
        kept = np.flatnonzero(bool_numpy(rows))
        return RankedRun(self.name, self.query.filter(rows), self.doc.filter(rows), self.rank[kept])


def ranked_run(source, name: str | None = None) -> RankedRun:
    """Read a run (what metrics.io.read_run reads) and rank it for preferences. A metrics.io.Run has no scores
    left: its order is kept."""
    if isinstance(source, RankedRun):
        return source
    if isinstance(source, Run):
        ranking, rank = source.ranks(np.arange(source.num_rows))
        query = source.query_ids.take(pa.array(ranking, pa.int64()))
        return RankedRun(
            source.name,
            query,
            pa.concat_arrays(source.doc.chunks) if source.num_rows else pa.array([], pa.string()),
            rank,
        )
    display, query, doc, score = _columns(source, name)
    table = pa.table({"query": query, "score": score, "doc": doc})
    order = pc.sort_indices(table, sort_keys=[("query", "ascending"), ("score", "descending"), ("doc", "ascending")])
    query, doc = query.take(order), doc.take(order)
    starts = (
        np.flatnonzero(np.concatenate([[True], bool_numpy(pc.not_equal(query[1:], query[:-1]))]))
        if len(query)
        else np.zeros(0, dtype=np.int64)
    )
    rank = np.arange(len(query)) - np.repeat(starts, np.diff(np.append(starts, len(query)))) + 1
    _refuse_duplicates(display, query, doc, starts)
    return RankedRun(display, query, doc, rank)


def _columns(source, name: str | None):
    """(name, query, doc, score) of a run source, checked by the readers' rules."""
    from metrics.io.fast import parse_text
    from metrics.io.frames import from_mapping, parse_frame
    from metrics.io.parquet import ParquetInput, is_parquet
    from metrics.io.sources import TextSource

    if isinstance(source, Mapping):
        run = from_mapping(source, name or "run", "run")  # checks the dict; scores are read below
        queries = [str(q) for q, docs in source.items() for _ in _entries(docs)]
        docs = [str(d) for _, entries in source.items() for d in _entries(entries)]
        scores = [float(v) for _, entries in source.items() for v in _entries(entries).values()]
        del run
        return (
            name or "run",
            pa.array(queries, pa.string()),
            pa.array(docs, pa.string()),
            pa.array(scores, pa.float64()),
        )
    if is_parquet(source):
        parquet = ParquetInput(source, "run", name)
        columns, _ = parquet.read_columns()
        display = parquet.name
    elif hasattr(source, "columns") and (hasattr(source, "to_arrow") or hasattr(source, "iloc")):
        display = name or "DataFrame"
        columns, _ = parse_frame(source, display, "run")
    else:
        text = TextSource.open(source, name)
        columns, _ = parse_text(text, "run")
        display = text.name
    query = decoded(columns["query"]).combine_chunks()
    score = columns["score"]
    score = pa.array(score) if isinstance(score, np.ndarray) else chunked(score).combine_chunks()
    return display, query, chunked(columns["doc"]).combine_chunks(), pc.cast(score, pa.float64())


def _entries(entries) -> dict:
    """A query's {doc: score}, or its [docs best first] as scores n, n - 1, ... (as metrics.io reads a dict)."""
    if isinstance(entries, Mapping):
        return dict(entries)
    return {doc: float(len(entries) - rank) for rank, doc in enumerate(entries)}


def _refuse_duplicates(name: str, query: pa.Array, doc: pa.Array, starts: np.ndarray) -> None:
    """A doc given twice for a query is refused, as every run is (trec_eval: "duplicate docs")."""
    key = fingerprint(doc) ^ np.repeat(
        fingerprint(query.take(pa.array(starts, pa.int64()))), np.diff(np.append(starts, len(query)))
    )
    ordered = np.sort(key)
    twice = ordered[1:][ordered[1:] == ordered[:-1]]
    for candidate in twice[:5].tolist():
        rows = np.flatnonzero(key == candidate)
        pairs = {(query[int(r)].as_py(), doc[int(r)].as_py()) for r in rows}
        if len(pairs) < len(rows):
            q, d = next(iter(pairs))
            raise InputError(f"{name}: query {q!r}: doc {d!r} appears twice; trec_eval refuses duplicate docs")


def preference_table(run: RankedRun, prefs: Preferences, evaluated: list[str], max_docs: int | None):
    """The judgments of the evaluated queries joined with their rankings (the top max_docs of each)."""
    slot = int_numpy(pc.index_in(prefs.query, value_set=pa.array(evaluated, pa.string())), null=-1)
    kept = np.flatnonzero(slot >= 0)
    slot = slot[kept]
    take = pa.array(kept, pa.int64())
    group_code = _byte_order_codes(prefs.group.take(take))
    subgroup_code = _byte_order_codes(prefs.subgroup.take(take))
    docs = prefs.doc.take(take)
    distinct_docs = pc.unique(docs)
    doc_code = _byte_order_codes(docs, distinct_docs)
    groups_width = int(group_code.max(initial=0)) + 1
    group_keys, group = np.unique(slot * groups_width + group_code, return_inverse=True)
    subgroups_width = int(subgroup_code.max(initial=0)) + 1
    subgroup_keys, subgroup = np.unique(group * subgroups_width + subgroup_code, return_inverse=True)
    group_slot = group_keys // groups_width
    subgroups_of = np.bincount(subgroup_keys // subgroups_width, minlength=len(group_keys))
    rank = _ranks(run, evaluated, distinct_docs, slot, doc_code, max_docs)
    return PreferenceTable(
        len(evaluated), slot, group, subgroup, prefs.level[kept], doc_code, rank, group_slot, subgroups_of
    )


def _byte_order_codes(strings: pa.Array, distinct: pa.Array | None = None) -> np.ndarray:
    """Each string's rank among the distinct strings in byte order (strcmp's)."""
    distinct = pc.unique(strings) if distinct is None else distinct
    order = int_numpy(pc.sort_indices(distinct))
    rank_of = np.empty(len(distinct), dtype=np.int64)
    rank_of[order] = np.arange(len(distinct))
    return rank_of[int_numpy(pc.index_in(strings, value_set=distinct))]


def _ranks(run: RankedRun, evaluated, distinct_docs, slot, doc_code, max_docs) -> np.ndarray:
    """Each judgment's document's rank in its query's ranking (the top max_docs), 0 if absent."""
    if run.query is None or len(run.doc) == 0:
        return np.zeros(len(slot), dtype=np.int64)
    row_slot = int_numpy(pc.index_in(run.query, value_set=pa.array(evaluated, pa.string())), null=-1)
    code = int_numpy(pc.index_in(run.doc, value_set=distinct_docs), null=-1)
    keep = (row_slot >= 0) & (code >= 0) & (run.rank <= (max_docs if max_docs is not None else run.rank.max()))
    order = int_numpy(pc.sort_indices(distinct_docs))
    code_of = np.empty(len(distinct_docs), dtype=np.int64)
    code_of[order] = np.arange(len(distinct_docs))
    width = len(distinct_docs) + 1
    row_keys = row_slot[keep] * width + code_of[code[keep]]
    sorter = np.argsort(row_keys)
    row_keys, row_rank = row_keys[sorter], run.rank[keep][sorter]
    if len(row_keys) == 0:
        return np.zeros(len(slot), dtype=np.int64)
    line_keys = slot * width + doc_code
    at = np.minimum(np.searchsorted(row_keys, line_keys), len(row_keys) - 1)
    return np.where(row_keys[at] == line_keys, row_rank[at], 0).astype(np.int64)

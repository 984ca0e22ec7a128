"""A run scored against preference judgments (trec_eval -R prefs, -R qrels_prefs): the judgments joined with the run
into metrics.preferences.preference_table.PreferenceTables, a block of queries at a time, which the preference
families' kernels score. A run file is read a piece at a time and only the rows of judged documents kept, so memory
is the judgments and a piece, not the run.

As trec_eval's form_prefs_counts.c: the queries of the judgments that the run has (all of them with -c, a query
missing from the run retrieving nothing); -M keeps the top of each ranking; -J and -l change nothing (a preference
names two judged documents, and a level only orders them).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.catalog.family import Measure
from metrics.evaluation.engine import Evaluation
from metrics.evaluation.options import EvaluationOptions, given
from metrics.io import Run, doc_hash
from metrics.io.arrays.conversions import (
    arrow_float64,
    arrow_int64,
    arrow_strings,
    bool_numpy,
    chunked,
    dictionary_codes,
    float_numpy,
    int_numpy,
    is_dictionary,
    take,
)
from metrics.io.arrays.hashing import StringIndex, sorted_search
from metrics.io.duplicates import in_queries, query_set, refuse_duplicate_docs, top_rows
from metrics.io.rules import InputError
from metrics.preferences.preference_table import distinct, table_of
from metrics.preferences.prefs_file import Preferences, read_prefs
from metrics.preferences.runs.preference_scores import preference_measures, scored

TABLE_ENTRIES = 1 << 16  # judgments scored at a time (preference_tables)
BLOCK_PIECE_BYTES = 4 << 20  # a run file's text parsed at a time when only the judged rows are kept (ranked_run)


def evaluate_preferences(
    run,
    prefs,
    measures: Iterable[str | Measure],
    *,
    options: EvaluationOptions | None = None,
    **keywords,
) -> Evaluation:
    """Score a run against preferences: ``prefs`` is a prefs file (a path or bytes), a dict {query: {group: {subgroup:
    {doc: level}}}} or metrics.preferences.prefs_file.Preferences (``read_qrels_prefs`` reads a qrels file as trec_eval
    -R qrels_prefs does); ``run`` anything metrics.io.read_run reads. The measures are the preference families and num_q
    (TrecEval.reads). ``judged_only`` (-J) changes nothing, as in trec_eval.

    >>> run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}}
    >>> prefs = {"q1": {"u1": {"s": {"a": 2, "b": 1, "c": 0}}, "u2": {"s": {"b": 1, "a": 0}}}}
    >>> result = evaluate_preferences(run, prefs, ["prefs_simp", "prefs_avgjg", "prefs_pair"])
    >>> [round(float(result.per_query[name][0]), 4) for name in ("prefs_simp", "prefs_avgjg", "prefs_pair")]
    [0.75, 0.5, 0.8333]
    """
    options = given(options, keywords)
    parsed = preference_measures(measures)
    prefs = read_prefs(prefs)
    judged = sorted(pc.unique(prefs.query).to_pylist())  # byte order: trec_eval's order of the queries
    # A RankedRun is taken as it is (the CLI's was cut to the judged docs as it was read): _Ranks matches exactly.
    ranked = run if isinstance(run, RankedRun) else ranked_run(run, keep=judged_docs(prefs), max_docs=options.cut())
    in_run = ranked.query_ids
    evaluated = [query for query in judged if options.complete or query in in_run]
    tables = preference_tables(ranked, prefs, evaluated, options.max_docs)
    return scored(tables, judged, in_run, evaluated, parsed, options)


@dataclass(frozen=True, eq=False)
class RankedRun:
    """A run's rows (in file order) with their rank as trec_eval ranks them for preferences (form_prefs_counts.c):
    score descending, then doc id ascending. (Everywhere else trec_eval breaks ties by doc id descending.)"""

    name: str
    queries: pa.Array  # the run's query ids, one per code
    code: np.ndarray  # per row: its query's code
    rank: np.ndarray  # per row: 1-based within its query
    doc: pa.ChunkedArray
    doc_hash: np.ndarray  # per row: metrics.io.doc_hash of its doc (uint32)

    def only(self, query: str) -> RankedRun:
        """The rows of one query."""
        codes = np.flatnonzero(bool_numpy(pc.equal(self.queries, pa.scalar(query, pa.string()))))
        rows = np.flatnonzero(np.isin(self.code, codes))
        doc = pa.chunked_array([take(self.doc, rows)], pa.string())
        return RankedRun(self.name, self.queries, self.code[rows], self.rank[rows], doc, self.doc_hash[rows])

    def kept(self, rows: np.ndarray) -> RankedRun:
        """Only these rows (a boolean mask)."""
        index = np.flatnonzero(rows)
        doc = pa.chunked_array([take(self.doc, index)], pa.string())
        return RankedRun(self.name, self.queries, self.code[index], self.rank[index], doc, self.doc_hash[index])

    def ranking_of(self, query: str) -> list[str]:
        """One query's doc ids, best first (ranked for preferences), as the readable functions take them."""
        mine = self.only(query)
        return take(mine.doc, np.argsort(mine.rank, kind="stable")).to_pylist()

    @property
    def query_ids(self) -> set[str]:
        """The queries the run has (rows dropped by ``keep`` aside: every query of the file)."""
        return set(self.queries.to_pylist())


def ranked_run(source, name: str | None = None, keep=None, max_docs: int | None = None, queries=None) -> RankedRun:
    """Read a run (what metrics.io.read_run reads) and rank it for preferences; the same rules, and a doc given twice
    for a query is refused (within each ranking's top ``max_docs`` if given: trec_eval -M; for ``queries`` only if
    given: the evaluated, read_run's ``queries``). ``keep`` (doc hashes ->
    which rows to keep) drops the other rows once ranked: a run's rows are many, its judged documents few. A
    metrics.io.Run has no scores left: its order is kept."""
    if isinstance(source, RankedRun | Run):
        ranked = source if isinstance(source, RankedRun) else _from_run(source)
        return ranked if keep is None else ranked.kept(keep(ranked.doc_hash))
    checked = query_set(queries)
    if keep is not None and _text_file(source):
        in_blocks = _ranked_blocks(source, name, keep, max_docs, checked)
        if in_blocks is not None:
            return in_blocks
    display, query, doc, score, row_names = _columns(source, name)
    return _ranked(display, query, doc, score, row_names, keep, max_docs, checked)


def _text_file(source) -> bool:
    from metrics.io.text.sources import is_parquet

    return isinstance(source, str | os.PathLike) and os.path.isfile(source) and not is_parquet(source)


def _ranked_blocks(source, name: str | None, keep, max_docs: int | None, checked) -> RankedRun | None:
    """A text run read BLOCK_PIECE_BYTES at a time in blocks of whole queries (metrics.io.text.stream), each block
    ranked and cut to the rows ``keep`` keeps before the next is parsed: the whole run's columns are never held (at 2M
    rows they were 100 MiB at their peak, the kept rows a tenth of that). None when a query's rows are in two blocks
    (not contiguous): the caller reads the file whole."""
    from metrics.io.text.stream import TextRun, whole_queries

    text_run = TextRun(source, name, BLOCK_PIECE_BYTES)
    parts, duplicate = [], None
    for rows in whole_queries(text_run.pieces()):
        if duplicate is not None:  # the rest is parsed only: as in a whole read, a bad line further on comes first
            continue

        def row_names(local, first=rows.first_row) -> list[str]:
            return text_run.line_names((np.asarray(local, dtype=np.int64) + first).tolist())

        columns = rows.columns
        del rows
        score = float_numpy(columns.pop("score"))
        try:
            query, doc = columns.pop("query"), chunked(columns.pop("doc"))
            parts.append(_ranked(text_run.name, query, doc, score, row_names, keep, max_docs, checked))
        except InputError as error:  # a doc given twice
            duplicate = error
    if duplicate is not None:
        raise duplicate
    queries = pa.concat_arrays([part.queries for part in parts])
    if pc.count_distinct(queries).as_py() != len(queries):
        return None
    offsets = np.cumsum([0] + [len(part.queries) for part in parts[:-1]])
    return RankedRun(
        text_run.name,
        queries,
        np.concatenate([part.code + offset for part, offset in zip(parts, offsets, strict=True)]).astype(np.int32),
        np.concatenate([part.rank for part in parts]),
        pa.chunked_array([chunk for part in parts for chunk in part.doc.chunks], pa.string()),
        np.concatenate([part.doc_hash for part in parts]),
    )


def _ranked(display, query, doc, score, row_names, keep, max_docs: int | None = None, checked=None) -> RankedRun:
    """The rows ranked for preferences (the ranked_run of one file's columns), then cut to those ``keep`` keeps. A doc
    given twice is refused within each ranking's top ``max_docs`` (all if None), of the ``checked`` queries' rankings
    (metrics.io.duplicates.query_set; all if None)."""
    queries, code = _query_codes(query)
    del query
    n = len(code)
    hashed = doc_hash(doc)
    if n == 0:
        empty = np.zeros(0, dtype=np.int32)
        return RankedRun(display, queries, empty, empty, doc, hashed)
    starts = np.concatenate([[0], np.flatnonzero(code[1:] != code[:-1]) + 1, [n]]).astype(np.int64)
    lengths = np.diff(starts)
    grouped = len(distinct(code[starts[:-1]])) == len(lengths)
    going_on = np.ones(n, dtype=bool)  # rows that continue the ranking of the row before
    going_on[starts[:-1]] = False
    descending = grouped and not (score[1:] > score[:-1])[going_on[1:]].any()
    if descending:  # the usual file: each query's lines together, by score: only tied rows move
        rank = np.arange(1, n + 1, dtype=np.int32)
        rank -= np.repeat(starts[:-1].astype(np.int32), lengths)
        _ties_by_doc_ascending(rank, score, going_on, doc)
        del score, going_on
        top = rank <= max_docs if max_docs is not None and top_rows(starts, max_docs) is not None else None
        top = in_queries(top, starts, queries.take(arrow_int64(code[starts[:-1]])), checked)
        refuse_duplicate_docs(display, starts, hashed, _query_of(queries, code), doc, None, row_names, top)
    else:  # any other order: one sort of every row by query, score descending, doc id ascending
        table = pa.table({"code": arrow_int64(code), "score": arrow_float64(score), "doc": doc})
        del score, going_on
        keys = [("code", "ascending"), ("score", "descending"), ("doc", "ascending")]
        file_row = int_numpy(pc.sort_indices(table, sort_keys=keys))
        del table
        ordered_code = code[file_row]
        starts = np.concatenate([[0], np.flatnonzero(ordered_code[1:] != ordered_code[:-1]) + 1, [n]])
        rank = np.empty(n, dtype=np.int32)
        rank[file_row] = np.arange(n) - np.repeat(starts[:-1], np.diff(starts)) + 1
        in_order = pa.chunked_array([take(doc, file_row)], pa.string())
        query_of = _query_of(queries, ordered_code)
        top = top_rows(starts, max_docs)  # rows in trec_eval's order here: the top max_docs of each ranking lead it
        top = in_queries(top, starts, queries.take(arrow_int64(ordered_code[starts[:-1]])), checked)
        refuse_duplicate_docs(display, starts, hashed[file_row], query_of, in_order, file_row, row_names, top)
        del in_order, ordered_code, file_row
    ranked = RankedRun(display, queries, code, rank, doc, hashed)
    return ranked if keep is None else ranked.kept(keep(hashed))


def _from_run(run: Run) -> RankedRun:
    ranking, rank = run.ranks(np.arange(run.num_rows))
    return RankedRun(run.name, run.query_ids, ranking, rank, run.doc, run.doc_hash)


def _ties_by_doc_ascending(rank: np.ndarray, score: np.ndarray, going_on: np.ndarray, doc) -> None:
    """Within each run of tied scores, the ranks given by doc id ascending (in place)."""
    tied = np.flatnonzero(going_on[1:] & (score[1:] == score[:-1]))  # row i + 1 ties with row i
    if len(tied) == 0:
        return
    rows = distinct(np.concatenate([tied, tied + 1]))
    new_block = np.ones(len(rows), dtype=bool)
    new_block[1:] = ~np.isin(rows[1:] - 1, tied) | (rows[1:] - 1 != rows[:-1])
    block = np.cumsum(new_block)
    table = pa.table({"block": arrow_int64(block), "doc": take(doc, rows)})
    by_doc = rows[int_numpy(pc.sort_indices(table, sort_keys=[("block", "ascending"), ("doc", "ascending")]))]
    rank[by_doc] = rank[rows]  # the block's ranks, in row order, handed out in doc order


def _query_of(queries: pa.Array, code: np.ndarray):
    return lambda rows: queries.take(arrow_int64(code[rows])).to_pylist()


def _query_codes(query) -> tuple[pa.Array, np.ndarray]:
    """(the distinct query ids, each row's code among them), without decoding a dictionary-encoded column."""
    query = chunked(query)
    if not is_dictionary(query):  # hashed where the id changes only: a run's rows come a query at a time
        n = len(query)
        changes = np.flatnonzero(bool_numpy(pc.not_equal(query.slice(1), query.slice(0, max(n - 1, 0))))) + 1
        starts = np.concatenate([[0], changes]) if n else changes
        heads = take(query, starts)
        distinct = pc.unique(heads)
        head_code = int_numpy(pc.index_in(heads, value_set=distinct)).astype(np.int32)
        return distinct, np.repeat(head_code, np.diff(np.append(starts, n)))
    distinct = pc.unique(pa.chunked_array([chunk.dictionary for chunk in query.chunks], pa.string()))
    parts = []
    for chunk in query.chunks:
        mapping = int_numpy(pc.index_in(chunk.dictionary, value_set=distinct))
        parts.append(mapping.astype(np.int32)[dictionary_codes(chunk)])
    return distinct, np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)


def _columns(source, name: str | None):
    """(name, query, doc, score, row names) of a run source, checked by the readers' rules."""
    from metrics.io.columnar.frames import from_mapping, parse_frame
    from metrics.io.columnar.parquet import ParquetInput
    from metrics.io.text.fast import parse_text
    from metrics.io.text.sources import TextSource, is_parquet

    if isinstance(source, Mapping):
        from_mapping(source, name or "run", "run")  # checks the dict; its scores are read below
        rows = [(str(q), str(d), float(v)) for q, entries in source.items() for d, v in _entries(entries).items()]
        given = list(zip(*rows, strict=True)) if rows else [(), (), ()]
        query, doc = (chunked(arrow_strings(c)) for c in given[:2])
        return name or "run", query, doc, np.array(given[2], dtype=np.float64), lambda r: [f"row {i}" for i in r]
    if is_parquet(source):
        parquet = ParquetInput(source, "run", name)
        columns, row_names = parquet.read_columns()
        display = parquet.name
    elif hasattr(source, "columns") and (hasattr(source, "to_arrow") or hasattr(source, "iloc")):
        display = name or "DataFrame"
        columns, row_names = parse_frame(source, display, "run")
    else:
        text = TextSource.open(source, name)
        columns, row_names = parse_text(text, "run")
        display = text.name
    score = columns.pop("score")
    score = score.astype(np.float64) if isinstance(score, np.ndarray) else float_numpy(score)
    return display, columns.pop("query"), chunked(columns.pop("doc")), score, row_names


def _entries(entries) -> dict:
    """A query's {doc: score}, or its [docs best first] as scores n, n - 1, ... (as metrics.io reads a dict)."""
    if isinstance(entries, Mapping):
        return dict(entries)
    return {doc: float(len(entries) - rank) for rank, doc in enumerate(entries)}


def preference_tables(run: RankedRun, prefs: Preferences, evaluated: list[str], max_docs: int | None):
    """The judgments of the evaluated queries joined with their rankings (the top max_docs of each), as (first
    query, PreferenceTable) for blocks of whole queries of about TABLE_ENTRIES judgments: the join's and the
    kernels' temporaries are arrays of a block's length (at 302,516 judgments in one table, 60 MiB at their peak).
    Each query's values are those of one table of them all: every count is a query's own, and the codes keep their
    order within a block."""
    slot = int_numpy(pc.index_in(prefs.query, value_set=arrow_strings(evaluated)), null=-1)
    distinct_docs, doc_code = prefs.docs
    # the order of the unretrieved documents matters only when a group has several subgroups
    doc_order = _byte_order(distinct_docs) if _several_subgroups(prefs, slot) else None
    ranks = _Ranks(run, evaluated, distinct_docs, max_docs)
    ends = np.cumsum(np.bincount(slot[slot >= 0], minlength=len(evaluated)))  # judgments up to each query's
    first = 0
    while first < len(evaluated) or first == 0:
        before = int(ends[first - 1]) if first else 0
        stop = min(max(first + 1, int(np.searchsorted(ends, before + TABLE_ENTRIES, side="right"))), len(evaluated))
        rows = np.flatnonzero((slot >= first) & (slot < stop))  # file order, as in one table
        block_slot, codes, taken = slot[rows] - first, doc_code[rows], arrow_int64(rows)
        rank = ranks.of(first, stop, block_slot, codes)
        if doc_order is not None:
            codes = doc_order[codes]
        group_code = _byte_order_codes(prefs.group.take(taken))
        subgroup_code = _byte_order_codes(prefs.subgroup.take(taken))
        yield first, table_of(stop - first, block_slot, group_code, subgroup_code, prefs.level[rows], codes, rank)
        first = max(stop, 1)


def _several_subgroups(prefs: Preferences, slot: np.ndarray) -> bool:
    """Whether a group of an evaluated query holds several subgroups."""
    if pc.count_distinct(prefs.subgroup).as_py() < 2:
        return False
    kept = np.flatnonzero(slot >= 0)
    rows = arrow_int64(kept)
    group_code = _byte_order_codes(prefs.group.take(rows))
    subgroup_code = _byte_order_codes(prefs.subgroup.take(rows))
    groups_width = int(group_code.max(initial=0)) + 1
    subgroups_width = int(subgroup_code.max(initial=0)) + 1
    group_key = slot[kept] * groups_width + group_code
    pairs = distinct(group_key * subgroups_width + subgroup_code) // subgroups_width
    return bool((pairs[1:] == pairs[:-1]).any())


def _byte_order(distinct: pa.Array) -> np.ndarray:
    """Each distinct string's rank among them in byte order (strcmp's)."""
    rank_of = np.empty(len(distinct), dtype=np.int64)
    rank_of[int_numpy(pc.sort_indices(distinct))] = np.arange(len(distinct))
    return rank_of


def _byte_order_codes(strings: pa.Array) -> np.ndarray:
    """Each string's rank among the distinct strings in byte order."""
    encoded = pc.dictionary_encode(strings)
    return _byte_order(encoded.dictionary)[int_numpy(encoded.indices)]


def judged_docs(prefs: Preferences):
    """A filter of run rows by doc hash: True for a doc the judgments may name (a superset, a bit table of their
    hashes; the exact match follows in _ranks)."""
    table = np.zeros(1 << _HASH_BITS, dtype=bool)
    table[doc_hash(prefs.docs[0]) & _HASH_MASK] = True
    return lambda hashes: table[hashes & _HASH_MASK]


class _Ranks:
    """Each judgment's document's rank in its query's ranking (the top max_docs), 0 if absent, for a block of
    queries at a time: the run's rows of the evaluated queries sorted by query once, their doc ids matched to the
    judged ones a block at a time."""

    def __init__(self, run: RankedRun, evaluated, distinct_docs: pa.Array, max_docs: int | None):
        self.run, self.width = run, len(distinct_docs) + 1
        code_slot = int_numpy(pc.index_in(run.queries, value_set=arrow_strings(evaluated)), null=-1)
        self.row_slot = code_slot[run.code] if len(run.code) else np.zeros(0, dtype=np.int64)
        # candidates: rows of an evaluated query, in the top max_docs (rows of other docs are dropped below)
        candidate = self.row_slot >= 0
        if max_docs is not None:
            candidate &= run.rank <= max_docs
        rows = np.flatnonzero(candidate)
        self.rows = rows[np.argsort(self.row_slot[rows], kind="stable")]
        self.sorted_slot = self.row_slot[self.rows]
        self.docs = StringIndex(distinct_docs) if len(distinct_docs) else None

    def of(self, first: int, stop: int, slot: np.ndarray, doc_code: np.ndarray) -> np.ndarray:
        """The ranks of the judgments (``slot`` counted from query ``first``, ``doc_code``) of queries first..stop-1."""
        lo, hi = np.searchsorted(self.sorted_slot, [first, stop])
        rows = self.rows[lo:hi]
        if self.docs is None or len(rows) == 0:
            return np.zeros(len(slot), dtype=np.int64)
        found = self.docs.find(take(self.run.doc, rows))
        rows, found = rows[found >= 0], found[found >= 0]
        row_keys = (self.row_slot[rows] - first) * self.width + found
        sorter = np.argsort(row_keys)
        row_keys, row_rank = row_keys[sorter], self.run.rank[rows][sorter]
        if len(row_keys) == 0:
            return np.zeros(len(slot), dtype=np.int64)
        line_keys = slot * self.width + doc_code
        at = np.minimum(sorted_search(row_keys, line_keys), len(row_keys) - 1)
        return np.where(row_keys[at] == line_keys, row_rank[at], 0).astype(np.int64)


_HASH_BITS = 22  # the judged docs' hashes as a bit table (4 MiB): a cheap filter before the exact match
_HASH_MASK = (1 << _HASH_BITS) - 1

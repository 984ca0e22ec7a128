"""The engine's join of a Run with its Qrels (metrics.io: Arrow columns) at one relevance threshold: the query sets
with pyarrow.compute, and the judged retrieved rows found by doc-hash filtering and fingerprint matching. The engine
(metrics.evaluation.engine) imports it when it joins: a small file scored by the CLI never loads pyarrow
(metrics.evaluation.plain_join)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.evaluation.options import EvaluationOptions
from metrics.evaluation.slots import QuerySlots
from metrics.io import Qrels, Run, doc_hash, fingerprint
from metrics.io.arrays.conversions import bool_numpy, int_numpy, take
from metrics.io.arrays.parallel import by_halves


class ArrowSlots(QuerySlots):
    """QuerySlots of a Run and Qrels (metrics.io): the query sets and slots with pyarrow.compute, the judged
    retrieved rows by fingerprints (_judged_retrieved)."""

    def __init__(self, run: Run, qrels: Qrels, options: EvaluationOptions):
        # Qrels files come grouped by query: the distinct queries and each line's slot are read off the first line
        # of each group (a few thousand strings), not hashed line by line (0.1 s of CPU at 300k lines).
        heads, line_group = _groups(qrels.query)
        judged = pc.unique(heads) if len(qrels.grade) else _strings([])
        run_ids = run.query_ids
        judged_in_run = pc.is_in(judged, value_set=run_ids)
        run_in_qrels = bool_numpy(pc.is_in(run_ids, value_set=judged))
        counted = judged if options.complete else judged.filter(judged_in_run)
        counted = counted.take(pc.sort_indices(counted))  # trec_eval -q lists queries by id (strcmp order)
        only_in_run = tuple(sorted(run_ids.filter(pc.invert(pc.is_in(run_ids, value_set=judged))).to_pylist()))
        only_in_qrels = tuple(sorted(judged.filter(pc.invert(judged_in_run)).to_pylist()))

        # Each ranking's and each qrels line's slot among the evaluated queries (-1: not evaluated).
        ranking_slot = _slots(run_ids, counted)
        line_slot = _slots(heads, counted)[line_group]
        del line_group

        def judged_retrieved(lines: np.ndarray):
            return _judged_retrieved(run, ranking_slot, qrels, lines, line_slot)

        only = (only_in_run, only_in_qrels, int((~run_in_qrels).sum()))
        queries = tuple(counted.to_pylist())
        lengths = np.diff(run.starts)
        super().__init__(options, queries, only, ranking_slot, lengths, line_slot, qrels.grade, judged_retrieved)


def _judged_retrieved(run: Run, ranking_slot, qrels: Qrels, lines: np.ndarray, line_slot):
    """(slot, rank, grade) of every retrieved doc with one of the qrels lines ``lines``, sorted by (slot, rank).

    The join: a cheap filter finds the candidate rows (_candidates), which are matched exactly on (query, doc),
    _JOIN_ROWS candidates at a time: a dozen arrays per candidate, which whole would hold ~20 MB more at 300k
    candidates (the many-judgments shape), for the same work.
    """
    empty = np.zeros(0, dtype=np.int64)
    if len(lines) == 0 or run.num_rows == 0:
        return empty, empty, empty
    every_line = len(lines) == len(qrels.grade)  # (no copies of 900k-line columns for the many-short-queries shape)
    judged_docs = qrels.doc if every_line else take(qrels.doc, lines)
    judged_slot = line_slot if every_line else line_slot[lines]
    candidates = _candidates(run, judged_docs)
    keys = _line_keys(judged_docs, judged_slot)
    # Each block's (slot, rank, line) kept as int32 until joined (when every value fits): 12 bytes a match instead
    # of 24 while the blocks pile up (675k matches in the many-short-queries shape, where the join is the peak).
    narrow = np.int32 if max(run.num_rows, len(qrels.grade)) < 2**31 else np.int64
    found = [(empty, empty, empty)]
    for top in range(0, len(candidates), _JOIN_ROWS):
        block = _join_block(run, candidates[top : top + _JOIN_ROWS], ranking_slot, judged_docs, judged_slot, keys)
        found.append(tuple(column.astype(narrow) for column in block))
    del candidates, keys, judged_slot
    parts = [list(part) for part in zip(*found, strict=True)]
    del found
    line = np.concatenate(parts.pop(), dtype=np.int64)  # one column at a time, each list freed once joined
    grade = qrels.grade[line if every_line else lines[line]]
    del line
    rank = np.concatenate(parts.pop(), dtype=np.int64)
    slot = np.concatenate(parts.pop(), dtype=np.int64)
    # The candidates come in run order: usually already by (slot, rank), unless the run's queries are not in
    # trec_eval's (strcmp) order or tied rows moved; then one sort of a combined integer key.
    key = slot * (int(rank.max(initial=0)) + 1) + rank
    if len(key) > 1 and not (key[1:] > key[:-1]).all():
        order = np.argsort(key, kind="stable")
        slot, rank, grade = slot[order], rank[order], grade[order]
    return slot, rank, grade


def _join_block(run: Run, block: np.ndarray, ranking_slot, judged_docs, judged_slot, keys):
    """(slot, rank, line) of the candidate rows ``block`` that have a qrels line (an index into judged_docs)."""
    ranking, rank = run.ranks(block)
    slot = ranking_slot[ranking]
    counted = slot >= 0
    block, slot, rank = block[counted], slot[counted], rank[counted]
    candidate_docs = take(run.doc, block)
    matched = None if keys is None else _match(candidate_docs, slot, judged_docs, keys)
    if matched is None:  # two (query, doc) keys collided: the exact match on the strings themselves
        matched = _match_strings(candidate_docs, slot, judged_docs, judged_slot)
    rows, line = matched
    return slot[rows], rank[rows], line


def _candidates(run: Run, judged_docs) -> np.ndarray:
    """The run rows whose doc may be judged for some query: each row's doc hash looked up in a small bit table of
    the judged docs' hashes (no hash table of every row). A superset: false matches are dropped by _match."""
    # The table is indexed by the top bits of the 31-bit hashes, under 0.4% of it set. At most 2^23 entries (8 MB):
    # with 300k judgments 2^27 would be a 128 MB table, zeroed and paged in for a filter whose false matches (here
    # ~4% of the rows) the exact match drops anyway.
    bits = min(_TABLE_BITS, max(12, int(len(judged_docs) * 256).bit_length()))
    shift = np.uint32(31 - bits)
    table = np.zeros(1 << bits, dtype=bool)
    table[doc_hash(judged_docs) >> shift] = True

    def candidates_among(first: int, stop: int) -> np.ndarray:
        # A block of rows at a time, in reused arrays: full-length temporaries would cost page faults.
        block = min(stop - first, _BLOCK_ROWS)
        index, found = np.empty(block, dtype=np.uint32), np.empty(block, dtype=bool)
        rows = [np.zeros(0, dtype=np.int64)]
        for top in range(first, stop, block):
            size = min(block, stop - top)
            np.right_shift(run.doc_hash[top : top + size], shift, out=index[:size])
            np.take(table, index[:size], out=found[:size], mode="wrap")  # in range; "raise" would buffer "out"
            rows.append(np.flatnonzero(found[:size]) + top)
        return np.concatenate(rows)

    return np.concatenate(by_halves(candidates_among, run.num_rows, run.num_rows))


def _line_keys(line_docs, line_slot: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The qrels lines' join keys (slot, the doc's fingerprint), sorted, and the line of each; None when a slot
    does not fit in the key (then _match_strings matches)."""
    if len(line_slot) and int(line_slot.max()) >= 1 << _SLOT_BITS:
        return None
    line_keys = _join_keys(line_docs, line_slot)
    order = np.argsort(line_keys)
    return line_keys[order], order


def _match(row_docs: pa.Array, row_slot: np.ndarray, line_docs, line_keys: tuple[np.ndarray, np.ndarray]):
    """(rows, lines): the candidate rows that have a qrels line for their (slot, doc), and that line's index, by
    64-bit keys (slot, the doc's fingerprint) searched in the sorted line keys (_line_keys; pyarrow's index_in on
    the strings costs ~3x as much). Every match is then confirmed on the strings: None when keys collide (~2^-40
    per pair), as a row then finds another doc's line (two lines with one key: a row finds the first of them)."""
    sorted_keys, order = line_keys
    row_keys = _join_keys(row_docs, row_slot)
    at = np.searchsorted(sorted_keys, row_keys)
    np.minimum(at, len(sorted_keys) - 1, out=at)
    rows = np.flatnonzero(sorted_keys[at] == row_keys)
    lines = order[at[rows]]
    if not pc.all(pc.equal(take(row_docs, rows), take(line_docs, lines))).as_py():
        return None
    return rows, lines


def _join_keys(docs, slot: np.ndarray) -> np.ndarray:
    """The slot in the high bits, then the doc's fingerprint: keys of one query lie together, so that the binary
    searches of a query's rows, which come together, touch the same few cache lines (random 64-bit keys: 2x slower)."""
    key = fingerprint(docs)
    np.right_shift(key, np.uint64(_SLOT_BITS), out=key)
    high = slot.astype(np.uint64)
    np.left_shift(high, np.uint64(64 - _SLOT_BITS), out=high)
    return np.bitwise_or(key, high, out=key)


_SLOT_BITS = 24  # up to 16M evaluated queries (more: the exact string match); 40 bits of fingerprint per doc


def _match_strings(row_docs: pa.Array, row_slot: np.ndarray, line_docs, line_slot: np.ndarray):
    """_match without fingerprints: the docs looked up among the distinct judged docs, then (slot, doc index)."""
    distinct_docs = pc.unique(line_docs)
    found = pc.index_in(row_docs, value_set=distinct_docs)
    valid = bool_numpy(pc.is_valid(found))
    candidate_rows = np.flatnonzero(valid)
    found_index = int_numpy(found.filter(pc.is_valid(found)))
    width = len(distinct_docs)
    keys = row_slot[candidate_rows] * width + found_index
    line_keys = line_slot * width + int_numpy(pc.index_in(line_docs, value_set=distinct_docs))
    order = np.argsort(line_keys, kind="stable")
    line_keys = line_keys[order]
    at = np.minimum(np.searchsorted(line_keys, keys), len(line_keys) - 1)
    matched = line_keys[at] == keys
    return candidate_rows[matched], order[at[matched]]


def _groups(query: pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """(the first query id of each run of equal ids, each line's run index): in a grouped qrels file the heads are
    its distinct queries; in any other, an id may head several runs, which is fine for a lookup."""
    n = len(query)
    if n == 0:
        return _strings([]), np.zeros(0, dtype=np.int64)
    starts = [np.zeros(1, dtype=np.int64)]
    at = 1
    for chunk in pc.not_equal(query.slice(1), query.slice(0, n - 1)).chunks:
        starts.append(np.flatnonzero(bool_numpy(chunk)) + at)
        at += len(chunk)
    first = np.concatenate(starts)
    group = np.repeat(np.arange(len(first), dtype=np.int64), np.diff(np.append(first, n)))
    return take(query, first), group


_BLOCK_ROWS = 1 << 16
_JOIN_ROWS = 1 << 16
_TABLE_BITS = 23


def _slots(ids, counted: pa.Array) -> np.ndarray:
    """Index of each id among the evaluated queries, -1 when it is not evaluated."""
    return int_numpy(pc.index_in(ids, value_set=counted), null=-1)


def _strings(values: list[str]) -> pa.Array:
    return pa.chunked_array([values], pa.string()).combine_chunks()

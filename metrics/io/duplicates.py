"""Duplicate detection: a doc given twice for one query (trec_eval aborts), or a judgment given twice."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import bool_numpy, take
from metrics.io.arrays.parallel import by_halves
from metrics.io.rules import InputError, quoted


def top_rows(starts: np.ndarray, max_docs: int | None, moved=None) -> np.ndarray | None:
    """Which rows are in their ranking's top ``max_docs`` in trec_eval's order (a boolean mask), or None for all.

    ``moved``: (rows, their positions) of the tied rows that move (metrics.io.order._order_ties), else None.
    trec_eval -M cuts each ranking before it checks for duplicates, so a copy beyond the cut is never seen.
    """
    lengths = np.diff(starts)
    if max_docs is None or not len(lengths) or int(lengths.max()) <= max_docs:
        return None
    position = np.arange(int(starts[-1]), dtype=np.int64)
    if moved is not None:
        position[moved[0]] = moved[1]
    position -= np.repeat(starts[:-1], lengths)
    return position < max_docs


def query_set(queries) -> pa.Array | None:
    """The queries whose rankings are checked for a doc given twice (the ones trec_eval will evaluate: judged, and
    with -D LEVEL.QID that one), as one string array for pc.is_in; None (the default) checks every ranking."""
    if queries is None:
        return None
    if isinstance(queries, pa.ChunkedArray):
        queries = queries.combine_chunks()
    if not isinstance(queries, pa.Array):
        queries = pa.array(list(queries), pa.string())
    return pc.unique(queries.cast(pa.string()))


def in_queries(top: np.ndarray | None, starts, ranking_queries, queries: pa.Array | None) -> np.ndarray | None:
    """``top`` (top_rows) narrowed to the rows of rankings whose query is in ``queries`` (query_set): trec_eval
    checks a ranking only when it evaluates its query, so a doc given twice for another query is accepted."""
    if queries is None:
        return top
    checked = bool_numpy(pc.is_in(ranking_queries, value_set=queries))  # query ids are never null
    if checked.all():
        return top
    rows = np.repeat(checked, np.diff(starts))
    return rows if top is None else rows & top


def refuse_duplicate_docs(
    name, starts, hashed: np.ndarray, query_of: Callable, doc, file_row, row_names, top: np.ndarray | None = None
) -> None:
    """Refuse a doc given twice for one query. Only rows of one ranking can collide, so each ranking's 31-bit
    doc hashes are sorted on their own (one row of a 2-D array per ranking: small sorts of 4-byte values);
    equal neighbours name candidates, which the strings confirm. ``top`` (top_rows): only those rows are checked.
    """
    kept = None
    if top is not None:  # the kept rows, numbered 0.. here; their own numbers again for the strings
        kept = np.flatnonzero(top)
        starts, hashed = np.searchsorted(kept, starts), hashed[kept]
    n = len(hashed)
    if n < 2:
        return
    lengths = np.diff(starts)
    count = len(lengths)
    if count * int(lengths.max()) <= 2 * n + 4096:

        def suspects_among(first: int, stop: int) -> np.ndarray:  # rankings first..stop-1
            return _sorted_grid_suspects(hashed[starts[first] : starts[stop]], lengths[first:stop], first)

        suspects = np.concatenate(by_halves(suspects_among, count, n))
        if len(suspects) == 0:
            return
    else:  # very uneven lengths: one sort of (ranking, hash) keys
        suspects = None
    ranking_hash = np.repeat(np.arange(count, dtype=np.uint64) << np.uint64(32), lengths)
    ranking_hash |= hashed
    if suspects is None:
        ordered = np.sort(ranking_hash)
        suspects = ordered[1:][ordered[1:] == ordered[:-1]]
        del ordered
        if len(suspects) == 0:
            return
    rows = np.flatnonzero(np.isin(ranking_hash, suspects))
    _confirm_duplicates(name, rows if kept is None else kept[rows], query_of, doc, file_row, row_names, "run")


def _sorted_grid_suspects(hashed: np.ndarray, lengths: np.ndarray, first_ranking: int) -> np.ndarray:
    """(ranking << 32 | hash) of each hash found twice in one ranking: the rankings' hashes as the rows of a 2-D
    array (padded), each row sorted, equal neighbours compared. A block of rows at a time, in reused arrays:
    cache-sized, and no page faults for a full-size sorted copy."""
    count = len(lengths)
    width = int(lengths.max()) if count else 0
    if width < 2:
        return np.zeros(0, dtype=np.uint64)
    padded = not (lengths == width).all()
    rows_per_block = min(count, max(1, _GRID_CELLS // width))
    grid = np.empty((rows_per_block, width), dtype=np.uint32)
    same = np.empty((rows_per_block, width - 1), dtype=bool)
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    found = []
    for top in range(0, count, rows_per_block):
        size = min(rows_per_block, count - top)
        block, equal = grid[:size], same[:size]
        values = hashed[bounds[top] : bounds[top + size]]
        if padded:
            block.fill(_PAD)
            block[np.arange(width) < lengths[top : top + size, None]] = values  # row-major: ranking by ranking
        else:
            block[...] = values.reshape(size, width)
        block.sort(axis=1)
        np.equal(block[:, 1:], block[:, :-1], out=equal)
        if padded:
            equal &= block[:, 1:] != _PAD
        if equal.any():
            ranking, at = np.divmod(np.flatnonzero(equal), width - 1)
            key = (ranking + top + first_ranking).astype(np.uint64) << np.uint64(32)
            found.append(key | block[ranking, at].astype(np.uint64))
    return np.concatenate(found) if found else np.zeros(0, dtype=np.uint64)


_GRID_CELLS = 1 << 18  # hashes sorted per block in _sorted_grid_suspects (1 MiB)
_PAD = np.uint32(0xFFFFFFFF)


def refuse_duplicates(name, keys: np.ndarray, query_of: Callable, doc, file_row, row_names, kind) -> None:
    """Refuse a (query, doc) pair given twice: equal 64-bit fingerprints find candidates, the strings confirm.

    A sort finds equal keys without a hash table of every row (pyarrow's takes ~1.5 s at 7M rows).
    """
    ordered = np.sort(keys)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if len(repeated) == 0:
        return
    rows = np.flatnonzero(np.isin(keys, repeated))
    _confirm_duplicates(name, rows, query_of, doc, file_row, row_names, kind)


def _confirm_duplicates(name, rows: np.ndarray, query_of: Callable, doc, file_row, row_names, kind) -> None:
    """Compare the candidate rows' (query, doc) strings; raise for the first pair given twice."""
    first_row: dict = {}
    for row, pair in zip(rows.tolist(), zip(query_of(rows), take(doc, rows).to_pylist(), strict=True), strict=True):
        if pair in first_row:
            where = row_names(sorted(int(file_row[r]) if file_row is not None else r for r in (first_row[pair], row)))
            advice = "trec_eval aborts on duplicate docs; keep one" if kind == "run" else "keep one judgment"
            problem = (
                f"doc {quoted(pair[1])} appears twice for query {quoted(pair[0])} ({where[0]} and {where[1]}); {advice}"
            )
            raise InputError("duplicate-doc" if kind == "run" else "duplicate-judgment", problem, name, where=where[1])
        first_row[pair] = row

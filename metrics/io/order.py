"""trec_eval's order: group a run by query and rank by score descending (as C doubles, trec_eval 10.0's
TEXT_RESULTS.sim), then doc id descending, sorting only what is out of that order; then refuse duplicates."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import (
    arrow_float64,
    arrow_int64,
    bool_numpy,
    chunked,
    decoded,
    dictionary_codes,
    float64_parts,
    float_numpy,
    int_numpy,
    is_dictionary,
    pool_array,
    take,
    take_strings,
)
from metrics.io.arrays.hashing import doc_hash, pair_key
from metrics.io.arrays.parallel import by_halves
from metrics.io.duplicates import in_queries, refuse_duplicate_docs, refuse_duplicates, top_rows
from metrics.io.model import Qrels, Run


def prepare_run(name: str, columns: dict, row_names: Callable, max_docs: int | None = None, queries=None) -> Run:
    """Group by query and rank by (score desc, doc id desc), sorting only what is out of that order.

    ``max_docs`` (trec_eval -M): a doc given twice is refused only when both are in the ranking's top ``max_docs``,
    as trec_eval checks the ranking after its cut; None: every doc given twice is refused. ``queries``
    (metrics.io.duplicates.query_set): only those queries' rankings are checked (the ones trec_eval evaluates).

    ``columns`` (query, doc, score) is emptied: each parsed column is freed as soon as it is no longer needed.
    The query ids may be dictionary-encoded (each chunk its own dictionary: parse_text's codes).
    """
    query = chunked(columns.pop("query"))
    doc = chunked(columns.pop("doc"))
    score = columns.pop("score")
    if not isinstance(score, np.ndarray):
        score = chunked(score)
        if score.type != pa.float64():
            score = pc.cast(score, pa.float64())
    hashed, new_query, rising = _row_pass(query, doc, score)
    file_row = None  # the file row of each row, when everything had to be sorted
    moved = None
    starts, grouped = _group_starts(query, new_query)
    descending, tied = _descending_ties(starts, rising, score) if grouped else (False, None)
    if descending:
        assert tied is not None  # descending is True only when grouped
        moved = _order_ties(tied, doc)  # usually None: the file is in trec_eval's order already
    else:
        # A full sort by query, score descending, doc id descending (byte order). Queries are sorted by an
        # integer code (their block, or their first appearance), which is much faster than comparing strings.
        query = decoded(query)
        if grouped:
            code = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
        else:
            encoded = pc.dictionary_encode(query.combine_chunks())
            code = int_numpy(encoded.indices)
            del encoded
        scores = np.empty(len(doc), dtype=np.float64)
        _copy_scores(score, scores)
        table = pa.table({"query": arrow_int64(code), "score": arrow_float64(scores), "doc": doc})
        del code, scores
        indices = pc.sort_indices(
            table, sort_keys=[("query", "ascending"), ("score", "descending"), ("doc", "descending")]
        )
        del table
        file_row = int_numpy(indices)
        query, doc, hashed = query.take(indices), doc.take(indices), hashed[file_row]
        starts, _ = _group_starts(query)
    del score
    query_ids = take_strings(query, starts[:-1])
    del query

    def query_of(rows: np.ndarray) -> list[str]:
        groups = np.searchsorted(starts, rows, side="right") - 1
        return query_ids.take(arrow_int64(groups)).to_pylist()

    top = in_queries(top_rows(starts, max_docs, moved), starts, query_ids, queries)
    refuse_duplicate_docs(name, starts, hashed, query_of, doc, file_row, row_names, top)
    return Run(name, query_ids, starts, doc, hashed, moved)


def _row_pass(query: pa.ChunkedArray, doc: pa.ChunkedArray, score) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One pass over every row, comparing each row with the next (i, i + 1) in its own piece of the file:

    - the doc hashes (uint32, one per row);
    - ``new_query``, the rows whose query id differs from the row before (int64, ascending);
    - ``rising``, the rows i where the score of row i + 1 is >= row i's: few (ties, and the first row of each
      ranking) in a run written in trec_eval's order.

    Large runs are split in two halves, one per thread (by_halves).
    """
    n = len(doc)
    hashed = pool_array(n, np.uint32)
    empty = np.zeros(0, dtype=np.int64)

    def work(first: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        doc_hash(doc.slice(first, stop - first), out=hashed[first:stop])
        last = min(stop, n - 1)  # rows first..last - 1, each compared with the row after it
        if last <= first:
            return empty, empty
        return _id_changes(query, first, last), _rising_rows(score, first, last + 1)

    halves = by_halves(work, n, n)
    return hashed, np.concatenate([h[0] for h in halves]), np.concatenate([h[1] for h in halves])


def _id_changes(query: pa.ChunkedArray, first: int, last: int) -> np.ndarray:
    """The rows first + 1..last whose query id differs from the row before's (int64, ascending)."""
    found, at = [np.zeros(0, dtype=np.int64)], first + 1
    if not is_dictionary(query):
        differs = pc.not_equal(query.slice(first + 1, last - first), query.slice(first, last - first))
        for chunk in differs.chunks:  # chunk by chunk: no full-length boolean temporary
            found.append(np.flatnonzero(bool_numpy(chunk)) + at)
            at += len(chunk)
        return np.concatenate(found)
    # Codes: within a chunk, equal codes are equal ids (pyarrow's CSV dictionaries hold each id once; one that held
    # an id twice would only add changes, which _group_starts' check then sends to the full sort); across two
    # chunks, the ids themselves are compared.
    before = None  # the last id of the chunk before
    at = first
    for chunk in query.slice(first, last + 1 - first).chunks:
        if not len(chunk):
            continue
        codes = dictionary_codes(chunk)
        if before is not None and chunk.dictionary[int(codes[0])].as_py() != before:
            found.append(np.array([at], dtype=np.int64))
        found.append(np.flatnonzero(codes[1:] != codes[:-1]) + (at + 1))
        before = chunk.dictionary[int(codes[-1])].as_py()
        at += len(chunk)
    return np.concatenate(found)


_PIECE_ROWS = 1 << 16  # comparisons of this many scores at a time: small, cache-friendly temporaries


def _rising_rows(score, first: int, stop: int) -> np.ndarray:
    """The rows i in first..stop - 2 where score[i + 1] >= score[i]."""
    found = []
    previous = None  # the score of the row before the current piece
    at = first
    for part in float64_parts(score, first, stop):
        for begin in range(0, len(part), _PIECE_ROWS):
            piece = part[begin : begin + _PIECE_ROWS]
            if previous is not None and piece[0] >= previous:
                found.append(np.array([at - 1], dtype=np.int64))
            found.append(np.flatnonzero(piece[1:] >= piece[:-1]) + at)
            previous = piece[-1]
            at += len(piece)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def _scores_at(score, rows: np.ndarray) -> np.ndarray:
    """The scores of a few rows."""
    if isinstance(score, np.ndarray):
        return score[rows]
    return float_numpy(take(score, rows)) if len(rows) else np.zeros(0)


def _copy_scores(score, out: np.ndarray) -> None:
    """Write the float64 scores into ``out``: trec_eval 10.0 keeps scores as C doubles (TEXT_RESULTS.sim), so
    only scores equal as doubles tie, and ties go by doc id."""
    at = 0
    for part in float64_parts(score, 0, len(score)):
        out[at : at + len(part)] = part
        at += len(part)


def prepare_qrels(name: str, query, doc, grade, row_names: Callable) -> Qrels:
    query = chunked(query)
    doc = chunked(doc)
    grade = grade if isinstance(grade, np.ndarray) else float_numpy(grade).astype(np.int64)
    keys = pair_key(query, doc)
    refuse_duplicates(name, keys, lambda rows: take(query, rows).to_pylist(), doc, None, row_names, "qrels")
    return Qrels(name, query, doc, grade)


def _group_starts(query: pa.ChunkedArray, new_query: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
    """Row offsets where the query id changes, and whether each query forms one contiguous block.

    ``new_query``: the rows whose id differs from the row before, if already known (see _row_pass)."""
    n = len(query)
    if n == 0:
        return np.zeros(1, dtype=np.int64), True
    if new_query is None:
        new_query = np.flatnonzero(bool_numpy(pc.not_equal(query.slice(1), query.slice(0, n - 1)))) + 1
    starts = np.concatenate([[0], new_query, [n]]).astype(np.int64)
    grouped = pc.count_distinct(take_strings(query, starts[:-1])).as_py() == len(starts) - 1
    return starts, grouped


def _descending_ties(starts: np.ndarray, rising: np.ndarray, score) -> tuple[bool, np.ndarray]:
    """Is every ranking by score descending (ties aside)? And the tied pairs of rows (i, i + 1) within a ranking,
    as the array of their i. ``rising``: the rows i whose next row's score is >= theirs (from _row_pass)."""
    at = np.minimum(np.searchsorted(starts, rising + 1), len(starts) - 1)
    pairs = rising[starts[at] != rising + 1]  # a row starting a ranking may score anything
    return not (_scores_at(score, pairs + 1) > _scores_at(score, pairs)).any(), pairs


def _order_ties(pairs: np.ndarray, doc: pa.ChunkedArray):
    """trec_eval breaks score ties by doc id descending. Sort only the tied rows; None if they already are.

    ``pairs``: the rows i tied with row i + 1 in one ranking, ascending (from _descending_ties).
    Returns (tied rows, their positions in trec_eval's order): rows outside ties keep theirs, strings never move.
    """
    if len(pairs) == 0:
        return None
    if pc.all(pc.greater(take(doc, pairs), take(doc, pairs + 1))).as_py():
        return None
    rows = np.sort(np.concatenate([pairs, pairs + 1]))  # every row in a tie, in row order
    rows = rows[np.concatenate([[True], rows[1:] != rows[:-1]])]  # (np.union1d would import numpy.ma: 6 ms)
    new_block = np.ones(len(rows), dtype=bool)
    before = rows[1:] - 1
    at = np.minimum(np.searchsorted(pairs, before), len(pairs) - 1)
    new_block[1:] = pairs[at] != before  # a row starts a block unless it ties with the row before it
    block = np.cumsum(new_block)
    table = pa.table({"block": arrow_int64(block), "doc": take(doc, rows)})
    sorted_rows = rows[int_numpy(pc.sort_indices(table, sort_keys=[("block", "ascending"), ("doc", "descending")]))]
    # The j-th doc of a block in trec_eval's order takes the block's j-th slot.
    order = np.argsort(sorted_rows)
    return sorted_rows[order], rows[order]

"""ndeval's two files read with numpy in a few passes over their bytes, for ir-ndeval on large inputs.

Only well-formed files take this path: a NUL byte, a short line, a field that is not plain digits (or longer than
6 digits), a repeated rank or docno, a hash collision between two docnos, ... make it return None, and the caller
reads the file line by line (metrics.io.subtopic_qrels, metrics.io.ndeval_run), which finds and names the bad line
or, for what is legal but rare (a topic after a task prefix, a 7-digit number), reads it as ndeval does.

Documents are compared by a 64-bit hash of their bytes, every match and every repeat confirmed on the bytes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True  # C's isspace: where ndeval splits fields
_TOPIC_BITS = 44  # a key is (topic << 44) | 44 bits of the docno's hash; topics are below 2**20 (ndeval's limit)
_MAX_DOC_CELLS = 1 << 25  # docnos x their longest length, as a byte matrix; longer inputs go line by line
_BLOCK = 1 << 21  # bytes split at a time (whole lines)


@dataclass(frozen=True, slots=True)
class Fields:
    """Some of the first fields of every line: their start and end offsets in ``data`` (lines x columns)."""

    data: bytes
    buf: np.ndarray
    columns: tuple[int, ...]
    starts: np.ndarray
    ends: np.ndarray

    def column(self, column: int) -> tuple[np.ndarray, np.ndarray]:
        at = self.columns.index(column)
        return self.starts[:, at], self.ends[:, at]


def read_bytes(source: str | os.PathLike) -> bytes | None:
    try:
        with open(source, "rb") as handle:
            return handle.read()
    except OSError:
        return None  # the line-by-line reader says why


def fields(data: bytes, width: int, columns: tuple[int, ...]) -> Fields | None:
    """The ``columns`` of every line that has ``width`` fields or more, or None when a line has fewer (or the file is
    empty or has a NUL). Split in blocks of whole lines, so that the per-byte arrays stay small."""
    if not data or b"\0" in data:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    offset = np.int32 if len(buf) < 2**31 else np.int64
    starts = np.empty((lines, len(columns)), dtype=offset)
    ends = np.empty((lines, len(columns)), dtype=offset)
    start = row = 0
    while start < len(data):
        cut = data.find(b"\n", start + _BLOCK - 1)
        stop = len(data) if cut < 0 else cut + 1
        found = _block(buf[start:stop], width, columns)
        if found is None:
            return None
        np.add(found[0], start, out=starts[row : row + len(found[0])])
        np.add(found[1], start, out=ends[row : row + len(found[1])])
        start, row = stop, row + len(found[0])
    return Fields(data, buf, columns, starts, ends)


def _block(buf: np.ndarray, width: int, columns: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """fields() of whole lines (the last may lack its newline): offsets in the block."""
    breaks = np.flatnonzero(buf == 10).astype(np.int32)
    space = np.empty(len(buf) + 2, dtype=bool)  # a space before the first byte and after the last
    space[0] = space[-1] = True
    np.less_equal(buf, 32, out=space[1:-1])
    if np.count_nonzero(buf < 32) != len(breaks):  # a tab, a CR, ... or a control byte that is no space
        space[1:-1] = _SPACE[buf]
    bounds = np.flatnonzero(space[1:] != space[:-1]).astype(np.int32)  # where fields start and end, alternately
    del space
    starts, ends = bounds[0::2], bounds[1::2]
    line_starts = np.concatenate((np.zeros(1, np.int32), breaks + 1))
    line_ends = np.concatenate((breaks, np.array([len(buf)], np.int32)))
    if buf[-1] == 10:  # the empty piece after the last newline is not a line
        line_starts, line_ends = line_starts[:-1], line_ends[:-1]
    first = np.searchsorted(starts, line_starts)
    if len(first) == 0 or (np.searchsorted(starts, line_ends) - first < width).any():
        return None
    index = first[:, None] + np.array(columns)
    return starts[index], ends[index]


def naturals(found: Fields, column: int) -> np.ndarray | None:
    """A column of natural numbers of 1 to 6 digits (ndeval's naturalNumber, whose limit is above 6 digits)."""
    starts, ends = found.column(column)
    lengths = ends - starts
    if (lengths > 6).any():
        return None
    values = np.zeros(len(starts), dtype=np.int64)
    for j in range(6):
        on = lengths > j
        digit = found.buf[starts[on] + j].astype(np.int64) - 48
        if ((digit < 0) | (digit > 9)).any():
            return None
        values[on] = values[on] * 10 + digit
    return values


@dataclass(frozen=True, slots=True)
class Docs:
    """A column of docnos: their bytes zero-padded to 8-byte words (rows), and their keys with the topics."""

    words: np.ndarray
    keys: np.ndarray


def docs(found: Fields, column: int, topics: np.ndarray) -> Docs | None:
    starts, ends = found.column(column)
    lengths = ends - starts
    width = int(-(-lengths.max() // 8) * 8)
    if width * len(starts) > _MAX_DOC_CELLS or (topics >= 1 << (64 - _TOPIC_BITS)).any():
        return None
    source = found.buf if len(found.buf) >= width else np.frombuffer(found.data.ljust(width, b"\0"), np.uint8)
    at = np.minimum(starts, len(source) - width)  # a window of ``width`` bytes from each docno's start
    matrix = sliding_window_view(source, width)[at]
    for row in np.flatnonzero(at != starts).tolist():  # a docno near the file's end: its window is shifted
        token = found.data[starts[row] : ends[row]]
        matrix[row] = np.frombuffer(token.ljust(width, b"\0"), dtype=np.uint8)
    columns, step = np.arange(width, dtype=starts.dtype), 1 << 16
    for row in range(0, len(matrix), step):  # the bytes past each docno: 0 (a block of rows at a time: a small mask)
        matrix[row : row + step] *= columns < lengths[row : row + step, None]
    words = matrix.view(np.uint64)
    hashed = np.zeros(len(starts), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(words.shape[1]):  # padding words (all 0: a docno has no NUL) leave it: any width agrees
            word = words[:, k]
            mixed = (hashed ^ word) * np.uint64(0x100000001B3)
            hashed = np.where(word != 0, mixed ^ (mixed >> np.uint64(29)), hashed)
    keys = (topics.astype(np.uint64) << np.uint64(_TOPIC_BITS)) | (hashed >> np.uint64(64 - _TOPIC_BITS))
    return Docs(words, keys)


def first_line_field(data: bytes, column: int) -> bytes:
    end = data.find(b"\n")
    return data[: end if end >= 0 else len(data)].split()[column]


def repeats(keys: np.ndarray, words: np.ndarray, rows: np.ndarray) -> bool | None:
    """Whether two of ``keys`` are equal with the same bytes (``words[rows]``); None for a hash collision."""
    order = np.argsort(keys)
    same = np.flatnonzero(keys[order[1:]] == keys[order[:-1]])
    if len(same) == 0:
        return False
    a, b = rows[order[1:][same]], rows[order[:-1][same]]
    equal = (words[a] == words[b]).all(axis=1)
    return True if equal.any() else None


@dataclass(frozen=True, slots=True)
class Qrels:
    """The covered (topic, subtopic, doc) triples (the last line of a (topic, subtopic, doc) judging it above 0),
    each topic's positive lines per subtopic, every topic, and each judged doc's key and bytes."""

    topics: np.ndarray  # every topic of the file, ascending
    doc_keys: np.ndarray  # the distinct judged docs' keys, ascending
    doc_words: np.ndarray  # their bytes (rows of 8-byte words)
    cover_topic: np.ndarray
    cover_subtopic: np.ndarray
    cover_doc: np.ndarray  # an index into doc_keys
    relevant: dict[int, dict[int, int]]  # topic -> subtopic -> positive lines (subtopics of every line)


def read_qrels(data: bytes) -> Qrels | None:
    found = fields(data, 4, (0, 1, 2, 3))
    if found is None:
        return None
    topic, subtopic, judgment = naturals(found, 0), naturals(found, 1), naturals(found, 3)
    if topic is None or subtopic is None or judgment is None:
        return None
    judged = docs(found, 2, topic)
    if judged is None:
        return None
    doc_keys, first, doc = _unique(judged.keys)
    if not (judged.words == judged.words[first[doc]]).all():
        return None  # two docnos of a topic share a hash
    positive = judgment > 0
    pairs, _, which = _unique((topic << 20) | subtopic)  # subtopics are below 2**20
    weights = np.bincount(which.ravel(), minlength=len(pairs), weights=positive)
    relevant: dict[int, dict[int, int]] = {}
    for pair, weight in zip(pairs.tolist(), weights.tolist(), strict=True):
        relevant.setdefault(pair >> 20, {})[pair & 0xFFFFF] = int(weight)
    # the last line of each (doc, subtopic) decides (the doc's key holds its topic)
    order = np.lexsort((np.arange(len(doc)), subtopic, doc))
    last = np.ones(len(order), dtype=bool)
    last[:-1] = (doc[order[1:]] != doc[order[:-1]]) | (subtopic[order[1:]] != subtopic[order[:-1]])
    kept = order[last & positive[order]]
    return Qrels(_unique(topic)[0], doc_keys, judged.words[first], topic[kept], subtopic[kept], doc[kept], relevant)


def _unique(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """np.unique's values, first indices and inverse (np.unique itself imports numpy.ma, 50 ms)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.ones(len(values), dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(len(values), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], order[new], inverse


@dataclass(frozen=True, slots=True)
class Run:
    """A run in ndeval's order, checked and cut: per kept line its topic, position (0-based) in its topic's ranking
    and judged doc (an index into Qrels.doc_keys, -1 for one the qrels lack); the topics and their lengths."""

    run_id: bytes
    topic: np.ndarray
    position: np.ndarray
    judged: np.ndarray
    topics: np.ndarray
    lengths: np.ndarray


def read_run(data: bytes, qrels: Qrels, traditional: bool, depth: int, score) -> Run | None:
    """``score`` reads a score token as C's sscanf (None when it reads none): -traditional's order needs it."""
    found = fields(data, 6, (0, 2, 3, 4) if traditional else (0, 2, 3))
    if found is None:
        return None
    topic, rank = naturals(found, 0), naturals(found, 3)
    if topic is None or rank is None:
        return None
    ranked = docs(found, 2, topic)
    if ranked is None:
        return None
    if traditional:
        rank = _traditional_ranks(found, topic, ranked, score)
        if rank is None:
            return None
    order = _order(topic, rank)
    if order is None:
        return None  # a repeated rank: the line reader names it
    topic = topic[order]
    starts = np.flatnonzero(np.concatenate(([True], topic[1:] != topic[:-1])))
    sizes = np.diff(np.append(starts, len(topic)))
    topics = topic[starts]
    position = np.arange(len(topic)) - np.repeat(starts, sizes)
    if depth > 0:
        keep = position < depth
        order, topic, position = order[keep], topic[keep], position[keep]
    keys = ranked.keys[order]
    if repeats(keys, ranked.words, order) is not False:
        return None  # a repeated docno (or a hash collision): the line reader decides
    judged = _judged(keys, ranked.words[order], qrels)
    if judged is None:
        return None
    lengths = np.minimum(sizes, depth) if depth > 0 else sizes
    return Run(first_line_field(data, 5), topic, position, judged, topics, lengths)


def _order(topic: np.ndarray, rank: np.ndarray) -> np.ndarray | None:
    """The lines by topic then rank (None when a topic repeats a rank); most runs are in this order already."""
    key = (topic << 20) | rank  # ranks are below 2**20
    if (key[1:] > key[:-1]).all():
        return np.arange(len(key))
    order = np.argsort(key, kind="stable")
    key = key[order]
    return None if (key[1:] == key[:-1]).any() else order


def _judged(keys: np.ndarray, words: np.ndarray, qrels: Qrels) -> np.ndarray | None:
    if len(qrels.doc_keys) == 0:
        return np.full(len(keys), -1)
    at = np.minimum(np.searchsorted(qrels.doc_keys, keys), len(qrels.doc_keys) - 1)
    hit = np.flatnonzero(qrels.doc_keys[at] == keys)
    mine, theirs = words[hit], qrels.doc_words[at[hit]]
    width = max(mine.shape[1], theirs.shape[1])
    if not (_widen(mine, width) == _widen(theirs, width)).all():
        return None  # a hash collision
    judged = np.full(len(keys), -1)
    judged[hit] = at[hit]
    return judged


def _widen(words: np.ndarray, width: int) -> np.ndarray:
    if words.shape[1] == width:
        return words
    out = np.zeros((len(words), width), dtype=np.uint64)
    out[:, : words.shape[1]] = words
    return out


def _traditional_ranks(found: Fields, topic: np.ndarray, ranked: Docs, score) -> np.ndarray | None:
    """-traditional: ranks 1, 2, ... per topic by score, descending, then docno, descending (as the line reader)."""
    read: dict[bytes, float | None] = {}
    values = []
    for start, end in zip(*(c.tolist() for c in found.column(4)), strict=True):
        token = found.data[start:end]
        value = read[token] if token in read else read.setdefault(token, score(token))
        if value is None or value != value:
            return None  # not a number: the line reader refuses it
        values.append(value)
    by_doc = _byte_rank(ranked.words)
    order = np.lexsort((-by_doc, -np.array(values), topic))
    starts = np.flatnonzero(np.concatenate(([True], topic[order][1:] != topic[order][:-1])))
    sizes = np.diff(np.append(starts, len(order)))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - np.repeat(starts, sizes) + 1
    return rank


def _byte_rank(words: np.ndarray) -> np.ndarray:
    """Each docno's place in byte order (strcmp's; equal docnos share one)."""
    big = words.byteswap() if words.dtype.byteorder != ">" and np.little_endian else words
    columns = [big[:, k] for k in range(big.shape[1] - 1, -1, -1)]
    order = np.lexsort(columns)
    ranked = big[order]
    new = np.concatenate(([True], (ranked[1:] != ranked[:-1]).any(axis=1)))
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.cumsum(new)
    return place

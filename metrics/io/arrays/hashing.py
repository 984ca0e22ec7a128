"""Fingerprints of strings with numpy: pyarrow exposes no hash function, and its hash tables take ~1.5 s at 7M
rows. Every full-length temporary costs page faults too, so the arithmetic is done in place."""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import arrow_int64, bool_numpy, chunked, int_numpy, pool_array, string_views, take

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xBF58476D1CE4E5B9)
_K3 = np.uint64(0x94D049BB133111EB)
_HIGH_WORD = 1 if sys.byteorder == "little" else 0  # where a uint64's high half is, seen as two uint32
_MAX_WORDS = 8  # ids longer than 64 bytes share fingerprints more often; exact checks follow every match
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _mix(values: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """splitmix64's finalizer, in place on a uint64 array: spreads every input bit over the 64 output bits."""
    x = values if values.dtype == np.uint64 else values.astype(np.uint64)
    tmp = scratch if scratch is not None else np.empty_like(x)
    for shift, factor in ((30, _K2), (27, _K3), (31, None)):
        np.right_shift(x, np.uint64(shift), out=tmp)
        np.bitwise_xor(x, tmp, out=x)
        if factor is not None:
            np.multiply(x, factor, out=x)
    return x


def fingerprint(column, salt: Callable | None = None) -> np.ndarray:
    """A 64-bit fingerprint of each string: equal strings, equal fingerprints (unequal ones collide ~2^-64).

    ``salt(first, stop)`` gives values XOR-ed into rows first..stop-1 (chunk by chunk, so no full-size temporary).
    """
    column = chunked(column)
    out = np.empty(len(column), dtype=np.uint64)
    scratch = np.empty(max((len(c) for c in column.chunks), default=0), dtype=np.uint64)
    at = 0
    for chunk in column.chunks:
        if len(chunk):
            h = out[at : at + len(chunk)]
            _fingerprint_chunk(chunk, h, scratch[: len(chunk)])
            if salt is not None:
                np.bitwise_xor(h, salt(at, at + len(chunk)), out=h)
            at += len(chunk)
    return out


def doc_hash(column, out: np.ndarray | None = None) -> np.ndarray:
    """A 31-bit hash (uint32) of each string: equal strings, equal hashes. Cheap for ids of at most 8 bytes (their
    bytes as a little-endian integer, multiply-shifted: one multiplication); a longer id's fingerprint is hashed.
    """
    column = chunked(column)
    if out is None:
        out = np.empty(len(column), dtype=np.uint32)
    longest = max((len(c) for c in column.chunks), default=0)
    # Work arrays reused chunk after chunk, from Arrow's pool: fresh ones per chunk would cost page faults.
    key, mask = pool_array(longest, np.uint64), pool_array(longest, np.uint64)
    offsets, lengths = pool_array(longest + 1, np.int64), pool_array(longest, np.int64)
    at = 0
    for chunk in column.chunks:
        size = len(chunk)
        if size:
            h = key[:size]
            _first_word(chunk, h, offsets[: size + 1], lengths[:size])
            if lengths[:size].max() > 8:
                long = np.flatnonzero(lengths[:size] > 8)
                h[long] = fingerprint(chunk.take(arrow_int64(long)))
            np.minimum(lengths[:size], 8, out=lengths[:size])
            _LOW_BYTES.take(lengths[:size], out=mask[:size], mode="clip")  # in range; "raise" would buffer "out"
            np.bitwise_and(h, mask[:size], out=h)  # keep each id's own bytes
            np.multiply(h, _K1, out=h)  # multiply-shift: the product's top 31 bits, its high 32-bit word >> 1
            np.right_shift(h.view(np.uint32)[_HIGH_WORD::2], np.uint32(1), out=out[at : at + size])
            at += size
    return out


def encode_strings(column) -> tuple[pa.Array, np.ndarray]:
    """What pc.dictionary_encode gives (the distinct strings in order of first appearance, each row's index among
    them), from fingerprints sorted by numpy, every string then compared with its representative: pyarrow's hash
    table peaks at about 150 bytes a distinct string (47 MiB for 300k doc ids), this at a few tens. Should two
    strings share a fingerprint, pyarrow's answer."""
    column = chunked(column)
    _, first, code = np.unique(fingerprint(_sliced(column)), return_index=True, return_inverse=True)
    by_appearance = np.argsort(first)
    renumbered = np.empty_like(by_appearance)
    renumbered[by_appearance] = np.arange(len(by_appearance))
    code = renumbered[code.reshape(-1)]
    distinct = take(column, first[by_appearance])
    if len(column) and not bool_numpy(pc.equal(take(distinct, code), column.combine_chunks())).all():
        encoded = pc.dictionary_encode(column.combine_chunks())
        return encoded.dictionary, int_numpy(encoded.indices)
    return distinct, code


class StringIndex:
    """pc.index_in(values, value_set=distinct) for distinct strings, -1 for a value not among them, by fingerprints
    (see encode_strings), each match confirmed by comparing the strings; the distinct strings' fingerprints are
    sorted once, for many look-ups."""

    def __init__(self, distinct: pa.Array):
        self.distinct = distinct
        keys = fingerprint(_sliced(distinct))
        self.order = np.argsort(keys)
        self.keys = keys[self.order]
        self.unique = not (self.keys[1:] == self.keys[:-1]).any()  # else two share a fingerprint: pyarrow's answer

    def find(self, values) -> np.ndarray:
        values = chunked(values)
        if len(self.keys) == 0 or len(values) == 0 or not self.unique:
            return int_numpy(pc.index_in(values, value_set=self.distinct), null=-1)
        wanted = fingerprint(_sliced(values))
        at = np.minimum(sorted_search(self.keys, wanted), len(self.keys) - 1)
        matched = np.flatnonzero(self.keys[at] == wanted)
        found = np.full(len(wanted), -1, dtype=np.int64)
        found[matched] = self.order[at[matched]]
        same = bool_numpy(pc.equal(take(values, matched), take(self.distinct, found[matched])))
        found[matched[~same]] = -1  # another string with a judged one's fingerprint
        return found


def sorted_search(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """np.searchsorted(keys, values), the values looked up in ascending order: each search then starts where the last
    ended, in cache (at 60k values in 300k keys, 2-5 ms instead of 12)."""
    order = np.argsort(values)
    at = np.empty(len(values), dtype=np.int64)
    at[order] = np.searchsorted(keys, values[order])
    return at


def _sliced(column, rows: int = 1 << 16) -> pa.ChunkedArray:
    """The column in chunks of at most ``rows`` (views, no copy): fingerprint's temporaries are a chunk's size."""
    pieces = [chunk.slice(at, rows) for chunk in chunked(column).chunks for at in range(0, len(chunk), rows)]
    return pa.chunked_array(pieces, column.type)


def pair_key(query, doc) -> np.ndarray:
    """The fingerprint of each (query, doc) pair, as Run.row_key holds it for a run's rows."""
    key = _mix(fingerprint(query))
    return np.bitwise_xor(key, fingerprint(doc), out=key)


def _first_word(chunk: pa.Array, out: np.ndarray, offsets: np.ndarray, lengths: np.ndarray) -> None:
    """Each string's first 8 bytes as a little-endian uint64 into ``out``, unmasked: bytes past a string's end
    belong to the strings after it. Fills ``offsets`` (rebased to 0) and ``lengths``, int64 arrays of the chunk's
    length + 1 and length."""
    raw, data = string_views(chunk)
    np.subtract(raw, raw[0], out=offsets)
    np.subtract(offsets[1:], offsets[:-1], out=lengths)
    starts = offsets[:-1]
    body = len(data) - 7  # strings starting before this can read 8 bytes in place
    if body > 0:
        words = np.ndarray(shape=(body,), dtype="<u8", buffer=data, strides=(1,))
        in_body = int(np.searchsorted(starts, body))  # starts are sorted
        # Indexing, not np.take: take would first copy the overlapping 8-byte windows into a contiguous array.
        out[:in_body] = words[starts[:in_body]]
    else:
        in_body = 0
    if in_body < len(starts):
        tail_from = max(body, 0)
        padded = np.zeros(len(data) - tail_from + 8, np.uint8)
        padded[: len(data) - tail_from] = data[tail_from:]
        tail_words = np.ndarray(shape=(len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
        out[in_body:] = tail_words[starts[in_body:] - tail_from]


def _fingerprint_chunk(chunk: pa.Array, h: np.ndarray, scratch: np.ndarray) -> None:
    offsets, data = string_views(chunk)
    base = int(offsets[0])
    # Pad a copy of the last few bytes so that an 8-byte window read at any string start stays in bounds.
    padded_tail = np.zeros(16, np.uint8)
    tail_from = max(len(data) - 8, 0)
    padded_tail[: len(data) - tail_from] = data[tail_from:]
    words = (
        np.ndarray(shape=(max(len(data) - 7, 0),), dtype="<u8", buffer=data, strides=(1,)) if len(data) >= 8 else None
    )
    tail_words = np.ndarray(shape=(9,), dtype="<u8", buffer=padded_tail, strides=(1,))
    starts = offsets[:-1] - base
    lengths = np.diff(offsets)
    np.bitwise_xor(lengths.astype(np.uint64), _K1, out=h)
    _mix(h, scratch)
    longest = int(lengths.max())
    for word_index in range(min(_MAX_WORDS, -(-longest // 8))):
        rows = slice(None) if word_index == 0 else np.flatnonzero(lengths > 8 * word_index)
        at = starts[rows] + 8 * word_index
        remaining = np.minimum(lengths[rows] - 8 * word_index, 8)
        word = np.empty(len(at), dtype=np.uint64)
        if word_index == 0:  # starts are sorted: the strings near the end read from the padded tail
            in_body = np.searchsorted(at, tail_from, side="right") if words is not None else 0
            word[:in_body] = words[at[:in_body]] if in_body and words is not None else 0
            word[in_body:] = tail_words[at[in_body:] - tail_from]
        else:
            near_end = at > tail_from if words is not None else np.ones(len(at), dtype=bool)
            if words is not None:
                word[~near_end] = words[at[~near_end]]
            word[near_end] = tail_words[at[near_end] - tail_from]
        np.bitwise_and(word, _LOW_BYTES[remaining], out=word)
        if word_index == 0:
            np.bitwise_xor(h, word, out=h)
            _mix(h, scratch)
        else:
            part = h[rows] ^ word
            h[rows] = _mix(part) + np.uint64(word_index)

"""Arrow <-> numpy without pandas (pyarrow's to_numpy and pa.array import pandas when it is installed). Public
within the package: the readers and metrics.evaluation.engine use them."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def chunked(column) -> pa.ChunkedArray:
    return column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])


def float_numpy(column) -> np.ndarray:
    column = chunked(pc.cast(column, pa.float64()) if column.type != pa.float64() else column)
    parts = float64_parts(column, 0, len(column))
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0)


def int_numpy(array, null: int | None = None) -> np.ndarray:
    """An integer array as int64; nulls become ``null``."""
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    dtype = np.dtype(f"{'u' if pa.types.is_unsigned_integer(array.type) else 'i'}{array.type.bit_width // 8}")
    parts = []
    for c in chunks:
        if len(c):
            values = np.frombuffer(c.buffers()[1], dtype)[c.offset : c.offset + len(c)].astype(np.int64)
            if c.null_count:
                if null is None:
                    raise ValueError("unexpected nulls")
                values[~bool_numpy(pc.is_valid(c))] = null
            parts.append(values)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def bool_numpy(array) -> np.ndarray:
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    parts = []
    for c in chunks:
        if len(c):
            bits = np.unpackbits(np.frombuffer(c.buffers()[1], np.uint8), bitorder="little")
            parts.append(bits[c.offset : c.offset + len(c)].view(bool))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=bool)


def pool_array(size: int, dtype) -> np.ndarray:
    """An uninitialized numpy array in Arrow's memory pool, where the pages the parser used and freed are reused:
    a large array there costs no fresh page faults (about 7,000 for 28 MB from numpy's allocator)."""
    dtype = np.dtype(dtype)
    return np.frombuffer(pa.allocate_buffer(size * dtype.itemsize), dtype)


def arrow_int64(values: np.ndarray) -> pa.Array:
    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def arrow_strings(values) -> pa.Array:
    """Python strings as an Arrow string array, built from its buffers: pa.array (and pa.chunked_array of a list)
    imports pandas to check its argument, 40 MiB and 0.1 s."""
    encoded = [value.encode() for value in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(value) for value in encoded], out=offsets[1:])
    large = offsets[-1] >= 1 << 31
    buffers = [None, pa.py_buffer(offsets if large else offsets.astype(np.int32)), pa.py_buffer(b"".join(encoded))]
    return pa.Array.from_buffers(pa.large_string() if large else pa.string(), len(encoded), buffers)


def arrow_float64(values: np.ndarray) -> pa.Array:
    values = np.ascontiguousarray(values, dtype=np.float64)
    return pa.Array.from_buffers(pa.float64(), len(values), [None, pa.py_buffer(values)])


def first_true(mask) -> int:
    return int(np.flatnonzero(bool_numpy(mask))[0])


def take(column, rows: np.ndarray) -> pa.Array:
    """Take a few rows chunk by chunk: ChunkedArray.take would first concatenate every chunk."""
    column = chunked(column)
    rows = np.asarray(rows, dtype=np.int64)
    if len(rows) == 0 or column.num_chunks == 0:
        return pa.chunked_array([], column.type).combine_chunks()
    if column.num_chunks == 1:
        return column.chunk(0).take(arrow_int64(rows))
    bounds = np.cumsum([0] + [len(c) for c in column.chunks])
    which = np.searchsorted(bounds, rows, side="right") - 1
    if (np.diff(which) < 0).any():  # out of row order: a plain take keeps it simple
        return column.take(arrow_int64(rows)).combine_chunks()
    cuts = np.searchsorted(which, np.arange(column.num_chunks + 1))
    pieces = [
        column.chunk(i).take(arrow_int64(rows[cuts[i] : cuts[i + 1]] - bounds[i]))
        for i in range(column.num_chunks)
        if cuts[i + 1] > cuts[i]
    ]
    return pa.concat_arrays(pieces)


def is_dictionary(column) -> bool:
    return pa.types.is_dictionary(column.type)


def decoded(column) -> pa.ChunkedArray:
    """A column of dictionary-encoded strings as plain strings (each chunk has its own dictionary)."""
    column = chunked(column)
    if not is_dictionary(column):
        return column
    return pa.chunked_array([chunk.dictionary_decode() for chunk in column.chunks], column.type.value_type)


def distinct_values(column) -> pa.ChunkedArray:
    """Every string a column holds, each at least once: a dictionary-encoded column's dictionaries (each value of
    which some row holds), or the column itself. For checks that look at values, not rows."""
    column = chunked(column)
    if not is_dictionary(column):
        return column
    return pa.chunked_array([chunk.dictionary for chunk in column.chunks], column.type.value_type)


def take_strings(column, rows: np.ndarray) -> pa.Array:
    """take(), with dictionary-encoded strings decoded: only the rows taken, chunk by chunk."""
    column = chunked(column)
    if not is_dictionary(column):
        return take(column, rows)
    rows = np.asarray(rows, dtype=np.int64)
    bounds = np.cumsum([0] + [len(c) for c in column.chunks])
    which = np.searchsorted(bounds, rows, side="right") - 1
    order = np.argsort(which, kind="stable")
    cuts = np.searchsorted(which[order], np.arange(column.num_chunks + 1))
    pieces = [
        column.chunk(i).take(arrow_int64(rows[order[cuts[i] : cuts[i + 1]]] - bounds[i])).dictionary_decode()
        for i in range(column.num_chunks)
        if cuts[i + 1] > cuts[i]
    ]
    values = pa.concat_arrays(pieces) if pieces else pa.array([], column.type.value_type)
    if (np.diff(order) > 0).all():
        return values
    back = np.empty_like(order)
    back[order] = np.arange(len(order))
    return values.take(arrow_int64(back))


def dictionary_codes(chunk: pa.Array) -> np.ndarray:
    """A dictionary chunk's int32 indices as a numpy view."""
    indices = chunk.indices
    return np.frombuffer(indices.buffers()[1], np.int32)[indices.offset : indices.offset + len(indices)]


def string_views(chunk: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A string or binary chunk as numpy views, no copy: its len + 1 offsets (int32, or int64 for the large types;
    not rebased) and its bytes from the first string's start to the last one's end."""
    large = pa.types.is_large_string(chunk.type) or pa.types.is_large_binary(chunk.type)
    if chunk.buffers()[1] is None:  # an empty array may have no offsets buffer
        return np.zeros(1, np.int64 if large else np.int32), np.zeros(0, np.uint8)
    offsets = np.frombuffer(chunk.buffers()[1], np.int64 if large else np.int32)
    offsets = offsets[chunk.offset : chunk.offset + len(chunk) + 1]
    data_buffer = chunk.buffers()[2]
    if data_buffer is None:
        return offsets, np.zeros(0, np.uint8)
    return offsets, np.frombuffer(data_buffer, np.uint8)[int(offsets[0]) : int(offsets[-1])]


def float64_parts(score, first: int, stop: int) -> list[np.ndarray]:
    """Rows first..stop - 1 of float64 scores (numpy, or a float64 ChunkedArray) as numpy views, in row order."""
    if isinstance(score, np.ndarray):
        return [score[first:stop]]
    chunks = score.slice(first, stop - first).chunks
    return [np.frombuffer(c.buffers()[1], np.float64)[c.offset : c.offset + len(c)] for c in chunks if len(c)]

"""Parquet in and out: a run or qrels as a Parquet file or a directory of them (a dataset, possibly hive-partitioned,
e.g. query=q1/part-0.parquet), read with pyarrow.dataset; and a run written partitioned by query.

pyarrow.dataset and pyarrow.parquet are imported only when a Parquet input is read or written: pyarrow.dataset
imports pandas (about 1 s), which the text path never pays.

Columns are found by the accepted names of the CSV layout (layout.ALIASES) and checked by the DataFrame rules
(frames.parse_frame): the same messages, naming the file and the row. Ids of any type are read as their text.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import arrow_int64, bool_numpy, chunked, int_numpy, take
from metrics.io.arrays.hashing import fingerprint
from metrics.io.columnar.frames import choose_columns, parse_frame
from metrics.io.rules import InputError
from metrics.io.text.stream import Rows

BATCH_ROWS = 1 << 20  # rows read at a time from a Parquet file
PART_NAME = "part-{:05d}.parquet"
# Dictionary-encode the query column only: doc ids and scores are nearly all distinct, and trying a dictionary on
# them first cost 5x the CPU of the whole write (1.26 s against 0.23 s for 1.9M rows), for a file 4% larger.
WRITE_OPTIONS = {"compression": "zstd", "use_dictionary": ["query"]}
SPILL_OPTIONS = {"compression": "lz4", "use_dictionary": ["query"]}  # temporary files: the fastest to write


class ParquetInput:
    """A Parquet file or dataset directory, read a batch at a time."""

    def __init__(
        self, source, kind: str, name: str | None = None, batch_rows: int = BATCH_ROWS, files: list[str] | None = None
    ):
        """``files``: read only these files of the dataset (a distributed task's share; hive keys still apply)."""
        self.path = os.fspath(source)
        self.kind = kind
        self.name = name or os.path.basename(os.path.normpath(self.path)) or self.path
        self.batch_rows = max(1, int(batch_rows))
        if not os.path.exists(self.path):
            raise InputError("file-missing", "no such file", self.name)
        import pyarrow.dataset as ds

        try:
            self.dataset = ds.dataset(self.path, format="parquet", partitioning=_hive_partitioning(self.path))
        except (pa.ArrowInvalid, OSError) as error:
            raise InputError(
                "parquet-invalid", f"cannot be read as Parquet ({_first_line(error)})", self.name
            ) from None
        names = self.dataset.schema.names
        self.chosen = choose_columns(names, self.name, kind)
        self.files = files
        self._files: list[tuple[int, str]] = []  # (first row, file) of each file read so far

    def pieces(self) -> Iterator[Rows]:
        value_role = "score" if self.kind == "run" else "grade"
        wanted = [self.chosen[r] for r in ("query", "doc", value_role)]
        row = 0
        only = None if self.files is None else {os.path.abspath(f) for f in self.files}
        for fragment in self.dataset.get_fragments():
            if only is not None and os.path.abspath(fragment.path) not in only:
                continue
            file_name = self._file_name(fragment.path)
            self._files.append((row, file_name))
            offset = 0
            try:
                batches = fragment.to_batches(schema=self.dataset.schema, columns=wanted, batch_size=self.batch_rows)
                for batch in batches:
                    if batch.num_rows == 0:
                        continue
                    table = pa.Table.from_batches([batch]).rename_columns(wanted)
                    columns, _ = parse_frame(_ArrowFrame(table), file_name, self.kind, first_row=offset)
                    yield Rows(columns, row)
                    offset += batch.num_rows
                    row += batch.num_rows
            except (pa.ArrowInvalid, OSError) as error:
                problem = f"cannot be read as Parquet ({_first_line(error)})"
                raise InputError("parquet-invalid", problem, file_name) from None
        if row == 0:
            raise InputError("file-empty", "the table is empty", self.name)

    def line_names(self, rows) -> list[str]:
        """'row N' of the file each row is in (the dataset's rows numbered in reading order)."""
        starts = np.array([first for first, _ in self._files], dtype=np.int64)
        names = []
        for row in rows:
            at = int(np.searchsorted(starts, row, side="right")) - 1
            first, file_name = self._files[at]
            names.append(f"row {row - first}" + ("" if file_name == self.name else f" of {file_name}"))
        return names

    def _file_name(self, path: str) -> str:
        if os.path.isdir(self.path):
            return os.path.join(self.name, os.path.relpath(path, self.path))
        return self.name

    def read_columns(self) -> tuple[dict, Callable]:
        """Every row, as the columns parse_frame gives (for read_run / read_qrels)."""
        pieces = list(self.pieces())
        columns = {
            role: pa.chunked_array([c for p in pieces for c in chunked(p.columns[role]).chunks])
            if not isinstance(pieces[0].columns[role], np.ndarray)
            else np.concatenate([p.columns[role] for p in pieces])
            for role in pieces[0].columns
        }
        return columns, self.line_names


def _hive_partitioning(path: str):
    """Hive partition keys (``query=007/``) as strings: pyarrow would infer 007 as the integer 7."""
    import pyarrow.dataset as ds

    keys: list[str] = []
    if os.path.isdir(path):
        for folder, _, _ in os.walk(path):
            for part in os.path.relpath(folder, path).split(os.sep):
                key = part.partition("=")[0]
                if "=" in part and key not in keys:
                    keys.append(key)
    if not keys:
        return None
    return ds.partitioning(pa.schema([(key, pa.string()) for key in keys]), flavor="hive")


class _ArrowFrame:
    """A pyarrow Table seen as parse_frame sees a polars frame (``columns``, ``select(...).to_arrow()``)."""

    def __init__(self, table: pa.Table):
        self.table = table
        self.columns = table.column_names

    def select(self, names):
        return _ArrowFrame(self.table.select(names))

    def to_arrow(self) -> pa.Table:
        return self.table


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


# --- hash partitions: a run regrouped by query (any input order), in bounded memory ---


def partition_of(query: pa.ChunkedArray, partitions: int) -> np.ndarray:
    """Which of ``partitions`` each row goes to: a hash of its query id (all rows of a query go to one)."""
    return (fingerprint(query) % np.uint64(partitions)).astype(np.int64)


def spill(pieces: Iterator[Rows], directory: str, partitions: int) -> list[str]:
    """Write the rows to ``partitions`` Parquet files by query hash (query, doc, score, and each row's number in
    the input, for messages); returns their paths. One piece in memory at a time."""
    import pyarrow.parquet as pq

    paths = [os.path.join(directory, PART_NAME.format(p)) for p in range(partitions)]
    schema = pa.schema([("query", pa.string()), ("doc", pa.string()), ("score", pa.float64()), ("row", pa.int64())])
    writers = [pq.ParquetWriter(path, schema, **SPILL_OPTIONS) for path in paths]
    try:
        for piece in pieces:
            query = chunked(piece.columns["query"])
            part = partition_of(query, partitions)
            order = np.argsort(part, kind="stable")
            bounds = np.searchsorted(part[order], np.arange(partitions + 1))
            file_rows = piece.file_rows if piece.file_rows is not None else np.arange(len(piece)) + piece.first_row
            score = piece.columns["score"]
            score = pa.chunked_array([pa.array(score)]) if isinstance(score, np.ndarray) else chunked(score)
            table = pa.table(
                {
                    "query": query,
                    "doc": chunked(piece.columns["doc"]),
                    "score": pc.cast(score, pa.float64()),
                    "row": pa.chunked_array([arrow_int64(file_rows)]),
                }
            ).take(arrow_int64(order))
            for p in range(partitions):
                if bounds[p + 1] > bounds[p]:
                    writers[p].write_table(table.slice(bounds[p], bounds[p + 1] - bounds[p]))
            del table
    finally:
        for writer in writers:
            writer.close()
    return paths


def spilled_blocks(paths: list[str]) -> Iterator[Rows]:
    """Each spilled partition as one block of whole queries (deleted once read)."""
    import pyarrow.parquet as pq

    for path in paths:
        table = pq.read_table(path)
        os.remove(path)
        if table.num_rows == 0:
            continue
        yield Rows(
            {"query": table.column("query"), "doc": table.column("doc"), "score": table.column("score")},
            0,
            int_numpy(table.column("row")),
        )


def partitions_for(size_bytes: int, partition_bytes: int) -> int:
    return max(1, -(-size_bytes // max(1, partition_bytes)))


def run_table(rows: Rows) -> pa.Table:
    """A block's rows as the table --to-parquet writes: query, doc (text), score (float64)."""
    score = rows.columns["score"]
    score = pa.chunked_array([pa.array(score)]) if isinstance(score, np.ndarray) else chunked(score)
    return pa.table(
        {
            "query": pc.cast(chunked(rows.columns["query"]), pa.string()),
            "doc": pc.cast(chunked(rows.columns["doc"]), pa.string()),
            "score": pc.cast(score, pa.float64()),
        }
    )


def grouped_by_query(table: pa.Table) -> tuple[pa.Table, pa.Array]:
    """The rows with each query's rows together, and the distinct queries. A block whose queries each come in one
    stretch (a run grouped by query, the usual case) is kept as it is: no copy. Otherwise the stretches are
    ordered by query id (byte order), each query's rows keeping their order."""
    query = table.column("query")
    if len(query) == 0:
        return table, pa.array([], pa.string())
    changes = np.flatnonzero(bool_numpy(pc.not_equal(query.slice(1), query.slice(0, len(query) - 1)))) + 1
    starts = np.concatenate([[0], changes]).astype(np.int64)
    heads = take(query, starts)
    distinct = pc.unique(heads)
    if len(distinct) == len(heads):
        return table, heads
    lengths = np.diff(np.append(starts, len(query)))
    order = int_numpy(pc.sort_indices(heads))  # stable: a query's stretches keep their order
    lengths = lengths[order]
    first = starts[order] - (np.cumsum(lengths) - lengths)
    return table.take(arrow_int64(np.repeat(first, lengths) + np.arange(len(query)))), distinct


def write_block(table: pa.Table, path: str) -> None:
    import pyarrow.parquet as pq

    pq.write_table(table, path, **WRITE_OPTIONS)


def write_partitioned(pieces: Iterator[Rows], directory: str, partitions: int) -> list[str]:
    """A run in any order as ``directory``/part-NNNNN.parquet: rows hash-partitioned by query into ``partitions``
    temporary files, each then sorted by query and rewritten, so every query's rows are in one file, grouped (the
    layout the distributed path reads a partition at a time). Columns query, doc, score."""
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    spill_dir = tempfile.mkdtemp(prefix=".spill-", dir=directory)
    try:
        paths = spill(pieces, spill_dir, partitions)
        written = []
        for number, path in enumerate(paths):
            table = pq.read_table(path)
            os.remove(path)
            if table.num_rows == 0:
                continue
            table = table.take(pc.sort_indices(table, sort_keys=[("query", "ascending"), ("row", "ascending")]))
            out = os.path.join(directory, PART_NAME.format(number))
            write_block(table.drop_columns(["row"]), out)
            written.append(out)
        return written
    finally:
        shutil.rmtree(spill_dir, ignore_errors=True)

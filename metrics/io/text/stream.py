"""A run read in blocks of whole queries, for runs too large to hold: the file is read a piece at a time (cut at a
line break), each piece parsed and checked as the whole-file reader parses and checks a file (metrics.io.text.fast),
and the rows of the query a piece ends in are carried over to the next block, so no query is split.

A block is a Run (metrics.io.model) of its queries, built by the same prepare_run: trec_eval's order, duplicates
refused with the file's line numbers. Memory: one piece, plus the largest query.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import bool_numpy, chunked
from metrics.io.model import Run
from metrics.io.order import prepare_run
from metrics.io.rules import InputError
from metrics.io.text.fast import parse_chunk, sniff_layout
from metrics.io.text.scan import text_line_numbers
from metrics.io.text.sources import PIECE_BYTES, TextSource


@dataclass(frozen=True)
class Rows:
    """Parsed rows of a run (query, doc, score columns) and where they are in the input: ``first_row`` + 0, 1, ...
    for a text file read in order, or the explicit data-row number of each row (``file_rows``) after a spill."""

    columns: dict
    first_row: int = 0
    file_rows: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.columns["query"])

    def slice(self, start: int, stop: int | None = None) -> Rows:
        stop = len(self) if stop is None else stop
        columns = {role: column.slice(start, stop - start) for role, column in self.columns.items()}
        rows = None if self.file_rows is None else self.file_rows[start:stop]
        return Rows(columns, self.first_row + start, rows)


class TextRun:
    """A text run file (TREC or CSV/TSV with a header, plain or gzip) read a piece at a time."""

    def __init__(self, source, name: str | None = None, piece_bytes: int = PIECE_BYTES):
        self.text = TextSource.open(source, name)
        self.name = self.text.name
        self.layout = sniff_layout(self.text, "run")
        self.piece_bytes = max(1, int(piece_bytes))

    def pieces(self) -> Iterator[Rows]:
        """The file's rows, a piece at a time, in file order (the next piece is read and parsed in a helper thread
        while the caller works on this one)."""
        return prefetched(self._pieces())

    def _pieces(self) -> Iterator[Rows]:
        row = 0
        buffer = bytearray(self.piece_bytes)
        with self._open() as stream:
            filled = self._skip_head(stream)
            while True:
                total = filled + _fill(stream, memoryview(buffer)[filled:])
                at_end = total < len(buffer)
                cut = total if at_end else buffer.rfind(b"\n", 0, total) + 1
                if cut == 0 and not at_end:  # no line break in the whole buffer: a line longer than a piece
                    buffer = buffer + bytes(len(buffer))
                    filled = total
                    continue
                piece = memoryview(buffer)[:cut]
                if cut > 4096 or bytes(piece).strip():  # (a large piece has data: no copy to find out)
                    columns = parse_chunk(self.text, "run", self.layout, piece)
                    if len(columns["query"]):
                        yield Rows(columns, row)
                        row += len(columns["query"])
                del piece
                if at_end:
                    break
                # A new buffer for the next piece, which starts with this one's unfinished last line: the parsed
                # columns may still hold on to this one (pyarrow does not say whether it copies).
                carry = buffer[cut:total]
                buffer = bytearray(max(self.piece_bytes, len(carry) + 1))
                buffer[: len(carry)] = carry
                filled = len(carry)
        if row == 0:
            only = " (only a header)" if self.layout.header else ""
            raise InputError("file-empty", f"the file is empty{only}", self.name)

    def _skip_head(self, stream) -> int:
        """Read past the lines before the first data row (BOM, blank and comment lines, the header): the layout's
        ``skip_lines``, which pyarrow's skip_rows would skip (blank lines counted). Returns 0 (bytes carried)."""
        bom = 3 if stream.read(3) == b"\xef\xbb\xbf" else 0
        stream.seek(bom)
        for _ in range(self.layout.skip_lines):
            stream.readline()
        return 0

    def line_names(self, rows) -> list[str]:
        return text_line_numbers(self.text, self.layout, rows)

    def _open(self):
        if self.text.data is not None:
            return io.BytesIO(self.text.data)
        assert self.text.path is not None  # a source without data is a file
        return gzip.open(self.text.path, "rb") if self.text.gz else open(self.text.path, "rb")


def _fill(stream, view: memoryview) -> int:
    """Read into ``view`` until it is full or the stream ends; the bytes read."""
    total = 0
    while total < len(view):
        got = stream.readinto(view[total:])
        if not got:
            break
        total += got
    return total


def prefetched(items: Iterator, ahead: int = 1) -> Iterator:
    """``items``, produced by a helper thread up to ``ahead`` items early: parsing the next piece (pyarrow releases
    the GIL) overlaps the work on this one. An exception in the thread is raised here, in order."""
    import queue
    import threading

    box: queue.Queue = queue.Queue(maxsize=ahead)
    done = object()
    stop = threading.Event()

    def hand_over(item, error=None) -> bool:
        while not stop.is_set():  # the consumer may have left: never block for good
            try:
                box.put((item, error), timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not hand_over(item):
                    return
            hand_over(done)
        except BaseException as error:  # handed to the consumer
            hand_over(done, error)

    thread = threading.Thread(target=produce, name="metrics-read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            item, error = box.get()
            if error is not None:
                raise error
            if item is done:
                return
            yield item
    finally:
        stop.set()
        thread.join()


def whole_queries(pieces: Iterator[Rows]) -> Iterator[Rows]:
    """The rows regrouped so that no query is split between two blocks: the rows of the query a piece ends in
    wait for the next piece (a query longer than a piece waits for as many as it needs). A query whose rows are not
    contiguous in the file can still appear in two blocks: the caller checks (see evaluate_stream)."""
    carried: list[Rows] = []
    for piece in pieces:
        query = piece.columns["query"]
        last = query[len(query) - 1]
        differs = bool_numpy(pc.not_equal(query, last))
        found = np.flatnonzero(differs)
        tail = int(found[-1]) + 1 if len(found) else 0  # the last query's rows at the piece's end start here
        if tail == 0:
            carried.append(piece)
            continue
        yield _joined([*carried, piece.slice(0, tail)])
        carried = [piece.slice(tail)]
    if carried:
        yield _joined(carried)


def _joined(parts: list[Rows]) -> Rows:
    if len(parts) == 1:
        return parts[0]
    columns = {
        role: pa.chunked_array([c for p in parts for c in chunked(p.columns[role]).chunks], parts[0].columns[role].type)
        for role in parts[0].columns
    }
    if all(p.file_rows is None for p in parts):
        return Rows(columns, parts[0].first_row)
    file_rows = np.concatenate(
        [p.file_rows if p.file_rows is not None else np.arange(len(p)) + p.first_row for p in parts]
    )
    return Rows(columns, 0, file_rows)


def block_run(name: str, rows: Rows, line_names, max_docs: int | None = None, queries=None) -> Run:
    """A Run of the block's rows: prepare_run's order and checks (a doc given twice refused in each ranking's top
    ``max_docs``: trec_eval -M; only in ``queries``' rankings if given); a duplicate is named by its line in the
    file."""

    def row_names(local) -> list[str]:
        local = np.asarray(local, dtype=np.int64)
        absolute = rows.file_rows[local] if rows.file_rows is not None else local + rows.first_row
        return line_names(absolute.tolist())

    return prepare_run(name, dict(rows.columns), row_names, max_docs, queries)

"""Runs of any size in bounded memory: the run is read in blocks of whole queries (metrics.io.text.stream), each block
evaluated by the engine's own entry point (metrics.evaluation.engine.evaluate) against the judgments of its queries, and
the per-query values joined and summarized as for a whole run (metrics.evaluation.combine). Same numbers, bit for bit.

A run whose queries are not contiguous (a query's rows in two places of the file) is found out as it is read;
it is then regrouped by query in one more pass: its rows are hash-partitioned by query id into temporary Parquet
files, and each partition is evaluated as a block. The qrels are read whole (judgments are small).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.catalog.family import Measure
from metrics.catalog.measures import DEFAULT_MEASURES, parse_measures
from metrics.evaluation.combine import combine
from metrics.evaluation.engine import Evaluation, evaluate, join, score
from metrics.evaluation.options import EvaluationOptions, given
from metrics.io import Qrels, read_qrels
from metrics.io.arrays.conversions import arrow_int64, bool_numpy, chunked, int_numpy, take
from metrics.io.columnar.parquet import (
    PART_NAME,
    ParquetInput,
    grouped_by_query,
    partitions_for,
    run_table,
    spill,
    spilled_blocks,
    write_block,
    write_partitioned,
)
from metrics.io.model import Run
from metrics.io.rules import InputError
from metrics.io.text.sources import PIECE_BYTES, is_parquet
from metrics.io.text.stream import Rows, TextRun, block_run, whole_queries

STREAM_BYTES = 1 << 30  # the CLI streams a run file larger than this (smaller: read whole, a little faster)
PARTITION_BYTES = 256 << 20  # input bytes per partition when a non-contiguous run is regrouped


class NotContiguous(Exception):
    """A query's rows were found in two places of the run: the blocks cannot be evaluated one by one."""


def open_run(source, name: str | None = None, piece_bytes: int = PIECE_BYTES):
    """The run as pieces of rows (``.pieces()``, ``.line_names(rows)``, ``.name``): text or Parquet."""
    if is_parquet(source):
        return ParquetInput(source, "run", name, batch_rows=max(1, piece_bytes // 40))
    return TextRun(source, name, piece_bytes)


def evaluate_stream(
    run,
    qrels,
    measures: Iterable[str | Measure] = DEFAULT_MEASURES,
    *,
    options: EvaluationOptions | None = None,
    **keywords,
) -> Evaluation:
    """:func:`metrics.evaluation.engine.evaluate` of a run file (text, .gz, or Parquet) read in blocks of whole queries,
    with the same options (``options=``, or its fields as keywords): the same Evaluation, in memory bounded by a block
    (``piece_bytes`` of text) plus the largest query, plus the per-query values. ``spill_dir``: where a run whose
    queries are not contiguous is regrouped (default: the system's temporary directory; it needs about the run's
    size, as compressed Parquet).
    """
    options = given(options, keywords)
    source = open_run(run, piece_bytes=options.piece_bytes)
    qrels = QrelsByQuery(read_qrels(qrels))
    measures = parse_measures(measures)
    each_block = block_options(options)
    try:
        parts = _evaluate_blocks(source, whole_queries(source.pieces()), qrels, measures, each_block)
    except NotContiguous:
        directory = tempfile.mkdtemp(prefix="ir-metrics-spill-", dir=options.spill_dir)
        try:
            paths = spill(source.pieces(), directory, partitions_for(size_of(run), PARTITION_BYTES))
            qrels.reset()
            parts = _evaluate_blocks(source, spilled_blocks(paths), qrels, measures, each_block)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    return finish(parts, qrels, measures, options)


def block_options(options: EvaluationOptions) -> EvaluationOptions:
    """The options each block (or Dask task) is evaluated with: without -c, which only the whole run can apply (a
    block does not have the judged queries of the others; finish() scores those no block had)."""
    return dataclasses.replace(options, complete=False)


def finish(parts: list[Evaluation], qrels: QrelsByQuery, measures: list[Measure], options: EvaluationOptions):
    """The parts joined under the whole run's ``options``; with ``complete`` (-c), the judged queries no part had are
    evaluated too (as missing from the run: the engine's own -c values) and join them."""
    missing = qrels.unseen()
    if options.complete and len(missing):
        parts = [*parts, evaluate_missing(qrels, missing, measures, options)]
    return combine(parts, measures, options, only_in_qrels=missing.to_pylist(), qrels=qrels.qrels)


def evaluate_missing(
    qrels: QrelsByQuery, missing: pa.Array, measures: list[Measure], options: EvaluationOptions
) -> Evaluation:
    """-c: the judged queries the run lacks, evaluated by the engine as queries missing from the run."""
    no_rows = pa.chunked_array([], pa.string())
    empty = Run("", pa.array([], pa.string()), np.zeros(1, np.int64), no_rows, np.zeros(0, np.uint32))
    return evaluate(empty, qrels.subset(missing), measures, options=given(options, {"complete": True}))


def _evaluate_blocks(
    source, blocks: Iterator[Rows], qrels: QrelsByQuery, measures, options: EvaluationOptions
) -> list[Evaluation]:
    """Each block evaluated under ``options`` (block_options: without -c)."""
    parts = []
    seen: set[str] = set()
    for rows in blocks:
        # a doc given twice is refused for judged queries only: trec_eval skips the others
        run = block_run(source.name, rows, source.line_names, options.cut(), qrels.queries)
        ids = run.query_ids.to_pylist()
        if not seen.isdisjoint(ids):
            raise NotContiguous
        seen.update(ids)
        qrels.mark_seen(run.query_ids)
        # unsummarized: combine() summarizes the whole run (a block's means would cost 6% of the time at 2M rows)
        parts.append(score(join(run, qrels.subset(run.query_ids), measures, options=options), summarized=False))
        del run
    return parts


def size_of(source) -> int:
    """About how many bytes of text a run holds (a gzip file or Parquet: a guess from its size)."""
    if isinstance(source, bytes | bytearray | memoryview):
        return len(source)
    path = os.fspath(source)
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files) * 4
    size = os.path.getsize(path)
    with open(path, "rb") as stream:
        return size * 5 if stream.read(2) == b"\x1f\x8b" else size  # gzip: about 5x as much text


class QrelsByQuery:
    """The judgments, grouped by query once, so a block's judgments are a cheap slice; and which judged queries
    the run has had so far."""

    def __init__(self, qrels: Qrels):
        self.qrels = qrels
        if len(qrels.grade):
            order = int_numpy(pc.sort_indices(qrels.query))  # stable: each query's lines keep their file order
            query = qrels.query.take(arrow_int64(order)).combine_chunks()
            changes = np.flatnonzero(bool_numpy(pc.not_equal(query.slice(1), query.slice(0, len(query) - 1)))) + 1
            self.starts = np.concatenate([[0], changes, [len(query)]]).astype(np.int64)
            self.queries = query.take(arrow_int64(self.starts[:-1]))
            self.order = order
        else:
            self.starts, self.queries, self.order = np.zeros(1, np.int64), pa.array([], pa.string()), np.zeros(0, int)
        self.reset()

    def reset(self) -> None:
        self.seen = np.zeros(len(self.queries), dtype=bool)

    def mark_seen(self, query_ids: pa.Array) -> None:
        found = int_numpy(pc.index_in(query_ids, value_set=self.queries), null=-1)
        self.seen[found[found >= 0]] = True

    def mark_seen_ids(self, query_ids) -> None:
        self.mark_seen(pa.array(list(query_ids), pa.string()))

    def unseen(self) -> pa.Array:
        """The judged queries no block had, in byte order."""
        # take by indices: pa.array of a numpy mask imports pandas when it is installed (40 MiB, 0.3 s)
        return self.queries.take(arrow_int64(np.flatnonzero(~self.seen)))

    def subset(self, query_ids: pa.Array) -> Qrels:
        found = int_numpy(pc.index_in(query_ids, value_set=self.queries), null=-1)
        found = np.sort(found[found >= 0])
        lengths = self.starts[found + 1] - self.starts[found]
        offsets = np.repeat(self.starts[found] - (np.cumsum(lengths) - lengths), lengths)  # each range's rows
        lines = self.order[offsets + np.arange(len(offsets))]
        lines = np.sort(lines)  # file order, as the whole-file path sees the lines
        q = self.qrels
        return Qrels(q.name, chunked(take(q.query, lines)), chunked(take(q.doc, lines)), q.grade[lines])


def write_parquet(run, directory: str, piece_bytes: int = PIECE_BYTES) -> list[str]:
    """The run as ``directory``/part-NNNNN.parquet, every query's rows in one file and together (the layout
    metrics.evaluation.distributed reads a file per task), in bounded memory. A run whose queries are contiguous (the
    usual case) is written in one pass, in its order, a file per block of whole queries (about ``piece_bytes`` of text);
    any other is hash-partitioned by query first, each file sorted by query
    (metrics.io.columnar.parquet.write_partitioned)."""
    source = open_run(run, piece_bytes=piece_bytes)
    os.makedirs(directory, exist_ok=True)
    written: list[str] = []
    seen: set[str] = set()

    def write(table) -> None:
        written.append(os.path.join(directory, PART_NAME.format(len(written))))
        write_block(table, written[-1])

    held = None  # a block is written when the next one comes: the run's last query, a block of its own, joins it
    try:
        for rows in whole_queries(source.pieces()):
            table, queries = grouped_by_query(run_table(rows))
            ids = queries.to_pylist()
            if not seen.isdisjoint(ids):
                raise NotContiguous
            seen.update(ids)
            if held is not None and len(table) < len(held) // 4:
                held = pa.concat_tables([held, table])
                continue
            if held is not None:
                write(held)
            held = table
        if held is not None:
            write(held)
        return written
    except NotContiguous:
        for path in written:
            os.remove(path)
    return write_partitioned(source.pieces(), directory, partitions_for(size_of(run), PARTITION_BYTES))


def too_large_to_read_whole(source) -> bool:
    """Whether the CLI streams this run: a file (or dataset) larger than STREAM_BYTES."""
    try:
        return size_of(source) > STREAM_BYTES
    except (OSError, TypeError):
        return False


__all__ = ["InputError", "evaluate_stream"]

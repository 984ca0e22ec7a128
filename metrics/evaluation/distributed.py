"""Dask beyond one machine: the run's queries evaluated in partitions on a Dask cluster, by the engine's own entry
point, and the per-query values joined and summarized here as on one machine (metrics.evaluation.combine): the same
numbers.

- ``local[:N]``: a distributed.LocalCluster of N worker processes on this machine (loopback only);
- ``tcp://HOST:PORT``: an existing scheduler (its workers need ir-metrics-lab installed, the same version).

Where the rows come from:
- a Parquet dataset (a directory, e.g. written by ``ir-metrics --to-parquet``): one task per file, read by the
  worker itself: the workers must see the same path (a shared file system). Each file must hold whole queries
  (``--to-parquet`` writes them so; a hive partition by query does too); if not, the run is read as below.
- anything else (a text run, a single file): this process reads the run in blocks of whole queries (as streaming
  does) and sends each block to a worker; at most two blocks per worker are in flight, so memory stays bounded.
  A run whose queries are not contiguous is regrouped here first (hash partitions, as streaming does), and each
  partition goes to a worker.
Several runs (the leaderboard, ``ir-metrics-compare --dask``) go to the cluster together: runs x partitions tasks.

Dask and distributed are an optional extra: ``pip install 'ir-metrics-lab[dask]'``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Sequence

import pyarrow.compute as pc

from metrics.catalog.family import Measure
from metrics.catalog.measures import DEFAULT_MEASURES, parse_measures
from metrics.core.errors import InputError
from metrics.evaluation.engine import Evaluation, evaluate
from metrics.evaluation.options import EvaluationOptions, given
from metrics.evaluation.streaming import (
    PARTITION_BYTES,
    NotContiguous,
    QrelsByQuery,
    block_options,
    finish,
    open_run,
    size_of,
)
from metrics.io import read_qrels
from metrics.io.columnar.parquet import ParquetInput, partitions_for, spill, spilled_blocks
from metrics.io.text.sources import is_parquet
from metrics.io.text.stream import Rows, block_run, whole_queries

INSTALL_HINT = "--dask needs Dask: pip install 'ir-metrics-lab[dask]' (dask and distributed)"
LOCAL_WORKERS = 2  # local without :N
IN_FLIGHT_PER_WORKER = 2  # blocks sent ahead per worker: bounded memory here


class DaskMissing(ValueError):
    """Dask (the optional extra) is not installed."""


def evaluate_dask(
    address,
    run,
    qrels,
    measures: Iterable[str | Measure] = DEFAULT_MEASURES,
    *,
    options: EvaluationOptions | None = None,
    **keywords,
) -> Evaluation:
    """:func:`metrics.evaluation.engine.evaluate` on a Dask cluster, with the same options (``options=``, or its fields
    as keywords; ``piece_bytes`` sizes the blocks sent): ``address`` is ``local[:N]``, ``tcp://HOST:PORT`` or a
    ``distributed.Client``. The same Evaluation as on one machine."""
    (evaluation,) = evaluate_runs_dask(address, [run], qrels, measures, options=given(options, keywords))
    return evaluation


def evaluate_runs_dask(
    address,
    runs: Sequence,
    qrels,
    measures: Iterable[str | Measure] = DEFAULT_MEASURES,
    *,
    options: EvaluationOptions | None = None,
    progress: Callable[[int], None] | None = None,
    **keywords,
) -> list[Evaluation]:
    """The Evaluation of each run against the same qrels, all runs on one cluster at once: runs x partitions tasks,
    the partitions of the next run queued while the last ones of this run are still being evaluated. Each is the
    Evaluation one process would give (options as for :func:`evaluate_dask`). ``progress(i)``: run i (0-based) is
    being read or handed out."""
    options = given(options, keywords)
    measures = parse_measures(measures)
    index = QrelsByQuery(read_qrels(qrels))
    with connect(address) as client:
        parts = _Dispatch(client, index, measures, options, progress).run(list(runs))
    return [_summarized(run_parts, index, measures, options) for run_parts in parts]


def _summarized(parts: list[Evaluation], index: QrelsByQuery, measures, options: EvaluationOptions) -> Evaluation:
    """One run's parts joined and summarized as on one machine (metrics.evaluation.streaming.finish; -c: the judged
    queries no part had, evaluated)."""
    index.reset()
    for part in parts:
        index.mark_seen_ids(part.queries)
        index.mark_seen_ids(part.only_in_run)
    return finish(parts, index, measures, options)


class _Dispatch:
    """The tasks of several runs on one cluster: a Parquet dataset's files are mapped at once (read by the
    workers); any other run is read here in blocks of whole queries, sent with at most ``window`` blocks in flight
    over all runs (bounded memory here), so one run's blocks follow the last run's without waiting for them."""

    def __init__(self, client, index: QrelsByQuery, measures, options: EvaluationOptions, progress=None):
        self.client = client
        self.shared = client.scatter(index, broadcast=True, hash=False)  # a fresh key: never one being released
        self.measures, self.options = measures, options
        self.task_options = block_options(options)  # what each task evaluates its queries with (sent with it)
        self.progress = progress or (lambda index: None)
        self.window = IN_FLIGHT_PER_WORKER * max(1, len(client.scheduler_info()["workers"]))
        self.pending: deque = deque()  # (run number, future) in submission order
        self.parts: list[list[Evaluation]] = []

    def run(self, runs: list) -> list[list[Evaluation]]:
        self.parts = [[] for _ in runs]
        mapped = {}
        for number, run in enumerate(runs):
            files = _dataset_files(run)
            if files:
                self.progress(number)
                root = os.path.abspath(os.fspath(run))
                mapped[number] = self.client.map(
                    _evaluate_file,
                    files,
                    key=[_key(number, f"file-{i}") for i in range(len(files))],
                    root=root,
                    index=self.shared,
                    measures=self.measures,
                    options=self.task_options,
                    pure=False,
                    retries=2,
                )
        for number, run in enumerate(runs):
            if number not in mapped:
                self.progress(number)
                self._send_run(number, run)
        for number, futures in mapped.items():
            parts = [part for part in self.client.gather(futures) if part is not None]
            if _disjoint(parts):  # else a query spans two files: read the dataset here, as blocks
                self.parts[number] = parts
            else:
                self._send_run(number, runs[number])
        while self.pending:
            self._collect_oldest()
        return self.parts

    def _send_run(self, number: int, run) -> None:
        source = open_run(run, piece_bytes=self.options.piece_bytes)
        try:
            self._send_blocks(number, source, whole_queries(source.pieces()))
        except NotContiguous:  # regrouped here first, as streaming does; then each partition is a task
            dropped = [future for n, future in self.pending if n == number]
            self.client.cancel(dropped)
            self.pending = deque((n, future) for n, future in self.pending if n != number)
            self.parts[number] = []
            directory = tempfile.mkdtemp(prefix="ir-metrics-spill-", dir=self.options.spill_dir)
            try:
                paths = spill(source.pieces(), directory, partitions_for(size_of(run), PARTITION_BYTES))
                self._send_blocks(number, source, spilled_blocks(paths), check=False)
            finally:
                shutil.rmtree(directory, ignore_errors=True)

    def _send_blocks(self, number: int, source, blocks, check: bool = True) -> None:
        """Each block of whole queries to a worker; NotContiguous when a query comes back in a later block (its
        rows are in two places of the file)."""
        seen: set[str] = set()
        for block, rows in enumerate(blocks):
            if check:
                ids = pc.unique(rows.columns["query"]).to_pylist()  # the worker groups the rows and checks them
                if not seen.isdisjoint(ids):
                    raise NotContiguous
                seen.update(ids)
            future = self.client.submit(
                _evaluate_rows,
                source.name,
                rows,
                self.shared,
                self.measures,
                self.task_options,
                key=_key(number, f"block-{block}"),
                pure=False,
                retries=2,
            )
            self.pending.append((number, future))
            while len(self.pending) >= self.window:
                self._collect_oldest()

    def _collect_oldest(self) -> None:
        from distributed import wait

        number, future = self.pending[0]
        wait([future])
        self.pending.popleft()
        self.parts[number].append(future.result())


def _key(run_number: int, part: str) -> str:
    """A task's key: which run and which part (as the dashboard shows it), unique."""
    return f"ir-metrics-run{run_number}-{part}-{uuid.uuid4().hex}"


def _evaluate_rows(name: str, rows: Rows, index: QrelsByQuery, measures, options: EvaluationOptions) -> Evaluation:
    """A task: one block of whole queries (duplicates are named by their row in the run), under the block options
    (metrics.evaluation.streaming.block_options: without -c)."""
    run = block_run(name, rows, lambda file_rows: [f"row {r}" for r in file_rows], options.cut(), index.queries)
    return evaluate(run, index.subset(run.query_ids), measures, options=options)


def _evaluate_file(
    path: str, root: str, index: QrelsByQuery, measures, options: EvaluationOptions
) -> Evaluation | None:
    """A task: one Parquet file of whole queries of the dataset at ``root`` (hive keys such as query=q1/ apply),
    read by the worker, under the block options."""
    source = ParquetInput(root, "run", files=[path])
    columns, line_names = source.read_columns()
    run = block_run(source.name, Rows(columns), line_names, options.cut(), index.queries)
    return evaluate(run, index.subset(run.query_ids), measures, options=options)


def _dataset_files(run) -> list[str]:
    """The Parquet files of a dataset directory (a task each), or [] for any other run."""
    if not (isinstance(run, str | os.PathLike) and os.path.isdir(run) and is_parquet(run)):
        return []
    root = os.path.abspath(os.fspath(run))
    return sorted(
        os.path.join(folder, name)
        for folder, _, names in os.walk(root)
        for name in names
        if name.lower().endswith((".parquet", ".pq"))
    )


def _disjoint(parts: list[Evaluation]) -> bool:
    seen: set[str] = set()
    for part in parts:
        ids = [*part.queries, *part.only_in_run]
        if not seen.isdisjoint(ids):
            return False
        seen.update(ids)
    return True


@contextlib.contextmanager
def connect(address):
    """A distributed.Client for ``local[:N]`` (a LocalCluster, closed afterwards), ``tcp://HOST:PORT``, or a Client
    given as is."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise DaskMissing(INSTALL_HINT) from None
    if isinstance(address, Client):
        yield address
        return
    text = str(address).strip()
    if text == "local" or text.startswith("local:"):
        count = text.partition(":")[2] or str(LOCAL_WORKERS)
        if not count.isdigit() or int(count) < 1:
            raise InputError(
                "option-value", f"--dask {text}: expected local or local:N with N a positive number of workers"
            )
        with (
            LocalCluster(
                n_workers=int(count),
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=50,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    if "://" not in text:
        raise InputError(
            "option-value", f"--dask {text}: expected local, local:N or a scheduler address such as tcp://HOST:8786"
        )
    try:
        client = Client(text, timeout="10s")
    except OSError as error:
        raise InputError("option-value", f"--dask {text}: cannot reach the scheduler ({error})") from None
    with client:
        yield client

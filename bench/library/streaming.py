"""Streaming benchmark: time and peak memory of ``ir-metrics QRELS RUN`` on runs of 1M, 10M and 100M rows.

    python -m bench.library.streaming                       # 1M, 10M, 100M rows (the 100M run is ~4 GB on disk)
    python -m bench.library.streaming --rows 1M,10M --keep  # smaller; keep the generated files
    python -m bench.library.streaming --rows 10M --dask local:2

Each run has 1,000 docs per query (100k queries at 100M rows), grouped by query, scores decreasing; qrels have ~10
judgments per query (grades 0-2). Each size is evaluated by a fresh ``python -m metrics`` process (the default
measures, --stream), whose peak RSS is read with getrusage(RUSAGE_CHILDREN) in a wrapper process of its own. The
files go to --dir (default: a temporary directory) and are deleted afterwards unless --keep.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

DOCS_PER_QUERY = 1_000
QUERIES_PER_WRITE = 1_000  # 1M rows per write: bounded memory while generating

_MEASURE = """
import resource, subprocess, sys, time
started = time.perf_counter()
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
elapsed = time.perf_counter() - started
print(elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status)
"""


def generate(directory: str, rows: int, seed: int = 7) -> tuple[str, str]:
    queries = max(1, rows // DOCS_PER_QUERY)
    run_path = os.path.join(directory, f"run-{rows}.txt")
    qrels_path = os.path.join(directory, f"qrels-{rows}.txt")
    rng = np.random.default_rng(seed)
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    with open(run_path, "wb") as run_file, open(qrels_path, "wb") as qrels_file:
        for first in range(0, queries, QUERIES_PER_WRITE):
            count = min(QUERIES_PER_WRITE, queries - first)
            qids = np.repeat(np.arange(first, first + count), DOCS_PER_QUERY)
            ranks = np.tile(np.arange(1, DOCS_PER_QUERY + 1), count)
            docs = (qids * 7919 + ranks * 104729) % 50_000_000  # distinct within a query
            scores = 100.0 - ranks * 0.01 - rng.random(len(ranks)) * 0.001
            table = pa.table(
                {
                    "q": pa.array(qids).cast(pa.string()),
                    "iter": pa.array(np.zeros(len(qids), dtype=np.int8)).cast(pa.string()).cast(pa.string()),
                    "doc": pa.compute.binary_join_element_wise("D", pa.array(docs).cast(pa.string()), ""),
                    "rank": pa.array(ranks),
                    "score": pa.array(np.round(scores, 6)),
                    "tag": pa.array(["bench"] * 1, pa.string()).take(np.zeros(len(qids), dtype=np.int64)),
                }
            )
            table = table.set_column(1, "iter", pa.array(["Q0"], pa.string()).take(np.zeros(len(qids), np.int64)))
            pacsv.write_csv(table, run_file, options)
            judged_q = np.repeat(np.arange(first, first + count), 10)
            judged_rank = rng.integers(1, 3 * DOCS_PER_QUERY, size=len(judged_q))  # some not retrieved
            judged_rank[::10] = rng.integers(1, 20, size=len(judged_rank[::10]))  # one near the top
            judged_doc = (judged_q * 7919 + judged_rank * 104729) % 50_000_000
            key = judged_q * 10_000_000 + judged_rank
            _, unique = np.unique(key, return_index=True)
            qrels = pa.table(
                {
                    "q": pa.array(judged_q[unique]).cast(pa.string()),
                    "iter": pa.array(["0"], pa.string()).take(np.zeros(len(unique), np.int64)),
                    "doc": pa.compute.binary_join_element_wise("D", pa.array(judged_doc[unique]).cast(pa.string()), ""),
                    "grade": pa.array(rng.integers(0, 3, size=len(unique))),
                }
            )
            pacsv.write_csv(qrels, qrels_file, options)
    return qrels_path, run_path


def measure(command: list[str]) -> tuple[float, float, int]:
    """(seconds, peak RSS in MiB, exit status) of one fresh process running ``command``."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True, check=True)
    elapsed, kib, status = out.stdout.split()
    return float(elapsed), int(kib) / 1024, int(status)


def parse_rows(text: str) -> int:
    text = text.strip().upper()
    factor = {"K": 1_000, "M": 1_000_000}.get(text[-1], 1)
    return int(float(text.rstrip("KM")) * factor)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default="1M,10M,100M", help="comma-separated sizes (default 1M,10M,100M)")
    parser.add_argument("--dir", help="where to write the files (default: a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument("--whole", action="store_true", help="also time the whole-file path (no --stream)")
    parser.add_argument("--dask", help="also time --dask ADDRESS (e.g. local:2)")
    parser.add_argument(
        "--parquet",
        action="store_true",
        help="also write the run with --to-parquet and time that "
        "dataset (streamed, and with --dask if given: the workers read the files themselves)",
    )
    parser.add_argument("--json", help="write the figures to this JSON file")
    options = parser.parse_args()
    directory = options.dir or tempfile.mkdtemp(prefix="ir-metrics-bench-")
    os.makedirs(directory, exist_ok=True)
    results = []
    try:
        for rows in (parse_rows(r) for r in options.rows.split(",")):
            started = time.perf_counter()
            qrels, run = generate(directory, rows)
            size = os.path.getsize(run)
            print(
                f"{rows:>12,} rows  {size / 2**30:6.2f} GiB  generated in {time.perf_counter() - started:.0f} s",
                flush=True,
            )
            modes = [("stream", ["--stream"])]
            if options.whole:
                modes.append(("whole", ["--no-stream"]))
            if options.dask:
                modes.append((f"dask {options.dask}", ["--dask", options.dask]))
            dataset = os.path.join(directory, f"run-{rows}.parquet.d")
            if options.parquet:
                modes.append(("to-parquet", ["--to-parquet", dataset]))
                modes.append(("parquet stream", ["--stream"]))
                if options.dask:
                    modes.append((f"parquet dask {options.dask}", ["--dask", options.dask]))
            for mode, flags in modes:
                source = dataset if mode.startswith("parquet") else run
                command = [sys.executable, "-m", "metrics", qrels, source, *flags]
                elapsed, peak, status = measure(command)
                rate = rows / elapsed
                print(
                    f"{'':>12}  {mode:<14} {elapsed:8.2f} s  {rate / 1e6:6.2f} M rows/s  peak RSS {peak:7.0f} MiB"
                    f"  (exit {status})",
                    flush=True,
                )
                results.append(
                    {"rows": rows, "bytes": size, "mode": mode, "seconds": elapsed, "peak_mib": peak, "status": status}
                )
            if not options.keep:
                os.remove(run)
                os.remove(qrels)
                shutil.rmtree(dataset, ignore_errors=True)
    finally:
        if not options.keep and not options.dir:
            shutil.rmtree(directory, ignore_errors=True)
    if options.json:
        with open(options.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()

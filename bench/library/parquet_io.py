"""Parquet in and out on one machine: rows per second for writing a run as --to-parquet writes it, for reading
that dataset back to rows, and for evaluating it (streamed), each beside the same for the text file.

    python -m bench.generate --only msmarco          # bench/data/msmarco.run (7M rows) and its qrels
    python -m bench.library.parquet_io [--reps 3] [--run RUN --qrels QRELS]

Each figure is a fresh process (so imports, e.g. pandas through pyarrow.dataset, are counted), interleaved over the
reps; the table has the median wall time, the CPU time (user + system, every thread of the process), rows per
second of each, the peak RSS, and the 1-minute load average when the step started (a shared machine: the CPU time
is the figure that does not depend on the load).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.paths import DATA

_STEP = """
import json, os, resource, sys, time
load = os.getloadavg()[0]
started = time.perf_counter()
step, run, qrels, dataset = sys.argv[1:5]
from metrics.evaluation.streaming import evaluate_stream, open_run, write_parquet
if step == "write":
    write_parquet(run, dataset)
elif step.startswith("read"):
    rows = sum(len(piece) for piece in open_run(run if step == "read text" else dataset).pieces())
else:
    evaluate_stream(run if step == "evaluate text" else dataset, qrels)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": time.perf_counter() - started, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_mib": usage.ru_maxrss / 1024, "load": load}))
"""
STEPS = ("write", "read text", "read parquet", "evaluate text", "evaluate parquet")
LABELS = {
    "write": "write --to-parquet (text -> dataset)",
    "read text": "read text to rows",
    "read parquet": "read dataset to rows",
    "evaluate text": "evaluate text run (--stream)",
    "evaluate parquet": "evaluate dataset (--stream)",
}


def step(name: str, run: str, qrels: str, dataset: str) -> dict:
    if name == "write":
        shutil.rmtree(dataset, ignore_errors=True)
    # cwd: a neutral directory, so PYTHONPATH (e.g. another checkout's code, to compare) decides what is imported
    out = subprocess.run(
        [sys.executable, "-c", _STEP, name, run, qrels, dataset],
        capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
    )  # fmt: skip
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", default=str(DATA / "msmarco.run"))
    parser.add_argument("--qrels", default=str(DATA / "msmarco.qrels"))
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--json", help="also write every sample to this JSON file")
    options = parser.parse_args()
    if not os.path.exists(options.run):
        sys.exit(f"missing {options.run}: run python -m bench.generate --only msmarco")
    with open(options.run, "rb") as f:
        rows = sum(1 for _ in f)
    work = tempfile.mkdtemp(prefix="ir-metrics-parquet-bench-")
    dataset = os.path.join(work, "run.parquet.d")
    samples: dict[str, list[dict]] = {name: [] for name in STEPS}
    try:
        for _ in range(options.reps):
            for name in STEPS:
                samples[name].append(step(name, options.run, options.qrels, dataset))
        files = sorted(os.listdir(dataset))
        size = sum(os.path.getsize(os.path.join(dataset, f)) for f in files)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{rows:,} rows ({os.path.getsize(options.run) / 2**20:.0f} MiB of text; dataset: {len(files)} files, "
          f"{size / 2**20:.0f} MiB); median of {options.reps}; {os.cpu_count()} CPUs")  # fmt: skip
    print(f"{'step':<38} {'wall s':>7} {'M rows/s':>9} {'CPU s':>7} {'M rows/CPU s':>13} {'peak MiB':>9} {'load':>5}")
    for name, values in samples.items():
        wall = statistics.median(v["wall"] for v in values)
        cpu = statistics.median(v["cpu"] for v in values)
        peak = statistics.median(v["peak_mib"] for v in values)
        load = statistics.median(v["load"] for v in values)
        print(f"{LABELS[name]:<38} {wall:>7.2f} {rows / wall / 1e6:>9.2f} {cpu:>7.2f} {rows / cpu / 1e6:>13.2f} "
              f"{peak:>9.0f} {load:>5.1f}")  # fmt: skip
    if options.json:
        Path(options.json).write_text(json.dumps({"rows": rows, "samples": samples}, indent=1))


if __name__ == "__main__":
    main()

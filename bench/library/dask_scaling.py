"""The Dask path's scaling on this machine: one process streaming against --dask local:1 and local:2.

    python -m bench.library.dask_scaling                 # a 10M-row run (generated, ~350 MiB), default measures
    python -m bench.library.dask_scaling --rows 3M --reps 2 --dir /tmp/bench --keep

The run (1,000 docs per query, bench/library/streaming.py's generator) is written once as a Parquet dataset with
``--to-parquet`` (a file per 64 MiB block of text), then each configuration is a fresh ``python -m metrics`` process:
streaming the text run and the dataset in one process, and the dataset on a LocalCluster of 1 and 2 worker processes
(each worker reads its own files; starting the cluster is counted). For each: wall time, CPU time of the whole
process tree (user + system: the CLI, the scheduler in it, the nannies and the workers), rows per second, rows per
second per worker, the largest process's peak RSS and the peak of the tree's summed RSS (sampled every 0.1 s), and
the 1-minute load average before and after. On a machine shared with other jobs, read the CPU times and the load
beside the wall times.
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

from bench.library import streaming

_MEASURE = """
import json, os, resource, subprocess, sys, time
import psutil
load = os.getloadavg()[0]
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
tree_peak = 0
while child.poll() is None:
    try:
        procs = [psutil.Process(child.pid), *psutil.Process(child.pid).children(recursive=True)]
        total = 0
        for proc in procs:
            try:
                total += proc.memory_info().rss
            except psutil.Error:
                pass
        tree_peak = max(tree_peak, total)
    except psutil.Error:
        pass
    time.sleep(0.1)
wall = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024,
                  "tree_peak_mib": tree_peak / 2**20, "load": load, "load_after": os.getloadavg()[0],
                  "status": child.returncode}))
"""


def measure(command: list[str]) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default="10M", help="run size (default 10M)")
    parser.add_argument("--reps", type=int, default=1, help="repetitions, interleaved; medians are shown")
    parser.add_argument("--dir", help="where to write the files (default: a temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files (reused by a next run)")
    parser.add_argument("--json", help="also write every sample to this JSON file")
    options = parser.parse_args()
    rows = streaming.parse_rows(options.rows)
    directory = options.dir or tempfile.mkdtemp(prefix="ir-metrics-dask-bench-")
    os.makedirs(directory, exist_ok=True)
    try:
        run = os.path.join(directory, f"run-{rows}.txt")
        qrels = os.path.join(directory, f"qrels-{rows}.txt")
        if not (os.path.exists(run) and os.path.exists(qrels)):
            streaming.generate(directory, rows)
        dataset = os.path.join(directory, f"run-{rows}.parquet.d")
        python = [sys.executable, "-m", "metrics", qrels]
        write = None
        if not os.path.isdir(dataset):
            write = measure([*python, run, "--to-parquet", dataset, "-m", "P@10"])
        configs = {
            "1 process, text run (--stream)": ([*python, run, "--stream"], 1),
            "1 process, dataset (--stream)": ([*python, dataset, "--stream"], 1),
            "--dask local:1, dataset": ([*python, dataset, "--dask", "local:1"], 1),
            "--dask local:2, dataset": ([*python, dataset, "--dask", "local:2"], 2),
        }
        samples: dict[str, list[dict]] = {name: [] for name in configs}
        for _ in range(options.reps):
            for name, (command, _) in configs.items():
                samples[name].append(measure(command))
        files = len(os.listdir(dataset))
        text_mib = os.path.getsize(run) / 2**20
    finally:
        if not options.keep:
            shutil.rmtree(directory, ignore_errors=True)
    print(f"{rows:,} rows ({text_mib:.0f} MiB of text; dataset of {files} files), default measures; median of "
          f"{options.reps}; {os.cpu_count()} CPUs")  # fmt: skip
    if write:
        print(f"--to-parquet: {write['wall']:.1f} s wall, {write['cpu']:.1f} s CPU, peak {write['peak_mib']:.0f} MiB "
              f"(load {write['load']:.1f})")  # fmt: skip
    header = (f"{'configuration':<32} {'wall s':>7} {'CPU s':>7} {'M rows/s':>9} {'per worker':>10} "
              f"{'largest MiB':>11} {'all MiB':>8} {'load before/after':>18}")  # fmt: skip
    print(header)
    medians = {}
    for name, values in samples.items():
        workers = configs[name][1]
        m = {key: statistics.median(v[key] for v in values) for key in values[0]}
        medians[name] = m
        print(f"{name:<32} {m['wall']:>7.1f} {m['cpu']:>7.1f} {rows / m['wall'] / 1e6:>9.3f} "
              f"{rows / m['wall'] / workers / 1e6:>10.3f} {m['peak_mib']:>11.0f} {m['tree_peak_mib']:>8.0f} "
              f"{m['load']:>9.1f}/{m['load_after']:<8.1f}")  # fmt: skip
        if any(v["status"] for v in values):
            print(f"  (exit status {[v['status'] for v in values]})")
    one = medians["--dask local:1, dataset"]["wall"]
    two = medians["--dask local:2, dataset"]["wall"]
    print(f"2-worker speed-up: {one / two:.2f}x over 1 worker, "
          f"{medians['1 process, dataset (--stream)']['wall'] / two:.2f}x over 1 process on the dataset, "
          f"{medians['1 process, text run (--stream)']['wall'] / two:.2f}x over 1 process on the text run")  # fmt: skip
    if options.json:
        Path(options.json).write_text(json.dumps({"rows": rows, "write": write, "samples": samples}, indent=1))


if __name__ == "__main__":
    main()

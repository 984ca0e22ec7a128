"""Time and peak memory of the "Your data" page's load + evaluate path on an msmarco-sized run (~7M rows, ~250 MB).

    python bench/app_large_run.py    # reuses bench/data/msmarco.run/.qrels, or writes them (bench/generate.py)
    python bench/app_large_run.py --reps 3 --modes upload,path,page

Each measurement is a fresh interpreter (a subprocess) so peak memory (ru_maxrss) is that path's alone:

- ``upload``: what the page does with an uploaded file: the bytes in memory (as Streamlit's uploader holds them),
  ``ui.datasets.load_bytes`` (blake2b digest + parse) for run and qrels, then ``evaluate_loaded`` with the default
  measures and the per-query frame; then the same calls again, as a rerun does (cache hits). Then the session ends:
  its references go (the loaded files, the evaluation, the uploader's bytes) and the RSS still held is reported, as
  is the peak above the RSS before the upload (the classroom budget: at most 2.5x the uploaded file);
- ``path``: files given on the command line: ``ui.datasets.load_path`` (pyarrow reads the file itself), then the same;
- ``page``: the whole page in AppTest (``streamlit run app.py -- --run ... --qrels ...``): first run and a rerun,
  including the 7k-row per-query table and the chart.

Prints a Markdown table for the README. Figures depend on the machine (2 shared cores here).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
RUN, QRELS = DATA / "msmarco.run", DATA / "msmarco.qrels"

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, ROOT)
mode, run_path, qrels_path = sys.argv[1:4]
def rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
def current_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20
out = {}
t0 = time.perf_counter()
if mode == "page":
    sys.argv = ["app.py", "--run", run_path, "--qrels", qrels_path]
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file(ROOT + "/pages/your_data.py", default_timeout=600)
    out["imports_mib"] = rss_mib()
    t = time.perf_counter(); at.run(); out["first_s"] = time.perf_counter() - t
    assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
    out["evaluated"] = next(m.value for m in at.metric if m.label == "Queries evaluated")
    t = time.perf_counter(); at.run(); out["rerun_s"] = time.perf_counter() - t
else:
    from metrics import DEFAULT_MEASURES
    from ui import datasets
    out["imports_mib"] = rss_mib()
    import gc
    def load(kind, path):
        if mode == "upload":
            with open(path, "rb") as f:
                data = f.read()  # the uploader's bytes
            return datasets.load_bytes(kind, path.rsplit("/", 1)[-1], data), data
        return datasets.load_path(kind, path), None
    before_upload = current_mib()
    t = time.perf_counter()
    run, run_bytes = load("run", run_path)
    qrels, qrels_bytes = load("qrels", qrels_path)
    assert run.ok and qrels.ok, (run.error, qrels.error)
    out["load_s"] = time.perf_counter() - t
    t = time.perf_counter()
    evaluation = datasets.evaluate_loaded(run, qrels, DEFAULT_MEASURES, False)
    frame = evaluation.to_frame()
    out["evaluate_s"] = time.perf_counter() - t
    out["first_s"] = out["load_s"] + out["evaluate_s"]
    out["evaluated"] = evaluation.counts.evaluated
    t = time.perf_counter()  # a rerun: the page reuses the loaded files; evaluation is a cache hit
    evaluation = datasets.evaluate_loaded(run, qrels, DEFAULT_MEASURES, False)
    frame = evaluation.to_frame()
    out["rerun_s"] = time.perf_counter() - t
    out["held_mib"] = current_mib()
    if mode == "upload":
        out["peak_over_mib"] = rss_mib() - before_upload
        out["file_mib"] = len(run_bytes) / 2**20
        del run, qrels, evaluation, frame, run_bytes, qrels_bytes  # the session ends
        gc.collect()
        datasets.release_memory()
        out["after_end_mib"] = current_mib() - before_upload
out["total_s"] = time.perf_counter() - t0
out["peak_mib"] = rss_mib()
print(json.dumps(out))
"""


def measure(mode: str) -> dict:
    command = [sys.executable, "-c", f"ROOT = {str(ROOT)!r}\n" + CHILD, mode, str(RUN), str(QRELS)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_s"] = wall
    return result


def ensure_data() -> None:
    if RUN.exists() and QRELS.exists():
        return
    print("bench/data/msmarco.* missing: generating them (bench/generate.py --only msmarco)", file=sys.stderr)
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate.py"), "--only", "msmarco"], cwd=ROOT, check=True)


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1, help="repetitions per mode (medians are reported)")
    parser.add_argument("--modes", default="upload,path,page", help="comma list of upload, path, page")
    options = parser.parse_args()
    ensure_data()
    rows = sum(1 for _ in RUN.open("rb"))
    modes = [m.strip() for m in options.modes.split(",") if m.strip()]
    results: dict[str, list[dict]] = {m: [] for m in modes}
    for _ in range(options.reps):
        for mode in modes:  # interleaved, so load from other processes hits every mode
            results[mode].append(measure(mode))
            print(f"{mode}: {json.dumps(results[mode][-1])}", file=sys.stderr)
    size = RUN.stat().st_size / 2**20
    print(
        f"\nRun: {RUN.relative_to(ROOT)} ({rows:,} rows, {size:,.0f} MiB); qrels {QRELS.relative_to(ROOT)}. "
        f"Medians of {options.reps} fresh process(es); default measures.\n"
    )
    print(
        "| path | load (s) | evaluate + table (s) | first run (s) | rerun (s) | peak RSS (MiB) "
        "| RSS after imports (MiB) | held after (MiB) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    labels = {
        "upload": "uploaded bytes (`load_bytes`)",
        "path": "command-line path (`load_path`)",
        "page": "whole page (AppTest, `--run/--qrels`)",
    }
    for mode, runs in results.items():

        def cell(key: str, runs=runs) -> str:
            values = [r[key] for r in runs if key in r]
            return f"{median(values):.2f}" if values else "–"

        print(
            f"| {labels[mode]} | {cell('load_s')} | {cell('evaluate_s')} | {cell('first_s')} | {cell('rerun_s')} "
            f"| {median([r['peak_mib'] for r in runs]):,.0f} | {median([r['imports_mib'] for r in runs]):,.0f} "
            f"| {cell('held_mib')} |"
        )
    uploads = results.get("upload")
    if uploads:
        file_mib = uploads[0]["file_mib"]
        over = median([r["peak_over_mib"] for r in uploads])
        print(
            f"\nUpload of {file_mib:,.0f} MiB: peak {over:,.0f} MiB above the RSS before it "
            f"({over / file_mib:.2f}x the file; budget 2.5x); after the session ends, "
            f"{median([r['after_end_mib'] for r in uploads]):,.0f} MiB above that RSS is still held."
        )


if __name__ == "__main__":
    main()

"""Time and peak memory of the "Your data" page's load + evaluate path on an msmarco-sized run (~7M rows, ~250 MB).

    python -m bench.app.app_large_run    # reuses bench/data/msmarco.run/.qrels, or writes them (bench/generate.py)
    python -m bench.app.app_large_run --reps 3 --modes upload,path,page

Each measurement is a fresh interpreter (a subprocess) so peak memory (ru_maxrss) is that path's alone:

- ``upload``: what the page does with an uploaded file: the bytes in memory (as Streamlit's uploader holds them),
  ``ir_metrics_lab.session.datasets.load_bytes`` (blake2b digest + parse) for run and qrels, then ``evaluate_loaded``
  with the default measures and the per-query frame; then the same calls again, as a rerun does (cache hits). Then
  the session ends: its references go (the loaded files, the evaluation, the uploader's bytes) and the RSS still held
  is reported, as is the peak above the RSS before the upload (the classroom budget: at most 2.5x the uploaded file);
- ``path``: files given on the command line: ``ir_metrics_lab.session.datasets.load_path`` (pyarrow reads the file
  itself), then the same;
- ``page``: the whole page in AppTest (``streamlit run app.py -- --run ... --qrels ...``): first run and a rerun,
  including the 7k-row per-query table and the chart;
- ``server``: a live ``streamlit run app.py`` and Chromium (Playwright, /usr/bin/chromium): the browser uploads the
  qrels, then the run; the server process's RSS is sampled (/proc) before the upload, at its peak, once the scores
  are shown, after the run is replaced by a one-line file, and after the browser session has ended.

Prints a Markdown table for the README. Figures depend on the machine (2 shared cores here).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from bench.paths import DATA, REPO

RUN, QRELS = DATA / "msmarco.run", DATA / "msmarco.qrels"

CHILD = r"""
import json, resource, sys, time
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
    at = AppTest.from_file(ROOT + "/app_pages/your_data/your_data.py", default_timeout=600)
    out["imports_mib"] = rss_mib()
    t = time.perf_counter(); at.run(); out["first_s"] = time.perf_counter() - t
    assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
    out["evaluated"] = next(m.value for m in at.metric if m.label == "Queries evaluated")
    t = time.perf_counter(); at.run(); out["rerun_s"] = time.perf_counter() - t
else:
    from metrics import DEFAULT_MEASURES
    from ir_metrics_lab.session import datasets
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


def measure_server() -> dict:
    """Server RSS (MiB) around a browser upload of the run (see the module docstring)."""
    import signal
    import threading

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, free_port

    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    command += ["--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false"]
    command += ["--server.fileWatcherType", "none", "--server.disconnectedSessionTTL", "2"]
    server = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )

    def rss() -> float:
        with open(f"/proc/{server.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024

    peak, sampling = [0.0], [True]

    def sample() -> None:
        while sampling[0]:
            peak[0] = max(peak[0], rss())
            time.sleep(0.02)

    small = DATA / "one-line.run"
    small.write_text("1 Q0 d1 1 1.0 s\n")
    out: dict = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1440, "height": 1000})
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/your-data", timeout=120_000)
            page.get_by_text("Queries evaluated").wait_for(timeout=120_000)  # the sample data's first run
            page.keyboard.press("Escape")  # a page path other than / shows Streamlit's "Page not found" modal
            page.get_by_text("Upload files", exact=True).click()

            def uploader(label: str):
                box = page.locator('[data-testid="stFileUploader"]').filter(has=page.get_by_text(label, exact=True))
                return box.locator('input[type="file"]')

            uploader("Qrels file").set_input_files(QRELS)
            page.get_by_text(f"{QRELS.name}: ", exact=False).wait_for(timeout=120_000)
            page.wait_for_timeout(2000)
            out["before_mib"] = rss()
            peak[0] = out["before_mib"]
            threading.Thread(target=sample, daemon=True).start()
            started = time.perf_counter()
            uploader("Run file").set_input_files(RUN)
            page.get_by_text(f"{RUN.name}: ", exact=False).wait_for(timeout=600_000)
            page.get_by_text("Queries evaluated").wait_for(timeout=600_000)
            out["upload_to_scores_s"] = time.perf_counter() - started
            page.wait_for_timeout(3000)
            sampling[0] = False
            out["peak_mib"], out["held_mib"] = peak[0], rss()
            uploader("Run file").set_input_files(small)
            page.get_by_text(f"{small.name}: 1 line", exact=False).wait_for(timeout=120_000)
            page.wait_for_timeout(3000)
            out["replaced_mib"] = rss()
            context.close()
            time.sleep(10)  # server.disconnectedSessionTTL is 2 s here
            out["ended_mib"] = rss()
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        small.unlink(missing_ok=True)
    out["file_mib"] = RUN.stat().st_size / 2**20
    return out


def measure(mode: str) -> dict:
    if mode == "server":
        return measure_server()
    command = [sys.executable, "-c", f"ROOT = {str(REPO)!r}\n" + CHILD, mode, str(RUN), str(QRELS)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_s"] = wall
    return result


def ensure_data() -> None:
    if RUN.exists() and QRELS.exists():
        return
    print("bench/data/msmarco.* missing: generating them (python -m bench.generate --only msmarco)", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "bench.generate", "--only", "msmarco"], cwd=REPO, check=True)


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1, help="repetitions per mode (medians are reported)")
    parser.add_argument("--modes", default="upload,path,page", help="comma list of upload, path, page, server")
    options = parser.parse_args()
    ensure_data()
    rows = sum(1 for _ in RUN.open("rb"))
    modes = [m.strip() for m in options.modes.split(",") if m.strip()]
    server_runs = [] if "server" not in modes else None
    if "server" in modes:
        modes.remove("server")
        server_runs = [measure_server() for _ in range(options.reps)]
        for result in server_runs:
            print(f"server: {json.dumps(result)}", file=sys.stderr)
    results: dict[str, list[dict]] = {m: [] for m in modes}
    for _ in range(options.reps):
        for mode in modes:  # interleaved, so load from other processes hits every mode
            results[mode].append(measure(mode))
            print(f"{mode}: {json.dumps(results[mode][-1])}", file=sys.stderr)
    size = RUN.stat().st_size / 2**20
    print(
        f"\nRun: {RUN.relative_to(REPO)} ({rows:,} rows, {size:,.0f} MiB); qrels {QRELS.relative_to(REPO)}. "
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
    if server_runs:

        def mib(key: str) -> float:
            return median([r[key] for r in server_runs])

        file_mib, before = server_runs[0]["file_mib"], mib("before_mib")
        print(
            f"\nServer (live, Chromium upload of the {file_mib:,.0f} MiB run): RSS {before:,.0f} MiB before; peak "
            f"{mib('peak_mib'):,.0f} MiB ({(mib('peak_mib') - before) / file_mib:.2f}x the file above the idle "
            "server); "
            f"{mib('held_mib'):,.0f} MiB with the scores shown; {mib('replaced_mib'):,.0f} MiB after the run is "
            f"replaced; {mib('ended_mib'):,.0f} MiB after the session ended. Upload to scores: "
            f"{mib('upload_to_scores_s'):.1f} s."
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

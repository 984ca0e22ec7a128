"""The brief's weight: each kind of brief made from the sample files (data/samples: bm25, dense and rrf on NDCG@10, AP
and P@10, as tests/browser/test_brief_browser.py makes them), its HTML file's and its PDF's size in bytes, and the time
to write each (median of ``--reps``), beside plotly.js's size, which every brief carried inline before its charts were
SVG (issue 50: under 500 KB, to go by e-mail).

    .venv/bin/python -m bench.app.brief_size [--reps 3] [--out DIR]

``--out`` also writes the files there, to open or print. Sizes do not depend on the machine; times do (the load
average is printed beside them).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from datetime import date
from pathlib import Path

from pypdf import PdfReader

from bench.paths import REPO
from ir_metrics_lab.core.brief import html_page, many_runs, model, two_lists, two_runs, two_tools
from ir_metrics_lab.core.scenario import Scenario
from metrics.compare import leaderboard as boards
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels, read_run
from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B
from metrics.tools.explain import explain

SAMPLES = REPO / "data" / "samples"
MEASURES = ["NDCG@10", "AP", "P@10"]
LIMIT = 500_000


def briefs() -> dict[str, model.Brief]:
    qrels = read_qrels(SAMPLES / "qrels.txt.gz")
    runs = {name: read_run(SAMPLES / f"{name}.run.gz") for name in ("bm25", "dense", "rrf")}
    evaluations = {name: evaluate(run, qrels, MEASURES) for name, run in runs.items()}

    def inputs(*names: str) -> model.Inputs:
        files = {name: f"{name}.run.gz" for name in names}
        return model.Inputs("qrels.txt.gz", files, date(2026, 11, 27), "http://127.0.0.1:8501")

    pair = [runs["bm25"], runs["dense"]]
    board = boards.from_evaluations(evaluations)
    return {
        "pair": two_runs.brief(
            evaluations["bm25"], evaluations["dense"], "bm25", "dense", runs=pair, qrels=qrels,
            inputs=inputs("bm25", "dense"),
        ),
        "leaderboard": many_runs.brief(board, runs=runs, qrels=qrels, inputs=inputs(*runs)),
        "tools": two_tools.brief(
            explain(runs["bm25"], qrels, "NDCG@10", "trec_eval", "sklearn"), run=runs["bm25"], qrels=qrels,
            inputs=inputs("bm25"),
        ),
        "ab": two_lists.brief(Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B), inputs=inputs()),
    }  # fmt: skip


def timed(make, reps: int) -> tuple[bytes, float]:
    times, made = [], b""
    for _ in range(reps):
        start = time.perf_counter()
        made = make()
        times.append(time.perf_counter() - start)
    return made, statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    from plotly.offline import get_plotlyjs

    plotly_js = len(get_plotlyjs().encode("utf-8"))
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print(f"plotly.js inline (what each brief carried before): {plotly_js:,} bytes")
    print("| brief | HTML bytes | under 500 KB | HTML / plotly.js | PDF bytes | PDF pages | HTML (s) | PDF (s) |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for kind, made in briefs().items():
        page, page_s = timed(lambda made=made: html_page.render(made).encode("utf-8"), args.reps)
        pdf, pdf_s = timed(lambda made=made: html_page.pdf(made), args.reps)
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        print(
            f"| {kind} | {len(page):,} | {'yes' if len(page) < LIMIT else 'NO'} | {len(page) / plotly_js:.3f} | "
            f"{len(pdf):,} | {pages} | {page_s:.2f} | {pdf_s:.2f} |"
        )
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{kind}-{made.file_name}").write_bytes(page)  # pair and leaderboard share a page's name
            (args.out / f"{kind}-{model.file_name(kind, 'pdf')}").write_bytes(pdf)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

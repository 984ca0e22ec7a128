"""The CLI against trec_eval 10.0 built with -O2 on every run shape, with and without -q, in one table: issue 30's
goal is our time <= 0.5x trec_eval's and our peak memory <= 1x on each.

    .venv/bin/python -m bench.generate --only small,trec,dl,short,judged,msmarco    # once: bench/data/
    .venv/bin/python -m bench.library.cli_shapes --trec-eval-src PATH/TO/trec_eval-10.0 --reps 5

Shapes (bench/generate.py): small (7 lines: start-up is all there is), trec (50 queries x 1,000 docs, a TREC ad hoc
track), dl (200 x 1,000: 200k lines), short (30,000 queries x 100 docs, ~30 judgments each: many short queries),
judged (2,000 x 1,000 with ~150 judgments each) and msmarco (7M lines, ~1 judgment per query). Every command is
``-m all_trec`` (trec_eval's whole catalog; ours with ``--format trec_eval``), with ``-q`` and without, as whole
processes. Each rep runs ours then trec_eval for every shape and mode (interleaved, so load from other processes
hits both); ratios are medians of the per-rep pairs. Wall and CPU (user + sys of the child) are both reported: on a
machine shared with other work CPU moves less. Our output is compared with trec_eval's byte for byte, once per
shape and mode (trec_eval 10.0's rbp reads uninitialised memory: README "Known differences").

A last row gives the floor of a small run: ``python -c "import numpy"``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from bench.library.all_trec import MODES, byte_diff, commands, median
from bench.library.compare_tools import OUT, PY, Sample, build_trec_eval, compile_ours, count_rows, files, measure

SHAPES = ("small", "trec", "dl", "short", "short20k", "judged", "msmarco")
GOAL_TIME, GOAL_MEMORY = 0.5, 1.0  # issue 30: <= 0.5x trec_eval -O2's time, <= 1x its peak memory


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trec-eval-src", type=Path, required=True, help="trec_eval 10.0's sources, built here with -O2")
    ap.add_argument("--shapes", default=",".join(SHAPES), help="comma list of " + ", ".join(SHAPES))
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    shapes = args.shapes.split(",")
    for shape in shapes:
        if not all(path.exists() for path in files(shape)):
            sys.exit(f"missing bench/data/{shape}.*: run `python -m bench.generate --only {shape}` first")
    trec_eval = build_trec_eval(args.trec_eval_src)
    compile_ours()
    OUT.mkdir(exist_ok=True)
    samples: dict[tuple[str, str, str], list[Sample]] = {}
    outs = {}
    for rep in range(args.reps):
        for shape in shapes:
            qrels, run = files(shape)
            for mode, flags in MODES.items():
                for tool in ("ours", "trec_eval"):
                    out = OUT / f"{shape}.cli.{tool}{'.q' if flags else ''}.txt"
                    outs[shape, mode, tool] = out
                    sample = measure(*commands(tool, qrels, run, flags, out, trec_eval))
                    samples.setdefault((shape, mode, tool), []).append(sample)
                    print(
                        f"  rep {rep + 1}/{args.reps} {shape:8s} {mode:5s} {tool:10s} {sample.wall:7.3f} s wall "
                        f"{sample.cpu:6.2f} s CPU {sample.peak_mib:7.1f} MiB",
                        file=sys.stderr,
                    )
        samples.setdefault(("floor", "", "numpy"), []).append(measure([PY, "-c", "import numpy"], None))
    load = os.getloadavg()
    print(
        f"{args.reps} interleaved reps; load average after the run {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
        f"({os.cpu_count()} CPUs)\n"
    )
    print(
        "| shape | lines (run, qrels) | mode | ours: wall, CPU, peak | trec_eval -O2: wall, CPU, peak "
        "| ours/trec_eval wall | CPU | memory | goal (time <= 0.5x, memory <= 1x) | output |"
    )
    print("|---|---:|---|---|---|---:|---:|---:|---|---|")
    for shape in shapes:
        qrels, run = files(shape)
        lines = f"{count_rows(run):,}, {count_rows(qrels):,}"
        for mode in MODES:
            ours, theirs = samples[shape, mode, "ours"], samples[shape, mode, "trec_eval"]
            wall, cpu, memory = (paired(ours, theirs, attr) for attr in ("wall", "cpu", "peak_mib"))
            met = {"wall": wall <= GOAL_TIME, "CPU": cpu <= GOAL_TIME, "memory": memory <= GOAL_MEMORY}
            verdict = ", ".join(f"{name} {'met' if ok else 'NOT met'}" for name, ok in met.items())
            same, count, differ, by_measure = byte_diff(outs[shape, mode, "ours"], outs[shape, mode, "trec_eval"])
            detail = ", ".join(f"{name} {n}" for name, n in by_measure.most_common())
            output = "byte-identical" if same else f"{differ:,} of {count:,} lines differ ({detail})"
            print(
                f"| {shape} | {lines} | {mode} | {_cell(ours)} | {_cell(theirs)} | **{wall:.3f}x** | {cpu:.3f}x "
                f"| **{memory:.3f}x** | {verdict} | {output} |"
            )
    print(f"| floor: `python -c 'import numpy'` | | | {_cell(samples['floor', '', 'numpy'])} | | | | | | |")


def paired(ours: list[Sample], theirs: list[Sample], attr: str) -> float:
    """The median of ours/theirs over the reps; a tool measured as 0 (CPU time in /usr/bin/time's 10 ms steps)
    counts as infinitely faster."""
    pairs = zip(ours, theirs, strict=True)
    return median(getattr(a, attr) / getattr(b, attr) if getattr(b, attr) else math.inf for a, b in pairs)


def _cell(values: list[Sample]) -> str:
    wall, cpu, peak = (median(getattr(s, attr) for s in values) for attr in ("wall", "cpu", "peak_mib"))
    return f"{wall:.3f} s, {cpu:.2f} s, {peak:.0f} MiB"


if __name__ == "__main__":
    main()

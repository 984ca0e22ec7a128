"""trec_eval's whole catalog on a big run: ``python -m metrics -m all_trec --format trec_eval`` (with and without -q)
against trec_eval 10.0 built with -O2 and pytrec_eval computing every measure it supports, as whole processes,
interleaved; ratios are medians of pairs.

    .venv/bin/python -m bench.generate --only judged    # once: bench/data/judged.* (2,000 queries x 1,000 docs)
    .venv/bin/python -m bench.library.all_trec --dataset judged --tools ours,pytrec_eval,trec_eval \\
        --trec-eval-src PATH/TO/trec_eval-10.0/src --reps 5
    .venv/bin/python -m bench.library.all_trec --dataset msmarco --reps 3    # ours and pytrec_eval, -q only

Each mode (``-q``: every query's lines, then the summary; ``no -q``: the summary only) times every tool, the tools
interleaved rep by rep (ours, trec_eval, pytrec_eval, ours, ...) so load from other processes hits each of them.
The table gives medians of wall time, CPU time (user + sys of the child: on a machine shared with other work it
moves less than wall time) and peak RSS, and ours/tool ratios as medians of the per-rep pairs. pytrec_eval has no
summary-only mode: it computes and writes every query's values in both modes (the same command).

Agreement, once per dataset: our output is compared with trec_eval's byte for byte in each mode (differing lines
are counted and named by measure: trec_eval 10.0's rbp reads uninitialised memory, README "Known differences"),
and our per-query values with pytrec_eval's to 5e-5 (4 printed decimals). A benchmark whose outputs disagree would
be worthless.
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import statistics
import sys
from pathlib import Path

from bench.library.compare_tools import OUT, PY, Sample, build_trec_eval, compile_ours, count_rows, files, measure

MODES = {"-q": ["-q"], "no -q": []}
GOALS = {"trec_eval": (0.5, 1.0)}  # issue 21: time (wall and CPU) <= 0.5x trec_eval -O2's, peak memory <= 1x


def commands(tool: str, qrels: Path, run: Path, flags: list[str], out: Path, trec_eval: Path | None):
    """(argv, the file stdout goes to or None) of one tool in one mode."""
    if tool == "ours":
        return [PY, "-m", "metrics", str(qrels), str(run), *flags, "-m", "all_trec", "--format", "trec_eval"], out
    if tool == "trec_eval":
        return [str(trec_eval), *flags, "-m", "all_trec", str(qrels), str(run)], out
    if tool == "pytrec_eval":  # always per query: pytrec_eval has no summary-only evaluation
        return [PY, str(Path(__file__).with_name("reference_pytrec_eval_all.py")), str(qrels), str(run), str(out)], None
    raise ValueError(tool)


def disagreements(ours_path: Path, theirs_path: Path) -> tuple[int, collections.Counter]:
    """(values compared, values differing by more than 4-decimal rounding per measure) over the per-query lines both
    print."""
    theirs = {}
    for line in theirs_path.read_text().splitlines():
        name, q, value = line.split("\t")
        theirs[(name, q)] = float(value)
    compared, differing = 0, collections.Counter()
    for line in ours_path.read_text().splitlines():
        name, q, value = (field.strip() for field in line.split("\t"))
        if q == "all" or (name, q) not in theirs or name in ("runid", "relstring"):  # (gm_* print no query lines)
            continue
        compared += 1
        expected = theirs[(name, q)]
        if abs(float(value) - expected) > 5e-5 + 1e-12:
            differing[name] += 1
    return compared, differing


def byte_diff(ours_path: Path, theirs_path: Path) -> tuple[bool, int, int, collections.Counter]:
    """(identical bytes?, our lines, lines that differ position by position, differing lines per measure)."""
    ours, theirs = ours_path.read_bytes(), theirs_path.read_bytes()
    a, b = ours.splitlines(), theirs.splitlines()
    by_measure: collections.Counter = collections.Counter()
    differ = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            differ += 1
            by_measure[y.split(b"\t")[0].strip().decode()] += 1
    differ += abs(len(a) - len(b))
    return ours == theirs, len(a), differ, by_measure


def median(values) -> float:
    values = list(values)
    return statistics.median(values) if values else math.nan


def paired(ours: list[Sample], theirs: list[Sample], attr: str) -> float:
    return median(getattr(a, attr) / getattr(b, attr) for a, b in zip(ours, theirs, strict=False))


def table(samples: dict[str, dict[str, list[Sample]]]) -> str:
    rows = [
        "| mode | tool | wall median (s) | CPU median (s) | peak RSS median (MiB) | ours/tool wall | ours/tool CPU "
        "| ours/tool memory | goal (time <= 0.5x, memory <= 1x) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for mode, by_tool in samples.items():
        ours = by_tool.get("ours", [])
        for tool, values in by_tool.items():
            wall, cpu, peak = (median(getattr(s, a) for s in values) for a in ("wall", "cpu", "peak_mib"))
            ratios, verdict = ["—"] * 3, "—"
            if tool != "ours" and ours:
                r_wall, r_cpu, r_mem = (paired(ours, values, a) for a in ("wall", "cpu", "peak_mib"))
                ratios = [f"{r:.3f}x" for r in (r_wall, r_cpu, r_mem)]
                if tool in GOALS:
                    time_goal, memory_goal = GOALS[tool]
                    met = {
                        "CPU": r_cpu <= time_goal,
                        "wall": r_wall <= time_goal,
                        "memory": r_mem <= memory_goal,
                    }
                    verdict = ", ".join(f"{k} {'met' if v else 'NOT met'}" for k, v in met.items())
            rows.append(
                f"| {mode} | {tool} (n={len(values)}) | {wall:.3f} | {cpu:.2f} | {peak:.0f} | "
                + " | ".join(ratios)
                + f" | {verdict} |"
            )
    return "\n".join(rows)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="msmarco", help="a bench/data stem: judged, msmarco, dl, scale-1M, ...")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--tools", default="ours,pytrec_eval", help="comma list of ours, trec_eval, pytrec_eval")
    ap.add_argument("--modes", default=None, help="comma list of -q and 'no -q' (default: both with trec_eval)")
    ap.add_argument("--trec-eval-src", type=Path, help="trec_eval 10.0's src/: built here with -O2 (tool trec_eval)")
    args = ap.parse_args(argv)
    tools = args.tools.split(",")
    trec_eval = None
    if "trec_eval" in tools:
        if not args.trec_eval_src:
            sys.exit("the trec_eval tool needs --trec-eval-src (trec_eval 10.0's sources, built here with -O2)")
        trec_eval = build_trec_eval(args.trec_eval_src)
    modes = args.modes.split(",") if args.modes else (list(MODES) if trec_eval else ["-q"])
    OUT.mkdir(exist_ok=True)
    if "ours" in tools:
        compile_ours()
    qrels, run = files(args.dataset)
    if not (qrels.exists() and run.exists()):
        sys.exit(f"missing {qrels} or {run}: run `python -m bench.generate --only {args.dataset}` first")
    samples: dict[str, dict[str, list[Sample]]] = {mode: {t: [] for t in tools} for mode in modes}
    outs = {
        (mode, tool): OUT / f"{args.dataset}.all_trec.{tool}{'.q' if MODES[mode] else ''}.txt"
        for mode in modes
        for tool in tools
    }
    for rep in range(args.reps):
        for mode in modes:
            for tool in tools:
                argv_, stdout = commands(tool, qrels, run, MODES[mode], outs[(mode, tool)], trec_eval)
                s = measure(argv_, stdout)
                samples[mode][tool].append(s)
                print(
                    f"  rep {rep + 1}/{args.reps} {mode:5s} {tool:12s} {s.wall:7.2f} s wall {s.cpu:6.2f} s CPU "
                    f"{s.peak_mib:7.0f} MiB",
                    file=sys.stderr,
                )
    load = os.getloadavg()
    print(
        f"dataset {args.dataset}: {count_rows(run):,} run rows, {count_rows(qrels):,} qrels lines, -m all_trec; "
        f"{args.reps} interleaved reps; load average after the run {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
        f"({os.cpu_count()} CPUs)\n"
    )
    print(table(samples))
    print()
    for mode in modes:
        if "ours" in tools and "trec_eval" in tools:
            same, lines, differ, by_measure = byte_diff(outs[(mode, "ours")], outs[(mode, "trec_eval")])
            detail = ", ".join(f"{m} {n}" for m, n in by_measure.most_common())
            print(
                f"- {mode}: ours vs trec_eval: {'byte-identical' if same else 'differ'}; {lines:,} lines, "
                f"{differ:,} differ" + (f" ({detail})" if detail else "")
            )
        if "ours" in tools and "pytrec_eval" in tools and MODES[mode]:
            compared, differing = disagreements(outs[(mode, "ours")], outs[(mode, "pytrec_eval")])
            detail = ", ".join(f"{m} {n}" for m, n in sorted(differing.items()))
            print(
                f"- {mode}: ours vs pytrec_eval: {compared:,} per-query values compared, {sum(differing.values())} "
                "differ beyond 4-decimal rounding"
                + (f" ({detail})" if detail else "")
                + " (pytrec_eval is trec_eval 9.0.x: its recall levels round otherwise, iprec_at_recall, 11pt_avg)"
            )


if __name__ == "__main__":
    main()

"""trec_eval's preference measures on a big run: ``python -m metrics -R qrels_prefs -m all_prefs --format trec_eval``
(with and without -q) against trec_eval 10.0 built with -O2, as whole processes, interleaved; ratios are medians of
pairs. The preference file is judged.qrels (302,516 judgments: 2,000 queries, about 150 each, grades 0-3) read as
preferences (-R qrels_prefs: one judgment group per query), the run judged.run (2,000 x 1,000 rows); with
``--prefs`` a prefs file is written from the same judgments, each query judged by three users (judgment groups) in
two subgroups each, and read with -R prefs. With ``--qrels-jg`` the same three users' judgments are written as
judgment groups (``qid user docno grade``: 907,548 lines) and scored with ``-R qrels_jg -m qrels_jg`` (P_avgjg,
map_avgjg, Rprec_mult_avgjg).

    .venv/bin/python -m bench.generate --only judged    # once: bench/data/judged.*
    .venv/bin/python -m bench.library.all_prefs --trec-eval-src PATH/TO/trec_eval-10.0/src --reps 5
    .venv/bin/python -m bench.library.all_prefs --trec-eval-src PATH/TO/trec_eval-10.0/src --reps 3 --prefs
    .venv/bin/python -m bench.library.all_prefs --trec-eval-src PATH/TO/trec_eval-10.0/src --reps 3 --qrels-jg

Agreement, once per mode: our output is compared with trec_eval's byte for byte. The goal (issue 33): time <= 0.5x
trec_eval -O2's and peak memory <= 1x, as for all_trec.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

from bench.library.all_trec import MODES, byte_diff, table
from bench.library.compare_tools import OUT, PY, build_trec_eval, compile_ours, count_rows, files, measure
from bench.paths import DATA


def measures(rel_format: str) -> str:
    """The nickname of the measures the judgments give: judgment groups' or preferences'."""
    return "qrels_jg" if rel_format == "qrels_jg" else "all_prefs"


def commands(tool: str, prefs: Path, rel_format: str, run: Path, flags: list[str], trec_eval: Path) -> list[str]:
    common = [*flags, "-R", rel_format, "-m", measures(rel_format)]
    if tool == "ours":
        return [PY, "-m", "metrics", str(prefs), str(run), *common, "--format", "trec_eval"]
    return [str(trec_eval), *common, str(prefs), str(run)]


def write_prefs(qrels: Path, out: Path, seed: int = 33, *, groups_only: bool = False) -> Path:
    """A prefs file from a qrels file: each query judged by three users, each stating its grades (a user's own
    reading of them: one grade in four moved by one) over two subgroups of its documents. ``groups_only``: the same
    judgments as a qrels_jg file (no subgroups)."""
    rng = np.random.default_rng(seed)
    lines = []
    for line in qrels.read_text().splitlines():
        query, _, doc, grade = line.split()
        for user in ("u1", "u2", "u3"):
            level = max(0, int(grade) + int(rng.choice([-1, 0, 0, 0, 0, 0, 0, 1])))
            subgroup = f"s{int(rng.integers(1, 3))} "
            lines.append(f"{query} {user} {'' if groups_only else subgroup}{doc} {level}\n")
    out.write_text("".join(lines))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="judged", help="a bench/data stem (default judged)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--prefs", action="store_true", help="a prefs file with three users per query (-R prefs)")
    ap.add_argument("--qrels-jg", action="store_true", help="three users per query as judgment groups (-R qrels_jg)")
    ap.add_argument("--trec-eval-src", type=Path, required=True, help="trec_eval 10.0's src/, built here with -O2")
    args = ap.parse_args(argv)
    trec_eval = build_trec_eval(args.trec_eval_src)
    OUT.mkdir(exist_ok=True)
    compile_ours()
    qrels, run = files(args.dataset)
    if not (qrels.exists() and run.exists()):
        sys.exit(f"missing {qrels} or {run}: run `python -m bench.generate --only {args.dataset}` first")
    judgments, rel_format = qrels, "qrels_prefs"
    if args.prefs:
        judgments, rel_format = write_prefs(qrels, DATA / f"{args.dataset}.prefs"), "prefs"
    elif args.qrels_jg:
        path = DATA / f"{args.dataset}.qrels_jg"
        judgments, rel_format = write_prefs(qrels, path, groups_only=True), "qrels_jg"
    tools = ["ours", "trec_eval"]
    samples = {mode: {tool: [] for tool in tools} for mode in MODES}
    outs = {
        (m, t): OUT / f"{args.dataset}.{rel_format}.{t}{'.q' if MODES[m] else ''}.txt" for m in MODES for t in tools
    }
    for rep in range(args.reps):
        for mode, flags in MODES.items():
            for tool in tools:
                s = measure(commands(tool, judgments, rel_format, run, flags, trec_eval), outs[(mode, tool)])
                samples[mode][tool].append(s)
                shown = f"{s.wall:6.2f} s wall {s.cpu:6.2f} s CPU {s.peak_mib:6.0f} MiB"
                print(f"  rep {rep + 1} {mode:5s} {tool:9s} {shown}", file=sys.stderr)
    load = os.getloadavg()
    print(
        f"dataset {args.dataset}: {count_rows(run):,} run rows, {count_rows(judgments):,} {rel_format} lines, "
        f"-R {rel_format} -m {measures(rel_format)}; {args.reps} interleaved reps; load average after the run "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)\n"
    )
    print(table(samples))
    print()
    for mode in MODES:
        same, lines, differ, _ = byte_diff(outs[(mode, "ours")], outs[(mode, "trec_eval")])
        print(
            f"- {mode}: ours vs trec_eval: {'byte-identical' if same else 'differ'}; {lines:,} lines, {differ} differ"
        )


if __name__ == "__main__":
    main()

"""trec_eval's whole catalog on a big run: ``python -m metrics -q -m all_trec --format trec_eval`` against
pytrec_eval computing every measure it supports, as whole processes, interleaved; ratios are medians of pairs.

    .venv/bin/python bench/generate.py                  # once: bench/data/
    .venv/bin/python bench/all_trec.py --dataset msmarco --reps 3

Our per-query lines (4 decimals, as trec_eval prints them) are checked against pytrec_eval's values to 5e-5 once
per dataset: a benchmark whose outputs disagree would be worthless.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from compare_tools import BENCH, OUT, PY, compile_ours, count_rows, files, measure


def commands(qrels, run, ours_out, theirs_out):
    ours = [PY, "-m", "metrics", str(qrels), str(run), "-q", "-m", "all_trec", "--format", "trec_eval"]
    theirs = [PY, str(BENCH / "reference_pytrec_eval_all.py"), str(qrels), str(run), str(theirs_out)]
    return (ours, ours_out), (theirs, None)


def disagreements(ours_path, theirs_path) -> tuple[int, int]:
    """(values compared, values differing by more than 4-decimal rounding) over the per-query lines both print."""
    theirs = {}
    for line in theirs_path.read_text().splitlines():
        name, q, value = line.split("\t")
        theirs[(name, q)] = float(value)
    compared = differing = 0
    for line in ours_path.read_text().splitlines():
        name, q, value = (field.strip() for field in line.split("\t"))
        if q == "all" or (name, q) not in theirs or name in ("runid", "relstring"):  # (gm_* print no query lines)
            continue
        compared += 1
        expected = theirs[(name, q)]
        differing += abs(float(value) - expected) > 5e-5 + 1e-12
    return compared, differing


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="msmarco", help="a bench/data stem: msmarco, dl, scale-1M, ...")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    compile_ours()
    qrels, run = files(args.dataset)
    ours_out, theirs_out = OUT / f"{args.dataset}.all_trec.ours.txt", OUT / f"{args.dataset}.all_trec.pytrec.tsv"
    (ours_cmd, ours_stdout), (theirs_cmd, theirs_stdout) = commands(qrels, run, ours_out, theirs_out)
    samples = {"ours": [], "pytrec_eval": []}
    for rep in range(args.reps):
        for tool, (argv_, stdout) in (("ours", (ours_cmd, ours_stdout)), ("pytrec_eval", (theirs_cmd, theirs_stdout))):
            s = measure(argv_, stdout)
            samples[tool].append(s)
            print(f"  rep {rep + 1}/{args.reps} {tool:12s} {s.wall:7.2f} s {s.peak_mib:7.0f} MiB", file=sys.stderr)
    compared, differing = disagreements(ours_out, theirs_out)
    wall = statistics.median(a.wall / b.wall for a, b in zip(samples["ours"], samples["pytrec_eval"], strict=True))
    mem = statistics.median(
        a.peak_mib / b.peak_mib for a, b in zip(samples["ours"], samples["pytrec_eval"], strict=True)
    )
    print(f"dataset {args.dataset}: {count_rows(run):,} run rows, -m all_trec")
    for tool, values in samples.items():
        print(
            f"  {tool:12s} wall median {statistics.median(s.wall for s in values):.2f} s, "
            f"peak RSS median {statistics.median(s.peak_mib for s in values):,.0f} MiB"
        )
    print(f"  ours / pytrec_eval: wall {wall:.3f}x, memory {mem:.3f}x (medians of {args.reps} interleaved pairs)")
    print(f"  agreement: {compared:,} per-query values compared, {differing} differ beyond 4-decimal rounding")


if __name__ == "__main__":
    main()

"""ir-ndeval against ndeval 4.5 built with -O2, on a TREC Web track shape: 200 topics x 1,000 ranked documents and
~60,000 subtopic judgments (6 subtopics, 50 judged documents a topic), both as whole processes, in one run.

    .venv/bin/python -m bench.library.ndeval_speed --ndeval-src PATH/TO/ndeval.c [--reps 5]

The inputs are generated with a fixed seed into bench/data/ (not committed). Each rep runs ours (``python -m
metrics.ndeval``) then ndeval, interleaved so load from other processes hits both; the ratios are medians of the
per-rep pairs, of wall time, CPU time (user + sys of the child) and peak RSS. The outputs are compared byte for byte
first, with ndeval's defaults and with ``-c -traditional``.

Byte-compiled modules are checked first: with PYTHONDONTWRITEBYTECODE set and no .pyc files, every run compiles
numpy and metrics again, which costs more CPU than the work (``.venv/bin/python -m compileall -q .venv metrics``).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.library.compare_tools import PY, Sample, measure, median
from bench.paths import DATA

TOPICS, DEPTH, SUBTOPICS, JUDGED = 200, 1000, 6, 50


def generate(folder: Path, seed: int = 46) -> tuple[Path, Path]:
    """The qrels (every judged document judged for every subtopic, as the track did; ~15% relevant) and the run."""
    rng = random.Random(seed)
    qrels, run = [], []
    for topic in range(1, TOPICS + 1):
        pool = [f"clueweb12-{rng.randint(0, 9999):04d}wb-{rng.randint(0, 99):02d}-{rng.randint(0, 99999):05d}"
                for _ in range(DEPTH + JUDGED)]  # fmt: skip
        pool = list(dict.fromkeys(pool))
        for doc in rng.sample(pool, JUDGED):
            for subtopic in range(1, SUBTOPICS + 1):
                qrels.append(f"{topic} {subtopic} {doc} {int(rng.random() < 0.15) * rng.choice([1, 2, 3])}")
        for rank, doc in enumerate(pool[:DEPTH], start=1):
            run.append(f"{topic} Q0 {doc} {rank} {-rank / 10:.4f} bench")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ndeval.qrels").write_text("\n".join(qrels) + "\n")
    (folder / "ndeval.run").write_text("\n".join(run) + "\n")
    return folder / "ndeval.qrels", folder / "ndeval.run"


def build_ndeval(source: Path) -> Path:
    """ndeval 4.5 from its unmodified source, built with -O2 in a temporary folder (never committed)."""
    binary = Path(tempfile.mkdtemp(prefix="ndeval_O2_")) / "ndeval"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(source), "-lm"], check=True, capture_output=True)
    return binary


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ndeval-src", type=Path, required=True, help="ndeval 4.5's ndeval.c, built here with -O2")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    if not shutil.which("gcc"):
        sys.exit("gcc is needed to build ndeval")
    for module in ("numpy", "metrics.cli.ir_ndeval"):
        spec = importlib.util.find_spec(module)
        if spec and spec.origin and not Path(importlib.util.cache_from_source(spec.origin)).exists():
            print(f"warning: {module} has no .pyc: each run compiles it (python -m compileall -q .venv metrics)")
    ndeval = build_ndeval(args.ndeval_src)
    qrels, run = generate(DATA)
    lines = sum(1 for _ in qrels.open())
    for flags in ([], ["-c", "-traditional"]):
        theirs = subprocess.run([str(ndeval), *flags, str(qrels), str(run)], capture_output=True, check=True).stdout
        ours = subprocess.run([PY, "-m", "metrics.ndeval", *flags, str(qrels), str(run)], capture_output=True).stdout
        if ours != theirs:
            sys.exit(f"outputs differ with {flags or 'no options'}")
    samples: dict[str, list[Sample]] = {"ours": [], "ndeval": []}
    for rep in range(args.reps):
        for tool, argv_ in (("ours", [PY, "-m", "metrics.ndeval"]), ("ndeval", [str(ndeval)])):
            sample = measure([*argv_, str(qrels), str(run)], None)
            samples[tool].append(sample)
            print(f"  rep {rep + 1}/{args.reps} {tool:7s} {sample.wall:7.3f} s wall {sample.cpu:6.2f} s CPU "
                  f"{sample.peak_mib:7.1f} MiB")  # fmt: skip
    pairs = list(zip(samples["ours"], samples["ndeval"], strict=True))
    print(
        f"\n{TOPICS} topics x {DEPTH} documents, {lines:,} subtopic judgments; outputs identical; median of {args.reps}"
    )
    print("| | ours | ndeval -O2 | ratio |")
    print("|---|---|---|---|")
    for label, attr, unit in (("wall", "wall", "s"), ("CPU", "cpu", "s"), ("peak RSS", "peak_mib", "MiB")):
        mine = median([getattr(s, attr) for s in samples["ours"]])
        theirs = median([getattr(s, attr) for s in samples["ndeval"]])
        ratio = median([getattr(a, attr) / max(getattr(b, attr), 1e-9) for a, b in pairs])
        print(f"| {label} | {mine:.3f} {unit} | {theirs:.3f} {unit} | {ratio:.1f}x |")


if __name__ == "__main__":
    main()

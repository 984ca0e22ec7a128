"""A tiny run against the floor of any Python run that loads numpy: issue 50's goal is ``python -m metrics QRELS RUN``
on a 7-line run and its qrels within 1.3x of ``python -c "import numpy"``.

    .venv/bin/python -m bench.library.tiny_start --reps 30

Each rep runs both, in alternating order (so load from other processes hits both), as whole processes; wall time
around each child and its CPU time (user + sys, from the kernel's accounting of children). Ratios: medians of the
per-rep pairs. Then what remains: ``python -X importtime`` of the tiny run, its imports beyond numpy's (those of
``import numpy`` itself removed) by their own time, with their cumulative time (which holds numpy's import where
one of them imports it first), medians over a few runs.

Compile the bytecode first where PYTHONDONTWRITEBYTECODE is set (``python -m compileall -q .venv/lib metrics``):
otherwise both commands compile every module they import, every time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.generate import SMALL_QRELS, SMALL_RUN
from bench.library.all_trec import median
from bench.paths import REPO

PY = sys.executable
GOAL = 1.3  # issue 50: the tiny run within 1.3x of `python -c "import numpy"`


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + sys) of one child run to completion; its output is dropped."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def import_times(argv: list[str]) -> dict[str, tuple[int, int]]:
    """module -> (self, cumulative) microseconds, from ``-X importtime`` of one run."""
    done = subprocess.run([PY, "-X", "importtime", *argv], cwd=REPO, capture_output=True, text=True, check=True)
    times = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        times[name.strip()] = (int(own), int(cumulative))
    return times


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--top", type=int, default=15, help="imports listed")
    ap.add_argument("--profiles", type=int, default=5, help="-X importtime runs whose medians are listed")
    args = ap.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="tiny_start_"))
    (folder / "small.run").write_text(SMALL_RUN)
    (folder / "small.qrels").write_text(SMALL_QRELS)
    ours = ["-m", "metrics", str(folder / "small.qrels"), str(folder / "small.run")]
    commands = {"ours": [PY, *ours], "numpy": [PY, "-c", "import numpy"]}
    samples: dict[str, list[tuple[float, float]]] = {"ours": [], "numpy": []}
    for rep in range(args.reps):
        for name in ("ours", "numpy") if rep % 2 == 0 else ("numpy", "ours"):
            samples[name].append(timed(commands[name]))
    load = os.getloadavg()
    print(f"{args.reps} interleaved reps; load average after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for index, what in enumerate(("wall", "CPU")):
        a, b = ([s[index] for s in samples[n]] for n in ("ours", "numpy"))
        ratio = median(x / y for x, y in zip(a, b, strict=True) if y)
        verdict = "met" if ratio <= GOAL else "NOT met"
        print(
            f"{what:4s}: ours {median(a):.3f} s, import numpy {median(b):.3f} s: {ratio:.2f}x (goal {GOAL}x: {verdict})"
        )
    floor = import_times(["-c", "import numpy"])
    profiles = [import_times(ours) for _ in range(args.profiles)]
    beyond = {name for name in profiles[0] if name not in floor}
    rows = sorted(
        ((median(p[n][0] for p in profiles if n in p), median(p[n][1] for p in profiles if n in p), n) for n in beyond),
        reverse=True,
    )
    print(f"\nimports beyond numpy's, by own time (medians of {args.profiles} runs of -X importtime):")
    print("| module | self ms | cumulative ms |\n|---|---:|---:|")
    for own, cumulative, name in rows[: args.top]:
        print(f"| {name} | {own / 1000:.1f} | {cumulative / 1000:.1f} |")
    total = median(sum(p[n][0] for n in beyond if n in p) for p in profiles)
    print(f"\nall {len(beyond)} of them, self times added: {total / 1000:.1f} ms")


if __name__ == "__main__":
    main()

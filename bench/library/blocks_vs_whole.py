"""The CLI's two ways of reading a text run, on one shape: its default (a large run of short queries is read in blocks
of whole queries, metrics.cli.ir_metrics._in_blocks) against ``--no-stream`` (read whole), ``-m all_trec --format
trec_eval`` with and without ``-q``, whole processes, the order alternating per rep.

    .venv/bin/python -m bench.generate --only short20k
    .venv/bin/python -m bench.library.blocks_vs_whole --shape short20k --reps 5

Wall, CPU (user + sys) and peak RSS of each child from /usr/bin/time; medians, and blocks/whole as the median of the
per-rep pairs. The outputs are compared byte for byte once per mode.
"""

from __future__ import annotations

import argparse
import filecmp
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.library.all_trec import median
from bench.library.compare_tools import PY, files
from bench.paths import REPO

WAYS = {"whole": ["--no-stream"], "blocks": []}
MODES = {"-q": ["-q"], "no -q": []}


def measure(argv: list[str], out: Path) -> tuple[float, float, float]:
    """Wall s, CPU s and peak MiB of one child; its stdout goes to ``out``."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as record, open(out, "w") as stdout:
        start = time.perf_counter()
        subprocess.run(
            ["/usr/bin/time", "-f", "%U %S %M", "-o", record.name, *argv], stdout=stdout, cwd=REPO, check=True
        )
        wall = time.perf_counter() - start
        user, system, peak = Path(record.name).read_text().split()[-3:]
    return wall, float(user) + float(system), int(peak) / 1024


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shape", default="short20k", help="bench/data/SHAPE.run and .qrels")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    qrels, run = files(args.shape)
    if not (qrels.exists() and run.exists()):
        sys.exit(f"missing bench/data/{args.shape}.*: run `python -m bench.generate --only {args.shape}` first")
    command = [PY, "-m", "metrics", str(qrels), str(run), "-m", "all_trec", "--format", "trec_eval"]
    folder = Path(tempfile.mkdtemp(prefix="blocks_vs_whole_"))
    samples: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for rep in range(args.reps):
        for mode, flags in MODES.items():
            for way in WAYS if rep % 2 == 0 else reversed(WAYS):
                sample = measure([*command, *flags, *WAYS[way]], folder / f"{way}{flags}.txt")
                samples.setdefault((way, mode), []).append(sample)
                print(f"  rep {rep + 1} {mode:5s} {way:6s} {sample[0]:.2f} s {sample[1]:.2f} s CPU {sample[2]:.0f} MiB")
    print(f"\n{args.shape}, {args.reps} reps\n")
    print("| mode | whole: wall, CPU, peak | blocks: wall, CPU, peak | blocks / whole: wall, CPU, memory | output |")
    print("|---|---|---|---|---|")
    for mode, flags in MODES.items():
        whole, blocks = samples["whole", mode], samples["blocks", mode]
        cells = [", ".join(f"{median(s[i] for s in way):.2f}" for i in range(3)) for way in (whole, blocks)]
        ratios = ", ".join(f"{median(b[i] / w[i] for w, b in zip(whole, blocks, strict=True)):.3f}x" for i in range(3))
        same = filecmp.cmp(folder / f"whole{flags}.txt", folder / f"blocks{flags}.txt", shallow=False)
        print(f"| {mode} | {cells[0]} | {cells[1]} | {ratios} | {'identical' if same else 'DIFFERENT'} |")


if __name__ == "__main__":
    main()

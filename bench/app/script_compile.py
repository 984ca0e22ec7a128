"""What does Streamlit's magic cost a first visit? Streamlit 1.67 empties its cache of compiled scripts when the last
session closes, so a visit to a server nobody else is on compiles app.py and the page again; with magic on it first
rewrites each script's syntax tree (``magic.add_magic``). Times both ways for app.py and every page script app.py
lists (the Playground twice: its hidden alias), medians of ``--reps``.

Run from the repository root:  .venv/bin/python -m bench.app.script_compile [--reps 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from streamlit.runtime.scriptrunner import magic

from bench.paths import REPO
from tests.page_scripts import page_scripts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    scripts = [REPO / "app.py", *page_scripts()]
    with_magic: dict[int, list[float]] = {i: [] for i in range(len(scripts))}
    without: dict[int, list[float]] = {i: [] for i in range(len(scripts))}
    for _ in range(args.reps):
        for i, path in enumerate(scripts):
            source = path.read_text(encoding="utf-8")
            start = time.perf_counter()
            compile(magic.add_magic(source, str(path)), str(path), "exec")
            middle = time.perf_counter()
            compile(source, str(path), "exec")
            with_magic[i].append(middle - start)
            without[i].append(time.perf_counter() - middle)
    print("| script | with magic (ms) | without (ms) |\n|---|---:|---:|")
    for i, path in enumerate(scripts):
        on, off = statistics.median(with_magic[i]) * 1000, statistics.median(without[i]) * 1000
        print(f"| {path.relative_to(REPO)} | {on:.0f} | {off:.0f} |")
    saved = sorted(
        (statistics.median(with_magic[i]) - statistics.median(without[i])) * 1000 for i in range(1, len(scripts))
    )
    print(f"\nSaved per page: {saved[0]:.0f}-{saved[-1]:.0f} ms, median {statistics.median(saved):.0f}")


if __name__ == "__main__":
    main()

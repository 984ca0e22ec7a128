"""The N-run leaderboard CLI on msmarco-like runs: wall time and peak memory for N runs against one run.

    python -m bench.generate --only msmarco,variants     # msmarco.run/.qrels and msmarco-v1..v4.run
    python -m bench.library.leaderboard_runs [--reps 3] [--runs 2,5]

Each measurement is a fresh process timed by /usr/bin/time (wall, max RSS), interleaved across the configurations
so load from other processes hits each one; medians are reported. "one run" is the single-run CLI,
``python -m metrics QRELS RUN``, on the same measures; "N runs" is ``ir-metrics-compare QRELS RUN ...`` (run as
``python -m metrics.cli.ir_metrics_compare``; paired t-test, Holm), which reads the runs one at a time and keeps only
their per-query values.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile

from bench.paths import DATA

MEASURES = "NDCG@10,AP,RR@10"


def measure(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of one process."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", "-o", tf.name, *argv],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wall, rss_kib = tf.read().split()[-2:]
    return float(wall), int(rss_kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--runs", default="2,5", help="comma list of N (each N >= 2)")
    options = parser.parse_args()
    qrels = DATA / "msmarco.qrels"
    runs = [DATA / "msmarco.run", *sorted(DATA.glob("msmarco-v*.run"))]
    counts = [int(n) for n in options.runs.split(",")]
    if not qrels.exists() or len(runs) < max(counts):
        sys.exit(f"missing data: run python -m bench.generate --only msmarco,variants (found {len(runs)} runs)")
    python = sys.executable
    configs = {"1 run (python -m metrics)": [python, "-m", "metrics", str(qrels), str(runs[0]), "-m", MEASURES]}
    for n in counts:
        configs[f"{n} runs (ir-metrics-compare)"] = [
            python, "-m", "metrics.cli.ir_metrics_compare", str(qrels), *map(str, runs[:n]), "-m", MEASURES, "--quiet",
        ]  # fmt: skip
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in configs}
    for _ in range(options.reps):
        for name, argv in configs.items():
            samples[name].append(measure(argv))
    base_wall = statistics.median(w for w, _ in samples[next(iter(configs))])
    base_rss = statistics.median(m for _, m in samples[next(iter(configs))])
    with open(runs[0], "rb") as f:
        rows = sum(1 for _ in f)
    print(f"msmarco-like runs of {rows:,} rows each; {MEASURES}; median of {options.reps} interleaved reps")
    print(f"{'configuration':<40} {'wall s':>8} {'x one run':>10} {'peak MiB':>9} {'x one run':>10}")
    for name, values in samples.items():
        wall = statistics.median(w for w, _ in values)
        rss = statistics.median(m for _, m in values)
        print(f"{name:<40} {wall:>8.2f} {wall / base_wall:>10.2f} {rss:>9.0f} {rss / base_rss:>10.2f}")


if __name__ == "__main__":
    main()

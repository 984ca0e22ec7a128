"""Where the test command's CPU goes: each test's busy CPU-seconds of the whole machine (every process: pytest's own,
and the app servers and Chromium a browser test drives), measured around the test with all tests on one pytest
worker, then added up by module. The test command is bound by the CPU on this 2-core machine (docs/performance.md, "The
test command"), so a module's CPU-seconds are what it adds to the command's wall time, halved. Linux only
(/proc/stat); run it on a quiet machine, since anything else running is counted too.

Run from the repository root:  .venv/bin/python -m bench.suite_cpu [--top 25] [pytest arguments; tests/browser if none]

The same module is the pytest plugin that records the tests (``-p bench.suite_cpu``, which the command adds).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bench.paths import REPO

OUT_ENV = "BENCH_SUITE_CPU_OUT"  # where the plugin writes one JSON line per test


def busy_cpu_seconds() -> float:
    """CPU-seconds the whole machine has been busy since boot (every core; idle and I/O wait left out)."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(n) for n in stat.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Record a test's setup, call and teardown together: a module's fixtures count where they are made."""
    out = os.environ.get(OUT_ENV)
    began_cpu, began = busy_cpu_seconds(), time.monotonic()
    try:
        return (yield)
    finally:
        if out:
            row = {"test": item.nodeid, "cpu": busy_cpu_seconds() - began_cpu, "wall": time.monotonic() - began}
            with open(out, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(row) + "\n")


def table(title: str, rows: list[tuple[str, float, float, int]], counted: bool = True) -> str:
    """A Markdown table of (name, CPU-seconds, wall seconds, tests) rows; ``counted``: with the tests column."""
    lines = [f"\n{title}\n", "| | busy CPU-s | wall s |" + (" tests |" if counted else ""),
             "|---|---:|---:|" + ("---:|" if counted else "")]  # fmt: skip
    for name, cpu, wall, count in rows:
        lines.append(f"| `{name}` | {cpu:.1f} | {wall:.1f} |" + (f" {count} |" if counted else ""))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--top", type=int, default=25, help="how many of the costliest tests to list")
    args, pytest_args = parser.parse_known_args()
    pytest_args = pytest_args or ["tests/browser"]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory(prefix="suite-cpu-") as folder:
        out = Path(folder) / "tests.jsonl"
        load = os.getloadavg()
        began_cpu, began = busy_cpu_seconds(), time.monotonic()
        command = [sys.executable, "-m", "pytest", "-p", "bench.suite_cpu", "-p", "no:xdist", "-q", *pytest_args]
        status = subprocess.run(command, cwd=REPO, env={**os.environ, OUT_ENV: str(out)}).returncode
        whole_cpu, whole = busy_cpu_seconds() - began_cpu, time.monotonic() - began
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
    by_module: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        module = by_module[row["test"].split("::")[0]]
        module[0] += row["cpu"]
        module[1] += row["wall"]
        module[2] += 1
    print(f"\n`pytest {' '.join(pytest_args)}` on one worker, commit {commit.strip()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average before {load[0]:.2f}: "
          f"exit {status}, {len(rows)} tests, {whole_cpu:.0f} busy CPU-seconds in {whole:.0f} s "
          f"({sum(r['cpu'] for r in rows):.0f} of them in the tests, the rest collection and start-up)")  # fmt: skip
    modules = sorted(((name, *values) for name, values in by_module.items()), key=lambda row: -row[1])
    print(table("By module:", modules))
    costliest = sorted(rows, key=lambda row: -row["cpu"])[: args.top]
    print(
        table(
            f"The {len(costliest)} costliest tests:",
            [(r["test"], r["cpu"], r["wall"], 1) for r in costliest],
            counted=False,
        )
    )
    sys.exit(status)


if __name__ == "__main__":
    main()

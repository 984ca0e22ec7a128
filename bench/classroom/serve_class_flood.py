"""One phone flooding a live poll beside a row of ordinary phones: are the others' answers still acknowledged at once,
and how many of the flood's taps reach the database?

The phones are Streamlit sessions over the app's websocket (bench/classroom/streamlit_phones.py), the server one
process on loopback with SQLite in a temporary folder (scripts/serve_class.py). Two rounds of the same question, in
the same run: first the ordinary phones alone (the reference), then the same number of new ordinary phones while one
more phone taps A, B, A, ... every ``--every`` ms without waiting for anything. Each ordinary phone taps once at a
random moment within ``--window`` seconds and waits for its "Answer sent". The database is read every 50 ms: each
new (student, answered at) pair is a write (the limit lets through at most one every 333 ms per student, so none
is missed).

Prints: per round, the ordinary phones' tap-to-acknowledged latency (median, p95, max) and their ratio (flood over
reference); the flood's taps sent and its writes, against the limit's bound (burst + rate x seconds,
ir_metrics_lab.core.classroom.limits).

Run from the repository root:
    .venv/bin/python -m bench.classroom.serve_class_flood [--phones 8] [--window 8] [--every 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import scripts.serve_class as cluster
from bench.classroom.streamlit_phones import Tab
from ir_metrics_lab.core.classroom import limits, questions
from ir_metrics_lab.core.classroom.store import Store, default_sqlite_url, dispose_engine
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, Scenario
from metrics.teaching.examples import EXAMPLES

WAIT_S = 60


async def watch_writes(store: Store, code: str, round_: int, seen: set, stop: asyncio.Event) -> None:
    while not stop.is_set():
        seen.update((a.student, a.answered_ms) for a in await asyncio.to_thread(store.answers, code, round_))
        await asyncio.sleep(0.05)


async def ordinary(tab: Tab, window: float, latencies: list[float]) -> None:
    await asyncio.sleep(random.uniform(0, window))
    tab.forget()
    tapped = time.monotonic()
    await tab.click(random.choice(("live_choice_A", "live_choice_B")))
    await tab.wait_for(lambda: tab.shows("Answer sent"), WAIT_S)
    latencies.append(time.monotonic() - tapped)


async def flood(tab: Tab, window: float, every_s: float) -> int:
    sent, deadline = 0, time.monotonic() + window
    while time.monotonic() < deadline:
        await tab.click(f"live_choice_{'AB'[sent % 2]}")
        sent += 1
        await asyncio.sleep(every_s)
    return sent


async def a_round(base: str, store: Store, code: str, phones: int, window: float, every_ms: float | None) -> dict:
    round_ = store.poll(code).round
    tabs = [Tab(base, "join", {"code": code}) for _ in range(phones)]
    flooder = Tab(base, "join", {"code": code}) if every_ms else None
    for tab in [*tabs, *([flooder] if flooder else [])]:
        await tab.open(WAIT_S)
    seen: set = set()
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch_writes(store, code, round_, seen, stop))
    latencies: list[float] = []
    started = time.monotonic()
    jobs = [ordinary(tab, window, latencies) for tab in tabs]
    results = await asyncio.gather(*jobs, *([flood(flooder, window, every_ms / 1000)] if flooder else []))
    elapsed = time.monotonic() - started
    await asyncio.sleep(0.5)
    stop.set()
    await watcher
    await asyncio.gather(*(tab.close() for tab in [*tabs, *([flooder] if flooder else [])]))
    latencies.sort()
    return {
        "latencies": latencies,
        "writes": len(seen),
        "flood_taps": results[-1] if flooder else 0,
        "seconds": elapsed,
    }


def summary(latencies: list[float]) -> str:
    p95 = latencies[min(len(latencies) - 1, round(0.95 * (len(latencies) - 1)))]
    return f"median {statistics.median(latencies):.2f} s, p95 {p95:.2f} s, max {latencies[-1]:.2f} s"


async def run(base: str, store: Store, phones: int, window: float, every_ms: float) -> None:
    scn = Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE])
    created = store.create_poll(questions.pick_better(scn, scn.ranking[-1], 1, "NDCG"))
    code, token = created.poll.code, created.teacher_token
    alone = await a_round(base, store, code, phones, window, None)
    store.reask(code, token, store.poll(code).question)
    flooded = await a_round(base, store, code, phones, window, every_ms)
    print(f"{phones} ordinary phones alone:        {summary(alone['latencies'])}; writes {alone['writes']}")
    print(f"{phones} ordinary phones beside a flood: {summary(flooded['latencies'])}")
    ratio = statistics.median(flooded["latencies"]) / statistics.median(alone["latencies"])
    print(f"median latency, flood over alone: {ratio:.2f}")
    flood_writes = flooded["writes"] - phones
    bound = limits.ANSWERS_BURST + limits.ANSWERS_PER_SECOND * flooded["seconds"]
    print(
        f"the flood: {flooded['flood_taps']} taps in {flooded['seconds']:.1f} s, {flood_writes} writes "
        f"(the limit's bound {bound:.0f}: {limits.ANSWERS_BURST} at once, then {limits.ANSWERS_PER_SECOND:g} a second)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--window", type=float, default=8.0)
    parser.add_argument("--every", type=float, default=20.0, help="ms between the flooding phone's taps")
    args = parser.parse_args()
    if not (1 <= args.phones <= 100 and 1 <= args.window <= 60 and args.every >= 1):
        parser.error("1-100 phones, a window of 1-60 s, a tap every 1 ms or more")
    with tempfile.TemporaryDirectory(prefix="irml-flood-") as folder:
        url = default_sqlite_url(Path(folder))
        with cluster.serving(1, url, balancer=False, logs=Path(folder)) as served:
            store = Store(url)
            try:
                asyncio.run(run(served.base, store, args.phones, args.window, args.every))
            finally:
                dispose_engine(url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

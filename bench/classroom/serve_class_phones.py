"""A lecture hall on one live poll: hundreds of phones as real Streamlit sessions, the projector's live count, and
what each phone costs the server.

Each phone is a session of the app speaking Streamlit's own websocket protocol (bench/classroom/streamlit_phones.py: the
BackMsg/ForwardMsg protobufs a browser sends and receives, its fragments' timers included), so one process plays
hundreds of them on this machine; the projector is one more session, on *Ask the class* through the teacher's link.
Loopback only: the app runs on 127.0.0.1 (one process, or ``--replicas N`` processes behind HAProxy started by
scripts/serve_class.py), its database is SQLite in a temporary folder or a throwaway PostgreSQL
(scripts/temporary_postgres.py). Bounded: at most 500 phones, rounds of at most 60 s.

What it does and prints, per run:

1. The poll: a two-choice question on the Playground's default list ("which list has the higher NDCG@5?"), opened
   through ir_metrics_lab.core.classroom.store; the projector joins by the teacher link and shows the answer count.
2. The server's CPU with the projector alone, ``--idle`` seconds (CPU of the server processes from /proc/PID/stat).
3. The phones join (``/join?code=...``, at most 10 at a time): joined, seconds to join them all.
4. The server's CPU and memory with every phone idle on the question: ms of CPU per second per phone (the increase
   over step 2, divided by the phones), MiB per phone (RSS increase over step 2).
5. ``--rounds`` rounds: every phone taps an answer at a random moment within ``--window`` seconds and waits for its
   "Answer sent"; the projector's count is timed as it arrives. Answers sent, acknowledged, in the database, and on
   the projector; the projector's latency from each acknowledged answer to the count including it (median, p95,
   max over all answers) and from the last answer of a round to the full count (per round); then the teacher
   reveals (the store's reveal, as the projector's button does) and every phone's reveal is timed twice: its reveal
   stream's message (ir_metrics_lab.classroom.reveal_stream: the answer and the phone's verdict; each phone follows
   its stream from the round's start, as its page's component does) and its page's rerun (the whole reveal, the
   worked formula included); with the server's CPU from the reveal to the last phone's rerun (per phone: what a
   reveal costs a core whatever the machine's load); then re-asks.
6. The server's CPU while the phones answer (ms per second), this client's own CPU (it shares the machine) and the
   load average at the start and at the end.

Run from the repository root:
    .venv/bin/python -m bench.classroom.serve_class_phones --phones 300 [--backend sqlite|postgres] [--replicas N]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import scripts.serve_class as cluster
from bench.classroom.streamlit_phones import Tab
from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.classroom import store as store_module
from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, Scenario  # the Playground's default list
from metrics.teaching.examples import EXAMPLES
from scripts.temporary_postgres import temporary_postgres

try:
    from ir_metrics_lab.classroom.reveal_stream import KEY as STREAM_KEY
except ImportError:  # the app before the reveal stream
    STREAM_KEY = ""

MAX_PHONES, MAX_WINDOW_S, MAX_ROUNDS = 500, 60, 10
JOINING_AT_ONCE = 10
CHOICES = ("live_choice_A", "live_choice_B", "live_choice_tie")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of the processes so far (/proc/PID/stat, all their threads)."""
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_mib(pids: list[int]) -> float:
    return sum(int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_SIZE for pid in pids) / (1 << 20)


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


@contextlib.contextmanager
def database(backend: str) -> Iterator[str]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="irml-bench-") as folder:
            yield store_module.default_sqlite_url(folder)
    else:
        with temporary_postgres() as url:
            yield url


def question() -> dict:
    """Which list has the higher NDCG@5: the Playground's default list, or it with its last document moved first?"""
    scn = Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE])
    return questions.pick_better(scn, scn.ranking[-1], 1, "NDCG")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.2f} s, p95 {pct(values, 0.95):.2f} s, max {max(values):.2f} s"


async def measure_cpu(pids: list[int], seconds: float) -> float:
    """ms of server CPU per second over ``seconds`` (the event loop keeps serving the phones meanwhile)."""
    before, start = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(seconds)
    return (cpu_seconds(pids) - before) / (time.monotonic() - start) * 1000


async def hall(base: str, pids: list[int], url: str, args) -> dict[str, object]:
    store = Store(url)
    created = store.create_poll(question())
    code, token = created.poll.code, created.teacher_token
    counts: list[tuple[float, int]] = []  # (time, count) as the projector's metric arrives

    def on_metric(_tab, label: str, value: str, at: float) -> None:
        if label == "Answers" and value.isdigit():
            counts.append((at, int(value)))

    projector = Tab(base, "ask-the-class", {"poll": code, "teacher": token}, on_metric=on_metric)
    await projector.open()
    await projector.wait_for(lambda: projector.seen.metrics.get("Answers") == "0", 60)
    figures: dict[str, object] = {}
    figures["cpu_projector_only_ms_s"] = await measure_cpu(pids, args.idle)
    rss_before = rss_mib(pids)

    phones = [Tab(base, "join", {"code": code}) for _ in range(args.phones)]
    gate = asyncio.Semaphore(JOINING_AT_ONCE)
    joined: list[Tab] = []

    async def join(phone: Tab) -> None:
        async with gate:
            with contextlib.suppress(Exception):
                await phone.open(timeout=120)
                if "live_choice_A" in phone.seen.widgets:
                    joined.append(phone)

    start = time.monotonic()
    await asyncio.gather(*(join(p) for p in phones))
    figures["joined"] = len(joined)
    replicas: dict[str, int] = {}
    for phone in joined:
        replicas[phone.replica or "-"] = replicas.get(phone.replica or "-", 0) + 1
    figures["per_replica"] = ", ".join(f"{name}: {n}" for name, n in sorted(replicas.items()))
    figures["join_s"] = time.monotonic() - start
    await asyncio.sleep(3)  # the last joins' runs settle
    idle = await measure_cpu(pids, args.idle)
    figures["cpu_idle_ms_s"] = idle
    figures["cpu_per_idle_phone_ms_s"] = (idle - figures["cpu_projector_only_ms_s"]) / max(len(joined), 1)
    rss_idle = rss_mib(pids)
    figures["rss_before_mib"], figures["rss_idle_mib"] = rss_before, rss_idle
    figures["rss_per_phone_mib"] = (rss_idle - rss_before) / max(len(joined), 1)

    rng = random.Random(args.seed)
    latencies: list[float] = []
    last_latencies: list[float] = []
    reveal_latencies: list[float] = []  # the page's rerun: the whole reveal, its worked formula included
    pushed_latencies: list[float] = []  # the stream's message: the answer and the phone's verdict
    reveal_cpu: list[float] = []  # server CPU seconds per phone, each round's reveal
    sent = acknowledged = in_database = on_projector = 0
    cpu_answering: list[float] = []
    for round_no in range(1, args.rounds + 1):
        poll_round = store.poll(code).round
        counts.clear()
        acks: list[float] = []

        async def answer(phone: Tab, delay: float, acks: list[float] = acks) -> None:
            nonlocal sent
            await asyncio.sleep(delay)
            phone.forget()
            sent += 1
            await phone.click(rng.choice(CHOICES))
            with contextlib.suppress(Exception):
                await phone.wait_for(lambda: phone.shows("Answer sent"), args.window + 60)
                acks.append(time.time())

        # each phone follows its reveal stream from the round's start, as its page's component does
        streams = [asyncio.ensure_future(_pushed_at(phone, 3 * args.window + 120)) for phone in joined]
        before, t0 = cpu_seconds(pids), time.monotonic()
        await asyncio.gather(*(answer(p, rng.uniform(0, args.window)) for p in joined))
        cpu_answering.append((cpu_seconds(pids) - before) / (time.monotonic() - t0) * 1000)
        acknowledged += len(acks)
        with contextlib.suppress(Exception):
            total = len(acks)
            await projector.wait_for(lambda: bool(counts) and counts[-1][1] >= total, 30)  # noqa: B023
        in_database += store.count(code, poll_round)
        on_projector += counts[-1][1] if counts else 0
        acks.sort()
        for n, acked in enumerate(acks, 1):
            shown = next((t for t, c in counts if c >= n and t >= acked), None)
            if shown is None:  # the count already included it before the phone heard back
                shown = next((t for t, c in counts if c >= n), None)
            if shown is not None:
                latencies.append(max(shown - acked, 0.0))
        full = next((t for t, c in counts if c >= len(acks)), None)
        if acks and full is not None:
            last_latencies.append(max(full - acks[-1], 0.0))
        print(
            f"  round {round_no}: {len(acks)} of {len(joined)} answers acknowledged; count on the projector "
            f"{counts[-1][1] if counts else '-'}; last answer to full count "
            f"{last_latencies[-1] if last_latencies else float('nan'):.2f} s",
            flush=True,
        )

        for phone in joined:
            phone.forget()
        before = cpu_seconds(pids)
        revealed_at = time.time()
        store.reveal(code, token)
        seen = await asyncio.gather(
            *(_reveal_seen(phone, revealed_at, args.window + 30) for phone in joined), return_exceptions=True
        )
        reveal_cpu.append((cpu_seconds(pids) - before) / max(len(joined), 1))
        reveal_latencies += [s for s in seen if isinstance(s, float)]
        pushed = await asyncio.gather(*streams, return_exceptions=True)
        pushed_latencies += [max(at - revealed_at, 0.0) for at in pushed if isinstance(at, float)]
        if round_no < args.rounds:
            asked_at = time.time()
            store.reask(code, token, question())
            await asyncio.gather(
                *(_new_round_seen(phone, asked_at, args.window + 30) for phone in joined), return_exceptions=True
            )
    figures.update(
        sent=sent,
        acknowledged=acknowledged,
        in_database=in_database,
        on_projector=on_projector,
        latency=spread(latencies),
        last_answer=", ".join(f"{v:.2f}" for v in last_latencies),
        last_answer_p95=pct(last_latencies, 0.95) if last_latencies else float("nan"),
        reveal=spread(reveal_latencies),
        reveal_seen=len(reveal_latencies),
        pushed=spread(pushed_latencies),
        pushed_seen=len(pushed_latencies),
        reveal_cpu_ms=statistics.median(reveal_cpu) * 1000 if reveal_cpu else float("nan"),
        cpu_answering_ms_s=statistics.mean(cpu_answering) if cpu_answering else 0.0,
    )
    await asyncio.gather(projector.close(), *(p.close() for p in phones))
    return figures


async def _pushed_at(phone: Tab, timeout: float) -> float | None:
    """When the phone's reveal stream (ir_metrics_lab.classroom.reveal_stream) brought the reveal; None where the
    page draws none (the app before it, measured with this benchmark for comparison)."""
    if STREAM_KEY not in phone.seen.components:
        return None
    event, _ = await phone.follow(STREAM_KEY, timeout)
    if event != "reveal":
        raise LookupError(f"the stream said {event}")
    return time.time()


async def _reveal_seen(phone: Tab, since: float, timeout: float) -> float:
    await phone.wait_for(lambda: phone.shows("The answer"), timeout)
    return time.time() - since


async def _new_round_seen(phone: Tab, since: float, timeout: float) -> float:
    await phone.wait_for(lambda: phone.seen.arrived.get("live_choice_A", 0) > since, timeout)
    return time.time() - since


def run(backend: str, args) -> dict[str, object]:
    with database(backend) as url, cluster.serving(args.replicas, url, balancer=args.replicas > 1) as served:
        own, load_start = own_cpu_seconds(), os.getloadavg()[0]
        figures = asyncio.run(hall(served.base, served.app_pids, url, args))
        figures["client_cpu_s"] = own_cpu_seconds() - own
        figures["load_start"], figures["load_end"] = load_start, os.getloadavg()[0]
        store_module.dispose_engine(url)
        return figures


def report(backend: str, args, f: dict[str, object]) -> None:
    where = f"{args.replicas} replicas behind HAProxy" if args.replicas > 1 else "one app process"
    print(f"\n{backend}, {where}: {args.phones} phones, {args.rounds} rounds of {args.window:.0f} s")
    print(f"  phones joined                 {f['joined']} of {args.phones} in {f['join_s']:.1f} s")
    if args.replicas > 1:
        print(f"  phones per replica            {f['per_replica']} (HAProxy's cookie)")
    print(
        f"  answers                       sent {f['sent']}, acknowledged {f['acknowledged']}, in the database "
        f"{f['in_database']}, on the projector {f['on_projector']}"
    )
    print(f"  projector latency per answer  {f['latency']}")
    print(f"  last answer to full count     {f['last_answer']} s per round (p95 {f['last_answer_p95']:.2f} s)")
    print(f"  reveal on the phones, pushed  {f['pushed_seen']} seen, {f['pushed']}")
    print(f"  whole reveal (page's rerun)   {f['reveal_seen']} seen, {f['reveal']}")
    print(f"  server CPU per phone's reveal {f['reveal_cpu_ms']:.1f} ms (median over rounds)")
    print(
        f"  server CPU                    {f['cpu_projector_only_ms_s']:.0f} ms/s projector alone; "
        f"{f['cpu_idle_ms_s']:.0f} ms/s with the phones idle = {f['cpu_per_idle_phone_ms_s']:.2f} ms/s per idle phone; "
        f"{f['cpu_answering_ms_s']:.0f} ms/s while they answer"
    )
    print(
        f"  server memory                 {f['rss_before_mib']:.0f} MiB before the phones, {f['rss_idle_mib']:.0f} MiB "
        f"with them = {f['rss_per_phone_mib']:.2f} MiB per phone"
    )
    print(f"  this client's CPU             {f['client_cpu_s']:.1f} s")
    print(f"  load average (1 min)          {f['load_start']:.1f} at the start, {f['load_end']:.1f} at the end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--window", type=float, default=20.0, help="seconds over which a round's answers arrive")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of CPU sampled with the phones idle")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--replicas", type=int, default=1, help="app processes; more than one go behind HAProxy")
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    if not (1 <= args.phones <= MAX_PHONES and 0 < args.window <= MAX_WINDOW_S and 1 <= args.rounds <= MAX_ROUNDS):
        parser.error(f"at most {MAX_PHONES} phones, {MAX_ROUNDS} rounds, windows of at most {MAX_WINDOW_S} s")
    if args.replicas > 1 and args.backend != "postgres":
        parser.error("several replicas share PostgreSQL: --backend postgres")
    for backend in ("sqlite", "postgres") if args.backend == "both" else (args.backend,):
        report(backend, args, run(backend, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

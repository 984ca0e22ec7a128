"""A shared task judged by a class on one app process: the judges as real Streamlit sessions on *Join a shared
task*, the projector on *Shared task*, and what it costs the server (issue #48: a judgment on the projector within
2 s).

The app runs on 127.0.0.1 (one process, scripts/serve_class.py), its database SQLite in a temporary folder or a
throwaway PostgreSQL (``--backend postgres``). The task is seeded through TaskStore as
bench/classroom/shared_task_judging.py does: the sample collection, teams of four each submitting one run (a fifth of
the judges are in no team), pool depth 10, two judges a document. Each judge is a session speaking Streamlit's
websocket protocol (bench/classroom/streamlit_phones.py) on ``/task?code=CODE``: the page gives it a student id in its
signed cookie (the cookie component's data, which a browser would store), and the bench joins that id to the task
through the store. Then the store closes submissions (the pool and assignments are drawn), each phone's page turns to
its judging panel by itself, and each judge reads its next document for ``--pace`` seconds (a random 0.5 to 1.5
times it), picks a grade in the radio and presses "Send grade" (ir_metrics_lab/classroom/task_judging.py), until
its documents are judged or ``--seconds`` have passed. The projector is one more session, on ``/shared-task`` by the
teacher link, whose judging board (ir_metrics_lab/classroom/task_board.py) refreshes every second.

Printed: judgments sent, acknowledged ("Grade n (...) sent." on the phone), in the database and on the projector;
the latency from each acknowledged judgment to the projector's "Judgments given" count including it (drawn in the
same fragment run as "Documents judged", which counts a document once, not each of its judges); the judge's
tap-to-acknowledged latency; server CPU (projector alone, judges waiting, judges judging: per judge); this client's
CPU; the load average at the start and the end. Bounded: at most 100 judges, ``--seconds`` at most 900.

Run from the repository root:
    .venv/bin/python -m bench.classroom.serve_task_judges --judges 60 --pace 6 [--backend postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import sys
import time

import scripts.serve_class as cluster
from bench.classroom.serve_class_phones import cpu_seconds, database, measure_cpu, own_cpu_seconds, pct, spread
from bench.classroom.shared_task_judging import DEPTH, PER_ITEM, team_run
from bench.classroom.streamlit_phones import Tab
from ir_metrics_lab.classroom.live_class import COOKIE_KEY
from ir_metrics_lab.classroom.task_judging import ALL_DONE, NOT_SENT
from ir_metrics_lab.core.classroom import identity
from ir_metrics_lab.core.classroom import store as store_module
from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.classroom.task_store import TaskStore
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.shared_task.collection import sample

MAX_JUDGES, MAX_SECONDS = 100, 900
JOINING_AT_ONCE = 10
PER_TEAM = 4
GRADE_KEY = "task_grade_"  # task_judging._key: one radio (and its Send button) per document
SENT = plain(") sent.")  # task_judging._send's "Grade 2 (relevant) sent.", as the page writes it (plain())
BUSY = plain(NOT_SENT)
GIVEN = "Judgments given"  # task_board._progress: "given / needed", one more per judgment
PORT = 8780


def current_grade(phone: Tab, done: set[str]) -> str | None:
    """The grade radio of the document the phone shows now (the latest drawn, not judged yet), if any."""
    keys = [k for k in phone.seen.widgets if k.startswith(GRADE_KEY) and k in phone.seen.options and k not in done]
    return max(keys, key=phone.seen.arrived.__getitem__) if keys else None


def student_of(phone: Tab, key: bytes) -> str | None:
    """The student id the page gave this phone: the signed token its cookie component asks the browser to keep."""
    data = phone.seen.components.get(COOKIE_KEY)
    return identity.verify(key, json.loads(data).get("token")) if data else None


async def session(base: str, pids: list[int], url: str, args) -> dict[str, object]:
    tasks = TaskStore(Store(url))
    documents, topics = sample()
    created = tasks.create_task("Bench", topics, documents, depth=DEPTH, per_item=PER_ITEM)
    code, token = created.task.code, created.teacher_token
    counts: list[tuple[float, int]] = []  # (time, judgments given) as the projector's metric arrives

    def on_metric(_tab, label: str, value: str, at: float) -> None:
        given = value.split("/")[0].strip()
        if label == GIVEN and given.isdigit():
            counts.append((at, int(given)))

    figures: dict[str, object] = {}
    projector = Tab(base, "shared-task", {"task": code, "teacher": token}, on_metric=on_metric)
    await projector.open()
    await projector.wait_for(lambda: projector.seen.metrics.get("Students") == "0", 60)  # the teams as they join
    figures["cpu_projector_only_ms_s"] = await measure_cpu(pids, args.idle)

    phones = [Tab(base, "task", {"code": code}) for _ in range(args.judges)]
    gate = asyncio.Semaphore(JOINING_AT_ONCE)
    key = Store(url).identity_key()
    students: dict[Tab, str] = {}

    async def open_phone(phone: Tab) -> None:
        async with gate:
            with contextlib.suppress(Exception):
                await phone.open(timeout=120)
                if student := student_of(phone, key):
                    students[phone] = student

    start = time.monotonic()
    await asyncio.gather(*(open_phone(p) for p in phones))
    figures["opened"], figures["open_s"] = len(students), time.monotonic() - start
    teams = args.judges // (PER_TEAM + 1)
    for n, student in enumerate(students.values()):
        tasks.join(code, student, f"team{n // PER_TEAM}" if n < teams * PER_TEAM else None)
    for team in range(teams):
        member = list(students.values())[team * PER_TEAM]
        tasks.submit_run(code, member, f"run{team}", team_run(team, documents.documents, topics), "run.txt")
    started = time.perf_counter()
    drawn = tasks.close_submissions(code, token)
    figures["draw_ms"] = (time.perf_counter() - started) * 1000
    figures["pool"], figures["needed"], figures["teams"] = len(drawn), sum(map(len, drawn.values())), teams

    def judging_shown(phone: Tab) -> bool:
        return current_grade(phone, set()) is not None or phone.shows(ALL_DONE)

    start = time.monotonic()
    shown = await asyncio.gather(
        *(phone.wait_for(lambda p=phone: judging_shown(p), 60) for phone in students), return_exceptions=True
    )
    figures["judging_shown"] = sum(s is None for s in shown)
    figures["turn_s"] = time.monotonic() - start
    await asyncio.sleep(2)  # the last pages' runs settle
    idle = await measure_cpu(pids, args.idle)
    figures["cpu_waiting_ms_s"] = idle
    figures["cpu_per_waiting_judge_ms_s"] = (idle - figures["cpu_projector_only_ms_s"]) / max(len(students), 1)

    rng = random.Random(args.seed)
    acks: list[float] = []
    taps: list[float] = []
    sent = unacknowledged = finished = 0
    deadline = time.monotonic() + args.seconds

    async def judge(phone: Tab) -> None:
        nonlocal sent, unacknowledged, finished
        done: set[str] = set()
        while (left := deadline - time.monotonic()) > 0:
            with contextlib.suppress(Exception):
                await phone.wait_for(lambda: current_grade(phone, done) is not None or phone.shows(ALL_DONE), left)
            grade_key = current_grade(phone, done)
            if grade_key is None:
                finished += phone.shows(ALL_DONE)
                return
            await asyncio.sleep(min(args.pace * rng.uniform(0.5, 1.5), max(deadline - time.monotonic(), 0)))
            if time.monotonic() >= deadline:
                return
            phone.forget()
            phone.choose(grade_key, rng.choice((0, 0, 1, 2, 3)))
            sent += 1
            tapped = time.time()
            await phone.press("Send grade")

            def answered(k: str = grade_key) -> bool:
                shown = (SENT, BUSY, ALL_DONE)
                return any(map(phone.shows, shown)) or current_grade(phone, {*done, k}) is not None

            with contextlib.suppress(Exception):
                await phone.wait_for(answered, 30)
            if phone.shows(SENT):
                acks.append(time.time())
                taps.append(acks[-1] - tapped)
            else:
                unacknowledged += 1
            done.add(grade_key)

    def whole_runs() -> int:  # the phones' runs of the whole page, not of a fragment alone
        return sum(phone.runs_finished - phone.fragment_runs_finished for phone in students)

    before, t0, first_count, whole_before = cpu_seconds(pids), time.monotonic(), len(counts), whole_runs()
    await asyncio.gather(*(judge(phone) for phone in students))
    judging_s = time.monotonic() - t0
    cpu_judging = (cpu_seconds(pids) - before) / judging_s * 1000
    with contextlib.suppress(Exception):
        total = len(acks)
        await projector.wait_for(lambda: bool(counts) and counts[-1][1] >= total, 30)
    snapshot = tasks.snapshot(code)
    board = [t for t, _ in counts[first_count:]]
    gaps = [later - earlier for earlier, later in itertools.pairwise(board)]
    acks.sort()
    latencies = []
    for n, acked in enumerate(acks, 1):
        seen_at = next((t for t, c in counts if c >= n and t >= acked), None)
        if seen_at is None:  # the count already included it before the phone heard back
            seen_at = next((t for t, c in counts if c >= n), None)
        if seen_at is not None:
            latencies.append(max(seen_at - acked, 0.0))
    figures.update(
        sent=sent,
        acknowledged=len(acks),
        unacknowledged=unacknowledged,
        finished=finished,
        in_database=sum(len(g) for g in snapshot.grades.values()),
        on_projector=counts[-1][1] if counts else 0,
        documents_judged=projector.seen.metrics.get("Documents judged", "-"),
        judging_s=judging_s,
        latency=spread(latencies),
        latency_p95=pct(latencies, 0.95) if latencies else float("nan"),
        within_2s=sum(v <= 2.0 for v in latencies),
        measured=len(latencies),
        tap=spread(taps),
        board_gaps=spread(gaps),
        whole_runs=whole_runs() - whole_before,
        cpu_judging_ms_s=cpu_judging,
        cpu_per_judge_ms_s=(cpu_judging - figures["cpu_projector_only_ms_s"]) / max(len(students), 1),
        cpu_per_judgment_ms=(cpu_judging * judging_s) / max(len(acks), 1),
    )
    await asyncio.gather(projector.close(), *(p.close() for p in phones))
    tasks.delete(code, token)
    return figures


def run(args) -> dict[str, object]:
    with (
        database(args.backend) as url,
        cluster.serving(1, url, balancer=False, port=args.port) as served,
    ):
        own, load_start = own_cpu_seconds(), os.getloadavg()
        figures = asyncio.run(session(served.base, served.app_pids, url, args))
        figures["client_cpu_s"] = own_cpu_seconds() - own
        figures["load_start"], figures["load_end"] = load_start, os.getloadavg()
        store_module.dispose_engine(url)
        return figures


def report(args, f: dict[str, object]) -> None:
    def load(values) -> str:
        return " / ".join(f"{v:.1f}" for v in values)

    print(f"\n{args.backend}, one app process: {args.judges} judges, pace {args.pace:g} s, at most {args.seconds:g} s")
    print(f"  judges' pages opened          {f['opened']} of {args.judges} in {f['open_s']:.1f} s")
    print(
        f"  task                          {f['teams']} team runs; pool {f['pool']} documents, {f['needed']} judgments "
        f"needed; drawn in {f['draw_ms']:.0f} ms; the judging panel on {f['judging_shown']} phones "
        f"{f['turn_s']:.1f} s later"
    )
    print(
        f"  judgments                     sent {f['sent']}, acknowledged {f['acknowledged']} "
        f"({f['unacknowledged']} not), in the database {f['in_database']}, on the projector {f['on_projector']}; "
        f"{f['finished']} judges finished in {f['judging_s']:.1f} s; Documents judged {f['documents_judged']}"
    )
    print(f"  acknowledged to projector     {f['latency']} ({f['within_2s']} of {f['measured']} within 2 s)")
    print(f"  tap to acknowledged           {f['tap']}")
    print(f"  projector's board, between    {f['board_gaps']} (its fragment asks every 1 s)")
    print(f"  phones' whole-page runs       {f['whole_runs']} while judging (the rest: fragments)")
    print(
        f"  server CPU                    {f['cpu_projector_only_ms_s']:.0f} ms/s projector alone; "
        f"{f['cpu_waiting_ms_s']:.0f} ms/s with the judges waiting = {f['cpu_per_waiting_judge_ms_s']:.1f} ms/s per "
        f"judge; {f['cpu_judging_ms_s']:.0f} ms/s while they judge = {f['cpu_per_judge_ms_s']:.1f} ms/s per judge, "
        f"{f['cpu_per_judgment_ms']:.0f} ms per judgment (all of it)"
    )
    print(f"  this client's CPU             {f['client_cpu_s']:.1f} s")
    print(f"  load average (1/5/15 min)     {load(f['load_start'])} at the start, {load(f['load_end'])} at the end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--judges", type=int, default=60)
    parser.add_argument("--pace", type=float, default=6.0, help="mean seconds a judge reads a document")
    parser.add_argument("--seconds", type=float, default=300.0, help="the judging stops after this many seconds")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of server CPU sampled while idle")
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--port", type=int, default=PORT, help="the app's port on 127.0.0.1")
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    if not (5 <= args.judges <= MAX_JUDGES and 0 < args.seconds <= MAX_SECONDS and 0 <= args.pace <= 60):
        parser.error(f"5 to {MAX_JUDGES} judges, --seconds up to {MAX_SECONDS}, --pace 0 to 60")
    report(args, run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

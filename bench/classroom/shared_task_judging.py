"""A shared task judged by 60 students on one process: the database and the projector's sums, not the pages.

The bundled sample collection (8 topics, 200 documents), 12 teams of four submitting one run each (30 documents a
topic, ranked by word overlap with the topic plus each team's own noise, so the runs overlap as real ones do), 12
judges in no team; pool depth 10, two judges a document. Then 60 threads judge their assignments as fast as the
database takes them (the worst case: a class clicks for a few minutes, not all at once), while a projector thread
does what the projector page will do every 0.5 s: read the snapshot, build the qrels, agreement per topic, the
disagreements and the leave-one-out table. ``--pace S``: each judge reads a document for a random 0.5 S to 1.5 S
seconds before grading it (a class at work, not a flood). Printed: the time to draw the pool and assignments, each
judgment's commit latency, and the projector's refresh time (median, p95, max).

    .venv/bin/python -m bench.classroom.shared_task_judging [--postgres] [--pace S]
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import threading
import time
from contextlib import nullcontext
from pathlib import Path

from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.classroom.task_store import TaskStore
from ir_metrics_lab.core.shared_task.agreement import agreement_per_topic
from ir_metrics_lab.core.shared_task.bias import leave_one_out
from ir_metrics_lab.core.shared_task.collection import sample
from ir_metrics_lab.core.shared_task.judgments import build_qrels, disagreements
from scripts.temporary_postgres import temporary_postgres

TEAMS, PER_TEAM, LONE_JUDGES, DEPTH, PER_ITEM, RANKED = 12, 4, 12, 10, 2, 30


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def team_run(team: int, documents, topics) -> bytes:
    """Team ``team``'s run: per topic, 30 documents by word overlap with the topic plus the team's own noise."""
    noise = random.Random(team)
    lines = []
    for topic in topics:
        asked = _words(topic.title + " " + topic.description)
        scored = sorted(documents, key=lambda d: -(len(asked & _words(d.title + " " + d.text)) + noise.random() * 3))
        lines += [f"{topic.id} Q0 {d.id} {r} {RANKED - r} team{team}" for r, d in enumerate(scored[:RANKED], start=1)]
    return ("\n".join(lines) + "\n").encode()


def _quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{statistics.median(ordered) * 1000:.1f} / {p95 * 1000:.1f} / {ordered[-1] * 1000:.1f} ms"


def _projector(tasks: TaskStore, code: str, done: threading.Event, refreshes: list[float]) -> None:
    while not done.is_set():
        started = time.perf_counter()
        snapshot = tasks.snapshot(code)
        qrels = build_qrels(snapshot.grades, snapshot.settled)
        agreement_per_topic(snapshot.grades, PER_ITEM)
        disagreements(snapshot.grades, snapshot.settled)
        rankings = {name: run.rankings for name, run in snapshot.runs.items()}
        leave_one_out(rankings, snapshot.pool(), qrels)
        refreshes.append(time.perf_counter() - started)
        done.wait(0.5)


def measure(url: str, pace: float = 0.0) -> None:
    documents, topics = sample()
    tasks = TaskStore(Store(url))
    created = tasks.create_task("Bench", topics, documents, depth=DEPTH, per_item=PER_ITEM)
    code, token = created.task.code, created.teacher_token
    students = [f"team{t}-{m}" for t in range(TEAMS) for m in range(PER_TEAM)] + [
        f"lone{j}" for j in range(LONE_JUDGES)
    ]
    for student in students:
        tasks.join(code, student, student.split("-")[0] if "-" in student else None)
    for team in range(TEAMS):
        tasks.submit_run(code, f"team{team}-0", f"run{team}", team_run(team, documents.documents, topics), "run.txt")
    started = time.perf_counter()
    drawn = tasks.close_submissions(code, token)
    print(f"pool {len(drawn)} documents, {sum(map(len, drawn.values()))} judgments over {len(students)} students; "
          f"drawn and assigned in {(time.perf_counter() - started) * 1000:.0f} ms")  # fmt: skip
    latencies: list[float] = []
    refreshes: list[float] = []
    done = threading.Event()
    projector = threading.Thread(target=_projector, args=(tasks, code, done, refreshes))
    projector.start()

    def judge(student: str) -> None:
        grades = random.Random(student)
        for topic, doc in tasks.my_items(code, student):
            time.sleep(pace * grades.uniform(0.5, 1.5))
            sent = time.perf_counter()
            tasks.judge(code, student, topic, doc, grades.choice((0, 0, 1, 2, 3)))
            latencies.append(time.perf_counter() - sent)

    started = time.perf_counter()
    judges = [threading.Thread(target=judge, args=(s,)) for s in students]
    for thread in judges:
        thread.start()
    for thread in judges:
        thread.join()
    wall = time.perf_counter() - started
    done.set()
    projector.join()
    kept = sum(len(g) for g in tasks.snapshot(code).grades.values())
    print(
        f"{len(latencies)} judgments sent, {kept} kept, in {wall:.1f} s; "
        f"commit median / p95 / max {_quantiles(latencies)}"
    )
    print(f"projector refresh ({len(refreshes)}): median / p95 / max {_quantiles(refreshes)}")
    tasks.delete(code, token)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL server instead of SQLite")
    parser.add_argument("--pace", type=float, default=0.0, help="mean seconds a judge reads a document (0: a flood)")
    args = parser.parse_args()
    postgres = args.postgres
    with temporary_postgres() if postgres else nullcontext() as pg_url, tempfile.TemporaryDirectory() as folder:
        url = pg_url or f"sqlite+pysqlite:///{Path(folder) / 'live_class.sqlite3'}"
        print("PostgreSQL" if postgres else "SQLite", f"pace {args.pace} s")
        measure(url, args.pace)


if __name__ == "__main__":
    main()

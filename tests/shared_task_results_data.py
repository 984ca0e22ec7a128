"""A shared task part-way through judging, for the results' tests (tests/test_shared_task_exports.py,
tests/test_app_task_results.py): six topics, four runs (one built by hand that skips a topic and ranks five documents;
one whose name is no file name), pool depth 5, two judges a document, one disagreement settled by the teacher, one
left open, and a few pooled documents not judged yet."""

from __future__ import annotations

import random

from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.classroom.task_store import Snapshot, TaskStore
from ir_metrics_lab.core.shared_task.collection import Collection, Document, Topic
from ir_metrics_lab.core.shared_task.runs import run_text

TOPICS = tuple(Topic(f"t{i}", f"Topic {i}", f"About {i}.") for i in range(1, 7))
DOCS = Collection(tuple(Document(f"d{i:02d}", f"Title {i}", f"Text {i}.") for i in range(1, 41)))
RUN_NAMES = ("bm25", "dense", "our/best *run*", "by hand")
DEPTH = 5


def _rankings(seed: int, topics, size: int) -> dict[str, list[str]]:
    draw = random.Random(seed)
    return {t.id: draw.sample([d.id for d in DOCS.documents[:20]], size) for t in topics}


def grade(topic: str, doc: str) -> int:
    """The judges' shared view: a fixed grade 0-3 per (topic, document), about half of them relevant."""
    return (int(topic[1:]) * 7 + int(doc[1:]) * 3) % 5 % 4


def build(url: str) -> tuple[TaskStore, str, str]:
    """The task in the database at ``url``: (store, code, teacher token)."""
    tasks = TaskStore(Store(url))
    created = tasks.create_task("Cycling <b>class</b>", TOPICS, DOCS, depth=DEPTH, per_item=2)
    code, token = created.task.code, created.teacher_token
    for student, team in (("s1", "red"), ("s2", "blue"), ("s3", "green"), ("s4", "hand")):
        tasks.join(code, student, team)
    for judge in ("j1", "j2", "j3", "j4"):
        tasks.join(code, judge, None)
    tasks.submit_run(code, "s1", RUN_NAMES[0], run_text(_rankings(1, TOPICS, 10), "bm25"))
    tasks.submit_run(code, "s2", RUN_NAMES[1], run_text(_rankings(2, TOPICS, 10), "dense"))
    tasks.submit_run(code, "s3", RUN_NAMES[2], run_text(_rankings(3, TOPICS, 12), "best"))
    tasks.submit_run(code, "s4", RUN_NAMES[3], run_text(_rankings(4, TOPICS[:5], 5)))
    drawn = tasks.close_submissions(code, token)
    items = sorted(drawn)
    disputed, settled = items[0], items[1]
    for index, ((topic, doc), judges) in enumerate(sorted(drawn.items())):
        if index % 9 == 8:
            continue  # not judged yet
        for slot, judge in enumerate(judges):
            given = grade(topic, doc)
            if (topic, doc) in (disputed, settled) and slot == 1:
                given = 3 - given  # the judges disagree
            tasks.judge(code, judge, topic, doc, given)
    tasks.settle(code, token, *settled, 2)
    return tasks, code, token


def snapshot(url: str) -> Snapshot:
    tasks, code, _ = build(url)
    found = tasks.snapshot(code)
    assert found is not None
    return found

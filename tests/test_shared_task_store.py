"""A shared task in the live class's database, on both back ends (SQLite in a temporary folder, a throwaway
PostgreSQL server, as tests/test_live_store.py runs them): a task created, runs submitted, the pool judged and settled,
every refusal of the issue (#48), nothing counted twice, and the task whole after the server restarts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import metrics
from ir_metrics_lab.core.classroom import store, task_store
from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.classroom.task_store import TaskError, TaskStore
from ir_metrics_lab.core.shared_task.bias import leave_one_out
from ir_metrics_lab.core.shared_task.collection import Collection, Document, Topic
from ir_metrics_lab.core.shared_task.judgments import build_qrels, disagreements
from metrics.core.errors import InputError

REPO = Path(__file__).resolve().parents[1]
TOPICS = (Topic("t1", "Flat tyres", "Repairs."), Topic("t2", "Lights", "At night."))
DOCS = Collection(tuple(Document(f"d{i}", f"Title {i}", f"Text {i}.") for i in range(1, 10)))
# Team red's run finds t1:d3 alone at depth 2, team blue's t1:d7 and t2:d9 (tests/test_shared_task_logic.py's A, B, C).
RUN_A = b"t1 Q0 d1 1 9 a\nt1 Q0 d2 2 8 a\nt1 Q0 d3 3 7 a\nt1 Q0 d4 4 6 a\nt2 Q0 d6 1 9 a\nt2 Q0 d5 2 8 a\n"
RUN_B = b"t1 Q0 d2 1 9 b\nt1 Q0 d7 2 8 b\nt1 Q0 d1 3 7 b\nt1 Q0 d8 4 6 b\nt2 Q0 d6 1 9 b\nt2 Q0 d9 2 8 b\n"
RUN_C = b"t1 Q0 d3 1 9 c\nt1 Q0 d1 2 8 c\nt1 Q0 d7 3 7 c\nt1 Q0 d2 4 6 c\nt2 Q0 d5 1 9 c\nt2 Q0 d6 2 8 c\n"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        database = f"sqlite+pysqlite:///{tmp_path / 'data' / store.SQLITE_FILE}"
        yield database
        store.dispose_engine(database)
        task_store._CREATED.discard(database)
    else:
        database = request.getfixturevalue("postgres_url")
        TaskStore(Store(database))  # the tables exist
        with store.engine_for(database).begin() as conn:  # each test starts from empty tables
            for table in (*task_store.CHILDREN, task_store.tasks):
                conn.execute(table.delete())
        yield database


def _task(url: str, per_item: int = 2):
    tasks = TaskStore(Store(url))
    created = tasks.create_task("Cycling", TOPICS, DOCS, depth=2, per_item=per_item)
    return tasks, created.task.code, created.teacher_token


def _with_runs(url: str, per_item: int = 2):
    """Three teams (red: runs A and C; blue: B), one judge in no team: 5 members."""
    tasks, code, token = _task(url, per_item)
    for student, team in (("ann", "red"), ("raj", "red"), ("bo", "blue"), ("bea", "blue"), ("jo", None)):
        tasks.join(code, student, team)
    tasks.submit_run(code, "ann", "A", RUN_A, "a.run")
    tasks.submit_run(code, "bo", "B", RUN_B, "b.run")
    tasks.submit_run(code, "raj", "C", RUN_C, "c.run")
    return tasks, code, token


def test_a_task_is_created_and_read_back_with_its_collection(url):
    tasks, code, token = _task(url)
    task = tasks.task(code.lower())
    assert (task.title, task.topics, task.depth, task.per_item, task.state) == ("Cycling", TOPICS, 2, 2, "submitting")
    assert tasks.documents(code)["d4"] == Document("d4", "Title 4", "Text 4.")
    assert tasks.is_teacher(code, token) and not tasks.is_teacher(code, token[:-1]) and not tasks.is_teacher(code, None)
    assert tasks.task("ZZZZZZZZ") is None
    for bad in ({"depth": 0}, {"depth": 101}, {"per_item": 0}, {"per_item": 6}):
        with pytest.raises(TaskError):
            tasks.create_task("Cycling", TOPICS, DOCS, **{"depth": 2, "per_item": 2, **bad})


def test_only_the_teacher_s_token_acts_as_teacher(url):
    tasks, code, token = _with_runs(url)
    for wrong in (None, "", code, token[:-1]):
        with pytest.raises(TaskError, match="teacher"):
            tasks.close_submissions(code, wrong)
        with pytest.raises(TaskError, match="teacher"):
            tasks.delete(code, wrong)
    tasks.close_submissions(code, token)
    with pytest.raises(TaskError, match="teacher"):
        tasks.settle(code, "nope", "t1", "d1", 2)
    with pytest.raises(TaskError, match="teacher"):
        tasks.close(code, None)
    assert tasks.task(code).state == "judging"


def test_a_student_joins_once(url):
    tasks, code, _ = _task(url)
    assert tasks.join(code, "ann", " red ") == "red"
    assert tasks.join(code, "ann", "red") == "red"  # a reload: nothing changes
    with pytest.raises(TaskError, match="already joined this task as team 'red'"):
        tasks.join(code, "ann", "blue")
    with pytest.raises(TaskError, match="no valid student id"):
        tasks.join(code, "not a valid id!", "red")
    with pytest.raises(TaskError, match="deleted or never existed"):
        tasks.join("ZZZZZZZZ", "bo", "red")
    with pytest.raises(store.PollError, match=r"^a team name needs at least one visible"):  # not "a nickname"
        tasks.join(code, "bo", "\u200b")
    assert tasks.snapshot(code).members == {"ann": "red"}


def test_runs_are_checked_replaced_by_their_team_and_refused_otherwise(url):
    tasks, code, token = _task(url)
    tasks.join(code, "ann", "red")
    tasks.join(code, "bo", "blue")
    tasks.join(code, "jo", None)
    tasks.submit_run(code, "ann", "A", RUN_B, "first.run")
    replaced = tasks.submit_run(code, "ann", "A", RUN_A, "a.run")
    assert replaced.rankings["t1"] == ("d1", "d2", "d3", "d4")
    with pytest.raises(InputError, match=r"unknown\.run, line 2: the collection has no document 'd99'") as caught:
        tasks.submit_run(code, "ann", "A", b"t1 Q0 d1 1 2 a\nt1 Q0 d99 2 1 a\n", "unknown.run")
    assert caught.value.code == "task-unknown-id"
    with pytest.raises(InputError) as caught:
        tasks.submit_run(code, "ann", "A", b"t1 Q0 d1 1 2 a\n" * 150_000, "big.run")
    assert caught.value.code == "task-too-large"
    with pytest.raises(TaskError, match="another team has a run named 'A'"):
        tasks.submit_run(code, "bo", "A", RUN_B)
    with pytest.raises(store.PollError, match=r"^a run name has at most \d+ characters"):
        tasks.submit_run(code, "ann", "A" * 500, RUN_B)
    with pytest.raises(TaskError, match="under a team's name"):
        tasks.submit_run(code, "jo", "J", RUN_B)
    with pytest.raises(TaskError, match="under a team's name"):
        tasks.submit_run(code, "stranger", "S", RUN_B)
    snapshot = tasks.snapshot(code)
    assert list(snapshot.runs) == ["A"] and snapshot.runs["A"].body == RUN_A.decode()  # the refused left no trace
    tasks.close_submissions(code, token)
    with pytest.raises(TaskError, match="submissions are closed"):
        tasks.submit_run(code, "bo", "B", RUN_B)


def test_runs_per_team_are_bounded(url, monkeypatch):
    monkeypatch.setattr(task_store, "RUNS_PER_TEAM", 2)
    tasks, code, _ = _task(url)
    tasks.join(code, "ann", "red")
    tasks.submit_run(code, "ann", "A", RUN_A)
    tasks.submit_run(code, "ann", "C", RUN_C)
    with pytest.raises(TaskError, match="at most 2 runs"):
        tasks.submit_run(code, "ann", "E", RUN_B)
    tasks.submit_run(code, "ann", "C", RUN_B)  # a replacement always fits


def test_closing_submissions_assigns_the_pool_avoiding_the_finding_team(url):
    tasks, code, token = _with_runs(url)
    drawn = tasks.close_submissions(code, token)
    snapshot = tasks.snapshot(code)
    assert snapshot.task.state == "judging" and snapshot.assigned == drawn
    assert sorted(drawn) == snapshot.pool().items() and len(drawn) == 7  # t1: d1 d2 d3 d7, t2: d5 d6 d9
    team = snapshot.members
    assert all(len(set(judges)) == 2 for judges in drawn.values())
    # t1:d3 and t2:d5 red's runs alone found (A and C): no red judge; t1:d7, t2:d9: no blue judge
    for item, finder in ((("t1", "d3"), "red"), (("t2", "d5"), "red"), (("t1", "d7"), "blue"), (("t2", "d9"), "blue")):
        assert all(team[j] != finder for j in drawn[item]), (item, drawn[item])
    loads = [sum(s in judges for judges in drawn.values()) for s in team]
    assert max(loads) - min(loads) <= 1  # 14 judgments over 5 students
    with pytest.raises(TaskError, match="closed already"):
        tasks.close_submissions(code, token)


def test_a_judgment_needs_an_assignment_and_counts_once(url):
    tasks, code, token = _with_runs(url)
    with pytest.raises(TaskError, match="judging is not open"):
        tasks.judge(code, "ann", "t1", "d1", 1)
    drawn = tasks.close_submissions(code, token)
    item, (first, second) = next(iter(drawn.items()))
    outsider = next(s for s in ("ann", "raj", "bo", "bea", "jo") if s not in (first, second))
    with pytest.raises(TaskError, match="not yours to judge"):
        tasks.judge(code, outsider, *item, 2)
    with pytest.raises(TaskError, match="not yours to judge"):
        tasks.judge(code, first, "t1", "d404", 2)
    with pytest.raises(TaskError, match="0, 1, 2 or 3"):
        tasks.judge(code, first, *item, 4)
    assert item in tasks.my_items(code, first)
    tasks.judge(code, first, *item, 2)
    assert item not in tasks.my_items(code, first)
    with pytest.raises(TaskError, match="judged this document already; your first grade counts"):
        tasks.judge(code, first, *item, 0)
    tasks.judge(code, second, *item, 3)
    assert tasks.snapshot(code).grades == {item: (2, 3)}  # slot order, each once
    tasks.close(code, token)
    with pytest.raises(TaskError, match="judging is closed"):
        tasks.judge(code, second, *next(i for i, j in drawn.items() if second in j and i != item), 1)
    tasks.reopen(code, token)
    assert tasks.task(code).state == "judging"


def test_a_student_s_assignment_is_counted_judged_or_not(url):
    tasks, code, token = _with_runs(url)
    assert tasks.assigned_count(code, "ann") == 0  # nothing is assigned before submissions close
    drawn = tasks.close_submissions(code, token)
    mine = sorted(item for item, judges in drawn.items() if "ann" in judges)
    assert tasks.assigned_count(code, "ann") == len(mine) > 0
    tasks.judge(code, "ann", *mine[0], 1)
    assert tasks.assigned_count(code, "ann") == len(mine)  # judged ones still count
    assert tasks.assigned_count(code, "nobody") == 0


def test_students_who_join_late_are_dealt_in(url):
    tasks, code, token = _with_runs(url)
    with pytest.raises(TaskError, match="while judging is open"):
        tasks.deal_in(code, token)
    drawn = tasks.close_submissions(code, token)
    item, (first, _) = next(iter(drawn.items()))
    tasks.judge(code, first, *item, 1)
    tasks.join(code, "late1", None)
    tasks.join(code, "late2", None)
    assert tasks.my_items(code, "late1") == []
    with pytest.raises(TaskError, match="teacher"):
        tasks.deal_in(code, None)
    moved = tasks.deal_in(code, token)
    after = tasks.snapshot(code).assigned
    assert moved == sum(a != b for item_ in drawn for a, b in zip(drawn[item_], after[item_], strict=True)) > 0
    assert sorted(after) == sorted(drawn) and all(len(set(js)) == 2 for js in after.values())
    assert first in after[item]  # the judged slot stayed
    loads = [sum(s in js for js in after.values()) for s in ("ann", "raj", "bo", "bea", "jo", "late1", "late2")]
    assert max(loads) - min(loads) <= 1 and sum(loads) == 14
    taken = next((i, s) for i in drawn for s in drawn[i] if s not in after[i])
    with pytest.raises(TaskError, match="not yours to judge"):
        tasks.judge(code, taken[1], *taken[0], 2)
    tasks.judge(code, "late1", *tasks.my_items(code, "late1")[0], 2)
    assert tasks.deal_in(code, token) == 0  # balanced: nothing more moves


def test_the_same_judgment_sent_at_once_from_many_threads_is_kept_once(url):
    tasks, code, token = _with_runs(url)
    drawn = tasks.close_submissions(code, token)
    item, judges = next(iter(drawn.items()))
    outcomes: list[str] = []

    def send(grade: int) -> None:
        try:
            tasks.judge(code, judges[0], *item, grade)
            outcomes.append(f"kept {grade}")
        except TaskError:
            outcomes.append("refused")

    workers = [threading.Thread(target=send, args=(g % 4,)) for g in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    kept = [o for o in outcomes if o.startswith("kept")]
    assert len(kept) == 1 and outcomes.count("refused") == 7
    assert tasks.snapshot(code).grades == {item: (int(kept[0][-1]),)}


def test_a_disagreement_is_settled_by_the_teacher_and_the_qrels_follow(url):
    tasks, code, token = _with_runs(url)
    drawn = tasks.close_submissions(code, token)
    item, (first, second) = next(iter(drawn.items()))
    tasks.judge(code, first, *item, 0)
    tasks.judge(code, second, *item, 3)
    snapshot = tasks.snapshot(code)
    assert [d.item for d in disagreements(snapshot.grades, snapshot.settled)] == [item]
    assert build_qrels(snapshot.grades, snapshot.settled)[item[0]][item[1]] == 0  # the lower median until settled
    with pytest.raises(TaskError, match="not in the pool"):
        tasks.settle(code, token, "t1", "d8", 1)  # in run B, below the depth
    tasks.settle(code, token, *item, 1)
    tasks.settle(code, token, *item, 2)  # settled again: changed, not added
    snapshot = tasks.snapshot(code)
    assert snapshot.settled == {item: 2}
    assert build_qrels(snapshot.grades, snapshot.settled)[item[0]][item[1]] == 2


def _judge_all(tasks: TaskStore, code: str, drawn: dict) -> dict:
    """Every judge grades as the worked example's qrels say (tests/test_shared_task_logic.py)."""
    truth = {"t1": {"d1": 0, "d2": 1, "d3": 1, "d7": 1}, "t2": {"d5": 0, "d6": 1, "d9": 1}}
    for (topic, doc), judges in drawn.items():
        for judge in judges:
            tasks.judge(code, judge, topic, doc, truth[topic][doc])
    return truth


def test_a_task_survives_a_restart_and_scores_as_the_library_does(url):
    tasks, code, token = _with_runs(url)
    truth = _judge_all(tasks, code, tasks.close_submissions(code, token))
    before = tasks.snapshot(code)
    store.dispose_engine(url)  # a new server process: a new pool, the tables found again
    task_store._CREATED.discard(url)
    again = TaskStore(Store(url)).snapshot(code)
    assert again == before
    qrels = build_qrels(again.grades, again.settled)
    assert qrels == truth
    rankings = {name: run.rankings for name, run in again.runs.items()}
    bias = {(b.run, b.measure): b for b in leave_one_out(rankings, again.pool(), qrels)}
    for name, run in again.runs.items():  # the scores equal the library's on the stored run file and the qrels
        means = metrics.evaluate(run.body.encode(), qrels, ["AP", "bpref", "infAP"], complete=True).means
        assert {m: bias[name, m].score for m in means} == pytest.approx(means)
    assert (bias["C", "AP"].rank, bias["C", "AP"].rank_without) == (2, 3)


def test_deleting_a_task_deletes_everything_it_holds(url):
    tasks, code, token = _with_runs(url)
    _judge_all(tasks, code, tasks.close_submissions(code, token))
    tasks.delete(code, token)
    assert tasks.task(code) is None and tasks.snapshot(code) is None
    with tasks.store.engine.connect() as conn:
        for table in task_store.CHILDREN:
            assert conn.execute(table.select().where(table.c.task == code)).first() is None


def test_tasks_on_one_database_are_bounded(url, monkeypatch):
    monkeypatch.setattr(task_store, "TASKS_MAX", 1)
    _task(url)
    with pytest.raises(TaskError, match="holds 1 tasks"):
        _task(url)


JUDGE = """
import sys
from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.classroom.task_store import TaskStore
tasks = TaskStore(Store(sys.argv[1]))
for line in sys.stdin:
    student, topic, doc = line.split()
    tasks.judge(sys.argv[2], student, topic, doc, 1)
    print(student, topic, doc, flush=True)  # acknowledged: committed
"""


def test_a_killed_server_keeps_every_acknowledged_judgment(url):
    tasks, code, token = _with_runs(url)
    drawn = tasks.close_submissions(code, token)
    work = [f"{judge} {topic} {doc}\n" for (topic, doc), judges in drawn.items() for judge in judges]
    judge = subprocess.Popen(
        [sys.executable, "-c", JUDGE, url, code], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    judge.stdin.write("".join(work[:6]))
    judge.stdin.flush()
    acknowledged = [judge.stdout.readline() for _ in range(6)]
    judge.send_signal(signal.SIGKILL)
    judge.wait(timeout=30)
    judge.stdin.close()
    judge.stdout.close()
    store.dispose_engine(url)
    kept = TaskStore(Store(url)).snapshot(code).grades
    assert sum(len(g) for g in kept.values()) == 6 and all(line.split() for line in acknowledged)

"""The shared task's judging in AppTest (tests/task_judging_page.py draws the two views): a phone judges its documents
to the end, a double tap on Send counts once, refusals and a database out are messages; the projector's board counts
judged / pool, reads the agreement, and lets only the teacher settle. The store is SQLite in a temporary folder
(IR_METRICS_LAB_DATA_DIR), seeded through TaskStore as tests/test_shared_task_store.py does."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.classroom import live_class, shared_task, task_judging
from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.classroom.task_store import TaskStore
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.shared_task.collection import Collection, Document, Topic

PAGE = str(Path(__file__).parent / "task_judging_page.py")
TOPICS = (Topic("t1", "Flat tyres", "How to repair a **flat** tyre."), Topic("t2", "Lights", "Riding at night."))
DOCS = Collection(tuple(Document(f"d{i}", f"Title <{i}>", f"Text of document {i}.") for i in range(1, 10)))
# At depth 2 the pool is t1: d1 d2 (A), d2 d7 (B), d3 d1 (C) -> 4 documents; t2: d6 d5, d6 d9, d5 d6 -> 3.
RUNS = {
    "A": b"t1 Q0 d1 1 9 a\nt1 Q0 d2 2 8 a\nt2 Q0 d6 1 9 a\nt2 Q0 d5 2 8 a\n",
    "B": b"t1 Q0 d2 1 9 b\nt1 Q0 d7 2 8 b\nt2 Q0 d6 1 9 b\nt2 Q0 d9 2 8 b\n",
    "C": b"t1 Q0 d3 1 9 c\nt1 Q0 d1 2 8 c\nt2 Q0 d5 1 9 c\nt2 Q0 d6 2 8 c\n",
}
POOL, JUDGES = 7, 2


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("IR_METRICS_LAB_DATA_DIR", str(tmp_path))
    cached = (live_class.store, shared_task.task_store, shared_task.documents)
    for function in cached:
        function.clear()
    yield
    for function in cached:
        function.clear()


@pytest.fixture
def task():
    """A task in judging: three teams' runs, four students (one judging in no team), two judges per document."""
    tasks = TaskStore(Store.from_environment())
    created = tasks.create_task("Cycling", TOPICS, DOCS, depth=2, per_item=JUDGES)
    code, token = created.task.code, created.teacher_token
    for student, team in (("ann", "red"), ("bo", "blue"), ("cy", "green"), ("jo", None)):
        tasks.join(code, student, team)
    for (name, body), student in zip(RUNS.items(), ("ann", "bo", "cy"), strict=True):
        tasks.submit_run(code, student, name, body, f"{name}.run")
    drawn = tasks.close_submissions(code, token)
    return tasks, code, token, drawn


def phone(code: str, student: str) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params.update({"view": "phone", "code": code, "student": student})
    at.run()
    assert not at.exception
    return at


def board(code: str, teacher: str | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params.update({"view": "board", "code": code, **({"teacher": teacher} if teacher else {})})
    at.run()
    assert not at.exception
    return at


def send(at: AppTest, grade: int | None) -> None:
    if grade is not None:
        at.radio[0].set_value(grade)
    at.button[0].click().run()  # "Send grade"
    assert not at.exception


def texts(at: AppTest) -> list[str]:
    return [e.value for kind in ("markdown", "success", "info", "warning", "error") for e in getattr(at, kind)]


def test_a_phone_judges_its_documents_one_at_a_time_to_the_end(task):
    tasks, code, _, drawn = task
    mine = sorted(item for item, judges in drawn.items() if "ann" in judges)
    at = phone(code, "ann")
    assert at.button[0].label == "Send grade"
    assert at.radio[0].label == "How relevant is this document to the topic?"
    assert at.radio[0].value is None  # no grade chosen for the reader
    assert at.radio[0].options[3] == "3 · highly relevant: exactly what the topic asks for"
    for n, (topic, doc) in enumerate(mine):
        assert f"{n} of {len(mine)} judged" in at.get("progress")[0].proto.text
        topic_title = next(t.title for t in TOPICS if t.id == topic)
        assert at.header[0].value == plain(f"Topic: {topic_title}")
        assert at.subheader[0].value == f"Title \\<{doc[1:]}\\>"  # the document's title, literally
        assert f"Text of document {doc[1:]}\\." in texts(at)
        send(at, n % 4)
        assert at.success[0].value.startswith(plain(f"Grade {n % 4} ("))
    assert tasks.snapshot(code).grades == {
        item: tuple(n % 4 for n, mine_item in enumerate(mine) if mine_item == item) for item in mine
    }
    assert at.success[-1].value == "All your documents are judged. Thank you."  # ours: no user text
    assert f"{len(mine)} of {len(mine)} judged" in at.get("progress")[0].proto.text
    assert not at.radio


def test_a_double_tap_on_send_counts_once(task):
    tasks, code, _, drawn = task
    first, second = sorted(item for item, judges in drawn.items() if "bo" in judges)[:2]
    at = phone(code, "bo")
    send(at, 2)
    send(at, None)  # the second tap of a double tap: it meets the next document's Send, no grade chosen
    assert at.warning[0].value == plain("Choose a grade first, then send it.")
    assert tasks.my_items(code, "bo")[0] == second  # the next document is not judged
    assert tasks.snapshot(code).grades == {first: (2,)}
    assert not at.error


def test_a_second_send_of_the_same_document_is_not_sent(task, monkeypatch):
    """The second tap reaching the server before the page moved on (here: the page keeps showing the document, as
    if its redraw had not arrived) sends nothing: the store sees one call, the phone no refusal."""
    tasks, code, _, drawn = task
    first = sorted(item for item, judges in drawn.items() if "bo" in judges)[0]
    calls = []
    judge = TaskStore.judge
    monkeypatch.setattr(TaskStore, "my_items", lambda self, code, student: [first])
    monkeypatch.setattr(TaskStore, "judge", lambda self, *args: calls.append(args) or judge(self, *args))
    at = phone(code, "bo")
    send(at, 2)
    assert at.radio[0].value == 2  # the same document, its grade still chosen
    send(at, None)
    assert len(calls) == 1 and not at.error
    assert tasks.snapshot(code).grades == {first: (2,)}


def test_a_refused_judgment_is_a_message_and_the_page_goes_on(task):
    tasks, code, token, drawn = task
    item = sorted(item for item, judges in drawn.items() if "jo" in judges)[0]
    tab_one, tab_two = phone(code, "jo"), phone(code, "jo")  # one student, two tabs on the same document
    send(tab_one, 3)
    send(tab_two, 0)
    assert tab_two.error[0].value == plain("You judged this document already; your first grade counts.")
    assert tasks.snapshot(code).grades[item] == (3,)
    assert "1 of" in tab_two.get("progress")[0].proto.text  # it moved on to the next document
    tasks.close(code, token)
    send(tab_one, 1)  # judging closed while the phone showed a document
    assert tab_one.error[0].value == plain("Judging is closed.")
    assert tab_one.info[0].value == "The teacher has closed judging. Thank you for your grades."
    assert not tab_one.radio


def test_a_database_out_keeps_the_grade_on_screen_to_send_again(task, monkeypatch):
    tasks, code, _, drawn = task
    item = sorted(item for item, judges in drawn.items() if "cy" in judges)[0]

    def out(*args, **kwargs):
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    at = phone(code, "cy")
    with monkeypatch.context() as patch:
        patch.setattr(TaskStore, "judge", out)
        send(at, 1)
    assert at.warning[0].value == plain(task_judging.NOT_SENT)
    assert at.radio[0].value == 1  # the grade chosen is still there
    assert tasks.snapshot(code).grades == {}
    send(at, None)  # sent again once the database is back
    assert tasks.snapshot(code).grades == {item: (1,)}


def test_a_student_without_documents_is_told_so(task):
    tasks, code, _, _ = task
    tasks.join(code, "late", None)  # after the pool was drawn: nothing assigned until the teacher deals in
    at = phone(code, "late")
    assert "no documents to judge yet" in at.info[0].value
    assert not at.radio


def _judge_t1_for_a_known_kappa(tasks: TaskStore, code: str, drawn: dict) -> None:
    """t1's four documents, both judges each, in slot order: (2,2) (0,0) (3,1) (1,1): Cohen's kappa 2/3 by hand
    (tests/test_shared_task_judging.py); t2: one grade of one document."""
    pairs = iter([(2, 2), (0, 0), (3, 1), (1, 1)])
    for item in sorted(i for i in drawn if i[0] == "t1"):
        for student, grade in zip(drawn[item], next(pairs), strict=True):
            tasks.judge(code, student, *item, grade)
    t2 = sorted(i for i in drawn if i[0] == "t2")[0]
    tasks.judge(code, drawn[t2][0], *t2, 3)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_the_board_counts_judged_over_pool_and_reads_agreement(task):
    tasks, code, _, drawn = task
    at = board(code)
    assert metrics(at) == {"Documents judged": f"0 / {POOL}", "Judgments given": f"0 / {POOL * JUDGES}",
                           "Qrels lines": "0"}  # fmt: skip
    _judge_t1_for_a_known_kappa(tasks, code, drawn)
    at.run()
    # judged: t1's 4 and one of t2's; single judgments: 8 + 1; the qrels hold each judged document once
    assert metrics(at) == {"Documents judged": f"5 / {POOL}", "Judgments given": f"9 / {POOL * JUDGES}",
                           "Qrels lines": "5"}  # fmt: skip
    table = next(m.value for m in at.markdown if m.value.startswith("| topic |"))
    rows = [
        ["t1 · Flat tyres", "4 / 4", "4", "Cohen's kappa 0.67 on 4 documents: substantial agreement."],
        ["t2 · Lights", "1 / 3", "0", "Not enough judgments yet: no document has all its 2 grades."],
    ]
    assert table.splitlines()[2:] == ["| " + " | ".join(plain(cell) for cell in row) + " |" for row in rows]
    assert at.header[-1].value == "Disagreements (1)"  # t1's (3, 1)
    assert any("grades given: 3, 1" in m.value for m in at.markdown)


def test_the_teacher_settles_a_disagreement_with_one_tap(task):
    tasks, code, token, drawn = task
    _judge_t1_for_a_known_kappa(tasks, code, drawn)
    item = sorted(i for i in drawn if i[0] == "t1")[2]  # the (3, 1) one
    at = board(code, token)
    (control,) = at.button_group
    assert control.label == "Settle: " + plain("Title <3>")  # t1's third document, d3
    assert control.options[2] == "2 relevant"
    control.set_value(2).run()
    assert not at.exception
    assert tasks.snapshot(code).settled == {item: 2}
    assert any("grades given: 3, 1 · settled: 2" in m.value for m in at.markdown)
    assert "1 of 1 settled." in [m.value for m in at.markdown]


@pytest.mark.parametrize("teacher", [None, "guessed-token"])
def test_no_settle_controls_without_the_teacher_s_token(task, teacher):
    tasks, code, _, drawn = task
    _judge_t1_for_a_known_kappa(tasks, code, drawn)
    at = board(code, teacher)
    assert at.header[-1].value == "Disagreements (1)"
    assert not at.get("button_group")
    assert not any("Tap a grade" in m.value for m in at.markdown)

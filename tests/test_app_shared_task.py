"""The shared task's pages in AppTest (issue #48): a teacher sets a task and runs it from the teacher link (not a
forged one), students join (a second join refused and not counted), submit a run file (a bad line named, the run
name kept) and a run built by hand, and the teacher closes submissions. The store is SQLite in a temporary folder
(IR_METRICS_LAB_DATA_DIR)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.classroom import live_class, shared_task
from ir_metrics_lab.core.classroom import identity
from ir_metrics_lab.core.classroom.store import shown_code
from tests.markdown_text import shown
from tests.page_scripts import page_script


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("IR_METRICS_LAB_DATA_DIR", str(tmp_path))
    cached = (live_class.store, live_class.join_limit, live_class.poll_limit, shared_task.task_store)
    for resource in (*cached, shared_task.documents):
        resource.clear()
    yield
    for resource in (*cached, shared_task.documents):
        resource.clear()


def teacher(**query: str) -> AppTest:
    at = AppTest.from_file(str(page_script("shared_task.py")), default_timeout=30)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def created() -> tuple[AppTest, str, str]:
    """A teacher's page that created a task on the sample collection, and the task's code and token."""
    at = teacher()
    at.button(key="task_create").click().run()
    assert not at.exception
    code, token = at.session_state["task_teacher"]
    return at, code, token


def phone(code: str, student: str | None = None) -> AppTest:
    """A student opening the join link: a new session, so a new student, unless ``student`` is given (the same
    browser's cookie: a second tab, a second scan)."""
    at = AppTest.from_file(str(page_script("join_task.py")), default_timeout=30)
    at.query_params["code"] = code
    if student:
        at.session_state["live_student"] = student
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def join(at: AppTest, team: str | None) -> AppTest:
    if team is None:
        at.radio(key="task_join_as").set_value("judge")
    else:
        at.text_input(key="task_team").set_value(team)
    at.button[0].click().run()  # the form's Join
    assert not at.exception
    return at


def teaching(at: AppTest) -> tuple[str, str] | None:
    """The task (code, token) the session runs, if any."""
    return at.session_state["task_teacher"] if "task_teacher" in at.session_state else None  # noqa: SIM401 (no .get)


def texts(at: AppTest) -> str:
    return "\n".join(
        e.value for kind in ("markdown", "caption", "success", "error", "warning", "info") for e in at.get(kind)
    )


def cookie_written(at: AppTest) -> str | None:
    """The value the page has the browser keep in the task's teacher cookie, or None if it writes none."""
    for element in at.get("bidi_component"):
        data = json.loads(element.proto.json)
        if data.get("name") == shared_task.TEACHER_COOKIE:
            return data["value"]
    return None


def test_a_task_is_created_with_its_code_qr_code_and_links():
    at, code, token = created()
    task = shared_task.task_store().task(code)
    assert (task.depth, task.per_item, task.state, len(task.topics)) == (10, 2, "submitting", 8)
    assert shown_code(code) in [m.value for m in at.markdown]
    assert "QR code of the join link" in str(at.get("image")[0].proto)
    assert f"/task?code={code}" in str(at.get("image")[0].proto)
    assert at.code == [] and token not in texts(at)  # the private expander is closed: its link is not in the page
    at.session_state["task_teacher_link"] = True  # the teacher opens it
    at.run()
    assert f"shared-task?task={code}&teacher={token}" in at.code[0].value
    assert token not in texts(at)
    assert cookie_written(at) == identity.teacher_cookie(code, token)
    assert [b.key for b in at.button] == ["task_close_submissions", "task_leave", "task_delete"]


def test_an_uploaded_collection_with_a_bad_line_is_refused_naming_the_line():
    at = teacher()
    at.text_input(key="task_title").set_value("My task")
    at.radio(key="task_source").set_value("upload").run()
    bad = b'{"id": "a", "title": "A", "text": "x"}\n{"id": "b", "title": "B"}\n'
    topics = b'{"id": "q1", "title": "Q", "description": ""}\n'
    at.file_uploader(key="task_docs_file").set_value(("docs.jsonl", bad, "application/octet-stream"))
    at.file_uploader(key="task_topics_file").set_value(("topics.jsonl", topics, "application/octet-stream"))
    at.run()
    at.button(key="task_create").click().run()
    assert not at.exception
    assert "docs.jsonl, line 2: the object has no 'text'" in shown(at.error[0].value)
    assert teaching(at) is None
    assert at.text_input(key="task_title").value == "My task"  # nothing typed lost


def test_the_teacher_link_runs_the_task_and_a_forged_one_does_not(monkeypatch):
    _, code, token = created()
    linked = teacher(task=code, teacher=token)
    assert teaching(linked) == (code, token)
    assert "task" not in linked.query_params and "teacher" not in linked.query_params
    assert linked.button(key="task_close_submissions")
    forged = teacher(task=code, teacher="guessed-token")
    assert "does not carry the task's teacher token" in shown(forged.error[0].value)
    assert teaching(forged) is None
    assert "task_close_submissions" not in [b.key for b in forged.button]
    # A restarted server: the browser's cookie brings the projector back to its task, not with a wrong token.
    held = {"value": identity.teacher_cookie(code, token)}
    monkeypatch.setattr(shared_task, "held_cookie", lambda: held["value"])
    assert teaching(teacher()) == (code, token)
    held["value"] = identity.teacher_cookie(code, "not-the-token")
    assert teaching(teacher()) is None


def test_joining_twice_is_refused_and_counted_once():
    _, code, _ = created()
    first = phone(code)
    student = first.session_state["live_student"]
    stale = phone(code, student)  # a second tab of the same browser, still showing the join form
    join(first, "Red *team*")
    assert shown(first.success[0].value) == "You joined team Red *team*."
    assert "You are in team Red \\*team\\*." in [m.value for m in first.markdown]
    join(stale, "Blue")
    assert "You are already in team Red *team*." in shown(stale.warning[0].value)
    assert "task_team" not in [box.key for box in phone(code, student).text_input]  # joined: no form
    judge = join(phone(code), None)
    assert "You are a judge in no team." in [m.value for m in judge.markdown]
    members = shared_task.task_store().snapshot(code).members
    assert members == {student: "Red *team*", judge.session_state["live_student"]: None}


def test_a_run_file_with_a_bad_line_is_refused_naming_it_and_nothing_is_lost():
    _, code, _ = created()
    at = join(phone(code), "Red")
    at.text_input(key="task_run_name").set_value("bm25")
    at.radio(key="task_how").set_value("file").run()
    bad = b"t1 Q0 d001 1 2.0 bm25\nt1 Q0 nope 2 1.0 bm25\n"
    at.file_uploader(key="task_run_file").set_value(("bm25.txt", bad, "text/plain"))
    at.run()
    at.button(key="task_submit_file").click().run()
    assert not at.exception
    assert "bm25.txt, line 2: the collection has no document" in shown(at.error[0].value)
    assert at.text_input(key="task_run_name").value == "bm25"
    assert shared_task.task_store().snapshot(code).runs == {}
    good = b"t1 Q0 d001 1 2.0 bm25\nt1 Q0 d002 2 1.0 bm25\n"
    at.file_uploader(key="task_run_file").set_value(("bm25.txt", good, "text/plain"))
    at.run()
    at.button(key="task_submit_file").click().run()
    assert "Run bm25 received" in shown(at.success[0].value)
    assert shared_task.task_store().snapshot(code).runs["bm25"].rankings == {"t1": ("d001", "d002")}


def search(at: AppTest, query: str) -> None:
    at.text_input(key="task_query").set_value(query).run()
    assert not at.exception


def added(at: AppTest, index: int) -> str:
    """Click the Add button of the search's hit ``index``; the document's id (from the button's label)."""
    button = at.button(key=f"task_add_{index}")
    doc = button.label.removeprefix("Add ")
    button.click().run()
    assert not at.exception
    return doc


def test_a_run_built_by_hand():
    _, code, _ = created()
    at = join(phone(code), "Red")
    at.text_input(key="task_run_name").set_value("by hand")
    at.button(key="task_submit_hand").click().run()
    assert shown(at.error[0].value) == "Pick at least one document for a topic first."
    search(at, "winter tyres")
    first, second, third = added(at, 0), added(at, 1), added(at, 2)
    assert at.button(key="task_add_0").disabled  # added already
    at.button(key="task_up_1").click().run()  # the second document moved up to rank 1
    at.button(key="task_drop_2").click().run()  # the third removed
    assert "removed from the ranking" in shown(at.info[0].value)
    at.button(key="task_submit_hand").click().run()
    assert "Run by hand received (1 topic)" in shown(at.success[0].value)
    run = shared_task.task_store().snapshot(code).runs["by hand"]
    assert run.rankings == {"t1": (second, first)} and third not in run.body
    assert run.body == f"t1 Q0 {second} 1 2 by-hand\nt1 Q0 {first} 2 1 by-hand\n"
    assert "| by hand | 1 | 2 |" in next(m.value for m in at.markdown if m.value.startswith("| run"))


def test_closing_submissions_draws_the_pool_and_opens_judging():
    at, code, _ = created()
    at.button(key="task_close_submissions").click().run()
    assert shown(at.error[0].value) == "No run has been submitted yet."
    team = join(phone(code), "Red")
    team.text_input(key="task_run_name").set_value("r1")
    search(team, "winter tyres")
    added(team, 0), added(team, 1)
    team.button(key="task_submit_hand").click().run()
    judge = join(phone(code), None)
    at.run()
    assert [m.value for m in at.metric] == ["2", "1", "1"]  # students, teams, runs
    at.button(key="task_close_submissions").click().run()
    # The pool: the one run's two documents (k = 10); each judged by 2 students, and there are 2.
    assert shown(at.success[0].value) == "Submissions closed: 2 pooled documents dealt to 2 judges."
    assert shared_task.task_store().task(code).state == "judging"
    # The projector: the judging board (none of the 2 pooled judged, 0 of 2 x 2 judgments, no qrels line yet) above
    # the results; the judge's phone: the first of its 2 documents.
    assert [m.value for m in at.metric][3:] == ["0 / 2", "0 / 4", "0"] and "The pool" in [h.value for h in at.subheader]
    assert "0 of 2 judged" in [p.text for p in judge.run().get("progress")]
    at.button(key="task_close").click().run()
    assert "Documents judged" not in [m.label for m in at.metric] and "Take it home" in [h.value for h in at.subheader]
    at.button(key="task_reopen").click().run()
    assert shared_task.task_store().task(code).state == "judging"


def test_a_database_that_does_not_answer_is_a_message_and_the_run_is_kept(monkeypatch):
    from sqlalchemy.exc import OperationalError

    from ir_metrics_lab.core.classroom.task_store import TaskStore

    _, code, _ = created()
    at = join(phone(code), "Red")
    at.text_input(key="task_run_name").set_value("r1")
    search(at, "winter tyres")
    first = added(at, 0)

    real, out = TaskStore.submit_run, {"now": True}

    def down(self, *args, **kwargs):
        if out["now"]:
            raise OperationalError("INSERT", {}, Exception("database is locked"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(TaskStore, "submit_run", down)
    at.button(key="task_submit_hand").click().run()
    assert not at.exception
    assert shown(at.warning[0].value) == "The class server is busy: nothing changed; try again in a moment."
    out["now"] = False
    at.button(key="task_submit_hand").click().run()  # the run built is still there: sent again as it was
    assert shared_task.task_store().snapshot(code).runs["r1"].rankings == {"t1": (first,)}

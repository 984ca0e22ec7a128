"""The live-class store on both back ends: SQLite (a file in a temporary folder) and a real PostgreSQL server (the
``postgres_url`` fixture, conftest.py: Debian's binaries, a throwaway cluster on a private Unix socket).
Every test runs on both."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from math import log2
from pathlib import Path

import pytest
import sqlalchemy as sa

from ir_metrics_lab.core.classroom import store
from ir_metrics_lab.core.classroom.store import NotTeacher, PollError, RoundOver, Store, UnknownPoll

REPO = Path(__file__).resolve().parents[1]
QUESTION = {"kind": "predict", "measure": "NDCG", "k": 5}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        database = f"sqlite+pysqlite:///{tmp_path / 'data' / store.SQLITE_FILE}"
        yield database
        store.dispose_engine(database)
    else:
        database = request.getfixturevalue("postgres_url")
        engine = store.engine_for(database)
        with engine.begin() as conn:  # each test starts from empty tables
            conn.execute(store.answers.delete())
            conn.execute(store.polls.delete())
        yield database


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_sqlite_file_is_created_on_first_use_in_the_data_folder(tmp_path, monkeypatch):
    folder = tmp_path / "nested" / "folder"
    monkeypatch.setenv(store.ENV_DATA_DIR, str(folder))
    monkeypatch.delenv(store.ENV_URL, raising=False)
    assert not folder.exists()
    created = Store.from_environment().create_poll(QUESTION)
    database = folder / store.SQLITE_FILE
    assert database.is_file()
    with store.engine_for(store.default_sqlite_url()).connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    assert Store.from_environment().poll(created.poll.code).question == QUESTION
    store.dispose_engine(store.default_sqlite_url())


def test_poll_hours_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV_DATA_DIR, str(tmp_path))
    monkeypatch.setenv(store.ENV_HOURS, "0.5")
    created = Store.from_environment().create_poll(QUESTION)
    assert created.poll.expires_ms - created.poll.created_ms == 30 * 60 * 1000
    monkeypatch.setenv(store.ENV_HOURS, "soon")
    with pytest.raises(ValueError, match="IR_METRICS_LAB_POLL_HOURS"):
        Store.from_environment()
    store.dispose_engine(store.default_sqlite_url())


def test_create_and_find_a_poll_by_its_typed_code(url):
    s = Store(url)
    created = s.create_poll(QUESTION)
    code = created.poll.code
    assert len(code) == 8 and set(code) <= set(store.CODE_ALPHABET)
    typed = f" {code[:4].lower()}-{code[4:]} "
    found = s.poll(typed)
    assert found.question == QUESTION and found.round == 1 and found.state == "open"
    assert s.poll("ZZZZZZZZ") is None


def test_only_the_token_s_hash_is_stored_and_only_the_token_acts_as_teacher(url):
    s = Store(url)
    first, second = s.create_poll(QUESTION), s.create_poll(QUESTION)
    with s.engine.connect() as conn:
        stored = conn.execute(sa.select(store.polls.c.token_sha256)).scalars().all()
    assert first.teacher_token not in stored and len(first.teacher_token) >= 40
    code = first.poll.code
    for token in (None, "", code, second.teacher_token, first.teacher_token[:-1]):
        for action in (s.reveal, s.close, s.reset):
            with pytest.raises(NotTeacher):
                action(code, token)
        with pytest.raises(NotTeacher):
            s.reask(code, token, QUESTION)
        assert not s.is_teacher(code, token)
    assert s.poll(code).state == "open"
    assert s.is_teacher(code, first.teacher_token)
    assert s.reveal(code, first.teacher_token).state == "revealed"


def test_one_answer_per_student_per_round_changed_until_the_reveal(url):
    s = Store(url)
    created = s.create_poll(QUESTION)
    code, token = created.poll.code, created.teacher_token
    s.answer(code, 1, "student-a", "0.5", "Ann")
    s.answer(code, 1, "student-a", "0.75")  # a change (or a reload posting again): still one answer
    s.answer(code, 1, "student-b", "0.8")
    assert s.count(code, 1) == 2
    assert {a.student: (a.value, a.nickname) for a in s.answers(code, 1)} == {
        "student-a": ("0.75", None),
        "student-b": ("0.8", None),
    }
    assert s.my_answer(code, 1, "student-a").value == "0.75"
    s.reveal(code, token)
    with pytest.raises(RoundOver):
        s.answer(code, 1, "student-a", "0.9")
    assert s.my_answer(code, 1, "student-a").value == "0.75"


def test_reask_opens_a_new_round_and_keeps_the_old_one(url):
    s = Store(url)
    created = s.create_poll(QUESTION)
    code, token = created.poll.code, created.teacher_token
    s.answer(code, 1, "a", "0.5")
    s.reveal(code, token)
    poll = s.reask(code, token, {**QUESTION, "k": 3})
    assert (poll.round, poll.state, poll.question["k"]) == (2, "open", 3)
    with pytest.raises(RoundOver):
        s.answer(code, 1, "a", "0.6")  # a phone still showing round 1
    s.answer(code, 2, "a", "0.6")
    assert [a.value for a in s.answers(code, 1)] == ["0.5"]
    assert [a.value for a in s.answers(code, 2)] == ["0.6"]


def test_reset_deletes_the_round_s_answers_and_reopens_it(url):
    s = Store(url)
    created = s.create_poll(QUESTION)
    code, token = created.poll.code, created.teacher_token
    s.answer(code, 1, "a", "0.5")
    s.reveal(code, token)
    poll = s.reset(code, token)
    assert poll.state == "open" and s.count(code, 1) == 0
    s.answer(code, 1, "a", "0.4")
    assert s.count(code, 1) == 1
    assert s.close(code, token).state == "closed"
    with pytest.raises(RoundOver):
        s.answer(code, 1, "b", "0.4")


def test_polls_expire_and_their_answers_are_deleted_with_them(url):
    clock = Clock()
    s = Store(url, hours=2, clock=clock)
    old, fresh = s.create_poll(QUESTION), None
    s.answer(old.poll.code, 1, "a", "0.5")
    clock.now += 1.5 * 3600
    fresh = s.create_poll(QUESTION)
    s.answer(fresh.poll.code, 1, "a", "0.5")
    clock.now += 0.5 * 3600 + 1  # old is 2 h + 1 s old; fresh 0.5 h
    assert s.poll(old.poll.code) is None
    with pytest.raises(UnknownPoll):
        s.answer(old.poll.code, 1, "b", "0.1")
    with pytest.raises(UnknownPoll):
        s.reveal(old.poll.code, old.teacher_token)
    assert s.purge_expired() == 1
    with s.engine.connect() as conn:
        left = conn.execute(sa.select(store.answers.c.poll_code)).scalars().all()
        codes = conn.execute(sa.select(store.polls.c.code)).scalars().all()
    assert left == [fresh.poll.code] and codes == [fresh.poll.code]


def test_nicknames_and_answers_are_bounded(url):
    s = Store(url)
    code = s.create_poll(QUESTION).poll.code
    s.answer(code, 1, "a", "1", "  <b>Ann</b>   $x$ ")
    assert s.my_answer(code, 1, "a").nickname == "<b>Ann</b> $x$"  # stored as typed (spaces collapsed)
    s.answer(code, 1, "b", "1", "x" * store.NICKNAME_MAX)
    with pytest.raises(PollError, match="at most 24"):
        s.answer(code, 1, "c", "1", "x" * (store.NICKNAME_MAX + 1))
    with pytest.raises(PollError):
        s.answer(code, 1, "c", "9" * (store.ANSWER_MAX_CHARS + 1))
    with pytest.raises(PollError):
        s.answer(code, 1, "", "1")
    s.answer(code, 1, "d", "1", "   ")
    assert s.my_answer(code, 1, "d").nickname is None


def test_control_characters_stop_at_the_door_the_same_on_both_back_ends(url):
    """A NUL nickname showed sqlalchemy.exc.DataError and a traceback on PostgreSQL (SQLite stored it): control and
    direction characters are removed from a nickname, refused in an answer or an id, dropped from a typed code."""
    s = Store(url)
    code = s.create_poll(QUESTION).poll.code
    s.answer(code, 1, "a", "1", "A\x00nn\u202e\x07")
    assert s.my_answer(code, 1, "a").nickname == "Ann"
    s.answer(code, 1, "b", "1", "Bo\tb\u200b")  # a tab is a blank; a zero-width space goes
    assert s.my_answer(code, 1, "b").nickname == "Bo b"
    assert s.poll(code[:4] + "\x00" + code[4:]).code == code
    assert s.poll("\x00") is None
    for student, value in (("c\x00", "1"), ("c", "1\x00"), ("../c", "1")):
        with pytest.raises(PollError):
            s.answer(code, 1, student, value)
    assert s.count(code, 1) == 2


@pytest.mark.parametrize("typed", ["\u200b\u200b\u200b", "\u3164", "\u2800 \u200d", "\u202e\u2066"])
def test_a_nickname_needs_a_visible_character(url, typed):
    s = Store(url)
    code = s.create_poll(QUESTION).poll.code
    with pytest.raises(PollError, match="visible"):
        s.answer(code, 1, "a", "1", typed)
    assert s.my_answer(code, 1, "a") is None
    s.answer(
        code, 1, "a", "1", "\U0001f469\u200d\U0001f4bb \u05e9\u05dc\u05d5\u05dd"
    )  # an emoji sequence: its joiner stays
    assert s.my_answer(code, 1, "a").nickname == "\U0001f469\u200d\U0001f4bb \u05e9\u05dc\u05d5\u05dd"


def test_open_polls_are_bounded(url, monkeypatch):
    """Opening polls in a loop from /ask-the-class cannot fill the database."""
    monkeypatch.setattr(store, "POLLS_MAX", 3)
    clock = Clock()
    s = Store(url, clock=clock)
    for _ in range(3):
        s.create_poll(QUESTION)
    with pytest.raises(PollError, match="3 open polls"):
        s.create_poll(QUESTION)
    clock.now += s.hours * 3600  # they expire: room again
    s.create_poll(QUESTION)


def test_one_key_signs_student_ids_for_every_replica(url):
    from ir_metrics_lab.core.classroom import identity

    first, second = Store(url), Store(url)
    assert first.identity_key() == second.identity_key() and len(first.identity_key()) == 32
    token = identity.issue(first.identity_key(), "student-1")
    assert identity.verify(second.identity_key(), token) == "student-1"
    assert identity.verify(second.identity_key(), "student-2." + token.split(".")[1]) is None
    assert identity.verify(second.identity_key(), "student-1") is None


def test_concurrent_answers_from_many_threads_are_all_kept(url):
    s = Store(url)
    code = s.create_poll(QUESTION).poll.code
    threads, errors = 8, []

    def student_group(group: int) -> None:
        try:
            for n in range(20):
                s.answer(code, 1, f"t{group}-{n}", f"{group}.{n}")
                s.answer(code, 1, f"t{group}-{n}", f"{group}.{n}1")  # every student changes the answer once
        except Exception as error:  # reported below: a thread's exception would otherwise vanish
            errors.append(error)

    workers = [threading.Thread(target=student_group, args=(g,)) for g in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    got = {a.student: a.value for a in s.answers(code, 1)}
    assert got == {f"t{g}-{n}": f"{g}.{n}1" for g in range(threads) for n in range(20)}


STUDENTS = """
import sys
from ir_metrics_lab.core.classroom.store import Store
s = Store(sys.argv[1])
for n in range(int(sys.argv[4])):
    s.answer(sys.argv[2], 1, f"p{sys.argv[3]}-{n}", str(n))
"""


def test_concurrent_answers_from_several_processes_are_all_kept(url):
    """Separate processes (as app replicas), each with its own connection pool, all writing at once."""
    code = Store(url).create_poll(QUESTION).poll.code
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    workers = [
        subprocess.Popen([sys.executable, "-c", STUDENTS, url, code, str(group), "40"], cwd=REPO, env=env)
        for group in range(4)
    ]
    assert [worker.wait(timeout=120) for worker in workers] == [0, 0, 0, 0]
    assert Store(url).count(code, 1) == 160


WRITER = """
import sys
from ir_metrics_lab.core.classroom.store import Store
s = Store(sys.argv[1])
for n in range(100000):
    s.answer(sys.argv[2], 1, f"s{n}", str(n))
    print(n, flush=True)  # acknowledged: the answer is committed
"""


def test_a_killed_server_keeps_every_acknowledged_answer(url):
    code = Store(url).create_poll(QUESTION).poll.code
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, url, code], cwd=REPO, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    acknowledged = []
    for line in writer.stdout:
        acknowledged.append(int(line))
        if len(acknowledged) == 50:
            writer.send_signal(signal.SIGKILL)  # mid-transaction, most likely: it writes without pause
            break
    writer.wait(timeout=30)
    # the lines it wrote before it died but we had not yet read were acknowledged too
    acknowledged += [int(line) for line in writer.stdout]
    writer.stdout.close()
    store.dispose_engine(url)  # a new server process: a new pool
    kept = {a.student for a in Store(url).answers(code, 1)}
    assert {f"s{n}" for n in acknowledged} <= kept
    assert len(kept) <= len(acknowledged) + 1  # at most the one in flight when killed


def test_question_is_stored_as_given(url):
    question = {"kind": "choice", "options": ["A", "B", "tie"], "title": "<script>alert(1)</script> ü"}
    s = Store(url)
    code = s.create_poll(question).poll.code
    assert s.poll(code).question == json.loads(json.dumps(question))


def test_a_question_with_aspects_round_trips_and_an_old_one_still_loads(url):
    """A diversity question stores the aspects (names as typed, any script) with its list; a question stored before
    questions had aspects (no "aspects", no "alpha") loads and scores as before."""
    from ir_metrics_lab.core.classroom import questions
    from ir_metrics_lab.core.scenario import Scenario

    scn = Scenario(("a", "b", "c"), grades={"a": 1, "b": 1, "c": 1}, k=3,
                   aspects={"a": ("prix",), "b": ("prix", "Reichweite"), "c": ("充電 <b>",)})  # fmt: skip
    question = questions.best_move(scn, "alpha_nDCG", alpha=0.25)
    s = Store(url)
    loaded = s.poll(s.create_poll(question).poll.code).question
    assert loaded == json.loads(json.dumps(question))
    assert questions.scenario(loaded) == scn and loaded["alpha"] == 0.25
    assert questions.right_answer(loaded) == questions.right_answer(question)

    old = {"kind": "predict", "measure": "NDCG", "k": 2, "decimals": 2, "scenario": {
        "ranking": ["a", "b"], "shelf": [], "tail": [], "grades": {"a": 0, "b": 1}, "titles": {}, "unjudged": [],
        "k": 2, "scale": 1, "conventions": {"threshold": 1, "gain": "linear", "idcg": "all",
                                            "ap_denominator": "all", "recall_rounding": "nearest"}}}  # fmt: skip
    with store.engine_for(url).begin() as conn:  # written as an earlier release wrote it
        conn.execute(store.polls.insert().values(code="OLDPOLL2", token_sha256="0" * 64, question=json.dumps(old),
                                                 round=1, state="open", created_ms=0, expires_ms=2**62))  # fmt: skip
    before = s.poll("OLDPOLL2").question
    assert questions.scenario(before).aspects == {}
    assert questions.right_answer(before) == f"{(1 / log2(3)) / 1:.2f}"  # b (grade 1) at rank 2: 1 / log2(3)

"""A shared task in the live class's database (ir_metrics_lab.core.classroom.store: the same engine, SQLite by
default, PostgreSQL for replicas, the same short retried transactions): the task, its members, runs, judge
assignments, judgments and the teacher's settlements. Tables of their own, created beside the polls' on first use.

A task lives until its teacher deletes it (a class reopens it next week); at most TASKS_MAX live on one database.

What the tables guarantee, whatever the pages do:

- **Teacher actions** (closing submissions, settling, closing, reopening, deleting) check the teacher token, stored
  as its SHA-256 as a poll's is.
- **One membership per student** (the signed cookie's id): joining again under the same team changes nothing; under
  another team it is refused.
- **Runs** are checked on arrival (ir_metrics_lab.core.shared_task.runs); a team replaces its own run of the same
  name until submissions close; another team's run name is refused. RUNS_MAX runs a task, RUNS_PER_TEAM a team.
- **Judgments**: one per (item, student), keyed so; refused without an assignment, a second time, or once judging is
  closed. Assignments are drawn when the teacher closes submissions (the pool is fixed then); students who join
  later are dealt in by the teacher (:meth:`TaskStore.deal_in`), which moves only documents not yet judged.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ir_metrics_lab.core.classroom.store import (
    CODE_ALPHABET,
    CODE_LENGTH,
    NICKNAME_MAX,
    RETRIES,
    PollError,
    Store,
    _dialect_insert,
    _sha256,
    clean_nickname,
    normalize_code,
    valid_student,
)
from ir_metrics_lab.core.shared_task.assignment import assign, deal_in
from ir_metrics_lab.core.shared_task.collection import ID_MAX, Collection, Document, Topic
from ir_metrics_lab.core.shared_task.pooling import Item, Pool, build_pool
from ir_metrics_lab.core.shared_task.runs import check_run

TASKS_MAX = 200
RUNS_MAX = 60
RUNS_PER_TEAM = 5
MEMBERS_MAX = 500
DEPTH_MAX = 100  # the pool depth k
JUDGES_MAX = 5  # judges per document
GRADES = range(4)  # 0-3
ALREADY_JUDGED = "you judged this document already; your first grade counts"

State = Literal["submitting", "judging", "closed"]

metadata = sa.MetaData()
_ID = sa.String(ID_MAX)
_TASK = sa.String(CODE_LENGTH)
tasks = sa.Table(
    "task_tasks",
    metadata,
    sa.Column("code", _TASK, primary_key=True),
    sa.Column("token_sha256", sa.String(64), nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("topics", sa.Text, nullable=False),  # JSON: [[id, title, description], ...]
    sa.Column("documents", sa.Text, nullable=False),  # JSON: [[id, title, text], ...]
    sa.Column("depth", sa.Integer, nullable=False),
    sa.Column("per_item", sa.Integer, nullable=False),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
)


def _task_fk() -> sa.Column:
    return sa.Column("task", _TASK, sa.ForeignKey("task_tasks.code", ondelete="CASCADE"), primary_key=True)


members = sa.Table(
    "task_members",
    metadata,
    _task_fk(),
    sa.Column("student", sa.String(32), primary_key=True),
    sa.Column("team", sa.String(NICKNAME_MAX), nullable=True),  # None: a judge in no team
    sa.Column("joined_ms", sa.BigInteger, nullable=False),
)
runs = sa.Table(
    "task_runs",
    metadata,
    _task_fk(),
    sa.Column("name", sa.String(NICKNAME_MAX), primary_key=True),
    sa.Column("team", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("student", sa.String(32), nullable=False),
    sa.Column("body", sa.Text, nullable=False),  # the run file as uploaded (decompressed)
    sa.Column("rankings", sa.Text, nullable=False),  # JSON {topic: [doc, ...]}, trec_eval's order
    sa.Column("submitted_ms", sa.BigInteger, nullable=False),
)
assignments = sa.Table(
    "task_assignments",
    metadata,
    _task_fk(),
    sa.Column("topic", _ID, primary_key=True),
    sa.Column("doc", _ID, primary_key=True),
    sa.Column("student", sa.String(32), primary_key=True),
    sa.Column("slot", sa.Integer, nullable=False),
)
judgments = sa.Table(
    "task_judgments",
    metadata,
    _task_fk(),
    sa.Column("topic", _ID, primary_key=True),
    sa.Column("doc", _ID, primary_key=True),
    sa.Column("student", sa.String(32), primary_key=True),
    sa.Column("grade", sa.SmallInteger, nullable=False),
    sa.Column("judged_ms", sa.BigInteger, nullable=False),
)
settlements = sa.Table(
    "task_settlements",
    metadata,
    _task_fk(),
    sa.Column("topic", _ID, primary_key=True),
    sa.Column("doc", _ID, primary_key=True),
    sa.Column("grade", sa.SmallInteger, nullable=False),
    sa.Column("settled_ms", sa.BigInteger, nullable=False),
)
CHILDREN = (settlements, judgments, assignments, runs, members)  # deleted before their task
# A task's row without its collection (up to collection.BYTES_MAX as JSON): what every action and refresh reads.
_HEAD = [column for column in tasks.c if column.name != "documents"]


class TaskError(PollError):
    """A shared-task action that cannot happen; the message is fit for the page."""


@dataclass(frozen=True, slots=True)
class Task:
    code: str
    title: str
    topics: tuple[Topic, ...]
    depth: int
    per_item: int
    state: State
    created_ms: int


@dataclass(frozen=True, slots=True)
class CreatedTask:
    task: Task
    teacher_token: str  # shown once, in the teacher's link


@dataclass(frozen=True, slots=True)
class SubmittedRun:
    name: str
    team: str
    rankings: Mapping[str, tuple[str, ...]]
    body: str
    submitted_ms: int


@dataclass(frozen=True)
class Snapshot:
    """All a page needs at one moment, read in one transaction: the pure logic (pooling, agreement, qrels, bias)
    takes it from here."""

    task: Task
    members: Mapping[str, str | None]  # student -> team
    runs: Mapping[str, SubmittedRun]
    assigned: Mapping[Item, tuple[str, ...]]  # item -> its judges in slot order
    grades: Mapping[Item, tuple[int, ...]]  # item -> the grades given so far, in slot order
    settled: Mapping[Item, int]

    def pool(self) -> Pool:
        rankings = {name: run.rankings for name, run in self.runs.items()}
        return build_pool(rankings, self.task.depth, [t.id for t in self.task.topics])

    def team_of_run(self) -> dict[str, str]:
        return {name: run.team for name, run in self.runs.items()}


_CREATED: set[str] = set()  # the databases whose task tables exist (checked once per process)


def _tables(url: str, engine: Engine) -> None:
    if url not in _CREATED:
        for attempt in range(RETRIES):  # several replicas may create them at once
            try:
                metadata.create_all(engine)
                break
            except sa.exc.DBAPIError:
                if attempt == RETRIES - 1:
                    raise
        _CREATED.add(url)


def _task(row: Mapping) -> Task:
    topics = tuple(Topic(*t) for t in json.loads(row["topics"]))
    return Task(row["code"], row["title"], topics, row["depth"], row["per_item"], row["state"], row["created_ms"])


class TaskStore:
    """The shared tasks of one database; ``store`` gives the engine, the clock and the write transaction."""

    def __init__(self, store: Store):
        self.store = store
        _tables(store.url, store.engine)
        self._postgres = store.engine.dialect.name == "postgresql"

    @classmethod
    def from_environment(cls) -> TaskStore:
        return cls(Store.from_environment())

    # --- the task -------------------------------------------------------------------------------------------------

    def create_task(
        self, title: str, topics: Sequence[Topic], collection: Collection, *, depth: int, per_item: int
    ) -> CreatedTask:
        """A new task, open for runs. ``depth``: the pool depth k (1 to DEPTH_MAX); ``per_item``: judges per
        document (1 to JUDGES_MAX)."""
        title = " ".join(str(title).split())
        if not 0 < len(title) <= 200 or not title.isprintable():
            raise TaskError("a task needs a title of 1 to 200 printable characters")
        if not (isinstance(depth, int) and 1 <= depth <= DEPTH_MAX):
            raise TaskError(f"the pool depth k is a whole number from 1 to {DEPTH_MAX}")
        if not (isinstance(per_item, int) and 1 <= per_item <= JUDGES_MAX):
            raise TaskError(f"each document is judged by 1 to {JUDGES_MAX} students")
        if not topics or not collection.documents:
            raise TaskError("a task needs at least one topic and one document")
        with self.store._read() as conn:
            if conn.execute(sa.select(sa.func.count()).select_from(tasks)).scalar_one() >= TASKS_MAX:
                raise TaskError(f"the class server holds {TASKS_MAX} tasks, its most; delete one first")
        token = secrets.token_urlsafe(32)
        row = {
            "token_sha256": _sha256(token),
            "title": title,
            "topics": json.dumps([[t.id, t.title, t.description] for t in topics]),
            "documents": json.dumps([[d.id, d.title, d.text] for d in collection.documents]),
            "depth": depth,
            "per_item": per_item,
            "state": "submitting",
            "created_ms": self.store._now_ms(),
        }
        for _ in range(RETRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                self.store._write(lambda conn, code=code: conn.execute(tasks.insert().values(code=code, **row)))
            except IntegrityError:  # the code is taken: draw another
                continue
            return CreatedTask(_task({"code": code, **row}), token)
        raise TaskError("could not draw a free join code")

    def task(self, code: str) -> Task | None:
        with self.store._read() as conn:
            row = conn.execute(sa.select(*_HEAD).where(tasks.c.code == normalize_code(code))).mappings().first()
        return _task(row) if row else None

    def documents(self, code: str) -> dict[str, Document]:
        """The task's collection, by id (read when a page shows or checks documents, not every second)."""
        with self.store._read() as conn:
            body = conn.execute(sa.select(tasks.c.documents).where(tasks.c.code == normalize_code(code))).scalar()
        if body is None:
            raise TaskError("this task was deleted or never existed")
        return {d[0]: Document(*d) for d in json.loads(body)}

    def is_teacher(self, code: str, token: str | None) -> bool:
        with self.store._read() as conn:
            stored = conn.execute(sa.select(tasks.c.token_sha256).where(tasks.c.code == normalize_code(code))).scalar()
        return bool(stored and token) and hmac.compare_digest(stored, _sha256(str(token)))

    def _locked(self, conn: Connection, code: str, *, token: str | None = None, teacher: bool = False) -> Mapping:
        """The task's row, locked for this transaction (shared for a student's write, exclusive for a teacher's);
        refused when it is gone or the token is not the teacher's."""
        query = sa.select(*_HEAD).where(tasks.c.code == normalize_code(code))
        if self._postgres:
            query = query.with_for_update(read=not teacher)
        row = conn.execute(query).mappings().first()
        if row is None:
            raise TaskError("this task was deleted or never existed")
        if teacher and (not token or not hmac.compare_digest(row["token_sha256"], _sha256(str(token)))):
            raise TaskError("only the teacher's link can do this")
        return row

    def _set_state(self, code: str, token: str | None, state: State, allowed: Sequence[str]) -> Task:
        def work(conn: Connection) -> Task:
            row = self._locked(conn, code, token=token, teacher=True)
            if row["state"] not in allowed:
                raise TaskError(f"the task is {row['state']}; this needs it {' or '.join(allowed)}")
            conn.execute(tasks.update().where(tasks.c.code == row["code"]).values(state=state))
            return _task({**row, "state": state})

        return self.store._write(work)

    def close(self, code: str, token: str | None) -> Task:
        """Judging stops; everything stays for the scores and the downloads."""
        return self._set_state(code, token, "closed", ("judging",))

    def reopen(self, code: str, token: str | None) -> Task:
        """Judging again (next week's class), on the same pool and assignments."""
        return self._set_state(code, token, "judging", ("closed",))

    def delete(self, code: str, token: str | None) -> None:
        def work(conn: Connection) -> None:
            row = self._locked(conn, code, token=token, teacher=True)
            for table in CHILDREN:  # SQLite enforces the foreign keys; deleting children first suits both
                conn.execute(table.delete().where(table.c.task == row["code"]))
            conn.execute(tasks.delete().where(tasks.c.code == row["code"]))

        self.store._write(work)

    # --- students -------------------------------------------------------------------------------------------------

    def join(self, code: str, student: str, team: str | None) -> str | None:
        """Make ``student`` a member under ``team`` (None: a judge in no team); returns the team. Joining again
        under the same team changes nothing; under another, it is refused."""
        if not valid_student(student):
            raise TaskError("this page has no valid student id; open the join link again")
        team = clean_nickname(team, "a team name")

        def work(conn: Connection) -> str | None:
            row = self._locked(conn, code)
            key = (members.c.task == row["code"], members.c.student == student)
            found = conn.execute(sa.select(members.c.team).where(*key)).first()
            if found is not None:
                if found.team != team:
                    raise TaskError(f"you already joined this task as {_as_team(found.team)}; one browser, one student")
                return team
            total = conn.execute(sa.select(sa.func.count()).select_from(members).where(key[0])).scalar_one()
            if total >= MEMBERS_MAX:
                raise TaskError(f"this task already has {MEMBERS_MAX} students")
            now = self.store._now_ms()
            conn.execute(members.insert().values(task=row["code"], student=student, team=team, joined_ms=now))
            return team

        try:
            return self.store._write(work)
        except IntegrityError:  # the same browser joining twice at the same moment: the other insert won
            raise TaskError("you joined this task already (twice at once); reload the page") from None

    def submit_run(self, code: str, student: str, name: str, data: bytes | str, file_name: str = "run") -> SubmittedRun:
        """Check and store ``student``'s team's run ``name``, replacing the team's run of that name.

        Raises
        ------
        metrics.core.errors.InputError
            The run's own refusals (ir_metrics_lab.core.shared_task.runs.check_run), naming the line.
        TaskError
            Not a member of a team, submissions closed, another team's name, too many runs.
        """
        name = clean_nickname(name, "a run name") or ""
        if not name:
            raise TaskError("a run needs a name")
        task = self.task(code)
        if task is None:
            raise TaskError("this task was deleted or never existed")
        checked = check_run(data, file_name, [t.id for t in task.topics], self.documents(code).keys())
        body = {t: list(d) for t, d in checked.rankings.items()}

        def work(conn: Connection) -> SubmittedRun:
            row = self._locked(conn, code)
            if row["state"] != "submitting":
                raise TaskError("submissions are closed: the pool is drawn")
            team = conn.execute(
                sa.select(members.c.team).where(members.c.task == row["code"], members.c.student == student)
            ).scalar()
            if team is None:
                raise TaskError("join the task under a team's name before submitting a run")
            _check_run_room(conn, row["code"], team, name)
            now = self.store._now_ms()
            fields = {"team": team, "student": student, "body": checked.text, "rankings": json.dumps(body)}
            insert = _dialect_insert(conn)(runs).values(task=row["code"], name=name, submitted_ms=now, **fields)
            conn.execute(
                insert.on_conflict_do_update(index_elements=["task", "name"], set_={**fields, "submitted_ms": now})
            )
            return SubmittedRun(name, team, checked.rankings, checked.text, now)

        return self.store._write(work)

    def my_items(self, code: str, student: str) -> list[Item]:
        """The items assigned to ``student`` not yet judged by them, in the pool's order."""
        code = normalize_code(code)
        judged = sa.select(judgments.c.topic, judgments.c.doc).where(
            judgments.c.task == code, judgments.c.student == student
        )
        query = (
            sa.select(assignments.c.topic, assignments.c.doc)
            .where(assignments.c.task == code, assignments.c.student == student)
            .where(sa.tuple_(assignments.c.topic, assignments.c.doc).not_in(judged))
            .order_by(assignments.c.topic, assignments.c.doc)
        )
        with self.store._read() as conn:
            return [(t, d) for t, d in conn.execute(query)]

    def assigned_count(self, code: str, student: str) -> int:
        """How many items ``student`` was given to judge, judged or not (a phone's "n of m judged")."""
        query = sa.select(sa.func.count()).select_from(assignments)
        query = query.where(assignments.c.task == normalize_code(code), assignments.c.student == student)
        with self.store._read() as conn:
            return conn.execute(query).scalar_one()

    def judge(self, code: str, student: str, topic: str, doc: str, grade: int) -> None:
        """Record ``student``'s grade of ``doc`` for ``topic``: once, only when assigned, only while judging."""
        if not (isinstance(grade, int) and grade in GRADES):
            raise TaskError(f"a grade is 0, 1, 2 or 3, not {grade!r}")

        def work(conn: Connection) -> None:
            row = self._locked(conn, code)
            if row["state"] != "judging":
                raise TaskError("judging is not open" if row["state"] == "submitting" else "judging is closed")
            key = (assignments.c.task == row["code"], assignments.c.topic == topic, assignments.c.doc == doc)
            if (
                conn.execute(sa.select(assignments.c.slot).where(*key, assignments.c.student == student)).first()
                is None
            ):
                raise TaskError("this document is not yours to judge")
            done = sa.select(judgments.c.grade).where(
                judgments.c.task == row["code"], judgments.c.topic == topic, judgments.c.doc == doc
            )
            if conn.execute(done.where(judgments.c.student == student)).first() is not None:
                raise TaskError(ALREADY_JUDGED)
            values = {"topic": topic, "doc": doc, "student": student, "grade": grade}
            conn.execute(judgments.insert().values(task=row["code"], judged_ms=self.store._now_ms(), **values))

        try:
            self.store._write(work)
        except IntegrityError:  # the same judgment sent twice at once: the other one was kept
            raise TaskError(ALREADY_JUDGED) from None

    # --- the teacher ----------------------------------------------------------------------------------------------

    def close_submissions(self, code: str, token: str | None) -> dict[Item, tuple[str, ...]]:
        """Draw the pool from the runs in, assign its documents to the members (all who joined, in a team or
        not; never the team whose runs alone found a document, when enough others are there) and open judging.
        Returns the assignment."""

        def work(conn: Connection) -> dict[Item, tuple[str, ...]]:
            row = self._locked(conn, code, token=token, teacher=True)
            if row["state"] != "submitting":
                raise TaskError("submissions are closed already")
            snapshot = _snapshot(conn, row)
            if not snapshot.runs:
                raise TaskError("no run has been submitted yet")
            if not snapshot.members:
                raise TaskError("no student has joined to judge")
            pool = snapshot.pool()
            drawn = assign(
                pool.items(),
                list(snapshot.members),
                row["per_item"],
                team_of_judge={s: t for s, t in snapshot.members.items() if t is not None},
                found_only_by=pool.found_only_by_team(snapshot.team_of_run()),
                seed=row["code"],
            )
            rows = [
                {"task": row["code"], "topic": t, "doc": d, "student": s, "slot": slot}
                for (t, d), judges in drawn.items()
                for slot, s in enumerate(judges)
            ]
            if rows:
                conn.execute(assignments.insert(), rows)
            conn.execute(tasks.update().where(tasks.c.code == row["code"]).values(state="judging"))
            return drawn

        return self.store._write(work)

    def deal_in(self, code: str, token: str | None) -> int:
        """Spread the documents not yet judged over every member again, those who joined after the draw among them
        (ir_metrics_lab.core.shared_task.assignment.deal_in); returns how many moved. A judged document stays with
        its judge; one moved from a student is refused to them from then on ("not yours to judge")."""

        def work(conn: Connection) -> int:
            row = self._locked(conn, code, token=token, teacher=True)
            if row["state"] != "judging":
                raise TaskError("new judges are dealt in while judging is open")
            snapshot = _snapshot(conn, row)
            judged_rows = sa.select(judgments.c.topic, judgments.c.doc, judgments.c.student)
            judged = {((t, d), s) for t, d, s in conn.execute(judged_rows.where(judgments.c.task == row["code"]))}
            pool = snapshot.pool()
            spread = deal_in(
                snapshot.assigned,
                judged,
                list(snapshot.members),
                team_of_judge={s: t for s, t in snapshot.members.items() if t is not None},
                found_only_by=pool.found_only_by_team(snapshot.team_of_run()),
                seed=row["code"],
            )
            moved = 0
            for (topic, doc), judges in spread.items():
                for before, after in zip(snapshot.assigned[topic, doc], judges, strict=True):
                    if before != after:
                        key = (
                            assignments.c.task == row["code"],
                            assignments.c.topic == topic,
                            assignments.c.doc == doc,
                        )
                        conn.execute(
                            assignments.update().where(*key, assignments.c.student == before).values(student=after)
                        )
                        moved += 1
            return moved

        return self.store._write(work)

    def settle(self, code: str, token: str | None, topic: str, doc: str, grade: int) -> None:
        """The teacher's grade for a pooled document (a disagreement settled); settling again changes it."""
        if not (isinstance(grade, int) and grade in GRADES):
            raise TaskError(f"a grade is 0, 1, 2 or 3, not {grade!r}")

        def work(conn: Connection) -> None:
            row = self._locked(conn, code, token=token, teacher=True)
            key = (assignments.c.task == row["code"], assignments.c.topic == topic, assignments.c.doc == doc)
            if conn.execute(sa.select(assignments.c.slot).where(*key).limit(1)).first() is None:
                raise TaskError("this document is not in the pool")
            fields = {"grade": grade, "settled_ms": self.store._now_ms()}
            insert = _dialect_insert(conn)(settlements).values(task=row["code"], topic=topic, doc=doc, **fields)
            conn.execute(insert.on_conflict_do_update(index_elements=["task", "topic", "doc"], set_=fields))

        self.store._write(work)

    def snapshot(self, code: str) -> Snapshot | None:
        """The task with its members, runs, assignments, judgments and settlements, read at one moment; None when
        there is no such task."""
        with self.store._read() as conn:
            row = conn.execute(sa.select(*_HEAD).where(tasks.c.code == normalize_code(code))).mappings().first()
            return None if row is None else _snapshot(conn, row)


def _as_team(team: str | None) -> str:
    return f"team {team!r}" if team else "a judge in no team"


def _check_run_room(conn: Connection, code: str, team: str, name: str) -> None:
    """Refuse another team's run name, and a new run past RUNS_MAX or RUNS_PER_TEAM (a replacement always fits)."""
    owner = conn.execute(sa.select(runs.c.team).where(runs.c.task == code, runs.c.name == name)).scalar()
    if owner is not None:
        if owner != team:
            raise TaskError(f"another team has a run named {name!r}; pick another name")
        return
    counted = sa.select(sa.func.count()).select_from(runs).where(runs.c.task == code)
    if conn.execute(counted).scalar_one() >= RUNS_MAX:
        raise TaskError(f"this task has {RUNS_MAX} runs, its most")
    if conn.execute(counted.where(runs.c.team == team)).scalar_one() >= RUNS_PER_TEAM:
        raise TaskError(f"a team submits at most {RUNS_PER_TEAM} runs; replace one by submitting under its name")


def _snapshot(conn: Connection, row: Mapping) -> Snapshot:
    code = row["code"]
    team_of = {
        s: t for s, t in conn.execute(sa.select(members.c.student, members.c.team).where(members.c.task == code))
    }
    submitted = {
        r.name: SubmittedRun(
            r.name, r.team, {t: tuple(d) for t, d in json.loads(r.rankings).items()}, r.body, r.submitted_ms
        )
        for r in conn.execute(sa.select(runs).where(runs.c.task == code).order_by(runs.c.submitted_ms, runs.c.name))
    }
    assigned: dict[Item, list[str]] = {}
    query = sa.select(assignments.c.topic, assignments.c.doc, assignments.c.student).where(assignments.c.task == code)
    for t, d, s in conn.execute(query.order_by(assignments.c.topic, assignments.c.doc, assignments.c.slot)):
        assigned.setdefault((t, d), []).append(s)
    given = {
        (t, d, s): g
        for t, d, s, g in conn.execute(
            sa.select(judgments.c.topic, judgments.c.doc, judgments.c.student, judgments.c.grade).where(
                judgments.c.task == code
            )
        )
    }
    grades = {
        item: tuple(given[(*item, s)] for s in judges if (*item, s) in given)
        for item, judges in assigned.items()
        if any((*item, s) in given for s in judges)
    }
    settled_query = sa.select(settlements.c.topic, settlements.c.doc, settlements.c.grade).where(
        settlements.c.task == code
    )
    settled = {(t, d): g for t, d, g in conn.execute(settled_query)}
    judges = {item: tuple(s) for item, s in assigned.items()}
    return Snapshot(_task(row), team_of, submitted, judges, grades, settled)

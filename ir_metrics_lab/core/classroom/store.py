"""Polls and answers in a database: SQLite by default, PostgreSQL (or any SQLAlchemy URL) when several app replicas
serve one class. SQLAlchemy Core, no ORM: two tables and a handful of short transactions.

Configuration (environment, read by :meth:`Store.from_environment`):

=============================== =================================================== ================================
variable                        meaning                                             default
=============================== =================================================== ================================
``IR_METRICS_LAB_DATABASE_URL`` a SQLAlchemy URL, e.g.                              SQLite in the data folder
                                ``postgresql+psycopg://user:pw@host/db``
``IR_METRICS_LAB_DATA_DIR``     the folder of the SQLite file ``live_class.sqlite3`` ``~/.local/share/ir-metrics-lab``
                                (created on first use)                              (``$XDG_DATA_HOME`` if set)
``IR_METRICS_LAB_POLL_HOURS``   how long a poll lives; its answers go with it       4
=============================== =================================================== ================================

Security:

- The **teacher token** (``secrets.token_urlsafe(32)``, 256 bits) is returned once by :meth:`Store.create_poll` and
  only its SHA-256 is stored; every teacher action (reveal, re-ask, reset, close) checks it. The join link carries the
  join code only.
- **Join codes** are protected by entropy: 8 characters from a 31-letter alphabet without look-
  alikes (no 0/O, 1/I/L) give 31^8 = 8.5e11 codes (39.6 bits). Guessing 200 codes a second (far more than a Streamlit
  server answers) for the 4 hours a poll lives, against 100 open polls, hits one with probability
  200*14400*100/8.5e11 = 3.4e-4, and a hit only lets the guesser answer as one more student. The pages add a limit
  per connection (ir_metrics_lab.core.classroom.limits), none per address (a class behind NAT shares one).
- **One answer per student per round**: answers are keyed by (poll, round, student id); answering again replaces the
  answer (students may change it until the reveal). The student id is issued by the server, once per browser: a
  signed cookie (ir_metrics_lab.core.classroom.identity, keyed by :meth:`Store.identity_key`, one random key in the
  database that every replica shares), never a part of the address that a page could change.
- At most :data:`POLLS_MAX` live polls: opening polls in a loop cannot fill the database.
- Nicknames are bounded (:data:`NICKNAME_MAX` characters), cleaned at the door (:func:`clean_nickname`: no control
  or direction characters, at least one visible character) and pages show them literally. Control characters never
  reach a query: PostgreSQL refuses a NUL in text, SQLite keeps it, and both must behave the same.

Concurrency: SQLite runs in WAL mode (readers never block the writer) with ``synchronous=FULL`` (a committed answer
survives a killed server and a power cut); every write is one short ``BEGIN IMMEDIATE`` transaction (the write lock
is taken up front, so two writers never deadlock upgrading a read lock), waits up to 10 s on a busy database and is
retried on "database is locked". On PostgreSQL, the answer's transaction locks the poll's row ``FOR SHARE`` so a
reveal cannot slip between the check that the round is open and the insert; serialization failures and deadlocks
are retried.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import math
import os
import random
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

ENV_URL = "IR_METRICS_LAB_DATABASE_URL"
ENV_DATA_DIR = "IR_METRICS_LAB_DATA_DIR"
ENV_HOURS = "IR_METRICS_LAB_POLL_HOURS"
DEFAULT_HOURS = 4.0
SQLITE_FILE = "live_class.sqlite3"

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # 31 symbols: no 0/O, 1/I/L
CODE_LENGTH = 8
NICKNAME_MAX = 24
ANSWER_MAX_CHARS = 32  # a number or a choice key
STUDENTS_MAX = 1000  # answers per round: bounds what one poll can write
POLLS_MAX = 300  # live polls at once on one database: bounds what opening polls in a loop can write
STUDENT_ID_BYTES = 12
BUSY_TIMEOUT_S = 10
RETRIES = 6

State = Literal["open", "revealed", "closed"]

metadata = sa.MetaData()
polls = sa.Table(
    "live_polls",
    metadata,
    sa.Column("code", sa.String(CODE_LENGTH), primary_key=True),
    sa.Column("token_sha256", sa.String(64), nullable=False),
    sa.Column("question", sa.Text, nullable=False),  # JSON
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("state", sa.String(10), nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
    sa.Column("expires_ms", sa.BigInteger, nullable=False, index=True),
)
answers = sa.Table(
    "live_answers",
    metadata,
    sa.Column(
        "poll_code", sa.String(CODE_LENGTH), sa.ForeignKey("live_polls.code", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("student", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(ANSWER_MAX_CHARS), nullable=False),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=True),
    sa.Column("answered_ms", sa.BigInteger, nullable=False),
)
keys = sa.Table(  # the key that signs student ids (identity); one row, made by the first replica that needs it
    "live_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(64), nullable=False),
)


class PollError(Exception):
    """A poll action that cannot happen; the message is fit for the page."""


class UnknownPoll(PollError):
    pass


class NotTeacher(PollError):
    pass


class RoundOver(PollError):
    pass


@dataclass(frozen=True, slots=True)
class Poll:
    code: str
    question: Mapping[str, Any]
    round: int
    state: State
    created_ms: int
    expires_ms: int

    @property
    def accepting(self) -> bool:
        return self.state == "open"


@dataclass(frozen=True, slots=True)
class Created:
    poll: Poll
    teacher_token: str  # shown once, in the teacher's link; never stored in clear


@dataclass(frozen=True, slots=True)
class Answer:
    student: str
    value: str
    nickname: str | None
    answered_ms: int


@dataclass(frozen=True, slots=True)
class Watched:
    round: int
    state: State
    answered: frozenset[str]  # the students with an answer in this round


def new_student_id() -> str:
    return secrets.token_urlsafe(STUDENT_ID_BYTES)


def valid_student(student: object) -> bool:
    """A student id as the server issues them (URL-safe base64, at most the column's length)."""
    return (
        isinstance(student, str)
        and 0 < len(student) <= answers.c.student.type.length
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in student)
    )


def normalize_code(typed: str) -> str:
    """A typed join code as looked up: upper case, its letters and digits only (spaces, dashes and anything else
    typed or put in a link dropped: a NUL would be refused by PostgreSQL).

    >>> normalize_code(" abcd-efgh ")
    'ABCDEFGH'
    """
    return "".join(c for c in str(typed).upper() if c.isascii() and c.isalnum())


def shown_code(code: str) -> str:
    """``ABCD-EFGH``: two groups of four are easier to read out and type."""
    return f"{code[:4]}-{code[4:]}"


# Format characters kept in a nickname: they join or vary the letters around them (an emoji sequence, Persian
# words); every other one is invisible (zero-width space, direction controls, the byte-order mark) and is dropped.
_JOINERS = {"\u200c", "\u200d"} | {chr(c) for c in range(0xFE00, 0xFE10)}
# Letters that draw nothing (Hangul fillers, the braille blank, Mongolian's vowel separator): not visible.
_BLANK_LETTERS = set("\u115f\u1160\u3164\uffa0\u2800\u180e")


def _kept(c: str) -> bool:
    category = unicodedata.category(c)
    return c in _JOINERS or (category[0] != "C" and category not in ("Zl", "Zp"))


def _visible(c: str) -> bool:
    return unicodedata.category(c)[0] in "LNPS" and c not in _BLANK_LETTERS


def clean_nickname(typed: str | None, what: str = "a nickname") -> str | None:
    r"""A nickname (or another short name typed on a phone: ``what`` names it in the refusal) as stored: control and
    invisible format characters dropped, blanks trimmed, empty is none; longer than NICKNAME_MAX characters, or nothing
    visible (zero-width spaces, a Hangul filler), is an error.

    >>> clean_nickname(" Ann\x00\u202e ")
    'Ann'
    >>> clean_nickname("\u200b", "a team name")
    Traceback (most recent call last):
    ...
    ir_metrics_lab.core.classroom.store.PollError: a team name needs at least one visible letter, digit or sign
    """
    if typed is None:
        return None
    name = " ".join("".join(c if _kept(c) or c.isspace() else "" for c in str(typed)).split())
    if len(name) > NICKNAME_MAX:
        raise PollError(f"{what} has at most {NICKNAME_MAX} characters ({len(name)} given)")
    if str(typed).strip() and not any(_visible(c) for c in name):  # typed, yet nothing would show
        raise PollError(f"{what} needs at least one visible letter, digit or sign")
    return name or None


def _sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_sqlite_url(data_dir: str | os.PathLike | None = None) -> str:
    if data_dir is None:
        data_dir = os.environ.get(ENV_DATA_DIR) or (
            Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "ir-metrics-lab"
        )
    return f"sqlite+pysqlite:///{Path(data_dir) / SQLITE_FILE}"


def _normalized_url(url: str) -> sa.URL:
    """``postgres://`` and ``postgresql://`` go through psycopg 3 (SQLAlchemy would pick psycopg2)."""
    parsed = sa.make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def _sqlite_engine(url: sa.URL) -> Engine:
    if url.database and url.database != ":memory:":
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" below emits BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # Reads take a snapshot (deferred); writes take the write lock at once (no lock upgrade, no deadlock).
        readonly = connection.get_execution_options().get("readonly", False)
        connection.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")

    return engine


_ENGINES: dict[str, Engine] = {}
_ENGINES_LOCK = threading.Lock()


def engine_for(url: str) -> Engine:
    """One engine (and connection pool) per database per process, its tables created on first use."""
    with _ENGINES_LOCK:
        if url not in _ENGINES:
            parsed = _normalized_url(url)
            if parsed.get_backend_name() == "sqlite":
                engine = _sqlite_engine(parsed)
            else:
                engine = sa.create_engine(parsed, pool_pre_ping=True, pool_size=5, max_overflow=20)
            for attempt in range(RETRIES):  # several replicas may create the tables at the same moment
                try:
                    metadata.create_all(engine)
                    break
                except (IntegrityError, OperationalError, DBAPIError):
                    if attempt == RETRIES - 1:
                        raise
                    time.sleep(0.1 * (attempt + 1))
            _ENGINES[url] = engine
        return _ENGINES[url]


def dispose_engine(url: str) -> None:
    with _ENGINES_LOCK:
        engine = _ENGINES.pop(url, None)
    if engine is not None:
        engine.dispose()


def _retryable(error: DBAPIError) -> bool:
    text = str(error.orig).lower()
    if "database is locked" in text or "database is busy" in text:
        return True
    sqlstate = getattr(error.orig, "sqlstate", None)
    return sqlstate in ("40001", "40P01")  # serialization failure, deadlock detected


class Store:
    def __init__(self, url: str | None = None, *, hours: float = DEFAULT_HOURS, clock: Callable[[], float] = time.time):
        if not (isinstance(hours, int | float) and math.isfinite(hours) and hours > 0):
            raise ValueError(f"a poll's lifetime must be a positive number of hours, got {hours!r}")
        self.url = url or default_sqlite_url()
        self.hours = hours
        self._clock = clock
        self.engine = engine_for(self.url)
        self._postgres = self.engine.dialect.name == "postgresql"
        self._identity_key: bytes | None = None

    @classmethod
    def from_environment(cls) -> Store:
        raw_hours = os.environ.get(ENV_HOURS, "").strip()
        try:
            hours = float(raw_hours) if raw_hours else DEFAULT_HOURS
        except ValueError:
            raise ValueError(f"{ENV_HOURS} must be a number of hours, got {raw_hours!r}") from None
        return cls(os.environ.get(ENV_URL) or None, hours=hours)

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    # --- transactions -----------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect().execution_options(readonly=True) as conn, conn.begin():
            yield conn

    def _write(self, work: Callable[[Connection], Any]) -> Any:
        """Run ``work`` in one short write transaction, retried with jittered backoff when the database is busy."""
        for attempt in range(RETRIES):
            try:
                with self.engine.begin() as conn:
                    return work(conn)
            except DBAPIError as error:
                if attempt == RETRIES - 1 or not _retryable(error):
                    raise
                time.sleep(0.02 * 2**attempt * (1 + random.random()))
        raise AssertionError("unreachable")

    # --- polls ------------------------------------------------------------------------------------------------

    def create_poll(self, question: Mapping[str, Any]) -> Created:
        """A new poll in round 1, open for answers. Expired polls are purged first (creation is rare); refused when
        POLLS_MAX polls are live."""
        token = secrets.token_urlsafe(32)
        body = json.dumps(question, sort_keys=True)
        self.purge_expired()
        with self._read() as conn:
            live = conn.execute(sa.select(sa.func.count()).select_from(polls)).scalar_one()
        if live >= POLLS_MAX:
            raise PollError(f"the class server has {POLLS_MAX} open polls, its most; close one, or wait for one to end")
        for _ in range(RETRIES):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            now = self._now_ms()
            row = {
                "code": code,
                "token_sha256": _sha256(token),
                "question": body,
                "round": 1,
                "state": "open",
                "created_ms": now,
                "expires_ms": now + int(self.hours * 3_600_000),
            }
            try:
                self._write(lambda conn, row=row: conn.execute(polls.insert().values(**row)))
            except IntegrityError:  # the code is taken (about one chance in 1e9 per open poll): draw another
                continue
            return Created(_poll(row), token)
        raise PollError("could not draw a free join code")

    def poll(self, code: str) -> Poll | None:
        """The poll, or None when there is none (or it has expired)."""
        code = normalize_code(code)
        with self._read() as conn:
            row = conn.execute(sa.select(polls).where(polls.c.code == code)).mappings().first()
        if row is None or row["expires_ms"] <= self._now_ms():
            return None
        return _poll(row)

    def is_teacher(self, code: str, token: str | None) -> bool:
        code = normalize_code(code)
        with self._read() as conn:
            stored = conn.execute(sa.select(polls.c.token_sha256).where(polls.c.code == code)).scalar()
        return bool(stored and token) and hmac.compare_digest(stored, _sha256(token))

    def _teacher_update(self, code: str, token: str | None, change: Callable[[Connection, Mapping], None]) -> Poll:
        code = normalize_code(code)

        def work(conn: Connection) -> Poll:
            row = conn.execute(sa.select(polls).where(polls.c.code == code).with_for_update()).mappings().first()
            if row is None or row["expires_ms"] <= self._now_ms():
                raise UnknownPoll("this poll has expired or never existed")
            if not token or not hmac.compare_digest(row["token_sha256"], _sha256(token)):
                raise NotTeacher("only the teacher's link can do this")
            change(conn, row)
            return _poll(conn.execute(sa.select(polls).where(polls.c.code == code)).mappings().one())

        return self._write(work)

    def reveal(self, code: str, token: str | None) -> Poll:
        """Stop taking answers for the current round and show the result."""
        return self._teacher_update(
            code,
            token,
            lambda conn, row: _set(conn, row["code"], state="revealed" if row["state"] == "open" else row["state"]),
        )

    def close(self, code: str, token: str | None) -> Poll:
        return self._teacher_update(code, token, lambda conn, row: _set(conn, row["code"], state="closed"))

    def reset(self, code: str, token: str | None) -> Poll:
        """Delete the current round's answers and open it again."""

        def change(conn: Connection, row: Mapping) -> None:
            conn.execute(answers.delete().where(answers.c.poll_code == row["code"], answers.c.round == row["round"]))
            _set(conn, row["code"], state="open")

        return self._teacher_update(code, token, change)

    def reask(self, code: str, token: str | None, question: Mapping[str, Any]) -> Poll:
        """A new round (the next number) with ``question``; earlier rounds' answers stay until the poll expires."""
        body = json.dumps(question, sort_keys=True)
        return self._teacher_update(
            code, token, lambda conn, row: _set(conn, row["code"], state="open", round=row["round"] + 1, question=body)
        )

    def identity_key(self) -> bytes:
        """The key that signs student ids (ir_metrics_lab.core.classroom.identity): drawn by the first replica that
        asks, then read by all of them, so a phone keeps its id whichever replica serves it."""
        if self._identity_key is None:
            drawn = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()

            def work(conn: Connection) -> str:
                found = conn.execute(sa.select(keys.c.value).where(keys.c.name == "student")).scalar()
                if found is None:
                    conn.execute(keys.insert().values(name="student", value=drawn))
                return found or drawn

            for attempt in range(RETRIES):  # two replicas drawing at once: one insert wins, the other reads it
                try:
                    self._identity_key = base64.urlsafe_b64decode(self._write(work))
                    break
                except IntegrityError:
                    if attempt == RETRIES - 1:
                        raise
        return self._identity_key

    # --- answers ----------------------------------------------------------------------------------------------

    def answer(self, code: str, round_: int, student: str, value: str, nickname: str | None = None) -> Answer:
        """Record (or replace) ``student``'s answer to round ``round_``. Raises RoundOver once that round is revealed
        or replaced, UnknownPoll when the poll is gone. Returns once the answer is committed."""
        code = normalize_code(code)
        value = str(value).strip()
        if not value or len(value) > ANSWER_MAX_CHARS or not value.isprintable():
            raise PollError(f"an answer has 1 to {ANSWER_MAX_CHARS} printable characters")
        if not valid_student(student):
            raise PollError("this page has no valid student id; open the join link again")
        nickname = clean_nickname(nickname)

        def work(conn: Connection) -> Answer:
            now = self._now_ms()
            query = sa.select(polls.c.round, polls.c.state, polls.c.expires_ms).where(polls.c.code == code)
            if self._postgres:
                query = query.with_for_update(read=True)  # a reveal waits for this answer, or this answer for it
            row = conn.execute(query).first()
            if row is None or row.expires_ms <= now:
                raise UnknownPoll("this poll has expired or never existed")
            if row.round != round_ or row.state != "open":
                raise RoundOver("answers for this question are closed")
            key = (answers.c.poll_code == code, answers.c.round == round_)
            existing = conn.execute(sa.select(answers.c.student).where(*key, answers.c.student == student)).first()
            if existing is None:
                count = conn.execute(sa.select(sa.func.count()).select_from(answers).where(*key)).scalar_one()
                if count >= STUDENTS_MAX:
                    raise PollError(f"this question already has {STUDENTS_MAX} answers")
            fields = {"value": value, "nickname": nickname, "answered_ms": now}
            insert = _dialect_insert(conn)(answers).values(poll_code=code, round=round_, student=student, **fields)
            conn.execute(insert.on_conflict_do_update(index_elements=list(answers.primary_key.columns), set_=fields))
            return Answer(student, value, nickname, now)

        return self._write(work)

    def answers(self, code: str, round_: int) -> list[Answer]:
        code = normalize_code(code)
        query = (
            sa.select(answers.c.student, answers.c.value, answers.c.nickname, answers.c.answered_ms)
            .where(answers.c.poll_code == code, answers.c.round == round_)
            .order_by(answers.c.answered_ms, answers.c.student)
        )
        with self._read() as conn:
            return [Answer(*row) for row in conn.execute(query)]

    def my_answer(self, code: str, round_: int, student: str) -> Answer | None:
        code = normalize_code(code)
        query = sa.select(answers.c.student, answers.c.value, answers.c.nickname, answers.c.answered_ms).where(
            answers.c.poll_code == code, answers.c.round == round_, answers.c.student == student
        )
        with self._read() as conn:
            row = conn.execute(query).first()
        return Answer(*row) if row else None

    def count(self, code: str, round_: int) -> int:
        code = normalize_code(code)
        query = sa.select(sa.func.count()).select_from(answers)
        with self._read() as conn:
            return conn.execute(query.where(answers.c.poll_code == code, answers.c.round == round_)).scalar_one()

    def watched(self, codes: Collection[str]) -> dict[str, Watched]:
        """What the phones of these polls display: each live poll's round and state, and who has answered that round.
        One read of two queries for all the polls (ir_metrics_lab.core.classroom.watch reads it once a second for every
        session)."""
        codes = sorted({normalize_code(c) for c in codes})
        if not codes:
            return {}
        now = self._now_ms()
        current = sa.select(polls.c.code, polls.c.round, polls.c.state).where(
            polls.c.code.in_(codes), polls.c.expires_ms > now
        )
        answered = (
            sa.select(answers.c.poll_code, answers.c.student)
            .join(polls, sa.and_(polls.c.code == answers.c.poll_code, polls.c.round == answers.c.round))
            .where(answers.c.poll_code.in_(codes))
        )
        with self._read() as conn:
            found = {code: (round_, state) for code, round_, state in conn.execute(current)}
            students: dict[str, set[str]] = {code: set() for code in found}
            for code, student in conn.execute(answered):
                students.setdefault(code, set()).add(student)
        return {code: Watched(r, s, frozenset(students[code])) for code, (r, s) in found.items()}

    def purge_expired(self) -> int:
        """Delete the polls whose time is up, with their answers. Returns how many polls went."""
        now = self._now_ms()

        def work(conn: Connection) -> int:
            expired = sa.select(polls.c.code).where(polls.c.expires_ms <= now)
            conn.execute(answers.delete().where(answers.c.poll_code.in_(expired)))
            return conn.execute(polls.delete().where(polls.c.expires_ms <= now)).rowcount

        return self._write(work)


def _dialect_insert(conn: Connection):
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert


def _set(conn: Connection, code: str, **values) -> None:
    conn.execute(polls.update().where(polls.c.code == code).values(**values))


def _poll(row: Mapping) -> Poll:
    return Poll(
        code=row["code"],
        question=json.loads(row["question"]),
        round=row["round"],
        state=row["state"],
        created_ms=row["created_ms"],
        expires_ms=row["expires_ms"],
    )

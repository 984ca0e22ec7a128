"""Streamlit pieces of the live class (app_pages/live_class/ask_class.py for the teacher,
app_pages/live_class/join_class.py for the students): the store, the join address and QR code, the read-only list, the
live answer count and the reveal chart.

Polls and answers live in the database (ir_metrics_lab.core.classroom.store), not in session state, so every session of
every replica sees the same poll; a session only remembers which poll it teaches
(ir_metrics_lab.session.live_state.live_teacher) or which student it is. A phone does not ask whether the teacher has
revealed: the process's watcher (ir_metrics_lab.core.classroom.watch) sends the reveal down the phone's reveal stream
at once (``follow_reveal``, ir_metrics_lab.classroom.reveal_stream), then reruns its page.

A restarted server, or a replica taking over a dead one's phones, knows none of their sessions: each page asks for a
run again by itself (``rerun_on_reconnect``), the phone's finds its poll in its address and its student in its cookie
(and registers with the new process's watcher), the projector's finds its poll in its teacher cookie
(``restore_teacher``).

A phone's student id is the server's, bound to its browser by a signed cookie (``student_id``); its taps, its typed
codes and a teacher page's new polls are rate limited (ir_metrics_lab.core.classroom.limits), the excess dropped
quietly. A database error never reaches a page as a traceback: the page says the class server is busy, and an
answer is kept in the session and sent again (``send_answer``, ``retry_pending``)."""

from __future__ import annotations

import io
import ipaddress
import logging
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlencode, urlsplit

import plotly.graph_objects as go
import segno
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.classroom import reveal_stream
from ir_metrics_lab.core import markdown
from ir_metrics_lab.core.classroom import identity, limits, questions, reveal
from ir_metrics_lab.core.classroom.reveal import Verdict
from ir_metrics_lab.core.classroom.store import (
    Poll,
    PollError,
    Store,
    Watched,
    new_student_id,
    normalize_code,
    shown_code,
)
from ir_metrics_lab.core.classroom.watch import PollWatch, Shown
from ir_metrics_lab.core.figures import palette
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.parts import lazy_expander
from ir_metrics_lab.session import live_state
from ir_metrics_lab.shell import presenter, streamlit_internals

ASK_PATH = "ask-the-class"
JOIN_PATH = "join"
REFRESH_S = 0.5  # the projector's answer count: an answer shows well within the 2 s promised
STUDENT_REFRESH_S = 2.0  # a phone's own check, only where the server cannot push (push_available)
RETRY_S = 2.0  # an answer the database did not take is sent again this often
BUSY = "The class server is busy: your answer is kept and sent again in a moment."
BUSY_READ = "The class server is busy: this page tries again in a moment."
COOKIE_KEY = "live_student_cookie"
TEACHER_COOKIE_KEY = "live_teacher_cookie"
# Streamlit's frontend (1.67) reruns a page's script when its websocket reconnects to a process that does not know its
# session only if the page holds a fragment that reruns itself (run_every): rerun_on_reconnect is one that waits this
# long, so that it costs nothing.
RECONNECT_TICK_S = 3600.0
_LOGGER = logging.getLogger(__name__)

CHOICE_CSS = """
[class*="st-key-live_choice_"] button { min-height: 3rem; font-size: 1.35rem; }
[class*="st-key-live_choice_"] button p { font-size: 1.35rem; font-weight: 600; }
.st-key-live_join_code p { font-size: 2.6rem; font-weight: 700; letter-spacing: 0.12em; margin: 0; }
.st-key-live_count [data-testid="stMetricValue"] { font-size: 3.2rem; }
.st-key-live_student_cookie, .st-key-live_teacher_cookie { display: none; }
"""  # static, sent with ir_metrics_lab.shell.css: nothing from the user


@st.cache_resource
def store() -> Store:
    """One store (and connection pool) per server process, configured from the environment
    (ir_metrics_lab.core.classroom.store)."""
    return Store.from_environment()


@st.cache_resource
def answer_limit() -> limits.Limit:
    """Answers (and their changes) per student and per connection, in this server process."""
    return limits.Limit(limits.ANSWERS_PER_SECOND, limits.ANSWERS_BURST)


@st.cache_resource
def join_limit() -> limits.Limit:
    """Join codes looked up per connection."""
    return limits.Limit(limits.JOINS_PER_SECOND, limits.JOINS_BURST)


@st.cache_resource
def poll_limit() -> limits.Limit:
    """New polls per teacher page (connection)."""
    return limits.Limit(limits.POLLS_PER_SECOND, limits.POLLS_BURST)


@st.cache_resource
def poll_watch() -> PollWatch:
    """The process's one watcher of the phones' polls (ir_metrics_lab.core.classroom.watch)."""
    return PollWatch(store())


# --- pushing a change to the phones --------------------------------------------------------------------------
# Streamlit has no public call to rerun another session: ir_metrics_lab.shell.streamlit_internals does it with its
# runtime's private pieces. Without them (AppTest, or a release that changed them) each phone asks instead: a
# fragment every STUDENT_REFRESH_S.


def push_available() -> bool:
    """Whether the server can rerun this session's page itself (``streamlit_internals.rerun_session``)."""
    try:
        run = streamlit_internals.script_run()
        return run is not None and streamlit_internals.can_rerun(run.session_id)
    except streamlit_internals.MissingHook as missing:
        streamlit_internals.warn_once(missing, f"each phone asks for its poll every {STUDENT_REFRESH_S:g} s instead")
        return False


def watch_poll(poll: Poll, student: str, answered: bool) -> None:
    """Redraw this phone's poll when the teacher reveals, resets or re-asks: pushed by the process's watcher
    (poll_watch) when Streamlit allows it, else the phone's own fragment every STUDENT_REFRESH_S. Called from the
    phone's poll fragment (app_pages/live_class/join_class.py): a reveal or a reset reruns only that fragment (about
    a third of the server's CPU of the whole page's rerun), a new round or a poll gone the whole page."""
    if not push_available():
        _watch_fragment(poll.code, poll.round, poll.state, student, answered)
        return
    session_id, page = streamlit_internals.script_run()
    fragment = _current_fragment()

    def notify(now: Watched | None, done: Callable[[], None]) -> None:
        same_round = now is not None and now.round == poll.round
        streamlit_internals.rerun_session(session_id, page, fragment if same_round else None, done)

    poll_watch().watch(
        session_id,
        Shown(poll.code, poll.round, poll.state, student, answered),
        notify=notify,
        alive=lambda: streamlit_internals.session_alive(session_id),
    )


def follow_reveal(poll: Poll, student: str) -> None:
    """While ``poll`` is open: the reveal comes to this phone without a rerun (ir_metrics_lab.classroom.reveal_stream),
    where the server can push; the page's rerun (``watch_poll``) draws the rest."""
    run = streamlit_internals.script_run() if push_available() else None
    if run is None or not reveal_stream.install(store(), poll_watch(), _text_verdict):
        return
    reveal_stream.follow(poll.code, poll.round, identity.issue(store().identity_key(), student), run.session_id)


def _text_verdict(poll: Poll, value: str | None) -> Verdict:
    return phone_verdict(poll, value, markdown.text)


def _current_fragment() -> str | None:
    try:
        return streamlit_internals.current_fragment()
    except streamlit_internals.MissingHook as missing:
        streamlit_internals.warn_once(missing, "a change reruns each phone's whole page")
        return None


@st.fragment(run_every=STUDENT_REFRESH_S)
def _watch_fragment(code: str, round_: int, poll_state: str, student: str, answered: bool) -> None:
    try:
        now = store().poll(code)
        reset = answered and now is not None and store().my_answer(code, round_, student) is None
    except SQLAlchemyError:  # the next tick asks again
        return
    if now is None or (now.round, now.state) != (round_, poll_state) or reset:  # reset: the teacher's button
        st.rerun(scope="app")


# --- addresses -----------------------------------------------------------------------------------------------


def app_base(pages: Sequence[str] = (ASK_PATH, JOIN_PATH)) -> str:
    """The app's address as the browser reached it (scheme, host, port, base path), without the path of this page
    (one of ``pages``): the host is the one the teacher typed, so a LAN address gives a join link that phones on the
    LAN can open."""
    address = st.context.url or ""
    if not address:
        host = st.context.headers.get("Host") if st.context.headers else None
        return f"http://{host}" if host else ""
    address = address.rstrip("/")
    for path in pages:
        if address.endswith("/" + path):
            return address[: -len(path) - 1]
    return address


def join_box(base: str, join_path: str, code: str, join: str, key: str) -> None:
    """Where phones join (a poll's or a shared task's): the address and the code in large type, the QR code of the
    ``join`` link, and a warning when the page was opened on a loopback address no phone can reach."""
    st.markdown(f"Join at **{plain(base + '/' + join_path)}** with the code")
    with st.container(key=key):
        st.markdown(shown_code(code))
    st.image(
        qr_png(join),
        width=260 if presenter.is_on() else 200,
        caption="Scan to join",
        alt=f"QR code of the join link, {join}",
    )
    if loopback(base):
        lan = lan_address()
        port = (urlsplit(base).port or 8501) if base else 8501
        st.warning(
            "This address only works on this computer. Phones need the server's network address"
            + (f", e.g. http://{lan}:{port}" if lan else "")
            + ": start the app with `--server.address 0.0.0.0` and open this page through that address.",
            icon=":material/wifi_off:",
        )


def join_link(base: str, code: str) -> str:
    return f"{base}/{JOIN_PATH}?{urlencode({'code': code})}"


def teacher_link(base: str, code: str, token: str) -> str:
    return f"{base}/{ASK_PATH}?{urlencode({'poll': code, 'teacher': token})}"


def teacher_link_box(link: str, what_it_does: str, key: str) -> None:
    """The private teacher link of a poll or a shared task, in an expander; ``what_it_does``, one sentence. The link
    is in the page only while the expander is open (ir_metrics_lab.parts.lazy_expander)."""
    if box := lazy_expander.opened("Your teacher link (keep it private)", key=key, icon=":material/key:"):
        box.caption(f"{what_it_does} The join link never contains it.")
        box.code(link, language=None, wrap_lines=True)


def loopback(base: str) -> bool:
    """True when the address only reaches this machine (localhost, 127.x, ::1): phones cannot open it."""
    host = urlsplit(base).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on its local network, if it has one: the source address the kernel would use to
    reach a private address (a UDP connect sends no packet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            found = probe.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(found).is_loopback else found


def qr_png(link: str) -> bytes:
    """The join link as a QR code (PNG), error correction M: readable from the back of a room on a projector."""
    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(out, kind="png", scale=10, border=2, dark="#1F2933")
    return out.getvalue()


def typed_code(raw: str) -> str:
    return normalize_code(raw)[:16]


# --- who this phone is ---------------------------------------------------------------------------------------
# The cookie is written by the browser (Streamlit sets none): this script, run in the page (a v2 component, no
# iframe). A browser that already holds a signed id (another tab was first) keeps it: the session adopts it.
_COOKIE_JS = """
export default function (component) {
  const { data, setTriggerValue } = component;
  if (!data) return;
  const held = document.cookie.split("; ").find((c) => c.startsWith(data.name + "="));
  const value = held ? held.slice(data.name.length + 1) : "";
  if (value && value !== data.token && !data.adopted) { setTriggerValue("held", value); return; }
  if (value === data.token) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${data.name}=${data.token}; Path=/; Max-Age=${data.maxAge}; SameSite=Lax${secure}`;
}
"""
_STUDENT_COOKIE = st.components.v2.component("irlab_student_cookie", js=_COOKIE_JS)


def student_id() -> str:
    """This phone's student id, issued by the server: the one its browser's signed cookie carries, else a new one,
    kept by the session for good (no address, no widget can change it) and written into the browser's cookie, so a
    reload, a second tab or a second scan of the QR code is the same student."""
    key = store().identity_key()
    student = live_state.live_student()
    if student is None:
        student = identity.verify(key, st.context.cookies.get(identity.COOKIE)) or new_student_id()
        live_state.set_live_student(student)
    if "s" in st.query_params:  # a join link from before the cookie: the id no longer travels in the address
        del st.query_params["s"]
    token = identity.issue(key, student)
    if st.context.cookies.get(identity.COOKIE) != token:
        data = {"name": identity.COOKIE, "token": token, "maxAge": identity.COOKIE_DAYS * 86_400}
        data["adopted"] = live_state.live_student_adopted()
        _STUDENT_COOKIE(key=COOKIE_KEY, data=data, on_held_change=_adopt_held)
    return student


def _adopt_held() -> None:
    """The browser holds another tab's signed id: this session is that student (once; a forged value is ignored)."""
    state = st.session_state.get(COOKIE_KEY) or {}
    held = state.get("held") if hasattr(state, "get") else getattr(state, "held", None)
    student = identity.verify(store().identity_key(), held)
    live_state.set_live_student_adopted()
    if student is not None:
        live_state.set_live_student(student)


# --- the poll a projector runs, across a restart -----------------------------------------------------------------
_TEACHER_COOKIE_JS = """
export default function (component) {
  const { data } = component;
  if (!data) return;
  const held = document.cookie.split("; ").find((c) => c.startsWith(data.name + "="));
  if ((held ? held.slice(data.name.length + 1) : "") === data.value) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  const life = data.value ? data.maxAge : 0;
  document.cookie = `${data.name}=${data.value}; Path=/; Max-Age=${life}; SameSite=Strict${secure}`;
}
"""
_TEACHER_COOKIE = st.components.v2.component("irlab_teacher_cookie", js=_TEACHER_COOKIE_JS)


def held_teacher_cookie() -> str | None:
    """The teacher cookie the browser sent when this session connected."""
    return st.context.cookies.get(identity.TEACHER_COOKIE)


def restore_teacher() -> None:
    """On a session's first run: the poll its browser's teacher cookie names becomes the poll it runs, if the token
    is still that poll's and the poll is open or revealed (a closed one was left by its teacher). A projector whose
    server restarted, or whose replica died, is back on its poll and its controls without a tap."""
    if live_state.live_teacher_checked():
        return
    held = identity.held_teacher(held_teacher_cookie())
    if held and live_state.live_teacher() is None:
        try:
            poll = store().poll(held[0])
            if poll is not None and poll.state != "closed" and store().is_teacher(*held):
                live_state.set_live_teacher(*held)
        except SQLAlchemyError:  # not now: the next run looks again
            return
    live_state.set_live_teacher_checked()


def keep_teacher_cookie() -> None:
    """The browser's teacher cookie names the poll this session runs (written by the page, as the student cookie);
    none once it runs none. Never before restore_teacher has read it."""
    if not live_state.live_teacher_checked():
        return
    teaching = live_state.live_teacher()
    value = identity.teacher_cookie(*teaching) if teaching else ""
    write_teacher_cookie(TEACHER_COOKIE_KEY, identity.TEACHER_COOKIE, value, int(store().hours * 3600))


def write_teacher_cookie(key: str, name: str, value: str, max_age_s: int) -> None:
    """Have the browser hold cookie ``name`` = ``value`` (SameSite=Strict), or drop it when ``value`` is empty: the
    poll's teacher cookie, and a shared task's (ir_metrics_lab.classroom.shared_task)."""
    _TEACHER_COOKIE(key=key, data={"name": name, "value": value, "maxAge": max_age_s})


@st.fragment(run_every=RECONNECT_TICK_S)
def rerun_on_reconnect() -> None:
    """Draws nothing: it makes the page run again when its connection comes back, even to a new process
    (RECONNECT_TICK_S)."""


def connection() -> str:
    return live_state.live_connection()


def join_allowed(code: str) -> bool:
    """Whether this connection may look ``code`` up: the code it has joined always, a new one within its limit (a
    guesser trying codes is slowed to a crawl; a phone types a few)."""
    if code == live_state.live_code():
        return True
    if not join_limit().allow(("connection", connection())):
        return False
    live_state.set_live_code(code)
    return True


# --- answers, and a database that does not answer -------------------------------------------------------------


def send_answer(code: str, round_: int, student: str, value: str, nickname: str | None) -> None:
    """A phone's tap: dropped quietly over its limits (a real tap is never that fast), else kept in the session and
    sent (``retry_pending``). A refusal (the round is over, a bad nickname) becomes the page's message."""
    if not answer_limit().allow(("student", student), ("connection", connection())):
        return
    live_state.set_live_pending((code, round_, value, nickname))
    retry_pending(student)


def retry_pending(student: str) -> bool:
    """Send the answer the session keeps, if any. True once it is in the database (or refused for good)."""
    pending = live_state.live_pending()
    if pending is None:
        return True
    code, round_, value, nickname = pending
    try:
        store().answer(code, round_, student, value, nickname)
    except PollError as error:
        live_state.set_live_pending(None)
        live_state.set_live_message("error", str(error)[:1].upper() + str(error)[1:] + ".")
    except SQLAlchemyError:
        _LOGGER.warning("the database did not take an answer; the phone sends it again", exc_info=True)
        return False
    else:
        live_state.set_live_pending(None)
        live_state.set_live_message("success", "Answer sent. You can change it until the teacher reveals.")
    return True


@st.fragment(run_every=RETRY_S)
def retry_fragment(student: str) -> None:
    """While an answer waits for the database: send it again every RETRY_S, and redraw the page once it is in."""
    if retry_pending(student):
        st.rerun(scope="app")


def read(action, *args, default=None):
    """A store read for a page: its value, or ``default`` with the page told the server is busy (``busy``)."""
    try:
        return action(*args)
    except SQLAlchemyError:
        _LOGGER.warning("a page could not read the live class's database", exc_info=True)
        busy()
        return default


def busy() -> None:
    """The page says the class server is busy, in words, and redraws itself once the database answers again."""
    st.warning(BUSY_READ, icon=":material/hourglass_top:")
    _recheck()


@st.fragment(run_every=RETRY_S)
def _recheck() -> None:
    try:
        store().poll("")  # the cheapest read there is
    except SQLAlchemyError:
        return
    st.rerun(scope="app")


# --- the list ------------------------------------------------------------------------------------------------


def list_markdown(scn: Scenario, ranking: Sequence[str]) -> str:
    """The ranked list as a Markdown table: rank, document, title, the aspects it covers, grade (every id, title and
    aspect shown literally). No aspects column when no document covers one; no title column when no document has a
    title (a quiz's list, an uploaded run's query) or they cover aspects (which say what each is about: a phone has
    room for one column of words).

    >>> print(list_markdown(Scenario(("a", "b"), grades={"a": 2}), ("a", "b")))
    | # | document | grade |
    |---:|---|---:|
    | 1 | a | **2** |
    | 2 | b | **0** |
    """
    covers = bool(scn.aspects)
    titled = not covers and any(scn.title(doc) for doc in ranking)
    rows = ["| # | document |" + (" title |" if titled else "") + (" aspects |" if covers else "") + " grade |"]
    rows.append("|---:|---|" + ("---|" if titled else "") + ("---|" if covers else "") + "---:|")
    for rank, doc in enumerate(ranking, 1):
        title = f" {plain(scn.title(doc), one_line=True) or '–'} |" if titled else ""
        aspects = f" {questions.aspects_text(scn, doc)} |" if covers else ""
        rows.append(f"| {rank} | {plain(doc, one_line=True)} |{title}{aspects} **{scn.grades.get(doc, 0)}** |")
    return "\n".join(rows)


def list_table(scn: Scenario, ranking: Sequence[str]) -> None:
    """The ranked list, read-only (list_markdown), then what is judged but not retrieved and the grade scale."""
    st.markdown(list_markdown(scn, ranking))
    if scn.shelf:
        missed = ", ".join(f"{plain(d, one_line=True)} (grade {scn.grades.get(d, 0)})" for d in scn.shelf)
        st.caption(f"Judged but not retrieved: {missed}. They count in R and in the ideal ranking.")
    hidden = f"; {len(scn.tail)} more retrieved after these (they count too)" if scn.tail else ""
    st.caption(f"Grades from 0 to {scn.scale}; relevant from grade {scn.conventions.threshold}{hidden}.")


def question_lists(question: Mapping[str, Any], *, options: bool = True) -> None:
    """The list (or lists A and B) a question is about; a move question's options too, unless ``options`` is False
    (the phones show them as their answer buttons)."""
    scn = questions.scenario(question)
    if question["kind"] in ("predict", "move"):
        list_table(scn, scn.ranking)
        if question["kind"] == "move" and options:
            st.markdown(
                "**The moves**\n\n"
                + "\n".join(f"- {questions.choice_label(question, key)}" for key in questions.choices(question))
            )
        return
    st.markdown("**List A**")
    list_table(scn, scn.ranking)
    if moved := question.get("moved"):
        where = f"{plain(moved['doc'], one_line=True)} moved from rank {moved['from']} to rank {moved['to']}"
        st.markdown(f"**List B**: {where}")
    else:
        st.markdown("**List B**")
    list_table(questions.scenario_b(question), question["ranking_b"])


def conventions_note(question: Mapping[str, Any]) -> str:
    c = questions.scenario(question).conventions
    gain = "the grade" if c.gain == "linear" else "2^grade − 1"
    idcg = "every judged document" if c.idcg == "all" else "the retrieved list"
    return f"Conventions: gain = {gain}; the ideal ranking (IDCG) from {idcg}; AP divided by " + (
        "R, every relevant document." if c.ap_denominator == "all" else "the relevant documents retrieved."
    )


# --- reveal ----------------------------------------------------------------------------------------------------

PHONE_RESULTS_KEPT = 4096
_phone_results: OrderedDict[tuple[str, int, str], questions.Result] = OrderedDict()
_phone_results_lock = threading.Lock()


def phone_result(poll: Poll, value: str) -> questions.Result:
    """questions.result for one phone's answer, kept per poll, round and answer (the latest PHONE_RESULTS_KEPT): a
    round's question never changes, a reveal asks every phone's at once, and a diagnosis costs milliseconds of CPU
    (most of a phone's rerun on a reveal, bench/classroom/serve_class_phones.py)."""
    key = (poll.code, poll.round, value)
    with _phone_results_lock:
        kept = _phone_results.get(key)
    if kept is None:
        kept = questions.result(poll.question, [value])
        with _phone_results_lock:
            _phone_results[key] = kept
            while len(_phone_results) > PHONE_RESULTS_KEPT:
                _phone_results.popitem(last=False)
    return kept


def phone_verdict(poll: Poll, value: str | None, literal: questions.Escape = questions.markdown_literal) -> Verdict:
    """What the phone that answered ``value`` (None: it did not) is told at ``poll``'s reveal; user text by
    ``literal`` (Markdown unless told)."""
    outcome = None if value is None else phone_result(poll, value)
    return reveal.verdict(poll.question, value, outcome, literal)


def options_table(question: Mapping[str, Any], counts: Mapping[str, int] | None = None) -> str:
    """A move question's options after the reveal, as Markdown: each move, the measure after it, the change, and (with
    ``counts``) how many chose it; the right one marked. Ids shown literally (questions.move_text)."""
    now = questions.breakdown(question).value
    places, right = question["decimals"], questions.right_answer(question)
    name = questions.label(question)
    head = f"| option | move | {name} | change |" + (" answers |" if counts is not None else "")
    rows = [head, "|---|---|---:|---:|" + ("---:|" if counts is not None else "")]
    for option, (key, value) in zip(question["options"], questions.option_values(question), strict=True):
        mark = " ✓" if key == right else ""
        row = f"| **{key}**{mark} | {questions.move_text(option)} | {value:.{places}f} | {value - now:+.{places}f} |"
        rows.append(row + (f" {counts.get(key, 0)} |" if counts is not None else ""))
    return "\n".join(rows)


RIGHT, DIAGNOSED, OTHER = palette.COLORS["green"], palette.COLORS["orange"], palette.COLORS["grey"]


def distribution(question: Mapping[str, Any], outcome: questions.Result) -> go.Figure:
    """The class's answers: bars per answer (numbers on a value axis, around the true value, which is marked);
    green right (its count marked ✓), orange and hatched a diagnosed mistake, grey the rest."""
    diagnosed = {m.answer for m in outcome.mistakes}
    colour = {a: RIGHT if a == outcome.right else DIAGNOSED if a in diagnosed else OTHER for a in outcome.counts}
    # Not by colour alone (WCAG 1.4.1): the right answer's count says "✓", a diagnosed mistake's bar is hatched.
    pattern = {a: palette.SECOND_PATTERN if a in diagnosed and a != outcome.right else "" for a in outcome.counts}

    def count(answer: str) -> str:
        return f"{outcome.counts.get(answer, 0)}{' ✓' if answer == outcome.right else ''}"

    fig = go.Figure()
    if question["kind"] == "predict":
        values = sorted(outcome.counts, key=float)
        unit = 10.0 ** -question["decimals"]
        fig.add_bar(
            x=[float(v) for v in values],
            y=[outcome.counts[v] for v in values],
            marker={"color": [colour[v] for v in values], "pattern": palette.pattern([pattern[v] for v in values])},
            width=max(unit, 0.008),
            text=[count(v) for v in values],
            textposition="outside",
            hovertemplate="%{x}: %{y} answers<extra></extra>",
        )
        truth = float(outcome.right)
        fig.add_vline(x=truth, line_dash="dash", line_color=RIGHT, annotation_text=f"true {outcome.right}")
        numbers = [float(v) for v in values] + [truth]
        low, high = min(numbers), max(numbers)
        pad = max((high - low) * 0.15, 0.05)
        fig.update_xaxes(range=[low - pad, high + pad], title_text=questions.label(question))
    else:
        keys = questions.choices(question)
        # option numbers, not the moves' text: a document id is user text, and Plotly reads HTML in labels
        names = [f"Option {c}" if question["kind"] == "move" else questions.CHOICE_LABELS[c] for c in keys]
        fig.add_bar(
            x=names,
            y=[outcome.counts.get(c, 0) for c in keys],
            marker={
                "color": [colour.get(c, OTHER) for c in keys],
                "pattern": palette.pattern([pattern.get(c, "") for c in keys]),
            },
            text=[count(c) for c in keys],
            textposition="outside",
            hovertemplate="%{x}: %{y} answers<extra></extra>",
        )
    top = max(outcome.counts.values(), default=0)
    fig.update_yaxes(title_text="answers", range=[0, top * 1.25 + 1], dtick=max(1, round(top / 5)))
    fig.update_layout(height=320, margin={"l": 50, "r": 20, "t": 30, "b": 50}, showlegend=False, bargap=0.1)
    return fig

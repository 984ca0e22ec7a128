"""The reveal sent to every phone without a rerun of its page.

A rerun costs the server about 10 ms of CPU per phone, most of it Streamlit's own, so a reveal that reruns 300 phones
keeps a core busy for seconds (docs/performance.md, The reveal without a rerun). While its poll is open, a phone's
poll fragment draws ``follow``: a component whose script opens a stream (server-sent events) on ``PATH``. The
server's answer (``respond``, an HTTP responder ahead of Streamlit's:
ir_metrics_lab.shell.streamlit_internals.serve_http_first) registers the stream with the process's watcher
(ir_metrics_lab.core.classroom.watch), which tells streams before it reruns any phone: at the reveal each stream gets
one message, the right answer and its phone's verdict (ir_metrics_lab.core.classroom.reveal, as text), which the
component shows at once. The poll fragment's rerun follows, paced as before, and draws the rest (the worked formula,
a move question's options).

A stream names its poll and round, its phone's signed student id (the cookie's token: no one else's verdict can be
asked for) and its session: it ends when that session does (the page closed, or the server stopping, which waits for
every open response to end), when its message is sent, or when the browser leaves. Nothing in a message is markup: the
component shows it as text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.core.classroom import identity
from ir_metrics_lab.core.classroom.reveal import Verdict
from ir_metrics_lab.core.classroom.store import Poll, Store, Watched
from ir_metrics_lab.core.classroom.watch import PollWatch, Shown
from ir_metrics_lab.shell import streamlit_internals

PATH = "/_irlab/reveal"  # under the server's base URL, beside Streamlit's own /_stcore/
HOOK_NAME = "reveal stream"
KEY = "live_reveal_stream"  # the component's key: its element is hidden until a message comes (``css``)
HEARTBEAT_S = 15.0  # a comment line this often keeps a proxy from closing an idle stream (nginx: 60 s by default)
# How often a stream checks that its session is open: a stopping server waits for it (the watcher then ends it), and
# the check costs the watcher microseconds per stream, four times a second without this.
SESSION_CHECK_S = 1.0
STREAMS_PER_STUDENT = 4  # a phone has one per tab; more is someone holding the server's memory
POLLS_KEPT = 16  # revealed polls whose question and answers are kept for their streams' messages
_LOGGER = logging.getLogger(__name__)

VerdictOf = Callable[[Poll, "str | None"], Verdict]  # (poll, this phone's answer) -> what it is told, as text

_COMPONENT = st.components.v2.component(
    "irlab_reveal_stream",
    js=(Path(__file__).parent / "reveal_stream.js").read_text(encoding="utf-8"),
    isolate_styles=False,  # the page's CSS shows its element only once it holds a message
)


def follow(code: str, round_: int, token: str, session_id: str) -> None:
    """Draw the component that follows this phone's poll (open, round ``round_``) for its reveal; ``token`` is the
    student's signed id (identity.issue). Called from the phone's poll fragment while the poll is open."""
    query = urlencode({"code": code, "round": round_, "student": token, "session": session_id})
    _COMPONENT(key=KEY, data={"url": "." + PATH + "?" + query})


# How a message's sentence is coloured: the theme's text colour of Streamlit's alert of that kind
# (.streamlit/config.toml), on a tint of it, as the page's rerun draws it (st.success and the others).
_KIND_COLOURS = {"success": "green", "warning": "yellow", "error": "red", "info": "blue"}


def css() -> str:
    """The component's CSS (static: nothing from the user): its element takes no space until a message comes, and
    then takes the place of the answer controls."""
    rules = [
        f".st-key-{KEY}:not(:has(.rv-box)) {{ display: none; }}",
        # once it holds one, the answer controls after it go: the poll is no longer open (the rerun redraws all)
        f".st-key-{KEY}:has(.rv-box) ~ * {{ display: none; }}",
        ".rv-heading { margin: 0 0 1rem; padding: 0; font-size: 1.75rem; font-weight: 700; line-height: 1.3; }",
        ".rv-sentence { margin: 0; padding: 1rem; border-radius: 0.5rem; font-size: 1rem; line-height: 1.5; }",
    ]
    for kind, colour in _KIND_COLOURS.items():
        text_colour = st.get_option(f"theme.{colour}TextColor")
        rules.append(
            f".rv-{kind} {{ color: {text_colour}; background: color-mix(in srgb, {text_colour} 10%, white); }}"
        )
    return "\n".join(rules) + "\n"


class RevealStreams:
    """The streams of one server process: ``respond`` answers ``PATH``; a stream waits for its poll's change."""

    def __init__(self, store: Store, watch: PollWatch, verdict_of: VerdictOf):
        self.store = store
        self.watch = watch
        self.verdict_of = verdict_of
        self._lock = threading.Lock()
        self._revealed: OrderedDict[tuple[str, int], tuple[Poll, dict[str, str]]] = OrderedDict()
        self._per_student: dict[str, int] = {}

    async def respond(self, path: str, scope: MutableMapping[str, Any], receive: Any, send: Any) -> bool:
        """Answer a stream's request (True), or leave any other request to the next responder (False)."""
        if path != PATH:
            return False
        if scope.get("method") != "GET":
            await _refuse(send, 405, "GET only")
            return True
        query = {k: v[-1] for k, v in parse_qs(scope.get("query_string", b"").decode("latin-1")).items()}
        try:  # kept by the store once read (a phone's page has read it), else read off the event loop
            key = await asyncio.to_thread(self.store.identity_key)
        except SQLAlchemyError:  # the database is out: the page's own reads say so; the component tries again
            _LOGGER.warning("a reveal stream could not read the identity key", exc_info=True)
            await _refuse(send, 503, "the class server is busy")
            return True
        student = identity.verify(key, query.get("student"))
        session_id, code, round_ = query.get("session", ""), query.get("code", ""), query.get("round", "")
        if student is None or not session_id or not code or not round_.isdigit():
            await _refuse(send, 400, "a stream names its poll, its round, its student and its session")
            return True
        if not streamlit_internals.session_alive(session_id):  # closed, or another process's (before a restart)
            await _refuse(send, 404, "no such session here")
            return True
        with self._lock:
            held = self._per_student.get(student, 0)
            if held < STREAMS_PER_STUDENT:
                self._per_student[student] = held + 1
        if held >= STREAMS_PER_STUDENT:
            await _refuse(send, 429, "too many streams for one student")
            return True
        try:
            await self._stream(Shown(code, int(round_), "open", student, False), session_id, receive, send)
        finally:
            with self._lock:
                self._per_student[student] -= 1
                if not self._per_student[student]:
                    del self._per_student[student]
        return True

    async def _stream(self, shown: Shown, session_id: str, receive: Any, send: Any) -> None:
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        left = threading.Event()

        def post(message: bytes | None) -> None:  # from the watcher's thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
                loop.call_soon_threadsafe(inbox.put_nowait, message)

        def notify(now: Watched | None, _done: Callable[[], None]) -> None:
            post(self.message(shown, now))

        session_checked = time.monotonic()

        def alive() -> bool:  # the browser still listens, and its session is still open (checked every second)
            nonlocal session_checked
            if left.is_set():
                return False
            if time.monotonic() - session_checked < SESSION_CHECK_S:
                return True
            session_checked = time.monotonic()
            return streamlit_internals.session_alive(session_id)

        key = f"stream {id(inbox)}"
        self.watch.watch(
            key,
            shown,
            notify,
            alive=alive,
            instant=True,
            gone=lambda: post(None),
        )
        listening = asyncio.ensure_future(_disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": _STREAM_HEADERS})
            await send({"type": "http.response.body", "body": b": open\n\n", "more_body": True})
            while True:
                getting = asyncio.ensure_future(inbox.get())
                done, _ = await asyncio.wait({getting, listening}, timeout=HEARTBEAT_S, return_when="FIRST_COMPLETED")
                if listening in done:  # the browser left: nothing more can be sent
                    getting.cancel()
                    return
                if getting not in done:
                    getting.cancel()
                    await send({"type": "http.response.body", "body": b": \n\n", "more_body": True})
                    continue
                message = getting.result()
                if message is not None:
                    await send({"type": "http.response.body", "body": message, "more_body": True})
                break
            await send({"type": "http.response.body", "body": b""})
        finally:
            left.set()
            self.watch.unwatch(key)
            listening.cancel()

    def message(self, shown: Shown, now: Watched | None) -> bytes:
        """What a stream following ``shown`` is sent once its poll is no longer as shown: the reveal (an event
        ``reveal``: heading, kind, sentence), or ``changed`` (another round, closed, gone: the page's rerun shows
        it)."""
        if now is None or now.round != shown.round or now.state != "revealed":
            return b"event: changed\ndata: {}\n\n"
        try:
            poll, answers = self._final(shown.code, shown.round)
        except Exception:  # the database is out: the page's rerun says so
            _LOGGER.warning("could not read a revealed poll for its streams", exc_info=True)
            return b"event: changed\ndata: {}\n\n"
        said = self.verdict_of(poll, answers.get(shown.student))
        data = json.dumps({"heading": said.heading, "kind": said.kind, "sentence": said.sentence})
        return f"event: reveal\ndata: {data}\n\n".encode()

    def _final(self, code: str, round_: int) -> tuple[Poll, dict[str, str]]:
        """A revealed round's poll and answers (final: a revealed round takes no answer), read once for all its
        streams."""
        key = (code, round_)
        with self._lock:
            kept = self._revealed.get(key)
        if kept is None:
            poll = self.store.poll(code)
            if poll is None or poll.round != round_:
                raise LookupError(f"poll {code} round {round_} is gone")
            kept = (poll, {a.student: a.value for a in self.store.answers(code, round_)})
            with self._lock:
                self._revealed[key] = kept
                while len(self._revealed) > POLLS_KEPT:
                    self._revealed.popitem(last=False)
        return kept


_STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),  # nginx passes each message on at once (docs/how-to/serve-a-class.md)
]


async def _disconnected(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _refuse(send: Any, status: int, reason: str) -> None:
    body = reason.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


_installed: list[RevealStreams] = []
_install_lock = threading.Lock()


def install(store: Store, watch: PollWatch, verdict_of: VerdictOf) -> bool:
    """Answer the streams' requests in this process from now on (once: later calls change nothing). False when
    Streamlit's server cannot be hooked: the phones then see the reveal with their page's rerun."""
    with _install_lock:
        if _installed and streamlit_internals.http_first_installed(HOOK_NAME):
            return True
        streams = RevealStreams(store, watch, verdict_of)
        try:
            streamlit_internals.serve_http_first(HOOK_NAME, streams.respond)
        except streamlit_internals.MissingHook as missing:
            streamlit_internals.warn_once(missing, "each phone sees the reveal with its page's rerun")
            return False
        _installed[:] = [streams]
        return True

"""The reveal reaches a phone twice: at once, as one message on its page's reveal stream, without a rerun
(ir_metrics_lab.classroom.reveal_stream), and whole by a rerun of its poll's fragment alone, not of its whole page. One
app process on SQLite (scripts/serve_class.py), phones and taps as Streamlit sessions over the app's websocket, a
stream read as the page's component reads it (bench/classroom/streamlit_phones.py). The teacher reveals through the
store, as the projector's button does in another session; the process's watcher pushes the change
(ir_metrics_lab.core.classroom.watch)."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urljoin

import pytest
from sqlalchemy.exc import OperationalError

from bench.classroom.streamlit_phones import Tab
from ir_metrics_lab.classroom import reveal_stream
from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.classroom.store import Store, default_sqlite_url, dispose_engine
from ir_metrics_lab.core.classroom.watch import PollWatch
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, Scenario
from metrics.teaching.examples import EXAMPLES
from scripts.serve_class import serving

WAIT_S = 60  # a loaded 2-core box
PROMPT = "Which list has the higher NDCG@5?"


async def a_reveal(base: str, store: Store) -> None:
    scn = Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE])
    question = questions.pick_better(scn, scn.ranking[-1], 1, "NDCG")
    assert questions.prompt(question) == PROMPT
    created = store.create_poll(question)
    code, token = created.poll.code, created.teacher_token
    phone = Tab(base, "join", {"code": code})
    silent = Tab(base, "join", {"code": code})  # a phone that does not answer
    try:
        await phone.open(WAIT_S)
        await silent.open(WAIT_S)
        assert PROMPT in phone.seen.texts and "live_choice_B" in phone.seen.widgets
        phone.forget()
        runs = phone.runs_finished
        await phone.click("live_choice_B")  # drawn by the fragment: the tap reruns it alone, as a browser's does
        await phone.wait_for(lambda: phone.shows("Answer sent") and phone.runs_finished > runs, WAIT_S)
        assert phone.fragment_runs_finished == 1 and PROMPT not in phone.seen.texts

        # Each page's component opens its stream; one that reaches the server after the reveal is told at once.
        streams = [asyncio.ensure_future(tab.follow(reveal_stream.KEY, WAIT_S)) for tab in (phone, silent)]
        full_runs, runs = phone.runs_finished - phone.fragment_runs_finished, phone.runs_finished
        phone.forget()
        store.reveal(code, token)
        # its own answer, judged, and the end of the run that brought it
        await phone.wait_for(lambda: phone.shows("Your answer B is") and phone.runs_finished > runs, WAIT_S)
        assert phone.shows("The answer: List A")  # NDCG@5 of A, 0.97 (tests/test_app_live_class.py), beats B's
        # the fragment's rerun brought it: no run of the whole page, the question not sent again
        assert (phone.runs_finished - phone.fragment_runs_finished, phone.fragment_runs_finished) == (full_runs, 2)
        assert PROMPT not in phone.seen.texts
        # the streams said it too, in the rerun's words, as text
        (event, pushed), (silent_event, silent_pushed) = await asyncio.gather(*streams)
        assert event == silent_event == "reveal"
        assert pushed["heading"] == "The answer: List A" and phone.shows(pushed["sentence"])
        assert pushed["sentence"].startswith("Your answer B is") and pushed["kind"] in ("warning", "error")
        assert silent_pushed == {
            "heading": "The answer: List A",
            "kind": "info",
            "sentence": "You did not answer this round.",
        }

        phone.forget()
        store.reask(code, token, question)  # another round: the whole page
        await phone.wait_for(
            lambda: PROMPT in phone.seen.texts and phone.runs_finished - phone.fragment_runs_finished > full_runs,
            WAIT_S,
        )
        # a stream ends with its session (a closed tab, a stopping server) and lets no one else's verdict out
        stream_url = json.loads(phone.seen.components[reveal_stream.KEY])["url"]
        assert "round=2" in stream_url
        answered = [asyncio.Event() for _ in range(reveal_stream.STREAMS_PER_STUDENT)]
        following = [asyncio.ensure_future(phone.follow(reveal_stream.KEY, WAIT_S, event)) for event in answered]
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in answered)), WAIT_S)
        forged = stream_url.replace("student=", "student=x")
        stranger = re.sub(r"session=[^&]+", "session=" + "0" * 36, stream_url)
        for url, status in ((forged, 400), (stranger, 404), (stream_url, 429)):  # 429: one stream too many
            with pytest.raises(urllib.error.HTTPError) as refused:
                await asyncio.to_thread(urllib.request.urlopen, urljoin(phone.address, url), timeout=WAIT_S)
            assert refused.value.code == status
        await phone.close()
        for stream in following:
            with pytest.raises(ConnectionError, match="ended without a message"):
                await stream
    finally:
        await phone.close()
        await silent.close()


def test_the_reveal_reruns_only_the_phones_poll_fragment(tmp_path):
    url = default_sqlite_url(tmp_path)
    with serving(1, url, balancer=False, logs=tmp_path) as served:
        store = Store(url)
        try:
            run_apart(a_reveal(served.base, store))
        finally:
            dispose_engine(url)


def run_apart(coroutine):
    """asyncio.run in a thread of its own: a browser test earlier in this worker leaves Playwright's event loop
    running in the main thread, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(1) as apart:
        return apart.submit(asyncio.run, coroutine).result()


class _OutStore:
    """A store whose database is out."""

    def identity_key(self) -> bytes:
        raise OperationalError("SELECT", {}, Exception("connection refused"))


def test_a_stream_refused_says_why_in_words_with_no_trace():
    """A stream's request answered without a server (in-process, ASGI): a POST gets 405; a database that is out, 503
    and a sentence (the component tries again), never a traceback."""
    streams = reveal_stream.RevealStreams(_OutStore(), PollWatch(_OutStore()), lambda poll, value: None)

    def answer(method: str) -> list[dict]:
        sent: list[dict] = []

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {"type": "http", "method": method, "query_string": b"code=ABCDEFGH&round=1&student=x.y&session=s"}
        assert run_apart(streams.respond(reveal_stream.PATH, scope, None, send)) is True
        return sent

    for method, status, reason in (("POST", 405, b"GET only"), ("GET", 503, b"the class server is busy")):
        start, body = answer(method)
        assert (start["status"], body["body"]) == (status, reason)
    assert run_apart(streams.respond("/join", {"type": "http", "method": "GET"}, None, None)) is False

"""The reveal reaches a phone by a rerun of its poll's fragment alone, not of its whole page: one app process on SQLite
(scripts/serve_class.py), a phone and a tap as Streamlit sessions over the app's websocket
(bench/classroom/streamlit_phones.py). The teacher reveals through the store, as the projector's button does in
another session; the process's watcher pushes the change (ir_metrics_lab.core.classroom.watch)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from bench.classroom.streamlit_phones import Tab
from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.classroom.store import Store, default_sqlite_url, dispose_engine
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
    await phone.open(WAIT_S)
    try:
        assert PROMPT in phone.seen.texts and "live_choice_B" in phone.seen.widgets
        phone.forget()
        runs = phone.runs_finished
        await phone.click("live_choice_B")  # drawn by the fragment: the tap reruns it alone, as a browser's does
        await phone.wait_for(lambda: phone.shows("Answer sent") and phone.runs_finished > runs, WAIT_S)
        assert phone.fragment_runs_finished == 1 and PROMPT not in phone.seen.texts

        full_runs, runs = phone.runs_finished - phone.fragment_runs_finished, phone.runs_finished
        phone.forget()
        store.reveal(code, token)
        # its own answer, judged, and the end of the run that brought it
        await phone.wait_for(lambda: phone.shows("Your answer B is") and phone.runs_finished > runs, WAIT_S)
        assert phone.shows("The answer: List A")  # NDCG@5 of A, 0.97 (tests/test_app_live_class.py), beats B's
        # the fragment's rerun brought it: no run of the whole page, the question not sent again
        assert (phone.runs_finished - phone.fragment_runs_finished, phone.fragment_runs_finished) == (full_runs, 2)
        assert PROMPT not in phone.seen.texts

        phone.forget()
        store.reask(code, token, question)  # another round: the whole page
        await phone.wait_for(
            lambda: PROMPT in phone.seen.texts and phone.runs_finished - phone.fragment_runs_finished > full_runs,
            WAIT_S,
        )
    finally:
        await phone.close()


def test_the_reveal_reruns_only_the_phones_poll_fragment(tmp_path):
    url = default_sqlite_url(tmp_path)
    with serving(1, url, balancer=False, logs=tmp_path) as served:
        store = Store(url)
        try:
            # In a thread of its own: a browser test earlier in this worker leaves Playwright's event loop running
            # in the main thread, where asyncio.run refuses to start.
            with ThreadPoolExecutor(1) as apart:
                apart.submit(asyncio.run, a_reveal(served.base, store)).result()
        finally:
            dispose_engine(url)

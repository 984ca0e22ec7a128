"""Two app replicas behind HAProxy sharing a throwaway PostgreSQL (scripts/serve_class.py, as a teacher starts them):
a phone on one replica and the projector on the other see the same count and the same reveal. The phones and the
projector are Streamlit sessions over the app's websocket (bench/classroom/streamlit_phones.py), not browsers;
HAProxy's cookie names the replica that accepted each websocket."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from bench.classroom.streamlit_phones import Tab
from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.classroom.store import Store, dispose_engine
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, Scenario
from metrics.teaching.examples import EXAMPLES
from scripts.serve_class import serving
from scripts.temporary_postgres import temporary_postgres

WAIT_S = 60  # a loaded 2-core box


async def a_class(base: str, store: Store) -> None:
    scn = Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE])
    created = store.create_poll(questions.pick_better(scn, scn.ranking[-1], 1, "NDCG"))
    code = created.poll.code
    projector = Tab(base, "ask-the-class", {"poll": code, "teacher": created.teacher_token})
    await projector.open(WAIT_S)
    phones = [Tab(base, "join", {"code": code}) for _ in range(2)]
    for phone in phones:
        await phone.open(WAIT_S)
    try:
        # round robin: the projector on one replica, the phones alternate, so one phone is on the other replica
        assert projector.replica and all(phone.replica for phone in phones)
        phone = next(p for p in phones if p.replica != projector.replica)
        assert projector.seen.metrics["Answers"] == "0"
        await phone.click("live_choice_B")
        await phone.wait_for(lambda: phone.shows("Answer sent"), WAIT_S)
        await projector.wait_for(lambda: projector.seen.metrics["Answers"] == "1", WAIT_S)

        phone.forget()
        await projector.click("live_reveal")  # the teacher's button, on the projector's replica
        await projector.wait_for(lambda: projector.shows("of 1 right"), WAIT_S)
        # pushed to the phone by its own replica's watcher, which read the reveal from PostgreSQL
        await phone.wait_for(lambda: phone.shows("Your answer B is"), WAIT_S)  # its own answer, judged
        assert phone.shows("The answer: List A")  # NDCG@5 of A, 0.97 (tests/test_app_live_class.py), beats B's
    finally:
        await asyncio.gather(projector.close(), *(p.close() for p in phones))


def test_a_phone_and_the_projector_on_different_replicas_see_one_poll(tmp_path):
    with temporary_postgres() as url, serving(2, url, logs=tmp_path) as served:
        assert len(set(served.replicas)) == 2 and served.balancer_pid
        store = Store(url)
        try:
            # In a thread of its own: a browser test earlier in this worker leaves Playwright's event loop running
            # in the main thread, where asyncio.run refuses to start.
            with ThreadPoolExecutor(1) as apart:
                apart.submit(asyncio.run, a_class(served.base, store)).result()
        finally:
            dispose_engine(url)

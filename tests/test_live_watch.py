"""The phones' watcher (ir_metrics_lab.core.classroom.watch): one read of the store for every phone, and a phone is told
exactly when its page is out of date (a reveal, a re-ask, a reset of its answer), never while nothing changed. SQLite in
a temporary folder; Store.watched is plain SQL that PostgreSQL runs too (tests/test_live_balancer.py runs it there)."""

from __future__ import annotations

import threading

import pytest

from ir_metrics_lab.core.classroom.store import Store, Watched, default_sqlite_url, dispose_engine
from ir_metrics_lab.core.classroom.watch import PollWatch, Shown

QUESTION = {"kind": "predict", "measure": "P", "k": 5}  # the watcher never reads the question


@pytest.fixture
def store(tmp_path):
    url = default_sqlite_url(tmp_path)
    yield Store(url)
    dispose_engine(url)


class Phone:
    def __init__(self, watch: PollWatch, key: str, shown: Shown):
        self.told, self.here, self.now = 0, True, None
        watch.watch(key, shown, notify=self.tell, alive=lambda: self.here)

    def tell(self, now: Watched | None, done) -> None:
        self.told, self.now = self.told + 1, now
        done()


def test_watched_reads_round_state_and_who_answered_for_several_polls(store):
    one, two = store.create_poll(QUESTION), store.create_poll(QUESTION)
    store.answer(one.poll.code, 1, "ann", "0.5")
    store.answer(one.poll.code, 1, "bob", "0.4")
    store.reveal(two.poll.code, two.teacher_token)
    store.reask(two.poll.code, two.teacher_token, QUESTION)
    store.answer(two.poll.code, 2, "cat", "0.1")
    assert store.watched([one.poll.code, two.poll.code.lower(), "NOSUCHPO"]) == {
        one.poll.code: Watched(1, "open", frozenset({"ann", "bob"})),
        two.poll.code: Watched(2, "open", frozenset({"cat"})),  # round 2's answers only
    }
    assert store.watched([]) == {}


def test_a_phone_is_told_once_when_its_page_is_out_of_date_and_not_before(store):
    created = store.create_poll(QUESTION)
    code, token = created.poll.code, created.teacher_token
    store.answer(code, 1, "ann", "0.5")
    watch = PollWatch(store, interval=3600)  # passes by hand (check), not by its thread
    answered = Phone(watch, "s1", Shown(code, 1, "open", "ann", answered=True))
    waiting = Phone(watch, "s2", Shown(code, 1, "open", "bob", answered=False))
    other = store.create_poll(QUESTION)
    elsewhere = Phone(watch, "s3", Shown(other.poll.code, 1, "open", "cat", answered=False))

    assert watch.check() == 0  # nothing changed: no phone reruns
    store.answer(code, 1, "dan", "0.3")  # another student's answer changes no phone's page
    assert watch.check() == 0

    store.reset(code, token)  # ann's answer is gone: her page said it was sent
    assert watch.check() == 1
    assert (answered.told, waiting.told, elsewhere.told) == (1, 0, 0)
    assert answered.now == Watched(1, "open", frozenset())  # the poll as it is now: the same round
    assert len(watch) == 2  # ann's phone is dropped until its page's next run registers again

    store.reveal(code, token)
    assert watch.check() == 1
    assert (answered.told, waiting.told, elsewhere.told) == (1, 1, 0)
    assert waiting.now == Watched(1, "revealed", frozenset())
    assert watch.check() == 0  # told once


def test_a_phone_that_left_is_dropped_without_being_told(store):
    created = store.create_poll(QUESTION)
    watch = PollWatch(store, interval=3600)
    phone = Phone(watch, "s1", Shown(created.poll.code, 1, "open", "ann", answered=False))
    phone.here = False
    store.reveal(created.poll.code, created.teacher_token)
    watch.check()
    assert (phone.told, len(watch)) == (0, 0)


def test_the_watcher_thread_tells_the_phones_by_itself(store):
    created = store.create_poll(QUESTION)
    watch = PollWatch(store, interval=0.05)
    told = []
    watch.watch(
        "s1",
        Shown(created.poll.code, 1, "open", "ann", False),
        lambda now, done: (told.append(now), done()),
        lambda: True,
    )
    store.reveal(created.poll.code, created.teacher_token)
    for _ in range(200):
        if told:
            break
        watch._wake.wait(0.05)
    assert told == [Watched(1, "revealed", frozenset())]


def test_at_most_so_many_phones_rerun_at_once(store):
    """A reveal tells the phones a few at a time: the next one once an earlier one says its rerun is done."""
    created = store.create_poll(QUESTION)
    watch = PollWatch(store, interval=3600, at_once=2)
    told: list[str] = []
    held: list = []  # the told phones' done, not called yet
    changed = threading.Condition()

    def phone(key: str):
        def notify(now: Watched | None, done) -> None:
            with changed:
                told.append(key)
                held.append(done)
                changed.notify_all()

        return notify

    for n in range(5):
        watch.watch(f"s{n}", Shown(created.poll.code, 1, "open", f"st{n}", False), phone(f"s{n}"), lambda: True)
    store.reveal(created.poll.code, created.teacher_token)
    passing = threading.Thread(target=watch.check)
    passing.start()
    with changed:
        assert changed.wait_for(lambda: len(told) == 2, 30)
        assert not changed.wait_for(lambda: len(told) > 2, 0.3)  # the third waits for a place
        held[0]()
        held[0]()  # said twice: still one place freed
        assert changed.wait_for(lambda: len(told) == 3, 30)
        assert not changed.wait_for(lambda: len(told) > 3, 0.3)
    for _ in range(3):  # the latest told ends its rerun; the next is told
        with changed:
            done = held.pop()
        done()
        with changed:
            changed.wait_for(lambda: len(held) > 0 or len(told) == 5, 30)
    passing.join(30)
    assert sorted(told) == [f"s{n}" for n in range(5)] and not passing.is_alive()


def test_streams_are_told_before_any_rerun_starts_and_hear_when_their_phone_left(store):
    """An ``instant`` follower (a reveal stream, ir_metrics_lab.classroom.reveal_stream) is told first, whatever the
    order it registered in, and takes no place among the reruns; ``gone`` is called once ``alive()`` is False."""
    created = store.create_poll(QUESTION)
    watch = PollWatch(store, interval=3600, at_once=1)
    told: list[str] = []

    def rerun(now: Watched | None, done) -> None:  # a phone's rerun that never says it is done
        told.append("rerun")

    def stream(name: str):
        return lambda now, done: told.append(name)

    shown = Shown(created.poll.code, 1, "open", "ann", False)
    watch.watch("session", shown, rerun, lambda: True)
    watch.watch("stream 1", shown, stream("stream 1"), lambda: True, instant=True)
    watch.watch("stream 2", shown, stream("stream 2"), lambda: True, instant=True)
    left: list[str] = []
    watch.watch("stream 3", shown, stream("stream 3"), lambda: False, instant=True, gone=lambda: left.append("3"))
    store.reveal(created.poll.code, created.teacher_token)
    assert watch.check() == 3
    assert told == ["stream 1", "stream 2", "rerun"] and left == ["3"] and len(watch) == 0

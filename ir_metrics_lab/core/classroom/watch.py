"""One watcher per server process for every phone on a poll: the teacher's reveal, reset or re-ask is pushed to the
phones instead of each phone asking for it.

A phone registers what it displays (its poll, round, state and whether it has answered) with a ``notify`` callable.
One thread reads all the watched polls from the store once every ``interval`` seconds (Store.watched: one read for
every phone of every poll) and calls ``notify(now, done)`` for each phone whose page no longer matches: another round,
another state, or its answer gone (a reset); ``now`` is the poll as it is (None once it is gone), and the phone calls
``done()`` once its page has been redrawn. A notified phone is dropped until it registers again (its page's next run
does). An idle phone then costs no server work of its own: with a fragment rerun every 2 s per phone, 300 idle phones
cost about a CPU-second per second (bench/classroom/serve_class_phones.py).

No Streamlit here: ir_metrics_lab.classroom.live_class connects ``notify`` to a rerun of the phone's session.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from ir_metrics_lab.core.classroom.store import Store, Watched

INTERVAL_S = 0.25  # a reveal reaches the phones within this (plus their reruns); one read of the store each time
# A reveal reruns every phone: hundreds of script threads at the same moment fight for the GIL with the event loop
# that sends their pages, and every phone sees the reveal at the end, together. A few at a time, each phone sees it
# as soon as its own rerun is done (bench/classroom/serve_class_phones.py).
RERUNS_AT_ONCE = 4
RERUN_WAIT_S = 5.0  # a phone that does not say done by then no longer holds the others back
_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Shown:
    """What one phone's page shows."""

    code: str
    round: int
    state: str
    student: str
    answered: bool


Notify = Callable[[Watched | None, Callable[[], None]], None]


@dataclass(frozen=True, slots=True, eq=False)
class _Phone:
    shown: Shown
    notify: Notify
    alive: Callable[[], bool]
    instant: bool
    gone: Callable[[], None] | None


def _nothing() -> None:
    pass


class _InFlight:
    """At most ``limit`` phones' reruns under way: ``enter()`` waits for a free place (at most RERUN_WAIT_S) and
    returns the ``done`` that frees it (once, from any thread)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._running = 0
        self._changed = threading.Condition()

    def enter(self) -> Callable[[], None]:
        with self._changed:
            self._changed.wait_for(lambda: self._running < self.limit, RERUN_WAIT_S)
            self._running += 1
        left = threading.Event()

        def done() -> None:
            with self._changed:
                if not left.is_set():
                    left.set()
                    self._running -= 1
                    self._changed.notify()

        return done


class PollWatch:
    def __init__(self, store: Store, interval: float = INTERVAL_S, at_once: int = RERUNS_AT_ONCE):
        self.store = store
        self.interval = interval
        self._in_flight = _InFlight(at_once)
        self._phones: dict[str, _Phone] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(
        self,
        key: str,
        shown: Shown,
        notify: Notify,
        alive: Callable[[], bool],
        *,
        instant: bool = False,
        gone: Callable[[], None] | None = None,
    ) -> None:
        """Watch for phone ``key`` (one per session, or per reveal stream), replacing what it watched; dropped once
        ``alive()`` is False (the phone left), and then ``gone()`` is called. ``instant``: ``notify`` returns at once
        (a reveal stream's message, ir_metrics_lab.classroom.reveal_stream), so it is told before any rerun starts and
        takes no place among them."""
        with self._lock:
            self._phones[key] = _Phone(shown, notify, alive, instant, gone)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="live-class-watch", daemon=True)
                self._thread.start()

    def unwatch(self, key: str) -> None:
        with self._lock:
            self._phones.pop(key, None)

    def __len__(self) -> int:
        return len(self._phones)

    def check(self) -> int:
        """One pass: read the watched polls, notify the phones whose page is out of date. Returns how many."""
        with self._lock:
            phones = dict(self._phones)
        if not phones:
            return 0
        now = self.store.watched({phone.shown.code for phone in phones.values()})
        stale: list[tuple[str, _Phone]] = []
        gone: list[tuple[str, _Phone]] = []
        for key, phone in phones.items():
            shown = phone.shown
            poll = now.get(shown.code)
            if not phone.alive():
                gone.append((key, phone))
            elif (
                poll is None
                or (poll.round, poll.state) != (shown.round, shown.state)
                or (shown.answered and shown.student not in poll.answered)
            ):
                stale.append((key, phone))
        with self._lock:
            for key, phone in stale + gone:
                if self._phones.get(key) is phone:  # not re-registered meanwhile
                    del self._phones[key]
        for _, phone in gone:
            if phone.gone is not None:
                try:
                    phone.gone()
                except Exception:  # as below: the others still hear
                    _LOGGER.exception("could not tell a phone's follower it has gone")
        stale.sort(key=lambda item: not item[1].instant)  # the instant ones first: no rerun holds them back
        for _, phone in stale:
            done = _nothing if phone.instant else self._in_flight.enter()
            try:
                phone.notify(now.get(phone.shown.code), done)
            except Exception:  # one phone's failure must not stop the others' pushes
                done()
                _LOGGER.exception("could not notify a phone of its poll's change")
        return len(stale)

    def _run(self) -> None:
        # An interval first: a phone that just registered has just drawn the poll as it is, and a pass at once would
        # race a caller's own check() (the tests') and tell a phone twice.
        while not self._wake.wait(self.interval):
            with self._lock:
                if not self._phones:
                    self._thread = None
                    return
            try:
                self.check()
            except Exception:  # a database hiccup: try again next interval
                _LOGGER.exception("could not read the watched polls")

"""One watcher per server process for every phone on a poll: the teacher's reveal, reset or re-ask is pushed to the
phones instead of each phone asking for it.

A phone registers what it displays (its poll, round, state and whether it has answered) with a ``notify`` callable.
One thread reads all the watched polls from the store once every ``interval`` seconds (Store.watched: one read for
every phone of every poll) and calls ``notify`` for each phone whose page no longer matches: another round, another
state, or its answer gone (a reset). A notified phone is dropped until it
registers again (its page's next run does). An idle phone then costs no server work of its own: with a fragment
rerun every 2 s per phone, 300 idle phones cost about a CPU-second per second (bench/classroom/serve_class_phones.py).

No Streamlit here: ir_metrics_lab.classroom.live_class connects ``notify`` to a rerun of the phone's session.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ir_metrics_lab.core.classroom.store import Store

INTERVAL_S = 1.0  # a reveal reaches the phones within this (plus their rerun)
# A reveal reruns every phone's page at once: hundreds of script threads at the same moment fight for the GIL (and
# for the database's connections) and all finish late. Paced, they finish in turn.
PUSHES_PER_S = 100
_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Shown:
    """What one phone's page shows."""

    code: str
    round: int
    state: str
    student: str
    answered: bool


class PollWatch:
    def __init__(self, store: Store, interval: float = INTERVAL_S, pushes_per_s: float = PUSHES_PER_S):
        self.store = store
        self.interval = interval
        self.pushes_per_s = pushes_per_s
        self._phones: dict[str, tuple[Shown, Callable[[], None], Callable[[], bool]]] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, key: str, shown: Shown, notify: Callable[[], None], alive: Callable[[], bool]) -> None:
        """Watch for phone ``key`` (one per session), replacing what it watched; dropped once ``alive()`` is False
        (the phone left)."""
        with self._lock:
            self._phones[key] = (shown, notify, alive)
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
        now = self.store.watched({shown.code for shown, _, _ in phones.values()})
        stale, gone = [], []
        for key, (shown, notify, alive) in phones.items():
            poll = now.get(shown.code)
            if not alive():
                gone.append((key, shown, notify))
            elif (
                poll is None
                or (poll.round, poll.state) != (shown.round, shown.state)
                or (shown.answered and shown.student not in poll.answered)
            ):
                stale.append((key, shown, notify))
        with self._lock:
            for key, shown, _ in stale + gone:
                if self._phones.get(key, (None,))[0] == shown:  # not re-registered meanwhile
                    del self._phones[key]
        for n, (_, _, notify) in enumerate(stale):
            if n:
                time.sleep(1 / self.pushes_per_s)
            try:
                notify()
            except Exception:  # one phone's failure must not stop the others' pushes
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

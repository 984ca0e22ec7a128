"""Fair under abuse: how often one student, one connection (a Streamlit session) or one teacher's page may act.
A token bucket per key: ``burst`` actions at once, then one every ``1 / per_second`` s; an action over the limit is
refused (the caller drops it quietly: a real tap is never that fast). In memory, per server process, bounded: the
oldest keys are forgotten first (a forgotten key starts with a full bucket, which is what a new key gets anyway).

>>> now = [0.0]
>>> limit = Limit(per_second=2, burst=2, clock=lambda: now[0])
>>> [limit.allow("phone") for _ in range(3)]
[True, True, False]
>>> now[0] = 0.5
>>> limit.allow("phone"), limit.allow("other")
(True, True)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

KEYS_MAX = 50_000  # ~100 bytes a key: a few MB at most


class Limit:
    def __init__(self, per_second: float, burst: int, *, clock: Callable[[], float] = time.monotonic):
        self.per_second, self.burst, self._clock = per_second, burst, clock
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()  # key: (tokens, at)
        self._lock = threading.Lock()

    def allow(self, *keys: Hashable) -> bool:
        """Take one action from each key's bucket (a student and the connection it came through) if every one has
        it; otherwise take nothing."""
        with self._lock:
            now = self._clock()
            filled = {key: self._filled(key, now) for key in keys}
            allowed = all(tokens >= 1.0 for tokens in filled.values())
            for key, tokens in filled.items():
                self._buckets.pop(key, None)
                self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
            while len(self._buckets) > KEYS_MAX:
                self._buckets.popitem(last=False)
            return allowed

    def _filled(self, key: Hashable, now: float) -> float:
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - at) * self.per_second)


# A tap every few hundred milliseconds is plenty: a student changes an answer a few times a round.
ANSWERS_PER_SECOND, ANSWERS_BURST = 3.0, 5
# A phone types a join code a few times at most; a guesser would try thousands (with 31^8 codes, to no avail).
JOINS_PER_SECOND, JOINS_BURST = 0.2, 5
# A teacher opens a poll a few times a lesson.
POLLS_PER_SECOND, POLLS_BURST = 1 / 30, 3

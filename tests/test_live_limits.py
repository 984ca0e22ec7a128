"""The live class's rate limits (ir_metrics_lab.core.classroom.limits) and signed student ids
(ir_metrics_lab.core.classroom.identity), with a clock that only moves when told. Counts by hand: a bucket of
``burst`` taps, refilled at ``per_second``."""

from __future__ import annotations

import pytest

from ir_metrics_lab.core.classroom import identity, limits


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate():
    clock = Clock()
    limit = limits.Limit(per_second=3, burst=5, clock=clock)
    assert [limit.allow("phone") for _ in range(8)] == [True] * 5 + [False] * 3
    clock.now = 1.0  # 3 taps' worth
    assert [limit.allow("phone") for _ in range(4)] == [True] * 3 + [False]
    clock.now = 100.0  # never more than the burst
    assert sum(limit.allow("phone") for _ in range(10)) == 5


def test_a_flood_of_one_key_leaves_the_others_alone():
    clock = Clock()
    limit = limits.Limit(per_second=3, burst=5, clock=clock)
    allowed = 0
    for tap in range(1000):  # a tap every 10 ms for 10 s
        clock.now = tap * 0.01
        allowed += limit.allow(("student", "flood"), ("connection", "c1"))
        if tap % 100 == 0:
            assert limit.allow(("student", f"other-{tap}"), ("connection", f"c-{tap}"))
    assert allowed == 5 + 29  # the burst, then one every 1/3 s of the 9.99 s that followed
    assert allowed <= 5 + 3 * 10


def test_an_action_counts_against_every_key_or_none():
    limit = limits.Limit(per_second=0.001, burst=2, clock=Clock())
    assert limit.allow("student", "tab-1") and limit.allow("student", "tab-2")
    assert not limit.allow("student", "tab-3")  # the student is out: refused, and tab-3 keeps its taps
    assert limit.allow("other", "tab-3") and limit.allow("other", "tab-3")
    assert not limit.allow("other", "tab-3")


def test_memory_is_bounded(monkeypatch):
    monkeypatch.setattr(limits, "KEYS_MAX", 100)
    limit = limits.Limit(per_second=1, burst=1, clock=Clock())
    for n in range(1000):
        limit.allow(n)
    assert len(limit._buckets) == 100


KEY = bytes(range(32))


def test_a_signed_id_reads_back_and_a_changed_one_does_not():
    token = identity.issue(KEY, "Ab-3_x")
    assert identity.verify(KEY, token) == "Ab-3_x"
    student, mac = token.split(".")
    assert identity.verify(KEY, f"Ab-3_y.{mac}") is None
    assert identity.verify(bytes(32), token) is None  # another server's key
    assert identity.verify(KEY, f"{student}.{mac[:-1]}A" if mac[-1] != "A" else f"{student}.{mac[:-1]}B") is None


@pytest.mark.parametrize("token", [None, "", ".", "abc", "a.b.c", 42, ".x"])
def test_anything_else_is_no_one(token):
    assert identity.verify(KEY, token) is None

"""relstring (metrics.families.relstring): a string per query, not a number."""

from __future__ import annotations

from hypothesis import given

from metrics import Conventions, parse_measure
from metrics.engine import evaluate
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, kernel_equals_readable


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    """The engine's strings equal the readable function's (pytrec_eval reports relstring as 0.0: no reference)."""
    kernel_equals_readable(["relstring", "relstring@3", "relstring_12"], *data, Conventions(threshold=threshold))


def test_relstring_by_hand():
    ranking = [f"d{i}" for i in range(12)]
    qrels = {"d0": 1, "d2": 0, "d3": -1, "d4": 12, "d5": 9, "d11": 3}
    assert parse_measure("relstring").compute(ranking, qrels).text == "1-0.>9----"
    assert evaluate({"q": ranking}, {"q": qrels}, ["relstring_12"]).texts["relstring_12"] == ("1-0.>9-----3",)

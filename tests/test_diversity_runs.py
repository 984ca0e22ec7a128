"""Whole runs against subtopic judgments (metrics.diversity.runs): the nine families' kernels equal their readable
functions bit for bit on generated runs, and ndeval 4.5's recorded output on its corpus."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions, parse_measure
from metrics.cli.ir_ndeval import COLUMNS, format_value
from metrics.diversity.runs import evaluate_subtopics
from tests.families.diversity import SETTINGS, _corpus, topics

NAMES = [
    "ERR_IA@5", "nERR_IA@20", "alpha_DCG@10", "alpha_nDCG@5", "alpha_nDCG(alpha=0.2)@3", "alpha_nDCG",
    "NRBP(beta=0.9)", "nNRBP(alpha=1)", "AP_IA", "P_IA@5", "StRecall@20", "nNRBP@3",
]  # fmt: skip


@SETTINGS
@given(st.lists(topics(), max_size=4), st.integers(1, 2))
def test_kernels_equal_the_readable_functions(drawn, threshold):
    run = {f"q{i}": ranking for i, (_, ranking) in enumerate(drawn)}
    qrels = {f"q{i}": judged for i, (judged, _) in enumerate(drawn)}
    conventions = Conventions(threshold=threshold)
    values = evaluate_subtopics(run, qrels, NAMES, conventions=conventions)
    for name in NAMES:
        measure = parse_measure(name)
        for query in run:
            expected = measure.compute(run[query], qrels[query], conventions).value
            got = values[name][query]
            assert got == expected or (math.isnan(got) and math.isnan(expected)), (name, query)


def test_equals_ndeval45_on_its_corpus():
    """Every recorded topic (default options, no pair judged twice), all 21 of ndeval's columns."""
    names = [c.replace("-", "_").replace("MAP_IA", "AP_IA").replace("strec", "StRecall") for c in COLUMNS]
    checked = 0
    for options, judged, rankings, printed, repeated in _corpus():
        if (options.alpha, options.beta) != (0.5, 0.5):
            continue
        run = {str(t): r for t, r in rankings.items() if t not in repeated}
        values = evaluate_subtopics(run, {str(t): j for t, j in judged.items()}, names)
        for column, name in zip(COLUMNS, names, strict=True):
            for topic, value in values[name].items():
                assert format_value(value) == printed[int(topic)][column], (column, topic)
                checked += 1
    assert checked > 3000


def test_refuses_a_measure_of_another_family():
    with pytest.raises(ValueError, match="not a diversity measure: P@5"):
        evaluate_subtopics({}, {}, ["P@5"])


def test_the_ideal_ranking_follows_alpha():
    """A topic whose greedy ideal differs with alpha (at 0: d4, d0, ...; at 0.5: d4, d2, ...): the kernel's ideal is
    the one of the measure's alpha, as pyndeval's (ndeval's C code) is."""
    import pyndeval

    qrels = {"1": {"d0": 1, "d3": 1, "d4": 1}, "2": {"d1": 1, "d2": 1}, "3": {"d0": 1, "d1": 1, "d2": 1, "d4": 1},
             "4": {"d0": 1, "d4": 1}}  # fmt: skip
    ranking = ["d2", "d3", "d0"]
    lines = [("q", s, d, g) for s, docs in qrels.items() for d, g in docs.items()]
    run = [("q", doc, float(3 - i)) for i, doc in enumerate(ranking)]
    for alpha in (0.0, 0.5):
        expected = pyndeval.RelevanceEvaluator(lines, ["alpha-nDCG@5"], alpha=alpha).evaluate(run)["q"]["alpha-nDCG@5"]
        name = f"alpha_nDCG(alpha={alpha})@5"
        assert evaluate_subtopics({"q": ranking}, {"q": qrels}, [name])[name]["q"] == pytest.approx(expected, abs=1e-12)

"""metrics.evaluation.aggregate.query_statuses: which queries count in a mean, and why, against trec_eval itself
(pytrec_eval, which embeds its C code): the queries trec_eval scores are those marked as counting, and the ones scored
with no relevant document have num_rel 0."""

from __future__ import annotations

import pytest
import pytrec_eval

from metrics.evaluation.aggregate import query_statuses

RUN = {
    "judged": ["a", "b"],  # counts
    "zeros": ["a", "b"],  # judged, every grade 0: counts, scores 0
    "negative": ["a"],  # judged, grade -1 only: nothing relevant
    "unknown": ["a"],  # no qrels line
    "empty-qrels": ["a"],  # qrels {}: no qrels line either
}
QRELS = {
    "judged": {"b": 2, "c": 0},
    "zeros": {"a": 0, "b": 0},
    "negative": {"a": -1},
    "missed": {"d": 1},  # judged, not in the run
    "empty-qrels": {},
}


def trec_eval_per_query(run, qrels) -> dict[str, dict[str, float]]:
    evaluator = pytrec_eval.RelevanceEvaluator(
        {q: g for q, g in qrels.items() if g}, {"num_rel", "num_ret"}
    )  # a qrels file cannot hold a query with no line
    return evaluator.evaluate({q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in run.items()})


def test_the_counted_queries_are_the_ones_trec_eval_scores():
    scored = trec_eval_per_query(RUN, QRELS)
    statuses = query_statuses(RUN, QRELS)
    assert {s.query for s in statuses if s.counts} == set(scored) == {"judged", "zeros", "negative"}
    for status in statuses:
        if status.reason == "nothing relevant":
            assert scored[status.query]["num_rel"] == 0
        elif status.reason == "counts":
            assert scored[status.query]["num_rel"] > 0


def test_every_query_gets_its_reason_in_qrels_then_run_order():
    statuses = query_statuses(RUN, QRELS)
    assert [(s.query, s.counts, s.reason) for s in statuses] == [
        ("judged", True, "counts"),
        ("zeros", True, "nothing relevant"),
        ("negative", True, "nothing relevant"),
        ("missed", False, "not in run"),
        ("empty-qrels", False, "no judgments"),
        ("unknown", False, "no judgments"),
    ]


@pytest.mark.parametrize("complete", [False, True])
def test_complete_counts_a_judged_query_missing_from_the_run(complete):
    """trec_eval -c: every query with a qrels line counts, a missing one scoring 0 (pytrec_eval has no -c)."""
    missed = next(s for s in query_statuses(RUN, QRELS, complete=complete) if s.query == "missed")
    assert (missed.counts, missed.reason) == ((True, "missing counts 0") if complete else (False, "not in run"))

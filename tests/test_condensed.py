"""metrics.families._judged_ranks.condensed: the ranking with its unjudged documents dropped, as trec_eval's -J
evaluates it.

Expected values come from pytrec_eval run live with judged_docs_only_flag (trec_eval -J) on the full ranking, and
from arithmetic written out by hand.
"""

from __future__ import annotations

from math import log2

import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import scored_qrels_sets, scored_runs

from metrics import Conventions, parse_measure, rank_by_score
from metrics.families._judged_ranks import condensed

TOL = 1e-9
# pytrec_eval's name -> ours
MEASURES = {
    "map": "AP",
    "P_5": "P@5",
    "ndcg_cut_5": "NDCG@5",
    "recip_rank": "RR",
    "recall_5": "R@5",
    "bpref": "bpref",
    "infAP": "infAP",
}


def test_condensed_drops_unjudged_and_pool_unjudged_docs_and_keeps_the_order():
    qrels = {"r1": 1, "n1": 0, "u": -1, "r2": 2}  # "x" and "y" have no qrels line; "u" is in the pool, unjudged
    assert condensed(["x", "r1", "u", "n1", "y", "r2"], qrels) == ["r1", "n1", "r2"]
    assert condensed([], qrels) == [] and condensed(["x"], {}) == []


def test_measures_on_the_condensed_list_by_hand():
    ranking, qrels = ["x", "r1", "y", "n1", "r2"], {"r1": 1, "r2": 1, "n1": 0, "r3": 1}
    short = condensed(ranking, qrels)  # r1, n1, r2
    assert parse_measure("AP").compute(ranking, qrels).value == pytest.approx((1 / 2 + 2 / 5) / 3, abs=TOL)
    assert parse_measure("AP").compute(short, qrels).value == pytest.approx((1 + 2 / 3) / 3, abs=TOL)
    assert parse_measure("P@3").compute(short, qrels).value == pytest.approx(2 / 3, abs=TOL)
    ideal = 1 + 1 / log2(3) + 1 / log2(4)
    assert parse_measure("NDCG@3").compute(short, qrels).value == pytest.approx((1 + 1 / log2(4)) / ideal, abs=TOL)
    # bpref skips unjudged documents, so it is the same both ways: r1 has no n above (1), r2 has 1 of min(N, R) = 1
    assert parse_measure("bpref").compute(ranking, qrels).value == pytest.approx((1 + 0) / 3, abs=TOL)
    assert parse_measure("bpref").compute(short, qrels).value == pytest.approx((1 + 0) / 3, abs=TOL)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_runs, scored_qrels_sets, st.integers(1, 2))
def test_condensed_list_equals_trec_eval_judged_only(run, qrels, level):
    qrels = {q: docs for q, docs in qrels.items() if docs and max(docs.values()) >= 0}  # trec_eval needs one >= 0
    run = {q: docs for q, docs in run.items() if docs}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES), relevance_level=level, judged_docs_only_flag=True)
    expected = evaluator.evaluate({q: {d: float(s) for d, s in docs.items()} for q, docs in run.items()})
    conventions = Conventions(threshold=level)
    for q, values in expected.items():
        short = condensed(rank_by_score(run[q]), qrels[q])
        for trec_name, ours in MEASURES.items():
            value = parse_measure(ours).compute(short, qrels[q], conventions).value
            assert value == pytest.approx(values[trec_name], abs=TOL), (q, trec_name)


def test_judged_ranks_count_bprefs_judged_nonrelevant_documents_above():
    from metrics.families._judged_ranks import judged_ranks

    ranking, qrels = ["n1", "x", "r1", "u", "n2", "r2"], {"n1": 0, "r1": 2, "u": -1, "n2": 1, "r2": 3}
    rows = [(j.rank, j.doc_id, j.judgment, j.nonrelevant_above) for j in judged_ranks(ranking, qrels)]
    assert rows == [
        (1, "n1", "non-relevant", 0),
        (2, "x", "unjudged", 1),
        (3, "r1", "relevant", 1),
        (4, "u", "unjudged", 1),
        (5, "n2", "relevant", 1),  # grade 1 meets threshold 1
        (6, "r2", "relevant", 1),
    ]
    at_two = [j.judgment for j in judged_ranks(ranking, qrels, conventions=Conventions(threshold=2))]
    assert at_two == ["non-relevant", "unjudged", "relevant", "unjudged", "non-relevant", "relevant"]
    assert judged_ranks(ranking, qrels, conventions=Conventions(threshold=2))[5].nonrelevant_above == 2


def test_in_pool_unjudged_turns_missing_qrels_lines_into_grade_minus_one_and_infap_estimates_them():
    from metrics.families._judged_ranks import in_pool_unjudged
    from metrics.families.infap import inferred_average_precision

    ranking, qrels = ["r1", "x", "r2"], {"r1": 1, "r2": 1, "n": 0}
    pooled = in_pool_unjudged(qrels, ["x"])
    assert pooled == {"r1": 1, "r2": 1, "n": 0, "x": -1} and qrels == {"r1": 1, "r2": 1, "n": 0}
    eps = 0.00001
    # r2 at rank 3: 1/3 + (2/3) * ((r + n + u) / 2) * ((r + eps) / (r + n + 2 eps)) with r = 1, n = 0, u = 0 or 1
    not_pooled = (1 + 1 / 3 + (2 / 3) * (1 / 2) * ((1 + eps) / (1 + 2 * eps))) / 2
    sampled = (1 + 1 / 3 + (2 / 3) * (2 / 2) * ((1 + eps) / (1 + 2 * eps))) / 2
    assert inferred_average_precision(ranking, qrels).value == pytest.approx(not_pooled, abs=TOL)
    assert inferred_average_precision(ranking, pooled).value == pytest.approx(sampled, abs=TOL)

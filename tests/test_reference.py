"""Differential tests: the readable metrics against trec_eval itself (pytrec_eval), run live on generated input.

Every expected value is pytrec_eval's output, or hand arithmetic written here on top of it (F1@k from P_k and
recall_k, R_cap@k from P_k and num_rel, DCG@k from the grades). Compared to 1e-9 absolute.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import binary_queries, cutoffs, queries, runs, scored_queries, thresholds

from metrics import (
    Conventions,
    average_precision,
    capped_recall,
    dcg,
    f1,
    hit_rate,
    idcg,
    mean_over_queries,
    ndcg,
    parse_measure,
    precision,
    rank_by_score,
    recall,
    reciprocal_rank,
)

TOL = 1e-9
SETTINGS = settings(max_examples=150, deadline=None)
Q = "q1"


def scores_for(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing integer scores, so trec_eval ranks the docs exactly in the given order."""
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def trec(
    qrels: Mapping[str, Mapping[str, int]],
    run: Mapping[str, Mapping[str, float]],
    measures: set[str],
    level: int = 1,
) -> dict[str, dict[str, float]]:
    """pytrec_eval's per-query output. A query with qrels lines but an empty ranking is scored 0 by trec_eval
    (docs/conventions.md §2); if this pytrec_eval leaves it out, put the zeros back so the query still counts."""
    evaluator = pytrec_eval.RelevanceEvaluator({q: dict(g) for q, g in qrels.items()}, measures, relevance_level=level)
    out = evaluator.evaluate({q: dict(s) for q, s in run.items()})
    for q, docs in run.items():
        if not docs and qrels.get(q) and q not in out:
            out[q] = dict.fromkeys(measures, 0.0)  # our measure names are already spelled P_5, not P.5
    return out


def trec_one(ranking: Sequence[str], qrels: Mapping[str, int], measures: set[str], level: int = 1) -> dict:
    """pytrec_eval on one query given as a ranking (qrels must be non-empty, or trec_eval skips the query)."""
    assert qrels, "trec_eval ignores a query without qrels lines"
    return trec({Q: qrels}, {Q: scores_for(ranking)}, measures, level)[Q]


def hand_dcg(grades: Sequence[int]) -> float:
    """DCG of grades in rank order, written out: sum of g / log2(rank + 1) over positive grades."""
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(grades, start=1) if g > 0)


def exp_remap(qrels: Mapping[str, int]) -> dict[str, int]:
    """Qrels remapped g -> 2^g - 1 for g > 0: trec's linear ndcg on them is the exponential-gain NDCG."""
    return {d: (2**g - 1 if g > 0 else g) for d, g in qrels.items()}


# ---------------------------------------------------------------------------------------------------------
# one query, every metric, at a random cutoff and threshold


@SETTINGS
@given(query=queries(min_judged=1), k=cutoffs(), level=thresholds())
def test_every_metric_equals_trec_eval_on_graded_queries(query, k, level):
    ranking, qrels = query
    conv = Conventions(threshold=level)
    measures = {f"P_{k}", f"recall_{k}", f"success_{k}", "map", f"map_cut_{k}", "recip_rank", "num_rel"}
    measures |= {f"ndcg_cut_{k}", "ndcg"}
    t = trec_one(ranking, qrels, measures, level)
    t_rr_k = trec_one(ranking[:k], qrels, {"recip_rank"}, level)["recip_rank"]

    assert precision(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"P_{k}"], abs=TOL)
    assert recall(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"recall_{k}"], abs=TOL)
    assert hit_rate(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"success_{k}"], abs=TOL)
    assert average_precision(ranking, qrels, conventions=conv).value == pytest.approx(t["map"], abs=TOL)
    assert average_precision(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"map_cut_{k}"], abs=TOL)
    assert reciprocal_rank(ranking, qrels, conventions=conv).value == pytest.approx(t["recip_rank"], abs=TOL)
    assert reciprocal_rank(ranking, qrels, k, conventions=conv).value == pytest.approx(t_rr_k, abs=TOL)
    # NDCG ignores the threshold in trec_eval: it is compared at every level
    assert ndcg(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"ndcg_cut_{k}"], abs=TOL)
    assert ndcg(ranking, qrels, conventions=conv).value == pytest.approx(t["ndcg"], abs=TOL)

    p, r = t[f"P_{k}"], t[f"recall_{k}"]
    expected_f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    assert f1(ranking, qrels, k, conventions=conv).value == pytest.approx(expected_f1, abs=TOL)

    hits, R = round(p * k), round(t["num_rel"])
    expected_rcap = hits / min(R, k) if R else 0.0
    assert capped_recall(ranking, qrels, k, conventions=conv).value == pytest.approx(expected_rcap, abs=TOL)


@SETTINGS
@given(query=queries(min_judged=1), k=cutoffs())
def test_dcg_and_idcg_equal_hand_arithmetic_that_trec_ndcg_confirms(query, k):
    ranking, qrels = query
    expected_dcg = hand_dcg([qrels.get(d, 0) for d in ranking[:k]])
    expected_idcg = hand_dcg(sorted(qrels.values(), reverse=True)[:k])
    t = trec_one(ranking, qrels, {f"ndcg_cut_{k}"})[f"ndcg_cut_{k}"]
    # the hand formulas are trec_eval's: their ratio is its ndcg_cut
    assert (expected_dcg / expected_idcg if expected_idcg else 0.0) == pytest.approx(t, abs=TOL)
    assert dcg(ranking, qrels, k).value == pytest.approx(expected_dcg, abs=TOL)
    assert idcg(ranking, qrels, k).value == pytest.approx(expected_idcg, abs=TOL)
    exp_dcg = hand_dcg([2 ** qrels.get(d, 0) - 1 if qrels.get(d, 0) > 0 else 0 for d in ranking[:k]])
    assert dcg(ranking, qrels, k, conventions=Conventions(gain="exp")).value == pytest.approx(exp_dcg, abs=TOL)


@SETTINGS
@given(query=queries(min_judged=1, max_grade=4), k=cutoffs())
def test_exponential_gain_ndcg_equals_trec_ndcg_on_remapped_qrels(query, k):
    ranking, qrels = query
    t = trec_one(ranking, exp_remap(qrels), {f"ndcg_cut_{k}", "ndcg"})
    exp = Conventions(gain="exp")
    assert ndcg(ranking, qrels, k, conventions=exp).value == pytest.approx(t[f"ndcg_cut_{k}"], abs=TOL)
    assert ndcg(ranking, qrels, conventions=exp).value == pytest.approx(t["ndcg"], abs=TOL)
    assert parse_measure(f"NDCG_exp@{k}").compute(ranking, qrels).value == pytest.approx(t[f"ndcg_cut_{k}"], abs=TOL)


@SETTINGS
@given(query=queries(min_judged=1), k=cutoffs())
def test_idcg_from_retrieved_equals_trec_ndcg_on_qrels_cut_to_the_ranking(query, k):
    ranking, qrels = query
    # judgments of retrieved docs only, plus a grade-0 filler so trec_eval still sees the query
    only_retrieved = {d: qrels[d] for d in ranking if d in qrels} | {"filler-not-retrieved": 0}
    t = trec_one(ranking, only_retrieved, {f"ndcg_cut_{k}"})[f"ndcg_cut_{k}"]
    assert ndcg(ranking, qrels, k, conventions=Conventions(idcg="retrieved")).value == pytest.approx(t, abs=TOL)


@SETTINGS
@given(query=queries(min_judged=1), k=cutoffs(), level=thresholds())
def test_ap_over_retrieved_relevant_equals_trec_sum_divided_by_hits(query, k, level):
    ranking, qrels = query
    t = trec_one(ranking, qrels, {f"map_cut_{k}", "num_rel", f"P_{k}"}, level)
    hits = round(t[f"P_{k}"] * k)
    # trec's map_cut is (sum of P@i) / R; the "retrieved" convention divides the same sum by hits@k
    expected = t[f"map_cut_{k}"] * t["num_rel"] / hits if hits else 0.0
    conv = Conventions(threshold=level, ap_denominator="retrieved")
    assert average_precision(ranking, qrels, k, conventions=conv).value == pytest.approx(expected, abs=TOL)


@SETTINGS
@given(query=binary_queries(min_judged=1), k=cutoffs(8))
def test_binary_queries_equal_trec_eval(query, k):
    ranking, qrels = query
    t = trec_one(ranking, qrels, {f"P_{k}", f"recall_{k}", "map", f"map_cut_{k}", "recip_rank", f"ndcg_cut_{k}"})
    assert precision(ranking, qrels, k).value == pytest.approx(t[f"P_{k}"], abs=TOL)
    assert recall(ranking, qrels, k).value == pytest.approx(t[f"recall_{k}"], abs=TOL)
    assert average_precision(ranking, qrels).value == pytest.approx(t["map"], abs=TOL)
    assert average_precision(ranking, qrels, k).value == pytest.approx(t[f"map_cut_{k}"], abs=TOL)
    assert reciprocal_rank(ranking, qrels).value == pytest.approx(t["recip_rank"], abs=TOL)
    assert ndcg(ranking, qrels, k).value == pytest.approx(t[f"ndcg_cut_{k}"], abs=TOL)
    # binary grades: exponential gain 2^1 - 1 = 1 changes nothing
    assert ndcg(ranking, qrels, k, conventions=Conventions(gain="exp")).value == pytest.approx(
        t[f"ndcg_cut_{k}"], abs=TOL
    )


# ---------------------------------------------------------------------------------------------------------
# ties: trec_eval sorts the scores itself; rank_by_score must give its order


@SETTINGS
@given(query=scored_queries(min_judged=1), k=cutoffs(8), level=thresholds(2))
def test_tied_scores_rank_like_trec_eval(query, k, level):
    scores, qrels = query
    ranking = rank_by_score(scores)
    conv = Conventions(threshold=level)
    measures = {f"P_{k}", f"recall_{k}", f"success_{k}", "map", f"map_cut_{k}", "recip_rank", f"ndcg_cut_{k}", "ndcg"}
    t = trec({Q: qrels}, {Q: scores}, measures, level)[Q]
    assert precision(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"P_{k}"], abs=TOL)
    assert recall(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"recall_{k}"], abs=TOL)
    assert hit_rate(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"success_{k}"], abs=TOL)
    assert average_precision(ranking, qrels, conventions=conv).value == pytest.approx(t["map"], abs=TOL)
    assert average_precision(ranking, qrels, k, conventions=conv).value == pytest.approx(t[f"map_cut_{k}"], abs=TOL)
    assert reciprocal_rank(ranking, qrels, conventions=conv).value == pytest.approx(t["recip_rank"], abs=TOL)
    assert ndcg(ranking, qrels, k).value == pytest.approx(t[f"ndcg_cut_{k}"], abs=TOL)
    assert ndcg(ranking, qrels).value == pytest.approx(t["ndcg"], abs=TOL)


def test_tie_between_relevant_and_nonrelevant_goes_to_the_larger_docno():
    # trec_eval: equal scores -> docno descending ('b' > 'a'), so the relevant 'a' is at rank 2
    t = trec({Q: {"a": 1}}, {Q: {"a": 1.0, "b": 1.0}}, {"recip_rank", "P_1"})[Q]
    assert t == {"recip_rank": 0.5, "P_1": 0.0}
    ranking = rank_by_score({"a": 1.0, "b": 1.0})
    assert reciprocal_rank(ranking, {"a": 1}).value == t["recip_rank"]
    assert precision(ranking, {"a": 1}, 1).value == t["P_1"]


# ---------------------------------------------------------------------------------------------------------
# edge cases named in the brief, each pinned once against trec_eval


@pytest.mark.parametrize(
    ("ranking", "qrels"),
    [
        pytest.param([], {"a": 1, "b": 2}, id="empty-ranking"),
        pytest.param(["a", "b"], {"a": 0, "b": 0}, id="R-is-0"),
        pytest.param(["a", "b"], {"a": -1, "b": -2, "c": 0}, id="negative-and-zero-grades"),
        pytest.param(["x", "y"], {"a": 3}, id="relevant-never-retrieved"),
        pytest.param(["x", "a", "y", "b", "c"], {"a": 0, "b": 1, "c": 1}, id="unjudged-retrieved"),
        pytest.param(["a", "b", "c", "d", "e"], {"a": -1, "b": 1, "c": 2, "d": -2, "e": 0}, id="negative-grades"),
    ],
)
@pytest.mark.parametrize("k", [1, 3, 10, 1000])
def test_edge_cases_equal_trec_eval(ranking, qrels, k):
    t = trec_one(
        ranking,
        qrels,
        {f"P_{k}", f"recall_{k}", f"success_{k}", "map", f"map_cut_{k}", "recip_rank"} | {f"ndcg_cut_{k}", "ndcg"},
    )
    assert precision(ranking, qrels, k).value == pytest.approx(t[f"P_{k}"], abs=TOL)
    assert recall(ranking, qrels, k).value == pytest.approx(t[f"recall_{k}"], abs=TOL)
    assert hit_rate(ranking, qrels, k).value == pytest.approx(t[f"success_{k}"], abs=TOL)
    assert average_precision(ranking, qrels).value == pytest.approx(t["map"], abs=TOL)
    assert average_precision(ranking, qrels, k).value == pytest.approx(t[f"map_cut_{k}"], abs=TOL)
    assert reciprocal_rank(ranking, qrels).value == pytest.approx(t["recip_rank"], abs=TOL)
    assert ndcg(ranking, qrels, k).value == pytest.approx(t[f"ndcg_cut_{k}"], abs=TOL)
    assert ndcg(ranking, qrels).value == pytest.approx(t["ndcg"], abs=TOL)


def test_pytrec_eval_scores_an_empty_ranking_as_zero():
    """docs/conventions.md §2: a judged query with an empty ranking is scored (all 0) and counts."""
    evaluator = pytrec_eval.RelevanceEvaluator({"q1": {"a": 1}, "q2": {"b": 1}}, {"P_1"})
    out = evaluator.evaluate({"q1": {}, "q2": {"b": 1.0}})
    assert out == {"q1": {"P_1": 0.0}, "q2": {"P_1": 1.0}}
    result = mean_over_queries(parse_measure("P@1").compute, {"q1": [], "q2": ["b"]}, {"q1": {"a": 1}, "q2": {"b": 1}})
    assert result.per_query == {"q1": 0.0, "q2": 1.0}
    assert result.mean == 0.5


# ---------------------------------------------------------------------------------------------------------
# many queries: which queries count, and the mean


def trec_means(run, qrels, measure_names: dict[str, str], level: int = 1) -> dict[str, tuple[dict, float]]:
    """{our measure: (per-query, mean)} from pytrec_eval; a query pytrec_eval leaves out does not count."""
    out = trec(qrels, {q: scores_for(r) for q, r in run.items()}, set(measure_names.values()), level)
    result = {}
    for ours, theirs in measure_names.items():
        per_query = {q: values[theirs] for q, values in out.items()}
        mean = math.fsum(per_query.values()) / len(per_query) if per_query else 0.0
        result[ours] = (per_query, mean)
    return result


MEAN_MEASURES = {
    "P@3": "P_3",
    "R@5": "recall_5",
    "HitRate@2": "success_2",
    "AP": "map",
    "AP@3": "map_cut_3",
    "RR": "recip_rank",
    "NDCG@3": "ndcg_cut_3",
    "NDCG": "ndcg",
}


@SETTINGS
@given(data=runs(), level=thresholds(2))
def test_mean_over_queries_counts_the_queries_trec_eval_counts(data, level):
    run, qrels = data
    conv = Conventions(threshold=level)
    for ours, (per_query, mean) in trec_means(run, qrels, MEAN_MEASURES, level).items():
        measure = parse_measure(ours)
        result = mean_over_queries(lambda r, g, m=measure: m.compute(r, g, conv), run, qrels)
        assert set(result.per_query) == set(per_query), ours
        assert result.per_query == pytest.approx(per_query, abs=TOL), ours
        assert result.mean == pytest.approx(mean, abs=TOL), ours


@SETTINGS
@given(data=runs())
def test_complete_mean_equals_trec_eval_with_missing_queries_as_empty_rankings(data):
    run, qrels = data
    # trec_eval -c scores a judged query missing from the run as 0: the same as giving it an empty ranking
    padded = dict(run) | {q: [] for q, g in qrels.items() if g and q not in run}
    for ours, (per_query, mean) in trec_means(padded, qrels, MEAN_MEASURES).items():
        result = mean_over_queries(parse_measure(ours).compute, run, qrels, complete=True)
        assert result.per_query == pytest.approx(per_query, abs=TOL), ours
        assert result.mean == pytest.approx(mean, abs=TOL), ours


@SETTINGS
@given(data=runs(), k=st.integers(1, 6))
def test_mrr_at_k_equals_trec_recip_rank_on_truncated_run(data, k):
    run, qrels = data
    ((per_query, mean),) = trec_means({q: r[:k] for q, r in run.items()}, qrels, {"RR": "recip_rank"}).values()
    result = mean_over_queries(parse_measure(f"RR@{k}").compute, run, qrels)
    assert result.per_query == pytest.approx(per_query, abs=TOL)
    assert result.mean == pytest.approx(mean, abs=TOL)


def test_query_with_empty_qrels_dict_is_skipped_like_trec_eval():
    run, qrels = {"q1": ["a", "b"], "q2": ["c", "d"]}, {"q1": {"a": 1}, "q2": {}}
    ((per_query, mean),) = trec_means(run, qrels, {"P@1": "P_1"}).values()
    assert per_query == {"q1": 1.0}
    result = mean_over_queries(parse_measure("P@1").compute, run, qrels)
    assert result.per_query == per_query
    assert result.mean == mean == 1.0

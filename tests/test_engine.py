"""The vectorized engine: equal to trec_eval's golden numbers, to the readable functions bit for bit, and to
pytrec_eval run live."""

from __future__ import annotations

import contextlib
import itertools
import random
from unittest import mock

import numpy as np
import pytest
import pytrec_eval
from golden import TIES, TREC_PUBLIC, expectations
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from missing_queries import num_rel_all, with_trec_eval_missing
from strategies import binary_scored_qrels_sets, every_conventions, scored_qrels_sets, scored_runs

import metrics.io.arrays.parallel
import metrics.io.order
from metrics import Conventions, mean_over_queries, parse_measure, rank_by_score
from metrics.catalog import registry
from metrics.evaluation import arrow_join
from metrics.evaluation.aggregate import summarize
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels, read_run

TOL = 1e-9
FAMILIES = ("P", "R", "R_cap", "HitRate", "F1", "RR", "AP", "DCG", "IDCG", "NDCG", "DCG_exp", "IDCG_exp", "NDCG_exp")
ALL_MEASURES = [f"{family}@{k}" for family in FAMILIES for k in (1, 2, 3, 5, 20)] + list(FAMILIES)


def _golden_cases(cases, build_run):
    for case in cases:
        run = {q: build_run(data) for q, data in case["queries"].items()}
        qrels = {q: data["qrels"] for q, data in case["queries"].items()}
        names = list(case["expected"])
        yield pytest.param(run, qrels, names, case["expected"], id=case["id"])


GOLDEN = list(_golden_cases(TREC_PUBLIC, lambda data: data["ranking"])) + list(
    _golden_cases(TIES, lambda data: data["scores"])
)


@pytest.mark.parametrize(("run", "qrels", "names", "expected"), GOLDEN)
def test_engine_matches_every_golden_case_and_measure(run, qrels, names, expected):
    result = evaluate(run, qrels, names)
    for name in names:
        got = dict(zip(result.queries, result.per_query[name].tolist(), strict=True))
        assert got == pytest.approx(expected[name]["per_query"], abs=TOL), name
        assert result.means[name] == pytest.approx(expected[name]["mean"], abs=TOL), name


def test_golden_rows_are_all_covered():
    covered = sum(len(names) for _, _, names, _ in (p.values for p in GOLDEN))
    assert covered == len(list(expectations(TREC_PUBLIC))) + len(list(expectations(TIES)))


def test_tie_cases_rank_like_trec_eval():
    for case in TIES:
        run = read_run({q: data["scores"] for q, data in case["queries"].items()})
        assert run.to_rankings() == case["effective_order"]["pytrec_eval"], case["id"]


# ---------------------------------------------------------------------------------------------------------
# Engine == readable functions, exactly

runs, qrels_sets, binary_qrels_sets = scored_runs, scored_qrels_sets, binary_scored_qrels_sets
conventions = every_conventions


def _readable(run, qrels, names, conv, complete):
    rankings = {q: rank_by_score(docs) for q, docs in run.items()}
    results = {}
    for name in names:
        measure = parse_measure(name)
        results[name] = mean_over_queries(
            lambda ranking, judged, m=measure: m.compute(ranking, judged, conv), rankings, qrels, complete=complete
        )
    return results


def _assert_exactly_equal(run, qrels, conv, complete, names=ALL_MEASURES):
    engine = evaluate(run, qrels, names, conventions=conv, complete=complete)
    readable = _readable(run, qrels, names, conv, complete)
    for name in names:
        got = dict(zip(engine.queries, engine.per_query[name].tolist(), strict=True))
        measure = parse_measure(name)
        family = measure.family
        expected, mean = readable[name].per_query, readable[name].mean
        if complete:  # trec_eval -c's values for a query missing from the run
            expected = with_trec_eval_missing(measure, expected, run, qrels, conv)
            mean = summarize([expected[q] for q in sorted(expected)], registry.family(family).values.summary)
        if complete and family == "NumRel":
            mean = num_rel_all(qrels)
        assert got == expected, name  # == on floats: bit for bit
        assert engine.means[name] == mean, name
    any_readable = readable[names[0]]
    assert engine.only_in_run == tuple(sorted(any_readable.run_only))
    assert engine.only_in_qrels == tuple(sorted(any_readable.qrels_only))
    assert engine.counts.evaluated == len(any_readable.per_query)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, conventions, st.booleans())
def test_engine_equals_readable_functions_exactly_graded(run, qrels, conv, complete):
    _assert_exactly_equal(run, qrels, conv, complete)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, binary_qrels_sets, st.booleans())
def test_engine_equals_readable_functions_exactly_binary(run, qrels, complete):
    _assert_exactly_equal(run, qrels, Conventions(), complete)


@contextlib.contextmanager
def in_halves():
    """Every input of 2 rows or more split in two halves, one per thread, with scores compared 3 at a time, and the
    join's candidates matched 2 at a time: the paths that only runs of a million rows take otherwise."""
    with (
        mock.patch.object(metrics.io.arrays.parallel, "PARALLEL_ROWS", 2),
        mock.patch.object(metrics.io.order, "_PIECE_ROWS", 3),
        mock.patch.object(arrow_join, "_JOIN_ROWS", 2),
    ):
        yield


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, conventions, st.booleans())
def test_engine_in_two_halves_equals_readable_functions_exactly(run, qrels, conv, complete):
    with in_halves():
        _assert_exactly_equal(run, qrels, conv, complete)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, st.randoms(use_true_random=False))
def test_trec_file_in_any_line_order_gives_the_same_numbers(run, qrels, rnd):
    """The file path (parse, sort check, tie ordering or full sort) ranks like rank_by_score."""
    _check_any_line_order(run, qrels, rnd)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, st.randoms(use_true_random=False))
def test_trec_file_read_in_two_halves_in_any_line_order_gives_the_same_numbers(run, qrels, rnd):
    with in_halves():
        _check_any_line_order(run, qrels, rnd)


def _check_any_line_order(run, qrels, rnd):
    lines = [f"{q} Q0 {d} 0 {s!r} tag" for q, docs in run.items() for d, s in docs.items()]
    rnd.shuffle(lines)
    qrels_lines = [f"{q} 0 {d} {g}" for q, docs in qrels.items() for d, g in docs.items()]
    assume(lines and qrels_lines)
    from_files = evaluate(
        read_run("\n".join(lines).encode(), "run.txt"), read_qrels("\n".join(qrels_lines).encode()), ALL_MEASURES
    )
    nonempty_run = {q: docs for q, docs in run.items() if docs}
    from_dicts = evaluate(nonempty_run, qrels, ALL_MEASURES)
    assert from_files.queries == from_dicts.queries
    for name in ALL_MEASURES:
        assert from_files.per_query[name].tolist() == from_dicts.per_query[name].tolist(), name


@contextlib.contextmanager
def colliding_join_keys():
    """Every doc id the same fingerprint: every (query, doc) key of the engine's join collides; and every run row
    a candidate of the join (not only those whose doc's hash a judged doc shares)."""
    with (
        mock.patch.object(arrow_join, "fingerprint", lambda docs: np.zeros(len(docs), dtype=np.uint64)),
        mock.patch.object(arrow_join, "_candidates", lambda run, judged_docs: np.arange(run.num_rows)),
    ):
        yield


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, conventions, st.booleans())
def test_join_keys_that_collide_fall_back_to_the_strings(run, qrels, conv, complete):
    with colliding_join_keys():
        _assert_exactly_equal(run, qrels, conv, complete)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, conventions, st.booleans())
def test_join_keys_that_collide_fall_back_to_the_strings_block_by_block(run, qrels, conv, complete):
    with colliding_join_keys(), in_halves():
        _assert_exactly_equal(run, qrels, conv, complete)


def test_a_row_whose_key_collides_with_another_docs_judgment_is_not_matched():
    # One judgment per query, so no two qrels keys collide: only the check on the strings sees that 'b' is not 'a'.
    run, qrels = {"q1": {"b": 2.0, "a": 1.0}, "q2": {"c": 1.0}}, {"q1": {"a": 1}, "q2": {"d": 1}}
    with colliding_join_keys():
        _assert_exactly_equal(run, qrels, Conventions(), False, ["RR", "P@1", "AP"])


def test_long_rankings_with_many_ties_and_deep_relevant_docs():
    rnd = random.Random(7)
    run, qrels = {}, {}
    for q in range(30):
        docs = [f"doc{i}" for i in rnd.sample(range(5000), 1200)]
        run[f"q{q}"] = {d: float(rnd.randint(0, 40)) for d in docs}  # lots of ties
        qrels[f"q{q}"] = {d: rnd.randint(0, 3) for d in [*rnd.sample(docs, 40), f"unretrieved{q}"]}
    for conv in (Conventions(), Conventions(threshold=2, idcg="retrieved", ap_denominator="retrieved")):
        names = ["P@1000", "R@1000", "AP", "AP@500", "NDCG", "NDCG@1000", "DCG_exp@700", "RR", "F1@999", "R_cap@1100"]
        _assert_exactly_equal(run, qrels, conv, False, names)


def test_every_conventions_combination_on_one_fixed_case():
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 2.0, "x": 1.0}, "q2": {"a": 1.0}, "q3": {}, "q5": {"z": 1.0}}
    qrels = {"q1": {"a": 1, "c": 3, "z": 2, "y": -1}, "q2": {"b": 0}, "q3": {"a": 2}, "q4": {"k": 1}}
    for threshold, gain, idcg, ap in itertools.product(
        (1, 2, 3), ("linear", "exp"), ("all", "retrieved"), ("all", "retrieved")
    ):
        for complete in (False, True):
            _assert_exactly_equal(run, qrels, Conventions(threshold, gain, idcg, ap), complete)


def test_counts_and_frame():
    run = {"q1": ["a", "b"], "q2": ["c"], "q9": ["z"], "q3": []}
    qrels = {"q1": {"b": 1}, "q2": {"c": 0}, "q4": {"x": 1}, "q3": {"a": 1}}
    result = evaluate(run, qrels, ["nDCG@10", "RR"])
    assert result.queries == ("q1", "q2", "q3")
    assert (result.counts.evaluated, result.counts.only_in_run, result.counts.only_in_qrels) == (3, 1, 1)
    assert result.counts.no_relevant == 1  # q2: judged, nothing relevant
    assert result.only_in_run == ("q9",) and result.only_in_qrels == ("q4",)
    assert result.per_query["RR"].tolist() == [0.5, 0.0, 0.0]
    frame = result.to_frame()
    assert list(frame.columns) == ["nDCG@10", "RR"] and list(frame.index) == ["q1", "q2", "q3"]
    assert frame.loc["q1", "RR"] == 0.5
    complete = evaluate(run, qrels, ["RR"], complete=True)
    assert complete.queries == ("q1", "q2", "q3", "q4") and complete.means["RR"] == 0.5 / 4


# ---------------------------------------------------------------------------------------------------------
# Engine vs pytrec_eval, live

CUTOFFS = (1, 3, 5, 10)
TREC_MEASURES = {f"{m}.{','.join(map(str, CUTOFFS))}" for m in ("P", "recall", "success", "map_cut", "ndcg_cut")}
TREC_MEASURES |= {"map", "recip_rank", "ndcg"}
# trec_eval's own names, which parse_measure reads and pytrec_eval reports: P_5, recall_5, ..., map, recip_rank, ndcg
OURS = [f"{m}_{k}" for m in ("P", "recall", "success", "map_cut", "ndcg_cut") for k in CUTOFFS] + [
    "map",
    "recip_rank",
    "ndcg",
]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, st.integers(1, 2))
def test_engine_equals_pytrec_eval_live(run, qrels, level):
    # trec_eval sizes an array by a query's largest grade and crashes when every grade is negative
    # (form_res_rels.c): keep at least one grade >= 0 in each query the reference sees.
    qrels = {q: docs for q, docs in qrels.items() if docs and max(docs.values()) >= 0}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES, relevance_level=level)
    expected = evaluator.evaluate({q: {d: float(s) for d, s in docs.items()} for q, docs in run.items()})
    ours = evaluate(run, qrels, OURS, conventions=Conventions(threshold=level))
    assert set(ours.queries) == set(expected)
    for name in OURS:
        for q, value in zip(ours.queries, ours.per_query[name].tolist(), strict=True):
            assert value == pytest.approx(expected[q][name], abs=TOL), (name, q)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, st.integers(1, 2))
def test_judged_only_equals_pytrec_eval_live(run, qrels, level):
    """-J: unjudged documents (and pool-unjudged ones, grade < 0) leave the ranking; pytrec_eval's own flag."""
    qrels = {q: docs for q, docs in qrels.items() if docs and max(docs.values()) >= 0}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES, relevance_level=level, judged_docs_only_flag=True)
    expected = evaluator.evaluate({q: {d: float(s) for d, s in docs.items()} for q, docs in run.items()})
    ours = evaluate(run, qrels, OURS, conventions=Conventions(threshold=level), judged_only=True)
    for name in OURS:
        for q, value in zip(ours.queries, ours.per_query[name].tolist(), strict=True):
            assert value == pytest.approx(expected.get(q, {}).get(name, 0.0), abs=TOL), (name, q)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, st.integers(1, 4), st.booleans())
def test_max_docs_equals_pytrec_eval_on_the_top_docs(run, qrels, max_docs, judged_only):
    """-M keeps each ranking's top max_docs in trec_eval's order (before -J): pytrec_eval given only those."""
    qrels = {q: docs for q, docs in qrels.items() if docs and max(docs.values()) >= 0}
    top = {q: {d: float(s) for d, s in docs.items() if d in rank_by_score(docs)[:max_docs]} for q, docs in run.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES, judged_docs_only_flag=judged_only)
    expected = evaluator.evaluate(top)
    ours = evaluate(run, qrels, OURS, max_docs=max_docs, judged_only=judged_only)
    for name in OURS:
        for q, value in zip(ours.queries, ours.per_query[name].tolist(), strict=True):
            assert value == pytest.approx(expected.get(q, {}).get(name, 0.0), abs=TOL), (name, q)

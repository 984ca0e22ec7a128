"""trec_eval's counts, set measures, R-precision, interpolated precision and gm_map: the readable functions and the
engine against pytrec_eval (trec_eval's C code) run live, and the engine against the readable functions exactly.

Expected values come from pytrec_eval; its per-query gm_map is log(max(AP, 0.00001)), as trec_eval stores it.
"""

from __future__ import annotations

import math

import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from missing_queries import num_rel_all, with_trec_eval_missing
from strategies import every_conventions, scored_qrels_sets, scored_runs

from metrics import Conventions, mean_over_queries, parse_measure, rank_by_score
from metrics.catalog import registry
from metrics.evaluation.aggregate import summarize
from metrics.evaluation.engine import evaluate

TOL = 1e-9
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# pytrec_eval's measure requests and the names it reports, which parse_measure reads as they are.
REQUESTS = {
    "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "Rprec", "Rprec_mult", "iprec_at_recall",
    "11pt_avg", "set_P", "set_recall", "set_F", "set_map", "gm_map",
}  # fmt: skip
REPORTED = [
    "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "Rprec", "11pt_avg", "set_P", "set_recall",
    "set_F", "set_map",
    *(f"Rprec_mult_{x:.2f}" for x in (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    *(f"iprec_at_recall_{x:.2f}" for x in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)),
]  # fmt: skip


def pytrec_conventions(level: int) -> Conventions:
    """pytrec_eval's trec_eval (9.0.x) asks recall level l for floor(l*R + 0.9) relevant documents."""
    return Conventions(threshold=level, recall_rounding="plus_0.9")


def reference(run, qrels, requests, level=1, judged_only=False):
    """pytrec_eval per query, on the queries trec_eval evaluates (it crashes on all-negative qrels: left out)."""
    qrels = {q: docs for q, docs in qrels.items() if docs and max(docs.values()) >= 0}
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, requests, relevance_level=level, judged_docs_only_flag=judged_only
    )
    return qrels, evaluator.evaluate({q: {d: float(s) for d, s in docs.items()} for q, docs in run.items() if docs})


@SETTINGS
@given(scored_runs, scored_qrels_sets, st.integers(1, 2), st.booleans())
def test_engine_equals_pytrec_eval_live(run, qrels, level, judged_only):
    qrels, expected = reference(run, qrels, REQUESTS, level, judged_only)
    run = {q: docs for q, docs in run.items() if docs}
    names = [*REPORTED, "gm_map"]
    ours = evaluate(run, qrels, names, conventions=pytrec_conventions(level), judged_only=judged_only)
    assert set(ours.queries) == set(expected)
    for name in names:
        for q, value in zip(ours.queries, ours.per_query[name].tolist(), strict=True):
            if name == "gm_map":
                value = math.log(max(value, 0.00001))
            if judged_only and expected[q]["num_ret"] == 0 and (name.startswith("iprec") or name == "11pt_avg"):
                continue  # nothing judged was retrieved: trec_eval divides 0 by 0 here
            assert value == pytest.approx(expected[q][name], abs=TOL), (name, q)


@SETTINGS
@given(scored_runs, scored_qrels_sets, st.integers(1, 2))
def test_readable_functions_equal_pytrec_eval_live(run, qrels, level):
    qrels, expected = reference(run, qrels, REQUESTS, level)
    conventions = pytrec_conventions(level)
    for q, values in expected.items():
        ranking = rank_by_score(run[q])
        for name in REPORTED:
            got = parse_measure(name).compute(ranking, qrels[q], conventions).value
            assert got == pytest.approx(values[name], abs=TOL), (name, q)
        ap = parse_measure("gm_map").compute(ranking, qrels[q], conventions).value
        assert math.log(max(ap, 0.00001)) == pytest.approx(values["gm_map"], abs=TOL), q


@pytest.mark.parametrize("beta", [0.25, 0.5, 2.0])
def test_set_f_beta_is_trec_evals_parameter(beta):
    qrels = {"q1": {"a": 1, "b": 1, "c": 1, "d": 1}, "q2": {"a": 1}}
    run = {"q1": {"a": 3.0, "x": 2.0, "b": 1.0}, "q2": {"y": 1.0, "a": 0.5}}
    expected = pytrec_eval.RelevanceEvaluator(qrels, {f"set_F.{beta}"}).evaluate(run)
    ours = evaluate(run, qrels, [f"SetF(beta={beta})"])
    for q, value in zip(ours.queries, ours.per_query[f"SetF(beta={beta})"].tolist(), strict=True):
        assert value == pytest.approx(expected[q]["set_F"], abs=TOL)


def test_iprec_levels_round_as_trec_eval_10_or_as_pytrec_evals_trec_eval_9():
    """R = 2, hits at ranks 1 and 4 (precision 1/1 and 2/4). trec_eval 10.0: level 0.6 asks for lround(0.6 * 2)
    = 1 relevant document, so the best precision from the 1st hit on: 1/1. trec_eval 9 (pytrec_eval) asks for
    int(0.6 * 2 + 0.9) = 2: 2/4. Level 0.05 asks for 0 (best anywhere, 1/1) or int(0.05 * 2 + 0.9) = 1 (1/1)."""
    qrels = {"q": {"a": 1, "b": 1}}
    run = {"q": {"a": 3.0, "x": 2.0, "y": 1.5, "b": 1.0}}
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall.0.05,0.6"}).evaluate(run)["q"]
    names = ["iprec_at_recall_0.05", "iprec_at_recall_0.60"]
    nine = evaluate(run, qrels, names, conventions=pytrec_conventions(1))
    assert nine.per_query["iprec_at_recall_0.05"][0] == 1.0 == expected["iprec_at_recall_0.05"]
    assert nine.per_query["iprec_at_recall_0.60"][0] == 0.5 == expected["iprec_at_recall_0.60"]
    ten = evaluate(run, qrels, names)
    assert ten.per_query["iprec_at_recall_0.05"][0] == 1.0
    assert ten.per_query["iprec_at_recall_0.60"][0] == 1.0


CATALOG = [
    "NumRet", "NumRel", "NumRelRet", "NumNonRelJudgedRet", "NumQ", "GM_AP", "Rprec", "RprecMult@0.6",
    "RprecMult@1.8", "IPrec@0", "IPrec@0.3", "IPrec@1", "IPrec11", "SetP", "SetR", "SetF", "SetF(beta=0.5)",
    "SetAP", "NumRet@3", "SetP@2", "Rprec@4", "IPrec11@3",
]  # fmt: skip


@SETTINGS
@given(scored_runs, scored_qrels_sets, every_conventions, st.booleans())
def test_engine_equals_readable_functions_exactly(run, qrels, conventions, complete):
    engine = evaluate(run, qrels, CATALOG, conventions=conventions, complete=complete)
    rankings = {q: rank_by_score(docs) for q, docs in run.items()}
    for name in CATALOG:
        measure = parse_measure(name)
        readable = mean_over_queries(
            lambda ranking, judged, m=measure: m.compute(ranking, judged, conventions),
            rankings,
            qrels,
            complete=complete,
        )
        expected = dict(readable.per_query)
        if complete:  # trec_eval -c's values for a query missing from the run
            expected = with_trec_eval_missing(measure, expected, run, qrels, conventions)
        got = dict(zip(engine.queries, engine.per_query[name].tolist(), strict=True))
        assert got == expected, name  # == on floats: bit for bit
        summary = registry.family(measure.family).values.summary
        if complete and measure.family == "NumRel":  # -c: every qrels line with a grade above 0, whatever -l says
            assert engine.means[name] == num_rel_all(qrels), name
        else:
            assert engine.means[name] == summarize([expected[q] for q in sorted(expected)], summary), name

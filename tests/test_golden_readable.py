"""Every golden case and measure, through the readable functions, equals trec_eval to 1e-9."""

from __future__ import annotations

import pytest
from golden import PUBLIC, TIES, TREC_PUBLIC, expectations

from metrics import mean_over_queries, parse_measure, rank_by_score

TOL = 1e-9


@pytest.mark.parametrize("case", TREC_PUBLIC, ids=[case["id"] for case in TREC_PUBLIC])
def test_public_case(case):
    """Every measure trec_eval was asked for on the case (about 40 each), per query and in the mean."""
    run = {q: data["ranking"] for q, data in case["queries"].items()}
    qrels = {q: data["qrels"] for q, data in case["queries"].items()}
    for _, name, per_query, mean in expectations([case]):
        result = mean_over_queries(parse_measure(name).compute, run, qrels)
        assert result.per_query == pytest.approx(per_query, abs=TOL), name
        assert result.mean == pytest.approx(mean, abs=TOL), name


TIE_ROWS = list(expectations(TIES))


@pytest.mark.parametrize(
    ("case", "name", "per_query", "mean"), TIE_ROWS, ids=[f"{r[0]['id']}:{r[1]}" for r in TIE_ROWS]
)
def test_tie_case_after_trec_eval_tie_rule(case, name, per_query, mean):
    measure = parse_measure(name)
    run = {q: rank_by_score(data["scores"]) for q, data in case["queries"].items()}
    qrels = {q: data["qrels"] for q, data in case["queries"].items()}
    result = mean_over_queries(measure.compute, run, qrels)
    assert result.per_query == pytest.approx(per_query, abs=TOL)
    assert result.mean == pytest.approx(mean, abs=TOL)


def test_tie_rule_matches_trec_eval_effective_order():
    for case in TIES:
        for q, data in case["queries"].items():
            assert rank_by_score(data["scores"]) == case["effective_order"]["pytrec_eval"][q], case["id"]


def test_ranx_twin_shows_the_documented_disagreement():
    """The empty-qrels twin: we follow trec_eval (query omitted), not ranx (query scored 0)."""
    ranx_case = next(c for c in PUBLIC if c["source"] == "ranx")
    run = {q: d["ranking"] for q, d in ranx_case["queries"].items()}
    qrels = {q: d["qrels"] for q, d in ranx_case["queries"].items()}
    ours = mean_over_queries(parse_measure("RR").compute, run, qrels).mean
    assert ours != pytest.approx(ranx_case["expected"]["RR"]["mean"], abs=TOL)

"""A query opened in the playground scores exactly (==) as metrics.evaluation.engine scores it in the run: for every
measure at k <= N and for uncut AP and RR, whose relevant docs may lie beyond the displayed top N (the hidden tail).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ir_metrics_lab.core import url
from ir_metrics_lab.core.drilldown import grade_mapping, mapping_note, scenario_for_query, tail_note
from ir_metrics_lab.core.numbers import breakdowns
from ir_metrics_lab.core.scenario import MAX_DOCS, Scenario
from ir_metrics_lab.parts.scenario_numbers import curves
from metrics import parse_measure
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels, read_run

SAMPLES = Path(__file__).parents[1] / "data" / "samples"
CUT = ("NDCG", "DCG", "IDCG", "P", "R", "R_cap", "F1", "HitRate")  # families the playground computes at k
UNCUT = ("AP", "RR")  # over the whole list, as trec_eval's map and recip_rank


def measures_at(k: int) -> list[str]:
    return [f"{family}@{k}" for family in CUT] + list(UNCUT)


def assert_rows_equal(scn: Scenario, evaluation, row: int, k: int) -> None:
    values = breakdowns(scn)
    for family in CUT:
        assert values[family].value == evaluation.per_query[f"{family}@{k}"][row], (family, k)
    for family in UNCUT:
        assert values[family].value == evaluation.per_query[family][row], family


@pytest.fixture(scope="module")
def sample():
    run, qrels = read_run(SAMPLES / "dense.run.gz"), read_qrels(SAMPLES / "qrels.txt.gz")
    return run, qrels, run.to_rankings(), qrels.to_dict()


@pytest.mark.parametrize("top_n, k", [(20, 10), (20, 20), (10, 5), (5, 5), (1, 1)])
def test_every_sample_query_matches_the_engine(sample, top_n, k):
    run, qrels, rankings, qrels_dict = sample
    evaluation = evaluate(run, qrels, measures_at(k))
    deep_first_hit = 0
    for row, query_id in enumerate(evaluation.queries):
        scn = scenario_for_query(rankings, qrels_dict, query_id, top_n, k=k)
        assert len(scn.ranking) == min(top_n, len(rankings[query_id]))
        assert scn.full_ranking == tuple(rankings[query_id])
        assert_rows_equal(scn, evaluation, row, k)
        rr = evaluation.per_query["RR"][row]
        deep_first_hit += 0 < rr < 1 / top_n
    assert deep_first_hit > 0  # some query's first relevant doc lies in the hidden tail, and RR still matches


def test_both_sample_runs_match_for_the_bm25_run_too(sample):
    run = read_run(SAMPLES / "bm25.run.gz")
    _, qrels, _, qrels_dict = sample
    evaluation = evaluate(run, qrels, measures_at(10))
    rankings = run.to_rankings()
    for row, query_id in enumerate(evaluation.queries):
        assert_rows_equal(scenario_for_query(rankings, qrels_dict, query_id), evaluation, row, 10)


def generated(seed: int = 5, queries: int = 6, depth: int = 1000):
    """Runs of 1000 docs with few relevant docs, some only deep in the list, and judged docs never retrieved."""
    rng = np.random.default_rng(seed)
    rankings, qrels = {}, {}
    for q in range(queries):
        docs = [f"q{q}d{i}" for i in range(depth)]
        rng.shuffle(docs)
        judged = {docs[int(rank)]: int(rng.integers(1, 4)) for rank in rng.choice(depth, 4, replace=False)}
        judged |= {docs[int(rank)]: 0 for rank in rng.choice(depth, 5, replace=False)}
        judged |= {f"q{q}missed{i}": int(rng.integers(0, 4)) for i in range(3)}  # judged, never retrieved
        rankings[f"q{q}"] = docs
        qrels[f"q{q}"] = judged
    retrieved = set(rankings["q0"])
    qrels["q0"] = {d: g for d, g in qrels["q0"].items() if g == 0 or d not in retrieved}  # none relevant retrieved
    qrels["q0"][rankings["q0"][979]] = 2  # but one, at rank 980
    return rankings, qrels


def test_generated_deep_runs_match_the_engine_and_the_tail_is_kept():
    rankings, qrels = generated()
    evaluation = evaluate(rankings, qrels, measures_at(10))
    for row, query_id in enumerate(evaluation.queries):
        scn = scenario_for_query(rankings, qrels, query_id, 20, k=10)
        assert len(scn.tail) == 980 and scn.tail == tuple(rankings[query_id][20:])
        assert_rows_equal(scn, evaluation, row, 10)
    q0 = scenario_for_query(rankings, qrels, "q0", 20)
    assert breakdowns(q0)["RR"].value == 1 / 980 != 0
    assert breakdowns(q0)["AP"].value > 0


def test_truncation_note():
    rankings, qrels = generated()
    q0 = scenario_for_query(rankings, qrels, "q0", 20)
    relevant_in_tail = sum(1 for d in rankings["q0"][20:] if qrels["q0"].get(d, 0) >= 1)
    assert relevant_in_tail == 1
    assert tail_note(q0).startswith(
        "\\+ 980 more retrieved documents (ranks 21–1000) are kept for the metric values; 1 of them is relevant."
    )
    assert tail_note(scenario_for_query({"q": ["a", "b"]}, {"q": {"b": 1}}, "q", 20)) is None
    one = scenario_for_query({"q": ["a", "b", "c"]}, {"q": {"c": 1}}, "q", 2)
    assert tail_note(one).startswith("\\+ 1 more retrieved document (rank 3) is kept for the metric values; 1 of them")


def test_shelf_holds_relevant_judged_docs_that_were_not_retrieved():
    rankings, qrels = generated()
    scn = scenario_for_query(rankings, qrels, "q1", 20)
    retrieved = set(rankings["q1"])
    expected = {d for d, g in qrels["q1"].items() if d not in retrieved and g > 0}
    assert set(scn.shelf) == expected and expected
    assert not set(scn.shelf) & set(scn.full_ranking)
    assert all(scn.grades[d] == qrels["q1"][d] for d in scn.shelf)
    assert [scn.grades[d] for d in scn.shelf] == sorted((scn.grades[d] for d in scn.shelf), reverse=True)
    # judged non-relevant docs that were not retrieved change no metric, so they stay off the shelf
    assert not any(qrels["q1"][d] == 0 for d in scn.shelf)


def test_only_displayed_docs_are_draggable_and_the_tail_survives_list_edits():
    rankings, qrels = generated()
    scn = scenario_for_query(rankings, qrels, "q2", 20)
    assert len(scn.docs) <= MAX_DOCS and set(scn.docs) == set(scn.ranking) | set(scn.shelf)
    assert scn.moved(scn.ranking[5], 1).tail == scn.tail
    assert scn.shelved(scn.ranking[0]).tail == scn.tail
    with pytest.raises(ValueError, match="further down"):
        scn.with_doc(scn.tail[0])
    # a shared link carries the displayed list only: opening it gives a scenario without a tail
    reopened, _ = url.from_query_params(url.to_query_params(scn))
    assert reopened.tail == () and reopened.ranking == scn.ranking


def test_curves_sweep_the_displayed_ranks_on_the_full_ranking():
    rankings, qrels = generated()
    scn = scenario_for_query(rankings, qrels, "q3", 20, k=10)
    series = curves(scn)
    assert all(len(values) == 20 for values in series.values())
    evaluation = evaluate(rankings, qrels, ["AP@20", "P@20"])
    row = evaluation.queries.index("q3")
    assert series["AP@k"][19] == evaluation.per_query["AP@20"][row]
    assert series["P@k"][19] == evaluation.per_query["P@20"][row]


def test_missing_query_and_bad_top_n():
    empty = scenario_for_query({"q": ["a"]}, {"q": {"a": 1}, "z": {"x": 2}}, "z", 20)
    assert empty.ranking == () and empty.shelf == ("x",) and breakdowns(empty)["R"].value == 0.0
    with pytest.raises(ValueError):
        scenario_for_query({"q": ["a"]}, {"q": {"a": 1}}, "q", 0)
    with pytest.raises(ValueError):
        scenario_for_query({"q": ["a"]}, {"q": {"a": 1}}, "q", MAX_DOCS + 1)


@pytest.mark.parametrize("top, scale", [(0, 1), (1, 1), (2, 3), (3, 3), (4, 4)])
def test_scale_holds_the_top_grade(top, scale):
    assert grade_mapping(top) == (scale, None)
    assert mapping_note(top) is None


def test_grades_above_four_are_mapped_and_binary_metrics_still_match():
    rankings = {"q": ["a", "b", "c", "d", "e", "f"]}
    qrels = {"q": {"a": 0, "b": 10, "c": 1, "e": 5, "z": 7, "n": -1}}
    scn = scenario_for_query(rankings, qrels, "q", 3, k=5)
    assert grade_mapping(10) == (4, 10) and scn.scale == 4
    assert scn.grades["b"] == 4 and scn.grades["c"] == 1 and scn.grades["e"] == 2 and scn.grades["z"] == 3  # ⌈4g/10⌉
    assert "n" not in scn.shelf  # a negative grade counts as 0, as in trec_eval
    evaluation = evaluate(rankings, qrels, measures_at(5))
    values = breakdowns(scn)
    for family in ("P", "R", "R_cap", "F1", "HitRate", "AP", "RR"):
        name = family if family in UNCUT else f"{family}@5"
        assert values[family].value == evaluation.per_query[name][0], family
    assert values["NDCG"].value != evaluation.per_query["NDCG@5"][0]  # mapped gains: said in the note
    assert "up to 10" in mapping_note(10) and "NDCG" in mapping_note(10)


def test_negative_grades_count_as_zero_and_match_the_engine():
    rankings = {"q": ["a", "b", "c"]}
    qrels = {"q": {"a": -1, "b": 2, "c": 0, "m": -2, "r": 1}}
    scn = scenario_for_query(rankings, qrels, "q", 2, k=3)
    assert scn.grades["a"] == 0 and scn.shelf == ("r",)
    assert_rows_equal(scn, evaluate(rankings, qrels, measures_at(3)), 0, 3)


def test_retrieved_docs_without_a_qrels_line_open_as_unjudged_and_match_the_engine(sample):
    run, qrels, rankings, qrels_dict = sample
    names = ["Judged@10", "infAP", "rbp_resid", "unj@10"]
    evaluation = evaluate(run, qrels, names)
    unjudged_queries = 0
    for row, query_id in enumerate(evaluation.queries):
        scn = scenario_for_query(rankings, qrels_dict, query_id, 20, k=10)
        assert scn.unjudged == {d for d in rankings[query_id] if d not in qrels_dict.get(query_id, {})}
        unjudged_queries += bool(scn.unjudged)
        for name in names:
            value = parse_measure(name).compute(list(scn.full_ranking), scn.qrels, scn.conventions).value
            assert value == pytest.approx(evaluation.per_query[name][row], abs=1e-12), (query_id, name)
    assert unjudged_queries > 0  # the dense sample run retrieves unjudged documents

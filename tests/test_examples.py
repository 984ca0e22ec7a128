"""The teaching presets in metrics/teaching/examples.py: their data are the golden cases, and every number their lesson
quotes is trec_eval's golden value (tests/data/golden_public.json)."""

from __future__ import annotations

import pytest
from golden import PUBLIC

from metrics import mean_over_queries, parse_measure
from metrics.teaching.examples import EXAMPLES

GOLDEN = {case["id"]: case for case in PUBLIC}
CASE_OF = {
    "retriever-a": "pub-seed000-retriever-A-middle",
    "retriever-b": "pub-seed000-retriever-B-top",
    "better-auth": "pub-seed000-betterauth-ABC",
    "grades-32301": "pub-seed001-rel-32301",
    "cat-dog-parrot": "pub-seed004-catdog-binary-t05",
}
TOL = 1e-9

# (preset, text in its lesson, golden case, measure, the number as quoted, decimals it is quoted to)
QUOTES = [
    ("retriever-a", "P@5 = 0.4", "pub-seed000-retriever-A-middle", "P@5", 0.4, 4),
    ("retriever-a", "R@5 = 1", "pub-seed000-retriever-A-middle", "R@5", 1.0, 4),
    ("retriever-a", "RR = 1/3", "pub-seed000-retriever-A-middle", "RR", 1 / 3, 12),
    ("retriever-a", "AP = 0.4167", "pub-seed000-retriever-A-middle", "AP", 0.4167, 4),
    ("retriever-a", "NDCG@5 = 0.5706", "pub-seed000-retriever-A-middle", "NDCG@5", 0.5706, 4),
    ("retriever-b", "P@5 = 0.4", "pub-seed000-retriever-B-top", "P@5", 0.4, 4),
    ("retriever-b", "R@5 = 1", "pub-seed000-retriever-B-top", "R@5", 1.0, 4),
    ("retriever-b", "RR = 1,", "pub-seed000-retriever-B-top", "RR", 1.0, 4),
    ("retriever-b", "AP = 1,", "pub-seed000-retriever-B-top", "AP", 1.0, 4),
    ("retriever-b", "NDCG@5 = 1.", "pub-seed000-retriever-B-top", "NDCG@5", 1.0, 4),
    ("better-auth", "NDCG@3 = 0.8175 with linear gain", "pub-seed000-betterauth-ABC", "NDCG@3", 0.8175, 4),
    ("better-auth", "0.7364 with exponential", "pub-seed000-betterauth-ABC", "NDCG_exp@3", 0.7364, 4),
    ("grades-32301", "DCG@4 = 5.7619", "pub-seed001-rel-32301", "DCG@4", 5.7619, 4),
    ("grades-32301", "NDCG@5 = 0.9724 (linear)", "pub-seed001-rel-32301", "NDCG@5", 0.9724, 4),
    ("grades-32301", "0.9575 (exponential)", "pub-seed001-rel-32301", "NDCG_exp@5", 0.9575, 4),
    ("grades-32301", "drops to 0.8047", "pub-seed001-idcg-from-all-qrels", "NDCG@5", 0.8047, 4),
    ("cat-dog-parrot", "mean P@2 = 0.6667", "pub-seed004-catdog-binary-t05", "P@2", 0.6667, 4),
    ("cat-dog-parrot", "MAP@2 = 0.6667", "pub-seed004-catdog-binary-t05", "AP@2", 0.6667, 4),
    ("cat-dog-parrot", "MRR@2 = 0.6667", "pub-seed004-catdog-binary-t05", "RR@2", 0.6667, 4),
    ("cat-dog-parrot", "0.78, the uncut MRR", "pub-seed004-catdog-binary-t05", "RR", 0.78, 2),
]


def preset_run(key):
    example = EXAMPLES[key]
    return {q: list(x.ranking) for q, x in example.queries.items()}, {
        q: dict(x.qrels) for q, x in example.queries.items()
    }


def golden_run(case_id):
    case = GOLDEN[case_id]
    return {q: d["ranking"] for q, d in case["queries"].items()}, {q: d["qrels"] for q, d in case["queries"].items()}


def test_every_preset_has_a_golden_case():
    assert set(EXAMPLES) == set(CASE_OF)
    assert {key for key, *_ in QUOTES} == set(EXAMPLES)


@pytest.mark.parametrize("key", sorted(CASE_OF))
def test_preset_data_equal_the_golden_case(key):
    assert preset_run(key) == golden_run(CASE_OF[key])


def test_unretrieved_grade3_variant_is_the_32301_preset_plus_one_judgment():
    run, qrels = preset_run("grades-32301")
    golden_ranking, golden_qrels = golden_run("pub-seed001-idcg-from-all-qrels")
    assert golden_ranking == run
    assert golden_qrels == {q: g | {"d9": 3} for q, g in qrels.items()}


@pytest.mark.parametrize("key", sorted(CASE_OF))
def test_readable_functions_reproduce_every_golden_value_of_the_preset(key):
    run, qrels = preset_run(key)
    expected = GOLDEN[CASE_OF[key]]["expected"]
    for name, values in expected.items():
        result = mean_over_queries(parse_measure(name).compute, run, qrels)
        assert result.per_query == pytest.approx(values["per_query"], abs=TOL), name
        assert result.mean == pytest.approx(values["mean"], abs=TOL), name


@pytest.mark.parametrize(
    ("key", "text", "case_id", "measure", "quoted", "decimals"), QUOTES, ids=[f"{q[0]}:{q[1]}" for q in QUOTES]
)
def test_lesson_numbers_are_the_golden_values(key, text, case_id, measure, quoted, decimals):
    assert text in EXAMPLES[key].lesson
    golden = GOLDEN[case_id]["expected"][measure]["mean"]
    assert round(golden, decimals) == pytest.approx(quoted, abs=1e-12)
    # and the readable functions give that golden number on the golden data
    run, qrels = golden_run(case_id)
    assert mean_over_queries(parse_measure(measure).compute, run, qrels).mean == pytest.approx(golden, abs=TOL)


def test_retrievers_a_and_b_tie_on_p_and_r_but_not_on_order_aware_metrics():
    a, b = preset_run("retriever-a"), preset_run("retriever-b")

    def score(name, data):
        return mean_over_queries(parse_measure(name).compute, *data).mean

    for name in ("P@5", "R@5"):
        assert score(name, a) == score(name, b)
    for name in ("RR", "AP", "NDCG@5"):
        assert score(name, a) < score(name, b)


@pytest.mark.parametrize("key", sorted(CASE_OF))
def test_preset_k_and_scale_fit_its_data(key):
    example = EXAMPLES[key]
    grades = [g for query in example.queries.values() for g in query.qrels.values()]
    assert max(grades) <= example.scale
    assert example.k <= max(len(q.ranking) for q in example.queries.values())
    assert example.first is next(iter(example.queries.values()))
    for query in example.queries.values():
        assert set(query.ranking) <= set(example.titles) or not example.titles

"""trec_eval's ranking rule: score descending (as C doubles in trec_eval 10.0), ties by doc id descending (byte
order)."""

from __future__ import annotations

import pytest
import pytrec_eval

from metrics import parse_measure, rank_by_score
from metrics.evaluation.engine import evaluate

# Pairs of scores that differ as doubles but are equal as 32-bit floats: trec_eval 9 (pytrec_eval) stored C floats
# and broke the tie by doc id; trec_eval 10.0 stores doubles, so the higher score ranks first (the corpus of
# tests/test_trec_eval10_corpus.py has the binary's word on 0.1000000002 vs 0.1000000001).
FLOAT32_TIES = [(1.0, 1.00000001), (0.0, 1.8e-214), (12.5, 12.500000001)]


@pytest.mark.parametrize(("b_score", "a_score"), FLOAT32_TIES)
def test_scores_equal_only_as_floats_rank_by_score_as_trec_eval_10_does(b_score, a_score):
    scores = {"b": b_score, "a": a_score}
    nine = pytrec_eval.RelevanceEvaluator({"q": {"b": 1}}, {"recip_rank"}).evaluate({"q": scores})
    assert nine["q"]["recip_rank"] == 1.0  # trec_eval 9: 'b' first, a tie, and 'b' > 'a'
    assert rank_by_score(scores) == ["a", "b"]  # 10.0: a's score is higher
    assert evaluate({"q": scores}, {"q": {"b": 1}}, ["RR"]).per_query["RR"].tolist() == [0.5]


def test_scores_that_differ_as_floats_still_rank_by_score():
    scores = {"b": 1.0, "a": 1.0000001}
    trec = pytrec_eval.RelevanceEvaluator({"q": {"b": 1}}, {"recip_rank"}).evaluate({"q": scores})
    assert trec["q"]["recip_rank"] == 0.5
    assert rank_by_score(scores) == ["a", "b"]


def test_plain_ndcg_follows_the_gain_convention_and_exp_names_force_it():
    from metrics import Conventions, ndcg

    exp = Conventions(gain="exp")
    ranking, qrels = ["a", "b"], {"a": 1, "b": 3}
    # by hand: exp gains 1 and 7; DCG = 1 + 7/log2(3), IDCG = 7 + 1/log2(3)
    from math import log2

    expected = (1 + 7 / log2(3)) / (7 + 1 / log2(3))
    assert parse_measure("NDCG@3").compute(ranking, qrels, exp).value == pytest.approx(expected)
    assert parse_measure("NDCG_exp@3").compute(ranking, qrels).value == pytest.approx(expected)
    assert ndcg(ranking, qrels, 3, conventions=exp).value == pytest.approx(expected)
    engine = evaluate({"q": ranking}, {"q": qrels}, ["NDCG@3"], conventions=exp)
    assert engine.per_query["NDCG@3"].tolist() == [pytest.approx(expected)]


def test_importing_the_readable_library_does_not_import_numpy():
    """The readable functions are plain Python; the CLI sets numpy's thread options before numpy loads."""
    import subprocess
    import sys

    code = "import metrics, sys; print('numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


@pytest.mark.parametrize("score", [1e39, -1e39])
def test_scores_beyond_c_float_range_rank_as_infinities(score):
    assert rank_by_score({"a": score, "b": 0.0}) == (["a", "b"] if score > 0 else ["b", "a"])

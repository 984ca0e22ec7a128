"""ir_metrics_lab.core.lessons.quiz: seeded, well-posed exercises, checked against pytrec_eval and hand arithmetic."""

from __future__ import annotations

import itertools

import pyndeval
import pytest
import pytrec_eval

from ir_metrics_lab.core.lessons import quiz

SEEDS = range(0, 40)


def trec(ranking, qrels, measure: str) -> float:
    run = {"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}}
    name, _, cut = measure.rpartition("_")
    request = f"{name}.{cut}" if cut.isdigit() else measure
    return pytrec_eval.RelevanceEvaluator({"q": dict(qrels)}, {request}).evaluate(run)["q"][measure]


TREC = {"AP": "map", "RR": "recip_rank", "NDCG": "ndcg_cut_3"}


def test_same_seed_same_exercises_and_different_seeds_differ():
    assert quiz.generate(11) == quiz.generate(11)
    assert quiz.generate(11) != quiz.generate(12)
    kinds = [ex.kind for ex in quiz.generate(11)]
    assert kinds == ["predict", "predict", "predict", "reorder", "mrr", "aspect_move"]


@pytest.mark.parametrize("seed", SEEDS)
def test_predicted_answers_are_trec_evals(seed):
    for ex in quiz.generate(seed)[:3]:
        assert ex.answer == pytest.approx(trec(ex.ranking, ex.qrels, TREC[ex.family]), abs=1e-9)


def test_answers_within_tolerance_are_accepted_outside_rejected():
    ex = quiz.Predict("AP", None, ("n1", "n2", "r1", "r2", "n3"), {"r1": 1, "r2": 1})
    answer = (1 / 3 + 2 / 4) / 2  # 0.41667
    assert quiz.check_number(ex, answer).correct
    assert quiz.check_number(ex, answer + 0.0049).correct
    assert quiz.check_number(ex, answer - 0.0049).correct
    assert not quiz.check_number(ex, answer + 0.0051).correct
    assert not quiz.check_number(ex, 0.5).correct
    assert not quiz.check_number(ex, None).correct


@pytest.mark.parametrize("seed", SEEDS)
def test_reorder_task_is_solvable_and_not_already_solved(seed):
    ex = quiz.generate(seed)[3]
    start = trec(ex.ranking, ex.qrels, "ndcg_cut_3")
    assert start < 0.9  # not already solved
    assert not ex.solves(ex.ranking)
    solution = list(ex.solution)
    assert sorted(solution) == sorted(ex.ranking)
    assert trec(solution, ex.qrels, "ndcg_cut_3") >= 0.9
    assert trec(solution, ex.qrels, "P_5") == trec(ex.ranking, ex.qrels, "P_5")
    assert quiz.check_reorder(ex, solution).correct
    assert not quiz.check_reorder(ex, ex.ranking).correct


def test_reorder_that_changes_p_at_5_is_rejected():
    qrels = {"a": 0, "b": 0, "c": 1, "d": 0, "e": 0, "f": 3}
    ex = quiz.Reorder(("a", "b", "c", "d", "e", "f"), qrels, ("c", "a", "b", "d", "e", "f"))
    moved_in = ["f", "c", "a", "b", "d", "e"]  # NDCG@3 is high, but P@5 goes from 1/5 to 2/5
    assert trec(moved_in, qrels, "P_5") == pytest.approx(2 / 5)
    feedback = quiz.check_reorder(ex, moved_in)
    assert not feedback.correct and "P@5 was 0.2000" in feedback.message


def test_parse_order():
    docs = ("d1", "d2", "d3")
    assert quiz.parse_order(" d3, d1 d2 ", docs) == ["d3", "d1", "d2"]
    for bad in ("d1, d2", "d1, d1, d2, d3", "d1, d2, d9"):
        with pytest.raises(ValueError):
            quiz.parse_order(bad, docs)


@pytest.mark.parametrize("seed", SEEDS)
def test_mrr_pair_answer_matches_pytrec_eval_and_is_not_tied(seed):
    ex = quiz.generate(seed)[4]
    mrr = {side: sum(trec(run[q], ex.qrels[q], "recip_rank") for q in run) / len(run) for side, run in ex.runs.items()}
    assert abs(mrr["A"] - mrr["B"]) >= quiz.MRR_MIN_GAP
    assert ex.answer == max(mrr, key=mrr.get)
    assert quiz.check_choice(ex, ex.answer).correct
    assert not quiz.check_choice(ex, "B" if ex.answer == "A" else "A").correct


def test_mrr_hand_values():
    ex = quiz.MrrPair(
        {"q1": {"a": 1, "b": 0}, "q2": {"c": 1, "d": 0}},
        {"A": {"q1": ("b", "a"), "q2": ("c", "d")}, "B": {"q1": ("b", "a"), "q2": ("d", "c")}},
    )
    assert ex.mrr("A") == pytest.approx((1 / 2 + 1) / 2)
    assert ex.mrr("B") == pytest.approx((1 / 2 + 1 / 2) / 2)
    assert ex.answer == "A"


def test_score_counts_first_attempts_only():
    attempts: dict = {}
    quiz.record(attempts, (1, 0), False)
    quiz.record(attempts, (1, 0), True)  # a retry does not change the score
    quiz.record(attempts, (1, 1), True)
    assert quiz.tally(attempts) == (1, 2)


def pyndeval_alpha_ndcg(ex: quiz.AspectMove, order: list[str]) -> float:
    """alpha-nDCG@5 of ``order`` by ndeval's own code (pyndeval): aspects numbered, a grade per covered aspect."""
    number = {name: str(i + 1) for i, name in enumerate(quiz.ASPECT_NAMES)}
    lines = [("1", number[a], doc, ex.grades[doc]) for doc in ex.ranking for a in ex.aspects[doc]]
    run = [("1", doc, float(len(order) - i)) for i, doc in enumerate(order)]
    return pyndeval.RelevanceEvaluator(lines, ["alpha-nDCG@5"], alpha=0.5).evaluate(run)["1"]["alpha-nDCG@5"]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_aspect_move_has_one_right_answer_by_ndeval(seed):
    ex = quiz.generate(seed)[5]
    top = [a for doc in ex.ranking[:5] for a in ex.aspects[doc]]
    assert len(set(top)) < len(top)  # an aspect repeats in the top 5
    values = {}
    for key, (doc, to_rank) in zip(ex.keys, ex.options, strict=True):
        order = [d for d in ex.ranking if d != doc]
        order.insert(to_rank - 1, doc)
        values[key] = pyndeval_alpha_ndcg(ex, order)
    assert ex.answer == max(values, key=values.get)
    assert all(abs(a - b) >= quiz.MOVE_GAP for a, b in itertools.combinations(values.values(), 2))
    assert max(values.values()) > pyndeval_alpha_ndcg(ex, list(ex.ranking))  # the best move raises it
    assert quiz.check_move(ex, ex.answer).correct
    wrong = next(key for key in ex.keys if key != ex.answer)
    assert not quiz.check_move(ex, wrong).correct and not quiz.check_move(ex, None).correct

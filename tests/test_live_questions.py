"""Live-class questions: built from a scenario, answers parsed, a round scored and exported. Expected values by hand
arithmetic (the list of tests/test_diagnosis.py)."""

from __future__ import annotations

import csv
import io
import itertools
import json
from math import log2

import pytest

from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.scenario import Scenario

SCN = Scenario(("d1", "d2", "d3"), ("d4",), {"d1": 0, "d2": 2, "d3": 1, "d4": 3}, {"d1": "<b>*x*</b>"}, k=3)
NDCG = (2 / log2(3) + 1 / 2) / (3 + 2 / log2(3) + 1 / 2)  # 0.3700


def test_a_predict_question_round_trips_its_scenario_and_knows_the_answer():
    question = questions.predict(SCN, "NDCG")
    assert questions.scenario(question) == SCN
    assert questions.prompt(question) == "What is NDCG@3 of this list? Answer to 2 decimal places."
    assert questions.right_answer(question) == f"{NDCG:.2f}" == "0.37"
    uncut = questions.predict(SCN, "AP")  # AP's card is uncut, as trec_eval's map: (1/2 + 2/3) / 3
    assert uncut["k"] is None and questions.right_answer(uncut) == f"{(1 / 2 + 2 / 3) / 3:.2f}"


def test_bad_questions_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="not 'IDCG'"):
        questions.predict(SCN, "IDCG")
    with pytest.raises(ValueError, match="empty"):
        questions.predict(Scenario(()), "NDCG")
    with pytest.raises(ValueError, match="already at rank 2"):
        questions.pick_better(SCN, "d2", 2, "NDCG")


@pytest.mark.parametrize(("typed", "stored"), [("0.37", "0.37"), (" 0,5 ", "0.5"), ("1e-1", "0.1"), ("3", "3.0")])
def test_numbers_are_parsed_with_a_point_or_a_comma(typed, stored):
    assert questions.parse_answer(questions.predict(SCN, "NDCG"), typed) == stored


@pytest.mark.parametrize("typed", ["abc", "", "nan", "inf", "1e9"])
def test_bad_numbers_are_refused(typed):
    with pytest.raises(ValueError):
        questions.parse_answer(questions.predict(SCN, "NDCG"), typed)


def test_a_round_is_counted_and_its_mistakes_diagnosed():
    question = questions.predict(SCN, "NDCG")
    outcome = questions.result(question, ["0.37", "0.3699", "0.25", "0.2547", "0.67", "0.5"])
    assert (outcome.right, outcome.total, outcome.correct, outcome.unexplained) == ("0.37", 6, 2, 1)
    assert outcome.counts == {"0.37": 2, "0.25": 2, "0.67": 1, "0.50": 1}
    assert [(m.answer, m.mistake, m.count) for m in outcome.mistakes] == [
        ("0.25", "exponential gain 2^g − 1 instead of the grade", 2),
        ("0.67", "IDCG from the retrieved list only (relevant documents it missed left out)", 1),
    ]


def test_a_choice_round():
    # B = d3, d1, d2: DCG@3 = 1 + 0 + 2/2 = 2 > A's 1.76, same IDCG: B is right. At k = 2 A wins (1.26 > 1).
    question = questions.pick_better(SCN, "d3", 1, "NDCG")
    assert question["moved"] == {"doc": "d3", "from": 3, "to": 1}
    outcome = questions.result(question, ["B", "B", "A", "tie"])
    assert (outcome.right, outcome.correct, outcome.unexplained) == ("B", 2, 1)
    assert [(m.answer, m.mistake, m.count) for m in outcome.mistakes] == [
        ("A", "cut at 2 instead of 3 (off by one)", 1)
    ]
    with pytest.raises(ValueError):
        questions.parse_answer(question, "C")


def test_the_csv_has_no_nicknames_and_the_markdown_shows_titles_literally():
    question = questions.predict(SCN, "NDCG")
    rows = list(csv.DictReader(io.StringIO(questions.csv(question, 2, [("0.25", 1000), ("0.37", 2000)]))))
    assert list(rows[0]) == list(questions.CSV_COLUMNS)
    assert [(r["round"], r["answer"], r["correct"], r["diagnosis"]) for r in rows] == [
        ("2", "0.25", "0", "exponential gain 2^g − 1 instead of the grade"),
        ("2", "0.37", "1", ""),
    ]
    summary = questions.markdown(question, 2, questions.result(question, ["0.25", "0.37"]))
    assert "\\<b\\>\\*x\\*\\<\\/b\\>" in summary and "<b>" not in summary
    assert "| 0.25 | exponential gain 2^g − 1 instead of the grade | 1 |" in summary


def test_a_vs_b_lists_are_compared_with_their_own_orders():
    from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B

    a, b = Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B)
    # A: r1, r2 at ranks 3 and 4, AP = (1/3 + 2/4) / 2; B: ranks 1 and 2, AP = 1. P@5: 2/5 for both, a tie.
    question = questions.compare(a, b, "AP")
    assert questions.scenario_b(question).ranking == ("r1", "r2", "n1", "n2", "n3")
    assert questions.breakdown(question, "A").value == pytest.approx((1 / 3 + 2 / 4) / 2)
    assert questions.right_answer(question) == "B"
    assert questions.right_answer(questions.compare(a, b, "P")) == "tie"
    outcome = questions.result(questions.compare(a, b, "P"), ["tie", "B"])
    assert (outcome.correct, outcome.unexplained) == (1, 1)  # no cutoff or convention makes B win at P@5
    assert "**List B**" in questions.markdown(question, 1, questions.result(question, ["B"]))
    with pytest.raises(ValueError, match="same order"):
        questions.compare(a, a, "AP")


# "Which move raises NDCG@3 most?" on SCN: d1 (0), d2 (2), d3 (1), d4 (grade 3) missed. IDCG@3 = 3 + 2/log2(3) + 1/2.
# The six moves, DCG@3 by hand (linear gain, discount log2(rank + 1)):
IDCG3 = 3 + 2 / log2(3) + 1 / 2
MOVED = {
    ("d1", 1, 2): 2 + 0 + 1 / 2,  # d2 d1 d3: 2.5, the same list as d2 to rank 1
    ("d1", 1, 3): 2 + 1 / log2(3) + 0,  # d2 d3 d1: 2.63, the best
    ("d2", 2, 1): 2 + 0 + 1 / 2,  # d2 d1 d3
    ("d2", 2, 3): 0 + 1 / log2(3) + 2 / 2,  # d1 d3 d2: 1.63, a relevant document moved down
    ("d3", 3, 1): 1 + 0 + 2 / 2,  # d3 d1 d2: 2.0
    ("d3", 3, 2): 0 + 1 / log2(3) + 2 / 2,  # d1 d3 d2
}


def test_which_move_raises_ndcg_most_offers_the_best_move_and_distractors_that_do_not_tie():
    question = questions.best_move(SCN, "NDCG")
    assert questions.prompt(question) == "Which move raises NDCG@3 most?"
    # best: d1 to 3; tempting: the top grade below rank 1 (d2) to rank 1; a relevant document down one: d2 to 3;
    # the best left: d1 to 2 equals d2 to 1 (a tie, left out), then d3 to 1. Listed by the rank they move from.
    moves = [(o["doc"], o["from"], o["to"]) for o in question["options"]]
    assert moves == [("d1", 1, 3), ("d2", 2, 1), ("d2", 2, 3), ("d3", 3, 1)]
    assert [o["key"] for o in question["options"]] == ["1", "2", "3", "4"]
    values = dict(questions.option_values(question))
    assert values == pytest.approx({str(n): MOVED[m] / IDCG3 for n, m in enumerate(moves, 1)})
    assert f"{values['1']:.3f}" == "0.553" and question["also_best"] == []
    assert questions.right_answer(question) == "1"
    assert questions.choice_label(question, "3") == "3 · d2: rank 2 → 3"
    assert questions.worked_sides(question) == ("1",)
    assert questions.breakdown(question, "1").value == pytest.approx(MOVED[("d1", 1, 3)] / IDCG3)


def test_a_move_round_is_scored_and_exported():
    question = questions.best_move(SCN, "NDCG")
    outcome = questions.result(question, ["1", "1", "2", "4"])
    assert (outcome.right, outcome.total, outcome.correct) == ("1", 4, 2)
    # no other convention or cutoff makes another option the best here: at k = 2 option 1 still wins
    # (2 + 1/log2(3) = 2.63 against 2, 1/log2(3) and 1), and every option has the same IDCG
    assert (outcome.mistakes, outcome.unexplained) == ((), 2)
    with pytest.raises(ValueError, match="one of 1, 2, 3, 4"):
        questions.parse_answer(question, "5")
    assert questions.parse_answer(question, "4") == "4"
    rows = list(csv.DictReader(io.StringIO(questions.csv(question, 1, [("2", 10)]))))
    assert [(r["answer"], r["right_answer"], r["correct"]) for r in rows] == [("2", "1", "0")]
    summary = questions.markdown(question, 1, outcome)
    assert "| 1 | d1: rank 1 → 3 | 0.553 |" in summary and "| 2 | d2: rank 2 → 1 | 0.525 |" in summary


def test_moves_that_tie_for_the_best_are_named_and_never_two_options():
    # d1 (3), d2 (2), d3 (3): d3 to rank 1 (d3 d1 d2) and d2 to rank 3 (d1 d3 d2, the same list as d3 to rank 2)
    # both give 3 + 3/log2(3) + 2/2, the ideal; d2 to rank 3 is a shortest move (one rank) and nearer the top, so it
    # is the option; d3 to rank 1 is named as tying with it (d3 to rank 2, its same list, is not).
    scn = Scenario(("d1", "d2", "d3"), grades={"d1": 3, "d2": 2, "d3": 3}, k=3)
    question = questions.best_move(scn, "NDCG")
    best = questions.right_answer(question)
    assert next(o for o in question["options"] if o["key"] == best) | {"key": None} == {
        "key": None, "doc": "d2", "from": 2, "to": 3,
    }  # fmt: skip
    assert question["also_best"] == [{"doc": "d3", "from": 3, "to": 1}]
    values = sorted(v for _, v in questions.option_values(question))
    assert all(b - a >= 0.005 for a, b in itertools.pairwise(values))
    assert values[-1] == pytest.approx(1.0)


def test_a_list_no_move_can_improve_is_refused():
    ideal = Scenario(("d1", "d2", "d3"), grades={"d1": 3, "d2": 2, "d3": 1}, k=3)
    with pytest.raises(ValueError, match="no single move raises NDCG"):
        questions.best_move(ideal, "NDCG")
    with pytest.raises(ValueError, match="at least two documents"):
        questions.best_move(Scenario(("d1",), grades={"d1": 1}), "NDCG")


def test_quiz_exercises_become_questions_about_their_own_list():
    from ir_metrics_lab.core.lessons import quiz

    # AP of a (0), b (1), c (0), with z (grade 1) missed: (1/2) / 2 relevant = 0.25
    ap = questions.from_quiz(quiz.Predict("AP", None, ("a", "b", "c"), {"a": 0, "b": 1, "c": 0, "z": 1}))
    assert (ap["kind"], ap["source"], ap["k"], questions.right_answer(ap)) == ("predict", "quiz", None, "0.25")
    assert questions.scenario(ap).shelf == ("z",)
    reorder = quiz.Reorder(("d1", "d2", "d3"), {"d1": 0, "d2": 2, "d3": 1, "d4": 3}, ("d2", "d3", "d1"), k=3)
    move = questions.from_quiz(reorder)
    assert move["kind"] == "move" and move["k"] == 3
    assert next((o["doc"], o["from"], o["to"]) for o in move["options"]) == ("d1", 1, 3)  # as on SCN above
    with pytest.raises(ValueError, match="several queries"):
        questions.from_quiz(quiz.generate(1)[4])


def test_a_reveal_says_the_same_words_on_a_page_and_as_text():
    """ir_metrics_lab.core.classroom.reveal: the page's Markdown escapes a document id; the pushed reveal's text
    (ir_metrics_lab.classroom.reveal_stream) shows it as typed, without its direction controls."""
    from ir_metrics_lab.core.classroom import reveal
    from ir_metrics_lab.core.markdown import text

    # grades 0, 1, 2 in that order: NDCG@3 is best with d3 (grade 2) moved to the top
    scn = Scenario(("d*1", "d2", "d3"), grades={"d*1": 0, "d2": 1, "d3": 2}, k=3)
    move = questions.best_move(scn, "NDCG")
    options = {o["key"]: (o["doc"], o["from"], o["to"]) for o in move["options"]}
    right = questions.right_answer(move)
    assert options[right] == ("d3", 3, 1)
    wrong = next(key for key, option in options.items() if option[0] == "d*1")
    outcome = questions.result(move, [wrong])
    on_page = reveal.verdict(move, wrong, outcome)
    as_text = reveal.verdict(move, wrong, outcome, text)
    assert on_page.kind == as_text.kind == ("warning" if outcome.mistakes else "error")
    doc, start, end = options[wrong]
    assert f"{wrong} · {doc}: rank {start} → {end}" in as_text.sentence
    assert as_text.sentence.replace(doc, doc.replace("*", "\\*")) == on_page.sentence
    assert as_text.heading == on_page.heading == f"The answer: {right} · d3: rank 3 → 1"
    assert reveal.verdict(move, None, None, text).sentence == "You did not answer this round."


# --- alpha-nDCG: questions about a list whose documents cover aspects (issue #46) ---------------------------------

# a and b cover x, c covers y, all grade 1, k = 3, alpha 0.5. alpha-DCG@3 of a, b, c: 1 + 0.5 / log2(3) + 1 / 2. The
# greedy ideal (ties to the id last in byte order) is c, b, a: 1 + 1 / log2(3) + 0.5 / 2, which every order that
# does not put a and b at ranks 1 and 2 reaches.
ASPECTS = Scenario(
    ("a", "b", "c"), grades={"a": 1, "b": 1, "c": 1}, k=3, aspects={"a": ("x",), "b": ("x",), "c": ("y",)}
)
IDEAL_3 = 1 + 1 / log2(3) + 0.5 / 2
REPEAT_FIRST = (1 + 0.5 / log2(3) + 1 / 2) / IDEAL_3  # 0.9652


def pyndeval_alpha_ndcg(scn: Scenario, ranking: tuple[str, ...], alpha: float) -> float:
    """ndeval's own C code (pyndeval) on a list: ndeval numbers subtopics, so each aspect gets its position's number."""
    import pyndeval

    number = {name: str(i + 1) for i, name in enumerate(scn.aspect_names)}
    lines = [("1", number[s], doc, g) for s, docs in scn.subtopic_qrels.items() for doc, g in docs.items()]
    run = [("1", doc, float(len(ranking) - i)) for i, doc in enumerate(ranking)]
    return pyndeval.RelevanceEvaluator(lines, ["alpha-nDCG@5"], alpha=alpha).evaluate(run)["1"]["alpha-nDCG@5"]


def test_an_alpha_ndcg_question_carries_the_aspects_and_alpha():
    question = questions.predict(ASPECTS, "alpha_nDCG", alpha=0.25)
    assert "alpha_nDCG" in questions.MEASURES
    assert question["scenario"]["aspects"] == {"a": ["x"], "b": ["x"], "c": ["y"]} and question["alpha"] == 0.25
    assert questions.scenario(json.loads(json.dumps(question))) == ASPECTS
    assert questions.prompt(question) == "What is alpha-nDCG@3 (α = 0.25) of this list? Answer to 2 decimal places."
    # at 0.25 a repeat earns 0.75: (1 + 0.75 / log2(3) + 1 / 2) / (1 + 1 / log2(3) + 0.75 / 2)
    assert questions.right_answer(question) == f"{(1 + 0.75 / log2(3) + 0.5) / (1 + 1 / log2(3) + 0.75 / 2):.2f}"


def test_a_question_stored_before_aspects_still_loads():
    old = questions.predict(SCN, "NDCG")
    assert "aspects" not in old["scenario"] and "alpha" not in old  # a list without aspects is stored as before
    assert questions.scenario(old).aspects == {} and questions.right_answer(old) == f"{NDCG:.2f}"


def test_alpha_ndcg_needs_a_document_that_covers_an_aspect():
    with pytest.raises(ValueError, match="no judged relevant document covers an aspect"):
        questions.predict(SCN, "alpha_nDCG")
    with pytest.raises(ValueError, match="alpha runs from 0 to 1"):
        questions.predict(ASPECTS, "alpha_nDCG", alpha=1.5)


def test_a_predict_round_on_alpha_ndcg_diagnoses_ndcg():
    question = questions.predict(ASPECTS, "alpha_nDCG")
    assert questions.breakdown(question).value == pytest.approx(REPEAT_FIRST, abs=1e-12)
    assert questions.breakdown(question).value == pytest.approx(pyndeval_alpha_ndcg(ASPECTS, ASPECTS.ranking, 0.5))
    outcome = questions.result(question, ["0.97", "1.00", "0.5"])  # NDCG@3 is 1: every document has grade 1
    assert (outcome.right, outcome.correct, outcome.unexplained) == (f"{REPEAT_FIRST:.2f}", 1, 1)
    assert outcome.mistakes[0].answer == "1.00"
    assert outcome.mistakes[0].mistake.startswith("NDCG@3: the grades alone, the aspects ignored")


def test_which_move_raises_alpha_ndcg_most():
    question = questions.best_move(ASPECTS, "alpha_nDCG")
    assert question["scenario"]["aspects"] and question["alpha"] == 0.5
    values = dict(questions.option_values(question))
    right = questions.right_answer(question)
    assert values[right] == pytest.approx(1.0)  # x and y in the top 2 as the greedy ideal has them
    for key in questions.choices(question):
        moved = questions.side_scenario(question, key)
        assert values[key] == pytest.approx(pyndeval_alpha_ndcg(ASPECTS, moved.ranking, 0.5), abs=1e-12)
        assert values[key] == pytest.approx(REPEAT_FIRST if moved.ranking[2] == "c" else 1.0)
    option = next(o for o in question["options"] if o["key"] == right)
    assert questions.choice_label(question, right) == (
        f"{right} · {option['doc']} ({'y' if option['doc'] == 'c' else 'x'}): rank {option['from']} → {option['to']}"
    )
    assert "covers 2 of the 2 aspects" in questions.coverage(question)


def test_a_wrong_move_that_ndcg_prefers_is_diagnosed():
    # a (grade 1) and d (grade 3) cover x, e (grade 1) covers y. NDCG@2 prefers d moved to rank 1 (d, a, e: x twice);
    # alpha-nDCG@2 prefers e moved to rank 2 (a, e, d: x, then y).
    scn = Scenario(
        ("a", "d", "e"), grades={"a": 1, "d": 3, "e": 1}, k=2, aspects={"a": ("x",), "d": ("x",), "e": ("y",)}
    )
    question = questions.aspect_moves(scn, "alpha_nDCG", [("d", 1), ("e", 2)])
    # @2: d, a covers x twice: 1 + 0.5 / log2(3); a, e covers x then y: 1 + 1 / log2(3) (the ideal's @2).
    ideal = 1 + 1 / log2(3)
    assert dict(questions.option_values(question)) == pytest.approx({"1": (1 + 0.5 / log2(3)) / ideal, "2": 1.0})
    outcome = questions.result(question, ["1", "2", "2"])
    assert (outcome.right, outcome.correct) == ("2", 2)
    assert [(m.answer, m.mistake) for m in outcome.mistakes] == [("1", "NDCG@2: the grades alone, the aspects ignored")]
    with pytest.raises(ValueError, match="no one right answer"):
        questions.aspect_moves(scn, "alpha_nDCG", [("d", 1), ("a", 2)])  # the same list twice


def test_the_quiz_s_aspect_exercise_becomes_the_same_question():
    from ir_metrics_lab.core.lessons import quiz

    exercise = next(ex for ex in quiz.generate(7) if ex.kind == "aspect_move")
    question = questions.from_quiz(exercise)
    assert question["source"] == "quiz" and question["measure"] == "alpha_nDCG" and question["k"] == exercise.k
    assert questions.scenario(question).aspects == exercise.scenario.aspects
    assert [(o["doc"], o["to"]) for o in question["options"]] == list(exercise.options)
    for key in exercise.keys:  # each option's value: pyndeval on the moved list
        moved = questions.side_scenario(question, key)
        assert questions.breakdown(question, key).value == pytest.approx(
            pyndeval_alpha_ndcg(moved, moved.ranking, 0.5), abs=1e-12
        )
    assert questions.right_answer(question) == max(
        exercise.keys,
        key=lambda k: pyndeval_alpha_ndcg(exercise.scenario, questions.side_scenario(question, k).ranking, 0.5),
    )

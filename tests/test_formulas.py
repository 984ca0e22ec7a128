"""Worked formulas: substituted terms and final values match hand arithmetic; user text never reaches LaTeX."""

from __future__ import annotations

import re
from math import log2

import pytest

from metrics import (
    FUNCTIONS,
    TREC_EVAL,
    Conventions,
    average_precision,
    capped_recall,
    dcg,
    f1,
    hit_rate,
    idcg,
    ndcg,
    precision,
    recall,
    reciprocal_rank,
)
from metrics.teaching.formulas import MAX_TERMS, definition, latex

RANKING = ["d1", "d2", "d3", "d4", "d5"]
GRADES = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
DCG5 = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
IDCG5 = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
EXP = Conventions(gain="exp")


def test_dcg_shows_every_term_and_the_value():
    text = latex(dcg(RANKING, GRADES, 5))
    assert (
        r"\frac{3}{\log_2 2} + \frac{2}{\log_2 3} + \frac{3}{\log_2 4} + \frac{0}{\log_2 5} + \frac{1}{\log_2 6}"
        in text
    )
    assert f"{DCG5:.4f}" == "6.1487"
    assert "6.1487" in text


def test_idcg_sorts_grades_best_first():
    text = latex(idcg(RANKING, GRADES, 5))
    assert r"\frac{3}{\log_2 2} + \frac{3}{\log_2 3} + \frac{2}{\log_2 4} + \frac{1}{\log_2 5}" in text
    assert f"{IDCG5:.4f}" == "6.3235" and "6.3235" in text


def test_ndcg_divides_dcg_by_idcg():
    text = latex(ndcg(RANKING, GRADES, 5))
    assert r"\frac{6.1487}{6.3235} = 0.9724" in text
    assert round(DCG5 / IDCG5, 4) == 0.9724


def test_exponential_gain_shows_two_to_the_grade_minus_one():
    text = latex(ndcg(RANKING, GRADES, 5, conventions=EXP))
    assert r"2^{3} - 1" in text and r"2^{1} - 1" in text
    exp_dcg = 7 / log2(2) + 3 / log2(3) + 7 / log2(4) + 1 / log2(6)
    exp_idcg = 7 / log2(2) + 7 / log2(3) + 3 / log2(4) + 1 / log2(5)
    assert f"= {exp_dcg / exp_idcg:.4f}" in text  # 0.9575
    assert r"\exp" in text  # the symbol says which gain


def test_precision_recall_capped_hit_rate_f1():
    ranking, qrels = ["n1", "n2", "r1", "r2", "n3"], {"r1": 1, "r2": 1}
    assert r"\frac{2}{5} = 0.4000" in latex(precision(ranking, qrels, 5))
    assert "0 + 0 + 1 + 1 + 0" in latex(precision(ranking, qrels, 5))
    assert r"\frac{2}{2} = 1.0000" in latex(recall(ranking, qrels, 5))
    many = {f"r{i}": 1 for i in range(1, 11)}  # R = 10 > k = 5
    text = latex(capped_recall(ranking, many, 5))
    assert r"\min(10,\ 5)" in text and r"\frac{2}{5} = 0.4000" in text
    assert r"[\,2 \geq 1\,] = 1" in latex(hit_rate(ranking, qrels, 5))
    p, r = 2 / 5, 2 / 2
    assert f"= {2 * p * r / (p + r):.4f}" in latex(f1(ranking, qrels, 5))  # 0.5714


def test_reciprocal_rank_and_the_no_hit_case():
    assert r"\frac{1}{3} = 0.3333" in latex(reciprocal_rank(["x", "y", "a"], {"a": 1}))
    text = latex(reciprocal_rank(["x", "y", "a"], {"a": 1}, 2))
    assert "= 0" in text and "no relevant document in the top 2" in text


def test_average_precision_divides_by_R_even_at_a_cutoff():
    qrels = {f"r{i}": 1 for i in range(10)}
    text = latex(average_precision(["r0", "n1", "r1", "r2", "n2"], qrels, 3))
    assert r"\frac{1}{1} + \frac{2}{3}" in text
    assert r"\frac{1.6667}{10} = " + f"{(1 + 2 / 3) / 10:.4f}" in text  # 0.1667, not 0.5556


def test_average_precision_with_the_retrieved_denominator():
    qrels = {f"r{i}": 1 for i in range(10)}
    b = average_precision(["r0", "n1", "r1"], qrels, 3, conventions=Conventions(ap_denominator="retrieved"))
    text = latex(b)
    assert r"\frac{1}{\mathrm{hits@3}}" in text
    assert r"\frac{1.6667}{2} = " + f"{(1 + 2 / 3) / 2:.4f}" in text  # 0.8333


def test_zero_relevant_gives_zero_not_nan():
    for family in ("R", "R_cap", "AP", "NDCG"):
        text = latex(FUNCTIONS[family](["a", "b"], {"a": 0}, 2))
        assert "nan" not in text.replace("not NaN", "").lower()
        assert "= 0" in text


def test_long_lists_are_elided_with_a_count():
    ranking = [f"doc{i}" for i in range(24)]
    text = latex(dcg(ranking, {"doc0": 1, "doc3": 2}, 24))
    assert text.count(r"\log_2") == MAX_TERMS + 1  # the terms shown plus the definition
    assert r"\cdots" in text and "14 more terms of 0" in text
    text = latex(dcg(ranking, {"doc0": 1, "doc20": 1}, 24))
    assert f"14 more terms summing to {1 / log2(22):.4f}" in text


def test_short_list_padding_is_explained():
    text = latex(precision(["a", "b", "c"], {"a": 1, "c": 2}, 10))
    assert r"\frac{2}{10} = 0.2000" in text and "7 empty ranks" in text


def test_no_doc_id_or_title_reaches_latex():
    evil = ["<script>alert(1)</script>", "$\\def\\x{}$", "doc_{1}"]
    qrels = {evil[0]: 2, evil[2]: 1}
    for family, fn in FUNCTIONS.items():
        text = latex(fn(evil, qrels, 3))
        for doc in evil:
            assert doc not in text, family
        assert "script" not in text and "def" not in text


@pytest.mark.parametrize("family", list(FUNCTIONS))
def test_every_family_has_a_definition_and_balanced_braces(family):
    for conventions in (TREC_EVAL, EXP, Conventions(ap_denominator="retrieved")):
        for text in (
            definition(family, conventions),
            latex(FUNCTIONS[family](RANKING, GRADES, 3, conventions=conventions)),
        ):
            stripped = re.sub(r"\\[{}]", "", text)
            assert stripped.count("{") == stripped.count("}"), text
            assert text.count(r"\begin{aligned}") == text.count(r"\end{aligned}")


def test_definition_follows_the_conventions():
    assert r"\frac{1}{R}" in definition("AP", TREC_EVAL)
    assert r"\mathrm{hits@}k" in definition("AP", Conventions(ap_denominator="retrieved"))
    assert "2^{g_i} - 1" in definition("DCG", EXP)
    with pytest.raises(ValueError):
        definition("nope", TREC_EVAL)


def test_the_short_list_note_agrees_in_number_and_sits_on_rows_of_its_own():
    one = latex(precision(["a", "b", "c", "d"], {"a": 1, "c": 1}, 5))
    assert r"\text{1 empty rank counts as non-relevant)}" in one
    two = latex(precision(["a", "b", "c"], {"a": 1, "c": 1}, 5))
    assert r"\text{2 empty ranks count as non-relevant)}" in two
    hits_row = next(row for row in one.split(r"\\") if "hits@5} &= 1 + 0" in row)
    assert "retrieved" not in hits_row  # not appended to the sum, where a narrow column cut it off


def test_rbp_residual_worked_splits_the_tail_from_the_unjudged_documents():
    from metrics.families.rbp_resid import rbp_residual

    b = rbp_residual(["r", "x", "n", "y", "r2"], {"r": 1, "n": 0, "r2": 1}, p=0.9)  # x, y unjudged
    tail, unjudged = 0.9**5, 0.1 * (0.9 + 0.9**3)  # 0.5905 and 0.1629
    assert rf"&= {tail:.4f} + {unjudged:.4f} = {tail + unjudged:.4f}" in latex(b)

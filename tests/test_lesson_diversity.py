"""ir_metrics_lab.core.lessons.diversity: the diversity lesson's numbers, checked against hand arithmetic (ndeval's
discount 1 / log2(rank + 1), gains (1 - alpha)^seen) and against pyndeval (ndeval's own C code)."""

from __future__ import annotations

from math import log2

import pyndeval
import pytest

from ir_metrics_lab.core.lessons import diversity as dv
from ir_metrics_lab.core.scenario import Scenario


def discounted(gains: list[float]) -> float:
    return sum(g / log2(i + 2) for i, g in enumerate(gains))


IDEAL = discounted([1, 1, 1, 0.5, 0.25])  # the greedy ideal's gains: charging, range, price, then price twice more


def pyndeval_values(scn, alpha: float) -> dict[str, float]:
    """pyndeval on the scenario: ndeval numbers subtopics, so each aspect gets its position's number."""
    number = {name: str(i + 1) for i, name in enumerate(scn.aspect_names)}
    lines = [("1", number[s], doc, g) for s, docs in scn.subtopic_qrels.items() for doc, g in docs.items()]
    run = [("1", doc, float(len(scn.ranking) - i)) for i, doc in enumerate(scn.ranking)]
    evaluator = pyndeval.RelevanceEvaluator(lines, ["alpha-nDCG@5", "ERR-IA@5"], alpha=alpha)
    return evaluator.evaluate(run)["1"]


def test_the_repeated_aspect_example_has_ndcg_1_and_a_low_alpha_ndcg():
    d = dv.diversity(dv.repeated_aspect())
    assert d.ndcg.value == pytest.approx(1.0)  # grades 3, 3, 2, 2, 1: already the ideal order
    # the top 5 all cover price: 1, 0.5, 0.25, 0.125, 0.0625; the greedy ideal takes charging, range, price, then price
    ideal = discounted([1, 1, 1, 0.5, 0.25])
    assert d.alpha_ndcg.value == pytest.approx(discounted([1, 0.5, 0.25, 0.125, 0.0625]) / ideal)  # 0.6216
    assert d.ideal_order[:5] == ("d7", "d6", "d5", "d4", "d3")  # ties go to the id last in byte order
    assert [row.new for row in d.rows] == [("price",), (), (), (), ()]
    assert [row.repeated for row in d.rows][1:] == [(("price", n),) for n in (1, 2, 3, 4)]
    assert d.alpha_dcg / d.ideal_dcg == pytest.approx(d.alpha_ndcg.value)


def test_the_missing_aspect_moved_up_makes_alpha_ndcg_jump():
    before, after = dv.diversity(dv.repeated_aspect()), dv.diversity(dv.missing_aspect_moved_up())
    assert after.alpha_ndcg.value == pytest.approx(
        discounted([1, 1, 0.5, 0.25, 0.125]) / discounted([1, 1, 1, 0.5, 0.25])
    )
    assert after.alpha_ndcg.value - before.alpha_ndcg.value > 0.2  # 0.6216 -> 0.8338
    assert after.ndcg.value < before.ndcg.value


def test_dragging_a_repeating_document_down_raises_alpha_ndcg_and_lowers_ndcg():
    before, after = dv.diversity(dv.repeated_aspect()), dv.diversity(dv.repeated_aspect().moved("d2", 7))
    assert after.alpha_ndcg.value == pytest.approx(
        discounted([1, 0.5, 0.25, 0.125, 1]) / discounted([1, 1, 1, 0.5, 0.25])
    )
    ideal_dcg = discounted([3, 3, 2, 2, 1])
    assert after.ndcg.value == pytest.approx(discounted([3, 2, 2, 1, 1]) / ideal_dcg)  # 0.8513
    assert after.alpha_ndcg.value > before.alpha_ndcg.value and after.ndcg.value < before.ndcg.value


@pytest.mark.parametrize("example", list(dv.EXAMPLES))
@pytest.mark.parametrize("alpha", [0.0, 0.25, 0.5, 1.0])
def test_the_examples_agree_with_pyndeval(example, alpha):
    scn = dv.EXAMPLES[example]()
    d = dv.diversity(scn, alpha)
    want = pyndeval_values(scn, alpha)
    assert d.alpha_ndcg.value == pytest.approx(want["alpha-nDCG@5"], abs=1e-12)
    assert d.err_ia.value == pytest.approx(want["ERR-IA@5"], abs=1e-12)


def test_err_ia_is_the_mean_of_each_aspects_err():
    d = dv.diversity(dv.missing_aspect_moved_up())
    # price at ranks 1, 3, 4, 5 (seen 0, 1, 2, 3 times above), charging at rank 2; each over sum (1/2)^(i-1) / i
    norm = sum(0.5 ** (i - 1) / i for i in range(1, 6))
    price, charging = (1 + 0.5 / 3 + 0.25 / 4 + 0.125 / 5) / norm, (1 / 2) / norm
    assert [b.value for b in d.per_aspect_err.values()] == pytest.approx([price, charging, 0.0])
    assert d.err_mean == pytest.approx(d.err_ia.value) == pytest.approx((price + charging) / 3)
    assert dv.err_caption(d).endswith(f"= {d.err_mean:.4f}, which is ERR_IA@5.")


def test_err_ia_at_1_is_not_divided_and_the_caption_says_so():
    d = dv.diversity(dv.repeated_aspect(), k=1)
    assert d.err_ia.value == 1.0 and d.err_mean == pytest.approx(1 / 3)
    assert "does not divide at k = 1" in dv.err_caption(d)


def test_the_captions_are_said_of_the_list():
    d = dv.diversity(dv.repeated_aspect())
    assert dv.coverage(d).startswith("Your top 5 covers 1 of the 3 aspects (price 5 times); it misses range, charging.")
    assert "NDCG is higher than alpha-nDCG by 0.3784" in dv.coverage(d)
    assert dv.ideal_caption(d).startswith("The greedy ideal's top 5 is d7, d6, d5, d4, d3")
    best = dv.diversity(dv.repeated_aspect().reordered(["d7", "d6", "d5", "d4", "d3", "d2", "d1"]))
    assert dv.ideal_caption(best).endswith("alpha-nDCG@5 is 1.")
    assert dv.coverage(best).startswith("Your top 5 covers 3 of the 3 aspects")


def test_a_list_without_aspects_scores_0_and_says_why():
    d = dv.diversity(dv.repeated_aspect().with_aspects("d1", []).with_aspects("d2", []))
    assert d.aspects == ("price", "range", "charging")  # d3 .. d7 still cover them
    plain = dv.diversity(dv.repeated_aspect().with_grade("d1", 1))
    assert plain.alpha_ndcg.value == pytest.approx(dv.diversity(dv.repeated_aspect()).alpha_ndcg.value)  # yes or no
    none = dv.diversity(Scenario(("a", "b"), grades={"a": 1, "b": 0}))
    assert none.alpha_ndcg.value == 0 and none.err_ia.value == 0 and "No judged relevant document" in dv.coverage(none)

"""The "Unjudged documents" lesson (AppTest): its numbers equal trec_eval's (pytrec_eval run here, with and without
-J) and hand arithmetic on the Playground's list, before and after documents are marked unjudged and the what-if
switch is flipped; its captions are true of the list; ids show literally; R = 0, an empty list and a list with
nothing unjudged do not crash it."""

from __future__ import annotations

from math import log2
from pathlib import Path

import pytest
import pytrec_eval
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core.scenario import Scenario
from tests.markdown_text import shown

PAGE = str(Path(__file__).parents[1] / "app_pages" / "learn" / "lesson_unjudged.py")
APP = str(Path(__file__).parents[1] / "app.py")
DROPPED = "Unjudged dropped (as trec_eval -J)"
DEFAULT_RANKING = ["d1", "d2", "d3", "d4", "d5"]  # the playground's default preset: grades 3, 2, 3, 0, 1; k = 5
DEFAULT_QRELS = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
TREC = {"P_5": "P@5", "recall_5": "R@5", "map": "AP", "ndcg_cut_5": "NDCG@5", "recip_rank": "RR", "bpref": "bpref",
        "infAP": "infAP"}  # fmt: skip


def run(scenario: Scenario | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    if scenario is not None:
        at.session_state["scenario"] = scenario
    at.run()
    assert not at.exception
    return at


def trec_eval(ranking: list[str], qrels: dict[str, int], judged_only: bool) -> dict[str, float]:
    """Our names -> trec_eval's value for one query, scored by pytrec_eval (``judged_only``: trec_eval -J)."""
    evaluator = pytrec_eval.RelevanceEvaluator({"q": qrels}, set(TREC), judged_docs_only_flag=judged_only)
    values = evaluator.evaluate({"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}})["q"]
    return {ours: values[name] for name, ours in TREC.items()}


def both_ways(at: AppTest) -> dict[str, tuple[float, float]]:
    rows = at.dataframe[-1].value.to_dict("records")
    return {row["measure"]: (row["as non-relevant"], row["dropped (-J)"]) for row in rows}


def cards(at: AppTest) -> list[tuple[str, str]]:
    return [(m.label, m.value) for m in at.metric]


def captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def test_renders_with_formulas_traps_and_the_code():
    at = run()
    assert at.title[0].value == "Unjudged is not non-relevant"
    assert len(at.latex) >= 6  # three definitions, three worked formulas
    assert any("Traps" in h.value for h in at.subheader)
    assert len(at.expander) == 3


def test_nothing_unjudged_on_the_default_list_gives_the_same_numbers_both_ways():
    at = run()
    assert ("Judged@5", f"{5 / 5:.4f}") in cards(at)
    assert ("bpref", f"{(1 + 1 + 1 + 0) / 4:.4f}") in cards(at)  # R = 4, N = 1: d5 has d4 above it
    expected = trec_eval(DEFAULT_RANKING, DEFAULT_QRELS, judged_only=False)
    for name, (full, short) in both_ways(at).items():
        assert full == pytest.approx(expected[name], abs=1e-9) and short == full, name
    assert "Nothing is unjudged: both lists are the same, and so is every number." in captions(at)
    assert at.info  # "Every document on your list is judged: mark some above ..."


def test_marking_documents_unjudged_changes_the_playground_and_matches_trec_eval_both_ways():
    at = run()
    at.multiselect(key="lesson_unjudged_unjudged").set_value(["d2", "d4"]).run()
    assert not at.exception
    assert at.session_state["scenario"].unjudged == {"d2", "d4"}  # the Playground's list, not a copy
    qrels = {"d1": 3, "d3": 3, "d5": 1}  # d2 and d4 lost their qrels lines
    as_nonrelevant = trec_eval(DEFAULT_RANKING, qrels, judged_only=False)
    dropped = trec_eval(DEFAULT_RANKING, qrels, judged_only=True)
    table = both_ways(at)
    for name in TREC.values():
        assert table[name][0] == pytest.approx(as_nonrelevant[name], abs=1e-9), name
        assert table[name][1] == pytest.approx(dropped[name], abs=1e-9), name
    assert ("Judged@5", f"{3 / 5:.4f}") in cards(at)
    ap_full = (1 + 2 / 3 + 3 / 5) / 3
    assert table["AP"][0] == pytest.approx(ap_full, abs=1e-9) and table["AP"][1] == 1.0  # d1, d3, d5 at ranks 1-3
    # The caption names what changed and what did not, as the table says.
    caption = captions(at)
    assert "Dropping the 2 unjudged documents changed AP, NDCG@5, infAP; P@5, R@5, RR, bpref stayed the same." in (
        caption
    )
    assert "unjudged: d2\\, d4." in caption


def test_the_what_if_switch_shows_the_condensed_list_and_its_numbers():
    at = run(Scenario(tuple(DEFAULT_RANKING), grades=DEFAULT_QRELS, k=5).with_unjudged({"d2", "d4"}))
    assert ("AP", f"{(1 + 2 / 3 + 3 / 5) / 3:.4f}") in cards(at)
    at.segmented_control(key="lesson_unjudged_way").set_value(DROPPED).run()
    assert not at.exception
    condensed_list = at.dataframe[-2].value
    assert condensed_list["doc"].tolist() == ["d1", "d3", "d5"]
    assert condensed_list["was rank"].tolist() == [1, 3, 5]
    ideal = 3 + 3 / log2(3) + 1 / log2(4)  # IDCG@5 from the qrels d1:3, d3:3, d5:1
    assert ("AP", "1.0000") in cards(at) and ("NDCG@5", f"{ideal / ideal:.4f}") in cards(at)
    assert ("P@5", f"{3 / 5:.4f}") in cards(at)  # the condensed list is 3 long: P@5 still divides by 5
    deltas = {m.label: m.delta for m in at.metric}
    assert deltas["AP"] == f"{1 - (1 + 2 / 3 + 3 / 5) / 3:+.4f}" and not deltas["bpref"]


def test_infap_estimates_unjudged_documents_only_when_they_were_in_the_pool():
    at = run(Scenario(("r1", "x", "r2"), ("n",), {"r1": 1, "x": 0, "r2": 1, "n": 0}, k=3).with_unjudged({"x"}))
    qrels = {"r1": 1, "r2": 1, "n": 0}
    scores = {"q": {"r1": 3.0, "x": 2.0, "r2": 1.0}}
    not_pooled = pytrec_eval.RelevanceEvaluator({"q": qrels}, {"infAP"}).evaluate(scores)["q"]["infAP"]
    pooled = pytrec_eval.RelevanceEvaluator({"q": {**qrels, "x": -1}}, {"infAP"}).evaluate(scores)["q"]["infAP"]
    assert ("infAP", f"{not_pooled:.4f}") in cards(at)
    assert f"in the pool, infAP would be {pooled:.4f}." in captions(at)
    at.radio(key="lesson_unjudged_pool").set_value("in the pool, not sampled (grade −1 in the qrels)").run()
    assert ("infAP", f"{pooled:.4f}") in cards(at) and pooled != not_pooled
    assert f"never in the pool, infAP would be {not_pooled:.4f}." in captions(at)


def test_bpref_table_counts_judged_nonrelevant_documents_above_each_relevant_one():
    # n1 judged non-relevant at rank 1, x unjudged at 2, r1 at 3, n2 at 4, r2 at 5; R = 3 (r3 missed), N = 2
    grades = {"n1": 0, "x": 0, "r1": 1, "n2": 0, "r2": 1, "r3": 1}
    at = run(Scenario(("n1", "x", "r1", "n2", "r2"), ("r3",), grades, k=5, scale=1).with_unjudged({"x"}))
    table = at.dataframe[1].value
    assert table["n_i"].tolist() == [0, 1, 1, 1, 2]
    assert table["its term"].tolist() == [
        "none: adds 1 to n below it",
        "skipped",
        f"1 − min(1, 3) / min(2, 3) = {1 - 1 / 2:.4f}",
        "none: adds 1 to n below it",
        f"1 − min(2, 3) / min(2, 3) = {1 - 2 / 2:.4f}",
    ]
    assert ("bpref", f"{(1 / 2 + 0) / 3:.4f}") in cards(at)
    assert "the denominator is min(N, R) = 2" in captions(at)


def test_unjudged_ids_are_shown_literally():
    docs = ("**b**", "[x](javascript:alert(1))", "$k$")
    at = run(Scenario(docs, grades=dict.fromkeys(docs, 1), k=3, scale=1).with_unjudged(set(docs[1:])))
    line = next(c.value for c in at.caption if c.value.startswith("2 of the 3"))
    assert shown(line).endswith("unjudged: [x](javascript:alert(1)), $k$. P@k, AP and NDCG score them exactly as "
                                "they score the judged non-relevant ones.")  # fmt: skip
    assert at.dataframe[0].value["doc"].tolist() == list(docs)  # dataframe cells are plain text


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(("a", "b"), grades={"a": 0, "b": 0}, k=2),  # R = 0, nothing unjudged
        Scenario(("a", "b"), grades={"a": 0, "b": 0}, k=2).with_unjudged({"a", "b"}),  # R = 0, nothing judged
        Scenario((), shelf=("z",), grades={"z": 2}, k=1),  # nothing retrieved
        Scenario(("a",), grades={"a": 1}, k=1, tail=("t1", "t2")).with_unjudged({"t2"}),  # unjudged in the tail
    ],
)
def test_degenerate_lists_do_not_crash(scenario):
    at = run(scenario)
    at.segmented_control(key="lesson_unjudged_way").set_value(DROPPED).run()
    at.radio(key="lesson_unjudged_pool").set_value("in the pool, not sampled (grade −1 in the qrels)").run()
    assert not at.exception


def test_marking_keeps_the_unjudged_documents_of_the_hidden_tail():
    at = run(Scenario(("a", "b"), grades={"a": 1, "b": 0}, k=2, tail=("t1",)).with_unjudged({"t1"}))
    assert "and 1 further down" in captions(at)
    at.multiselect(key="lesson_unjudged_unjudged").set_value(["b"]).run()
    assert at.session_state["scenario"].unjudged == {"b", "t1"}


def test_a_shared_link_with_unjudged_documents_opens_on_the_playground():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"docs": "d1,d2", "grades": "1,0", "unjudged": "d2"})
    at.run()
    assert not at.exception and not at.warning
    assert at.session_state["scenario"].unjudged == {"d2"}
    assert "Unjudged, no qrels line (shown as grade 0): d2." in captions(at)
    assert at.query_params["unjudged"] == "d2"  # the link the playground writes keeps them


def test_unmarking_a_document_restores_its_grade_and_the_playgrounds_numbers():
    at = run()
    at.multiselect(key="lesson_unjudged_unjudged").set_value(["d2"]).run()
    at.multiselect(key="lesson_unjudged_unjudged").set_value([]).run()
    assert not at.exception
    assert dict(at.session_state["scenario"].qrels) == DEFAULT_QRELS
    # NDCG@5 of grades 3, 2, 3, 0, 1 (linear gain), by hand: 0.9724 (0.9062 if d2 had kept grade 0)
    dcg = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)
    idcg = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)
    assert both_ways(at)["NDCG@5"][0] == pytest.approx(dcg / idcg, abs=1e-9)
    assert f"{dcg / idcg:.4f}" == "0.9724"

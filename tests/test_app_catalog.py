"""The catalog in the app: the playground's measure picker and PR curve, the R-precision lesson, and the Evaluate
page taking every catalog measure. Expected values are written out by hand, or are the CLI's on the same files.

The playground's default list has grades [3, 2, 3, 0, 1] (all judged) and k = 5: relevant at ranks 1, 2, 3 and 5,
R = 4, precision at the hits 1/1, 2/2, 3/3 and 4/5.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest
from test_app_your_data import BM25, QRELS, assert_equals_cli, cli_json, page, summary, table, upload

from tests.markdown_text import shown

ROOT = Path(__file__).parents[1]


def playground_tab(tab: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app_pages" / "play" / "playground.py"), default_timeout=30).run()
    at.session_state["pg_tab"] = tab
    return at.run()


def test_any_catalog_measure_in_the_playground_picker():
    at = playground_tab("Any measure")
    picker = at.selectbox(key="pg_any_measure")
    assert {"Rprec", "IPrec@0.5", "IPrec11", "SetF", "NumRelRet", "P@5", "NDCG@5"} <= set(picker.options)
    picker.set_value("Rprec").run()
    assert r"\frac{3}{4} = 0.7500" in at.latex[-1].value  # 3 hits in the top R = 4
    at.selectbox(key="pg_any_measure").set_value("IPrec@0.5").run()
    # level 0.5 asks for int(0.5 * 4 + 0.9) = 2 hits: the best precision from the 2nd hit on, 2/2 at rank 2
    assert r"&= 1.0000 \quad \text{(}\mathrm{P@}2\text{)}" in at.latex[-1].value


def test_relstring_in_the_picker_is_its_string_and_has_no_bars():
    at = playground_tab("Any measure")
    at.selectbox(key="pg_any_measure").set_value("relstring").run()
    assert not at.exception
    assert r"\texttt{'32301'}" in at.latex[-1].value  # the grades 3, 2, 3, 0, 1, one character per rank
    assert not any("contribution" in chart.proto.spec for chart in at.get("plotly_chart"))  # no bars of zeros
    assert any(caption.value.startswith("No bars: this measure's value is a string") for caption in at.caption)


def test_metric_at_k_tab_draws_the_precision_recall_curve():
    at = playground_tab("Metric@k curves")
    charts = [c.proto.spec for c in at.get("plotly_chart")]
    curve = next(spec for spec in charts if "interpolated precision" in spec)
    assert '"x":[0.25,0.5,0.75,0.75,1.0]' in curve.replace(" ", "")  # recall at ranks 1..5
    assert '"y":[1.0,1.0,1.0,0.75,0.8]' in curve.replace(" ", "")  # precision at ranks 1..5


def test_pr_curve_lesson_on_the_playground_list():
    at = AppTest.from_file(str(ROOT / "app_pages" / "learn" / "lesson_pr_curve.py"), default_timeout=30).run()
    assert not at.exception
    values = {m.label: m.value for m in at.metric}
    assert values == {"Rprec": "0.7500", "R@4": "0.7500"}  # precision = recall at rank R
    # 11 levels ask for l * 4 rounded (trec_eval 10.0) hits: 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4 -> nine 1.0s, two 0.8s
    assert any(f"= {(9 + 2 * 0.8) / 11:.4f}" in latex.value for latex in at.latex)
    at.select_slider(key="lesson_pr_curve_level").set_value(1.0).run()
    assert any(r"&= 0.8000" in latex.value for latex in at.latex)  # the 4th hit, at rank 5: 4/5


def test_evaluate_page_takes_catalog_measures_like_the_cli():
    at = page().run()
    at.radio(key="yd_sample_system").set_value("bm25").run()
    at.multiselect(key="yd_measures").set_value(["AP"]).run()
    at.text_input(key="yd_more_measures").set_value("Rprec set_F.0.5 iprec_at_recall_0.50 gm_map num_rel_ret").run()
    assert not at.exception
    names = ["AP", "Rprec", "set_F.0.5", "iprec_at_recall_0.50", "gm_map", "num_rel_ret"]
    assert list(summary(at)) == names
    assert_equals_cli(at, cli_json(QRELS, BM25, names))
    how = dict(zip(table(at, "measure")["measure"], table(at, "measure")["over queries"], strict=True))
    assert how["num_rel_ret"] == "sum" and how["gm_map"] == "geometric mean" and how["AP"] == "mean"


def test_evaluate_page_expands_a_bare_trec_eval_name():
    at = page().run()
    at.multiselect(key="yd_measures").set_value([]).run()
    at.text_input(key="yd_more_measures").set_value("success").run()
    assert list(summary(at)) == ["success_1", "success_5", "success_10"]


def test_evaluate_page_charts_have_no_toolbar_over_their_legend():
    """Every chart goes through teaching.chart: no Plotly toolbar (it covered legends on a phone)."""
    at = page().run()
    configs = [chart.proto.config for chart in at.get("plotly_chart")]
    assert configs and all('"displayModeBar": false' in config for config in configs), configs


def test_evaluate_page_shows_relstring_as_strings_per_query():
    run = b"q1 Q0 d1 1 4 t\nq1 Q0 d2 2 3 t\nq1 Q0 d3 3 2 t\nq1 Q0 d7 4 1 t\nq2 Q0 d4 1 5 t\nq2 Q0 d5 2 1 t\n"
    qrels = b"q1 0 d1 1\nq1 0 d3 0\nq1 0 d9 2\nq2 0 d4 2\nq2 0 d5 12\n"
    at = upload(page().run(), ("run.txt", run), ("qrels.txt", qrels))
    at.multiselect(key="yd_measures").set_value(["AP"]).run()
    at.text_input(key="yd_more_measures").set_value("relstring").run()
    assert not at.exception and not at.error
    per_query = table(at, "query")
    # q1: d1 grade 1, d2 not judged '-', d3 grade 0, d7 '-'; q2: d4 grade 2, d5 grade 12 ('>' above 9)
    assert list(per_query["relstring"]) == ["1-0-", "2>"]
    assert list(per_query["AP"]) == [(1 / 1) / 2, (1 / 1 + 2 / 2) / 2]  # R = 2 in both
    assert [tab.label for tab in at.tabs if tab.label in ("AP", "relstring")] == ["AP"]  # nothing to chart
    assert list(summary(at)) == ["AP"]  # no mean either
    assert "relstring: a string per query (no mean), in the table below." in [
        shown(c.value) for c in at.caption if c.value.startswith("relstring")
    ]
    at.multiselect(key="yd_measures").set_value([]).run()
    captions = [shown(caption.value) for caption in at.caption if caption.value.startswith("No number")]
    assert "No number to chart: relstring gives a string per query, shown in the table below." in captions

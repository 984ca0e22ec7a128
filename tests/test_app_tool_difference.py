"""The "Why tools differ" page (AppTest): the sample data's explanation as metrics.tools.explain gives it, the
waterfall's bars, the per-query table by |difference|, the Playground share link of a query with a tool's conventions
(whose Playground number is the table's), uploads with hostile ids and names shown literally, and bad input as a
message.

The numbers themselves are checked against the tools in tests/test_tool_profiles.py and by hand in
tests/test_explain.py; here the page must show them truthfully."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core import url
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.session import datasets
from metrics import parse_measure
from metrics.tools.explain import explain
from tests.markdown_text import shown

PAGE = str(Path(__file__).parents[1] / "app_pages" / "your_data" / "tool_difference.py")


@pytest.fixture
def page(monkeypatch):
    st.cache_resource.clear()
    st.cache_data.clear()
    monkeypatch.setattr(sys, "argv", ["tool_difference.py"])
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    yield at
    st.cache_resource.clear()
    st.cache_data.clear()


def sample_explanation(first: str, second: str, measure: str = "NDCG@10"):
    return explain(datasets.SAMPLE_RUNS["dense"], datasets.SAMPLE_QRELS, measure, first, second)


def test_sample_shows_the_sentence_cards_waterfall_and_sorted_table(page):
    assert not page.exception and not page.error
    found = sample_explanation("trec_eval", "sklearn")
    assert page.markdown[0].value == f"**{plain(found.sentence)}**"
    cards = [f"{found.means[0]:.4f}", f"{found.means[1]:.4f}", f"{found.difference:+.4f}"]
    assert [m.value for m in page.metric] == cards
    figure = json.loads(page.get("plotly_chart")[0].proto.spec)["data"][0]
    assert figure["type"] == "waterfall"
    assert figure["y"] == pytest.approx([found.means[0], found.attribution["idcg"], found.means[1]], abs=1e-12)
    table = page.dataframe[1].value
    differences = table["difference"].abs().tolist()
    assert differences == sorted(differences, reverse=True)
    assert len(table) == int((found.counted[0] | found.counted[1]).sum())


def test_lightgbm_has_one_bar_per_convention_summing_to_its_mean(page):
    page.selectbox(key="td_second").set_value("lightgbm").run()
    found = sample_explanation("trec_eval", "lightgbm")
    figure = json.loads(page.get("plotly_chart")[0].proto.spec)["data"][0]
    assert len(figure["x"]) == 2 + 4  # gain, ideal ranking, queries averaged, no relevant document
    assert figure["y"][0] + sum(figure["y"][1:-1]) == pytest.approx(figure["y"][-1], abs=1e-12)
    assert figure["y"][-1] == pytest.approx(found.means[1], abs=1e-15)


def test_the_playground_link_carries_the_tools_conventions_and_gives_the_tables_number(page):
    page.radio(key="td_side").set_value(1).run()  # scikit-learn's conventions
    table = page.dataframe[1].value
    query = str(page.selectbox(key="td_query_NDCG@10_trec_eval_sklearn").value)
    link = page.get("link_button")[0].proto
    assert shown(link.label) == f"Open query {query} in the Playground"
    params = dict(parse_qsl(urlsplit(link.url).query, keep_blank_values=True))
    scn, warnings = url.from_query_params(params)
    assert warnings == []
    assert scn.conventions.idcg == "retrieved" and scn.k == 10
    value = parse_measure("NDCG@10").compute(list(scn.full_ranking), scn.qrels, scn.conventions).value
    row = table[table["query"] == query].iloc[0]
    assert value == pytest.approx(row["scikit-learn"], abs=1e-12)


def test_same_tool_twice_asks_for_two(page):
    page.selectbox(key="td_second").set_value("trec_eval").run()
    assert any("Pick two different tools" in i.value for i in page.info)
    assert not page.get("plotly_chart")


def test_measure_a_tool_lacks_is_not_offered_and_the_unreproducible_are_explained(page):
    page.selectbox(key="td_measure").set_value("AP@10").run()
    options = page.selectbox(key="td_second").options
    # scikit-learn: average_precision_score takes no cutoff; LightGBM map@k and xgboost map@k: not reproducible
    assert options == ["trec_eval 10.0", "pytrec_eval", "ir_measures", "ranx", "TorchMetrics"]
    captions = " ".join(shown(c.value, allowed=("code", "em", "strong")) for c in page.caption)
    assert "LightGBM's map@k (metric='map', eval_at) is not reproducible here: AP@k divided by" in captions
    assert not page.exception


HOSTILE_QUERY = "<b>q*1*</b>"


def test_uploaded_ids_and_names_are_literal_and_bad_files_are_messages(page):
    page.radio(key="td_source").set_value("upload").run()
    run = f"{HOSTILE_QUERY} Q0 a 1 3 t\n{HOSTILE_QUERY} Q0 b 2 2 t\n".encode()
    qrels = f"{HOSTILE_QUERY} 0 b 2\n{HOSTILE_QUERY} 0 z 3\n".encode()
    page.file_uploader(key="td_run_upload").set_value(("[x](y)*.txt", run, "text/plain"))
    page.file_uploader(key="td_qrels_upload").set_value(("qrels.txt", qrels, "text/plain"))
    page.run()
    assert not page.exception and not page.error
    assert page.dataframe[1].value["query"].tolist() == [HOSTILE_QUERY]
    assert shown(page.get("link_button")[0].proto.label) == f"Open query {HOSTILE_QUERY} in the Playground"
    page.file_uploader(key="td_qrels_upload").set_value(("bad*.txt", b"q1 0 d1 abc\n", "text/plain"))
    page.run()
    assert not page.exception
    errors = [shown(e.value) for e in page.error]
    assert any("bad*.txt" in e and "line 1" in e for e in errors), errors


def test_each_tool_box_shows_its_value_even_before_the_browser_applies_it(page):
    """A browser that mounts a select box after the run that sent its value (a new visitor's second, chart-drawing run:
    ir_metrics_lab.shell.first_paint) shows the option at the element's default index: it must be the tool the sentence
    names, on the first run, after a rerun, and after a measure that drops the chosen tool."""
    found = sample_explanation("trec_eval", "sklearn")
    assert page.markdown[0].value == f"**{plain(found.sentence)}**"

    def shown_by_default(key: str) -> str:
        box = page.selectbox(key=key)
        return box.options[box.proto.default]

    for _ in range(2):  # the first run, then a rerun with nothing changed
        assert (shown_by_default("td_first"), shown_by_default("td_second")) == ("trec_eval 10.0", "scikit-learn")
        assert (page.selectbox(key="td_first").value, page.selectbox(key="td_second").value) == ("trec_eval", "sklearn")
        page.run()
    page.selectbox(key="td_second").set_value("lightgbm").run()
    assert shown_by_default("td_second") == "LightGBM"
    page.selectbox(key="td_measure").set_value("AP@10").run()  # LightGBM's map@k is not reproducible: back to ranx
    assert page.selectbox(key="td_second").value == "ranx"
    assert not page.exception

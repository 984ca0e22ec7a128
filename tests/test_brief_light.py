"""A brief light enough to e-mail (issue 50): each kind of brief is one HTML file under 500 KB that asks for nothing
from outside, draws each chart as an inline <svg> named by its title and described by its text alternative, and says
the numbers the CLIs (ir-metrics-compare, ir-metrics-explain) or arithmetic by hand give; its PDF is one page whose
text has the headline numbers; where Pango is missing the page says why there is no PDF.

The numbers' oracles are those of tests/test_brief.py; the browser half (drawn, printed, axe) is
tests/browser/test_brief_browser.py."""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET
from math import log2

import pytest
from pypdf import PdfReader

from ir_metrics_lab.core.brief import html_page, many_runs, model, svg, two_lists, two_runs, two_tools
from ir_metrics_lab.core.scenario import Scenario
from metrics.cli.ir_metrics_compare import main as compare_cli
from metrics.cli.ir_metrics_explain import main as explain_cli
from metrics.compare import leaderboard as boards
from metrics.evaluation.engine import evaluate
from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B
from metrics.tools.explain import explain
from tests.test_brief import QRELS, RUNS, run_cli

MAX_BYTES = 500_000
SVG = "{http://www.w3.org/2000/svg}"
KINDS = ["pair", "leaderboard", "tools", "ab"]
NDCG5_A = (1 / log2(4) + 1 / log2(5)) / (1 + 1 / log2(3))  # Retriever A: relevant at ranks 3 and 4, ideal 1 and 2


def p_words(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


@pytest.fixture(scope="module")
def samples():
    from metrics.io import read_qrels, read_run

    return read_qrels(QRELS), {name: read_run(path) for name, path in RUNS.items()}


@pytest.fixture(scope="module")
def expected() -> dict[str, list[str]]:
    """Per kind, the numbers its page must show, from the CLIs' JSON or by hand; the first ones are the headline's."""
    pair = run_cli(compare_cli, [str(QRELS), str(RUNS["bm25"]), str(RUNS["dense"]), "-mNDCG@10", "--format", "json"])
    means = {row["run"]: row["means"]["NDCG@10"] for row in pair["runs"]}
    board = run_cli(compare_cli, [str(QRELS), *map(str, RUNS.values()), "-mNDCG@10", "-mAP", "--format", "json"])
    best = max(board["runs"], key=lambda row: row["means"]["NDCG@10"])
    tools_args = [str(QRELS), str(RUNS["bm25"]), "--measure", "AP", "--tools", "trec_eval,sklearn", "--format", "json"]
    tools = run_cli(explain_cli, tools_args)["tools"]
    return {
        "pair": [
            f"bm25 {means['bm25']:.4f} → dense {means['dense']:.4f}",
            p_words(pair["pairs"][0]["p_value"]),
            f"mean {means['dense'] - means['bm25']:+.4f}",  # the query-by-query chart's line
        ],
        "leaderboard": [f"{best['means']['NDCG@10']:.4f}"]
        + [f"{row['means'][m]:.4f}" for row in board["runs"] for m in ("NDCG@10", "AP")],
        "tools": [
            f"{tools['trec_eval']:.4f}",
            f"{tools['sklearn']:.4f}",
            f"{tools['sklearn'] - tools['trec_eval']:+.4f}",
        ],
        "ab": [f"NDCG@5 A {NDCG5_A:.4f} → B 1.0000", f"{NDCG5_A:.4f}", f"P@5 A {2 / 5:.4f} → B {2 / 5:.4f}"],
    }


@pytest.fixture(scope="module")
def briefs(samples) -> dict[str, model.Brief]:
    qrels, runs = samples
    evaluations = {name: evaluate(run, qrels, ["NDCG@10", "AP"]) for name, run in runs.items()}
    pair = [evaluate(runs[r], qrels, ["NDCG@10"]) for r in ("bm25", "dense")]
    return {
        "pair": two_runs.brief(*pair, "bm25", "dense", runs=[runs["bm25"], runs["dense"]], qrels=qrels),
        "leaderboard": many_runs.brief(boards.from_evaluations(evaluations), runs=runs, qrels=qrels),
        "tools": two_tools.brief(
            explain(runs["bm25"], qrels, "AP", "trec_eval", "sklearn"), run=runs["bm25"], qrels=qrels
        ),
        "ab": two_lists.brief(Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B)),
    }


def svgs(page: str) -> list[ET.Element]:
    """Each inline <svg> of the page, parsed as XML (so it is well formed)."""
    return [ET.fromstring(element) for element in re.findall(r"<svg\b.*?</svg>", page, re.S)]


def shown_text(page: str) -> str:
    """The page's text as a reader sees it: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("kind", KINDS)
def test_the_html_is_light_self_contained_and_draws_each_chart_as_svg(briefs, expected, kind):
    made = briefs[kind]
    page = html_page.render(made)
    assert len(page.encode("utf-8")) < MAX_BYTES
    # nothing to fetch: no script, style sheet, font or image from anywhere, and no address to one
    assert not re.search(r"<script\b[^>]*\bsrc\s*=|<link\b|@import|@font-face", page, re.I)
    assert not re.search(r"""\b(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.sub(r"<a\b[^>]*>", "", page), re.I)
    assert not re.search(r"""url\(\s*["']?(?!#)""", page)  # only the SVGs' own clip paths
    drawn = svgs(page)
    assert len(drawn) == len(made.charts) >= 2
    for element, chart in zip(drawn, made.charts, strict=True):
        assert element.get("role") == "img"
        title, desc = element.find(f"{SVG}title"), element.find(f"{SVG}desc")
        assert (title.text, desc.text) == (chart.title, chart.alt)
        assert element.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # several charts on one page, each id once
    text = shown_text(page)
    for number in expected[kind]:
        assert number in text, number


def test_the_chart_text_is_the_figures(briefs):
    """The A vs B side-by-side chart prints each bar's value: A's NDCG@5 by hand, B's 1."""
    page = html_page.render(briefs["ab"])
    side_by_side = svgs(page)[0]
    labels = [t.text for t in side_by_side.iter(f"{SVG}text")]
    assert f"{NDCG5_A:.4f}" in labels and "1.0000" in labels and "Retriever A" in labels and "NDCG@5" in labels


HOSTILE = '<script>alert("x")</script> $a$ & b id="c" url(#d)'


def test_user_text_in_a_chart_stays_literal():
    """A run named like markup (and like matplotlib's mathematics): the legend says it character for character, and
    no element comes of it."""
    qrels = {f"q{i}": {"r": 1, "n": 0} for i in range(6)}
    runs = {HOSTILE: {q: ["n", "r"] for q in qrels}, "B": {q: ["r", "n"] for q in qrels}}
    made = two_runs.brief(
        *(evaluate(run, qrels, ["RR"]) for run in runs.values()), *runs, runs=list(runs.values()), qrels=qrels
    )
    page = html_page.render(made)
    assert "<script>alert" not in page
    texts = [t.text or "" for element in svgs(page) for t in element.iter(f"{SVG}text")]
    assert any(HOSTILE in text for text in texts), texts
    assert {e.tag.removeprefix(SVG) for element in svgs(page) for e in element.iter()} <= {
        "svg", "title", "desc", "defs", "style", "g", "path", "text", "use", "clipPath", "rect", "tspan"
    }  # fmt: skip


def test_an_unknown_trace_is_refused():
    import plotly.graph_objects as go

    with pytest.raises(ValueError, match="'pie'"):
        svg.svg(go.Figure(go.Pie(values=[1, 2])), ident="c")


@pytest.mark.parametrize("kind", KINDS)
def test_the_pdf_is_one_page_with_the_headline_numbers(briefs, expected, kind):
    document = html_page.pdf(briefs[kind])
    assert document.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(document))
    assert len(reader.pages) == 1
    text = re.sub(r"\s+", " ", reader.pages[0].extract_text())
    for number in expected[kind][:2]:
        assert number in text, (number, text[:400])


def test_a_machine_without_pango_is_told_why_there_is_no_pdf(monkeypatch):
    monkeypatch.setattr(html_page, "_PANGO_NAMES", (("libno-such-pango-1.0.so.0",),))
    html_page.pdf_problem.cache_clear()
    try:
        assert html_page.pdf_problem() == html_page.PANGO_MISSING
    finally:
        monkeypatch.undo()
        html_page.pdf_problem.cache_clear()
    assert html_page.pdf_problem() is None  # this machine has it (scripts/test.sh installs it)


@pytest.mark.parametrize("problem", [None, html_page.PANGO_MISSING])
def test_the_page_offers_the_pdf_or_says_why_not(problem, monkeypatch):
    import sys

    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from tests.page_scripts import page_script

    st.cache_resource.clear()
    st.cache_data.clear()
    monkeypatch.setattr(sys, "argv", ["ab.py"])
    monkeypatch.setattr(html_page, "pdf_problem", lambda: problem)
    at = AppTest.from_file(str(page_script("ab.py")), default_timeout=120).run()
    assert not at.exception
    labels = [button.proto.label for button in at.get("download_button")]
    assert "Download the brief" in labels
    assert ("Download as PDF" in labels) == (problem is None)
    said = [caption.value for caption in at.caption]
    assert any(html_page.PANGO_MISSING in text for text in said) == (problem is not None)


def test_a_chart_of_thousands_of_queries_stays_light():
    """The per-query chart of 5,000 queries is drawn at the chart's resolution, not one step per query (which would
    weigh about 700 KB: more than a whole brief may), and still reaches the largest differences either way."""
    import numpy as np

    from ir_metrics_lab.core.brief import charts

    differences = np.random.default_rng(7).normal(0.02, 0.2, 5000)
    differences[[10, 20]] = (-0.93, 0.97)
    drawn = svg.svg(charts.sorted_differences(differences, "B better", "A better", "B − A"), ident="c")
    assert len(drawn.encode("utf-8")) < 100_000
    values = sorted(differences.tolist())
    x, y = svg._thinned(list(range(len(values))), values)
    assert len(x) <= svg.MOST_POINTS + 4 and x[0] == 0 and x[-1] == len(values) - 1 and x == sorted(x)
    assert (min(y), max(y)) == (-0.93, 0.97)  # the extremes are drawn

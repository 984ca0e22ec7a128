"""The brief for stakeholders (issue 29), without a browser: its numbers are the CLIs' (ir-metrics-compare,
ir-metrics-explain) and statsmodels' Holm; its caveats are computed, so each appears exactly when the data calls for it
(checked on small runs worked out by hand); every user string is escaped in the HTML; the pages offer the button.

The browser half (drawing offline, one printed page, accessibility) is tests/browser/test_brief_browser.py."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from datetime import date
from math import log2
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core.brief import html_page, many_runs, model, rankings, two_lists, two_runs, two_tools
from ir_metrics_lab.core.lessons import narrative
from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog import registry
from metrics.catalog.measure_lists import measure_names
from metrics.cli.ir_metrics_compare import main as compare_cli
from metrics.cli.ir_metrics_explain import main as explain_cli
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels, read_run
from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B
from metrics.teaching.plain_words import rewards
from metrics.tools.explain import explain
from tests.page_scripts import page_script

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"
QRELS = SAMPLES / "qrels.txt.gz"
RUNS = {name: SAMPLES / f"{name}.run.gz" for name in ("bm25", "dense", "rrf")}


def run_cli(main, args: list[str]) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(args) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def samples():
    qrels = read_qrels(QRELS)
    return qrels, {name: read_run(path) for name, path in RUNS.items()}


def sample_pair(samples, a: str, b: str, measures: list[str]) -> model.Brief:
    qrels, runs = samples
    eval_a, eval_b = (evaluate(runs[r], qrels, measures) for r in (a, b))
    return two_runs.brief(eval_a, eval_b, a, b, runs=[runs[a], runs[b]], qrels=qrels)


def test_the_pair_says_the_cli_means_p_value_and_holm(samples):
    """dense against rrf on RR@10 and R@100: means and raw p-values from ir-metrics-compare's JSON, the Holm-adjusted
    p over the two measures from statsmodels."""
    from statsmodels.stats.multitest import multipletests

    measures = ["RR@10", "R@100"]
    args = [str(QRELS), str(RUNS["rrf"]), str(RUNS["dense"]), "-mRR@10", "-mR@100", "--format", "json"]
    expected = run_cli(compare_cli, args)
    means = {row["run"]: row["means"] for row in expected["runs"]}
    raw = [next(p["p_value"] for p in expected["pairs"] if p["measure"] == m) for m in measures]
    holm = multipletests(raw, method="holm")[1]
    made = sample_pair(samples, "rrf", "dense", measures)
    assert made.numbers.startswith(f"RR@10: rrf {means['rrf']['RR@10']:.4f} → dense {means['dense']['RR@10']:.4f} (")
    assert f"paired t-test p = {raw[0]:.4f}, p = {holm[0]:.4f} after Holm's correction over 2 measures" in made.numbers
    assert raw[0] > 0.05  # so the brief says so, in the headline and the caveats
    assert "within the noise" in made.headline
    assert any(c.startswith("Within the noise: the 95% interval of the RR@10 difference") for c in made.caveats)


def test_a_clear_difference_has_no_noise_caveat(samples):
    made = sample_pair(samples, "bm25", "dense", ["NDCG@10"])
    assert "more than the noise" in made.headline
    assert not any(c.startswith("Within the noise") for c in made.caveats)
    assert not any(c.startswith("Only") for c in made.caveats)  # 294 queries are not few


def test_the_leaderboard_brief_has_the_cli_cells(samples):
    qrels, runs = samples
    from metrics.compare import leaderboard as boards

    board = boards.from_evaluations({r: evaluate(runs[r], qrels, ["NDCG@10", "AP"]) for r in runs})
    expected = run_cli(compare_cli, [str(QRELS), *map(str, RUNS.values()), "-mNDCG@10", "-mAP", "--format", "json"])
    letter = {row["run"]: row["letter"] for row in expected["runs"]}
    made = many_runs.brief(board, runs=runs, qrels=qrels)
    for row, cells in zip(expected["runs"], made.table.rows, strict=True):
        beaten = {m: "".join(boards.SUPERSCRIPT[letter[r]] for r in row["beats"][m]) for m in ("NDCG@10", "AP")}
        assert cells == (
            row["letter"],
            row["run"],
            f"{row['means']['NDCG@10']:.4f}{beaten['NDCG@10']}",
            f"{row['means']['AP']:.4f}{beaten['AP']}",
        )
    best = max(expected["runs"], key=lambda row: row["means"]["NDCG@10"])["run"]
    assert made.headline.startswith(f"{best} has the highest NDCG@10 of the 3 runs")


def test_the_tools_brief_says_the_explain_cli_means(samples):
    qrels, runs = samples
    args = [str(QRELS), str(RUNS["bm25"]), "--measure", "AP", "--tools", "trec_eval,sklearn", "--format", "json"]
    expected = run_cli(explain_cli, args)
    made = two_tools.brief(explain(runs["bm25"], qrels, "AP", "trec_eval", "sklearn"), run=runs["bm25"], qrels=qrels)
    means = expected["tools"]
    assert made.numbers.startswith(f"AP: trec_eval 10.0 {means['trec_eval']:.4f} → scikit-learn {means['sklearn']:.4f}")
    assert made.headline == expected["sentence"]


# --- caveats on small runs, worked out by hand ---


def test_rank_profile_reads_the_judgments_at_each_rank():
    """q1: a (grade 2), x (no qrels line), b (0); q2: c (1), d (grade -1: pooled, unjudged). Relevant at rank 1 on both
    queries, at rank 2 on neither; 2 of the 5 retrieved documents unjudged."""
    run = {"q1": {"a": 3.0, "x": 2.0, "b": 1.0}, "q2": {"c": 2.0, "d": 1.0}}
    qrels = {"q1": {"a": 2, "b": 0}, "q2": {"c": 1, "d": -1}}
    profile = rankings.rank_profile(run, qrels, ["q1", "q2"], 3)
    assert (profile.relevant_at, profile.retrieved, profile.unjudged) == ((2, 0, 0), 5, 2)
    assert rankings.rank_profile(run, qrels, ["q1", "q2"], 3, threshold=2).relevant_at == (1, 0, 0)


def tiny(runs: dict[str, dict], qrels: dict, measures: list[str]) -> model.Brief:
    (a, run_a), (b, run_b) = runs.items()
    return two_runs.brief(
        evaluate(run_a, qrels, measures), evaluate(run_b, qrels, measures), a, b, runs=[run_a, run_b], qrels=qrels
    )


def test_unjudged_few_queries_and_saturation_are_said_with_their_numbers():
    """Five queries, each with one relevant document r: A puts r first on all of them; B puts it first on q1 and q2,
    after one unjudged document on q3-q5. Every top-2 document of A is judged (r, then a judged n), 3 of B's 10 are
    not (u). RR is at its best (1) for both runs on q1 and q2: 2 of 5 queries, 40%."""
    qrels = {f"q{i}": {"r": 1, "n": 0} for i in range(1, 6)}
    run_a = {q: {"r": 2.0, "n": 1.0} for q in qrels}
    run_b = {q: ({"r": 2.0, "n": 1.0} if q in ("q1", "q2") else {"u": 2.0, "r": 1.0}) for q in qrels}
    made = tiny({"A": run_a, "B": run_b}, qrels, ["RR@2"])
    caveats = " ".join(made.caveats)
    assert "Only 5 queries" in caveats
    assert "nobody judged 0% of A's and 30% of B's top 2 documents" in caveats
    assert "RR@2 is at its best for both runs on 40% of the queries" in caveats
    assert "A does better than B on 3 of 5 queries by RR@2; B does better on 0, and 2 tie." in made.headline


def test_a_convention_that_flips_the_verdict_is_named():
    """One query, relevant r1 r2 r3. A = [r1, n1]: trec_eval's NDCG@10 divides by the ideal DCG of all three,
    1 + 1/log2(3) + 1/2; scikit-learn's by the ideal of what A retrieved, 1. B = [n1, r1, r2, r3]: the same ideal
    both ways, since B retrieved all three. trec_eval puts B ahead, scikit-learn A."""
    ideal = 1 + 1 / log2(3) + 1 / 2
    b_ndcg = (1 / log2(3) + 1 / 2 + 1 / log2(5)) / ideal
    assert 1 / ideal < b_ndcg < 1.0
    qrels = {"q1": {"r1": 1, "r2": 1, "r3": 1, "n1": 0}}
    made = tiny({"A": {"q1": ["r1", "n1"]}, "B": {"q1": ["n1", "r1", "r2", "r3"]}}, qrels, ["NDCG@10"])
    (said,) = [c for c in made.caveats if c.startswith("Conventions")]
    assert said.startswith("Conventions change the verdict: ")
    assert (
        f"as scikit-learn score it (building the ideal ranking from the retrieved list), B − A is {b_ndcg - 1:+.4f}"
        in said
    )


def test_no_caveat_where_the_data_gives_none():
    """Fifty queries, both runs judged throughout, B better by a constant 0.5 on RR: no few-queries, unjudged or
    noise caveat."""
    qrels = {f"q{i:02}": {"r": 1, "n": 0} for i in range(50)}
    made = tiny({"A": {q: ["n", "r"] for q in qrels}, "B": {q: ["r", "n"] for q in qrels}}, qrels, ["RR"])
    assert [c for c in made.caveats if c.startswith(("Only", "Unjudged", "Within the noise"))] == []
    assert "Every document in the top 10 of both runs is judged." in made.caveats


# --- A vs B ---


def test_the_ab_brief_tells_the_story_with_the_page_numbers():
    """The preset: A ranks the two relevant documents 3rd and 4th, B 1st and 2nd; P@5 = 2/5 and R@5 = 1 for both,
    NDCG@5 of A = (1/log2 4 + 1/log2 5) / (1 + 1/log2 3)."""
    a, b = Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B)
    made = two_lists.brief(a, b)
    assert made.headline == narrative.headline(a, b) and made.story == tuple(narrative.explain_ab(a, b))
    ndcg_a = (1 / log2(4) + 1 / log2(5)) / (1 + 1 / log2(3))
    assert f"P@5 A {2 / 5:.4f} → B {2 / 5:.4f}" in made.numbers
    assert f"NDCG@5 A {ndcg_a:.4f} → B 1.0000" in made.numbers
    assert "R@5 is at its best (1) for both lists: it cannot tell them apart here." in made.caveats
    assert [row[1] for row in made.table.rows] == list(a.ranking) and [row[4] for row in made.table.rows] == list(
        b.ranking
    )


def test_the_ab_brief_names_unjudged_documents_and_links_back():
    a, b = Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B)
    a = a.with_unjudged({"n1"})
    made = two_lists.brief(a, b, inputs=model.Inputs(app_url="https://lab.example.org"))
    assert "1 document in A's top 5 has no judgment (n1): every measure here counts it as not relevant." in made.caveats
    texts = dict(made.links)
    assert texts["Open list A in the Playground"].startswith("https://lab.example.org/?docs=n1,n2,r1,r2,n3")
    assert texts["Open Retriever A vs B in the app"] == "https://lab.example.org/a-vs-b"


# --- what each measure rewards ---


@pytest.mark.parametrize("family", [f.key for f in registry.FAMILIES])
def test_every_measure_has_a_line(family):
    name = measure_names([family])[0] if registry.family(family).trec_eval.defaults else family
    line = rewards(name)
    assert line.startswith(f"{name} ") and line.endswith(".") and "{" not in line


# --- the HTML: user text literal, no request ---

HOSTILE = '<script>alert("x")</script> **b** & $y$'


def test_every_user_string_is_escaped_in_the_html():
    a = Scenario(("d1", "d2"), grades={"d1": 1, "d2": 0}, titles={"d1": HOSTILE}, k=2)
    b = Scenario(("d2", "d1"), grades={"d1": 1, "d2": 0}, titles={"d1": HOSTILE}, k=2)
    made = two_lists.brief(a, b, source=HOSTILE, inputs=model.Inputs(made_on=date(2026, 1, 2)))
    text = html_page.render(made)
    assert "<script>alert" not in text
    assert text.count("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; **b** &amp; $y$") == 3  # 2 table cells, Inputs
    charts = re.findall(r"<svg\b.*?</svg>", text, re.S)
    assert len(charts) == len(made.charts) and all(ET.fromstring(chart) for chart in charts)  # well-formed SVG
    page = re.sub(r"<script\b.*?</script>", "", text, flags=re.S)
    assert re.findall(r'(?:src|href)="(?!#)', page) == []  # nothing to fetch: no source, no link without an app
    assert "default-src 'none'" in text and "2026-01-02" in text


# --- the pages offer it ---


@pytest.mark.parametrize("page", ["ab.py", "compare_runs.py", "tool_difference.py"])
def test_the_page_has_the_button(page, monkeypatch):
    st.cache_resource.clear()
    st.cache_data.clear()
    monkeypatch.setattr(sys, "argv", [page])
    at = AppTest.from_file(str(page_script(page)), default_timeout=120).run()
    assert not at.exception
    labels = [button.proto.label for button in at.get("download_button")]
    assert labels.count("Download the brief") == (2 if page == "compare_runs.py" else 1)  # compare: pair and board

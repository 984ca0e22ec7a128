"""The compare page in AppTest with the bundled samples. The pair view (bm25 = A, dense = B by default): the deltas,
wins/ties/losses and p-values it shows come from the engine's per-query values computed here, and a query opened from
it lands in the playground, or on Retriever A vs B with both runs' rankings, with the same numbers. The leaderboard
of the three samples: its means are the engine's, its letters follow from scipy's t-test p-values and Holm's
correction written out here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from metrics.catalog import registry
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels, read_run
from tests.markdown_text import markdown_table, shown, table_rows, table_source
from tests.plotly_json import values

ROOT = Path(__file__).parents[1]
PAGE = str(ROOT / "app_pages" / "your_data" / "compare_runs.py")
SAMPLES = ROOT / "data" / "samples"
MEASURES = list(registry.default_measures())  # the page starts with the default measure set


@pytest.fixture(scope="module")
def engine():
    qrels = read_qrels(SAMPLES / "qrels.txt.gz")
    a = evaluate(read_run(SAMPLES / "bm25.run.gz"), qrels, MEASURES)
    b = evaluate(read_run(SAMPLES / "dense.run.gz"), qrels, MEASURES)
    assert a.queries == b.queries  # the samples: both runs answer the same judged queries
    return a, b


@pytest.fixture(scope="module")
def page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    return at


def leaderboard_cells(at: AppTest, *, source: bool = False) -> dict[str, list[str]] | None:
    """The leaderboard (the Markdown table whose first column is "run"): {column: its cells} as a reader sees them,
    or with ``source`` as written (bold and shading kept); None when the page has none."""
    for element in at.markdown:
        rows = table_rows(element.value)
        if rows and rows[0][0] == "run":
            cells = table_source(element.value) if source else rows
            return {header: [row[column] for row in cells[1:]] for column, header in enumerate(rows[0])}
    return None


def summary(at: AppTest):
    """The pair view's table (one row per metric)."""
    tables = [df.value for df in at.dataframe if "metric" in df.value.columns]
    assert len(tables) == 1
    return tables[0].set_index("metric")


def test_summary_shows_engine_means_and_deltas(page, engine):
    a, b = engine
    table = summary(page)
    assert list(table.index) == MEASURES
    for m in MEASURES:
        assert table.loc[m, "mean A"] == pytest.approx(a.means[m], abs=1e-12)
        assert table.loc[m, "mean B"] == pytest.approx(b.means[m], abs=1e-12)
        assert table.loc[m, "B − A"] == pytest.approx(b.means[m] - a.means[m], abs=1e-12)
        d = b.per_query[m] - a.per_query[m]
        counts = f"{int((d > 1e-12).sum())} / {int((np.abs(d) <= 1e-12).sum())} / {int((d < -1e-12).sum())}"
        assert table.loc[m, "wins / ties / losses"] == counts
        low, high = (float(x) for x in table.loc[m, "95% CI"].strip("[]").split(", "))
        assert low < b.means[m] - a.means[m] < high
        assert table.loc[m, "p (t-test)"] and table.loc[m, "p (randomization)"]
    assert "Holm p (t-test)" not in table.columns


def test_cards_and_sentences_for_the_first_metric(page, engine):
    a, b = engine
    cards = {shown(m.label): m for m in page.metric}
    delta = b.means["NDCG@10"] - a.means["NDCG@10"]
    assert cards["NDCG@10 · A (bm25)"].value == f"{a.means['NDCG@10']:.4f}"
    assert cards["NDCG@10 · B (dense)"].value == f"{b.means['NDCG@10']:.4f}"
    assert cards["NDCG@10 · B (dense)"].delta == f"{delta:+.4f}"
    text = "\n".join(m.value for m in page.markdown)
    assert f"**{len(a.queries)} queries** are evaluated in both runs" in text
    assert "**Paired t-test: t = " in text and "df = " + str(len(a.queries) - 1) in text
    assert "**Randomization test: p" in text and "10,000 random swaps" in text
    captions = "\n".join(c.value for c in page.caption)
    assert "retrieved for but without any qrels line" in captions  # the 4 unjudged sample topics
    assert "p-values are per metric" in captions


def test_charts_waterfall_sorted_and_null_histogram(page, engine):
    import json

    a, b = engine
    charts = [json.loads(el.proto.spec) for el in page.get("plotly_chart")]
    waterfall = next(c for c in charts if any(t["type"] == "bar" for t in c["data"]))
    bars = [t for t in waterfall["data"] if t["type"] == "bar"]
    heights = sorted(y for t in bars for y in values(t["y"]))
    expected = np.sort(b.per_query["NDCG@10"] - a.per_query["NDCG@10"])
    assert np.allclose(heights, expected)
    assert any(c["data"][0]["type"] == "histogram" for c in charts)


def test_holm_toggle_adds_adjusted_columns():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.toggle(key="cmp_holm").set_value(True).run()
    assert not at.exception
    table = summary(at)
    assert {"Holm p (t-test)", "Holm p (randomization)"} <= set(table.columns)
    assert "The Holm columns correct for that." in "\n".join(c.value for c in at.caption)


def test_identical_runs_say_there_is_nothing_to_test():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.selectbox(key="cmp_pair_b").set_value("bm25").run()  # a sample run against itself
    assert not at.exception
    table = summary(at)
    assert (table["B − A"] == 0).all()
    assert set(table["p (t-test)"]) == {"1.0000"} and set(table["p (randomization)"]) == {"1.0000"}
    text = "\n".join(m.value for m in at.markdown)
    assert "t is undefined" in text
    assert any("identically" in i.value for i in at.info)


NAV = """
import streamlit as st
st.navigation([st.Page({compare!r}, default=True), st.Page({playground!r})]).run()
"""


def test_open_a_query_in_the_playground_with_the_same_numbers(engine):
    a, b = engine
    script = NAV.format(compare=PAGE, playground=str(ROOT / "app_pages" / "play" / "playground.py"))
    at = AppTest.from_string(script, default_timeout=60).run()
    assert not at.exception and at.title[0].value == "Compare runs"
    query_id = at.selectbox(key="cmp_drill_query").value
    d = b.per_query["NDCG@10"] - a.per_query["NDCG@10"]
    assert query_id == b.queries[int(np.argmax(np.abs(d)))]  # largest difference first
    at.segmented_control(key="cmp_drill_side").set_value("A").run()
    at.button(key="cmp_drill_open").click().run()
    assert not at.exception
    assert at.title[0].value == "Playground"
    row = a.queries.index(query_id)
    cards = {m.label: m.value for m in at.metric}
    assert cards["NDCG@10"] == f"{a.per_query['NDCG@10'][row]:.4f}"
    assert cards["AP"] == f"{a.per_query['AP'][row]:.4f}"
    scn = at.session_state["scenario"]
    assert len(scn.ranking) == 20 and len(scn.ranking) + len(scn.tail) == 100
    assert "Opened query" in "\n".join(s.value for s in at.success)
    captions = "\n".join(c.value for c in at.caption)
    assert "80 more retrieved documents (ranks 21–100) are kept for the metric values" in captions
    picker = at.selectbox(key="pg_preset")  # the example picker names the query, not the last preset
    assert picker.value is None and picker.placeholder == f"Opened query {query_id} of bm25"
    assert f"Opened query {query_id} of bm25: not one of the examples" in captions
    assert "28.19" not in captions  # the default preset's lesson is gone


def test_choices_survive_a_trip_to_the_playground():
    script = NAV.format(compare=PAGE, playground=str(ROOT / "app_pages" / "play" / "playground.py"))
    at = AppTest.from_string(script, default_timeout=60).run()
    at.selectbox(key="cmp_pair_a").set_value("dense").run()
    at.selectbox(key="cmp_pair_b").set_value("bm25").run()
    at.multiselect(key="cmp_measures").set_value(["AP", "P@10"]).run()
    at.toggle(key="cmp_holm").set_value(True).run()
    at.button(key="cmp_drill_open").click().run()
    assert at.title[0].value == "Playground"
    at.switch_page(PAGE).run()
    assert not at.exception and at.title[0].value == "Compare runs"
    assert (at.selectbox(key="cmp_pair_a").value, at.selectbox(key="cmp_pair_b").value) == ("dense", "bm25")
    table = summary(at)
    assert list(table.index) == ["AP", "P@10"] and "Holm p (t-test)" in table.columns
    assert (table["B − A"] < 0).all()  # bm25 is the weaker sample system


def tiny_samples(tmp_path: Path, run_b: str):
    """Point the page's sample pickers at tiny files (uploads cannot be driven in AppTest)."""
    from unittest import mock

    from ir_metrics_lab.session import datasets

    (tmp_path / "a.run").write_text("q1 Q0 d1 1 2.0 a\nq1 Q0 d2 2 1.0 a\n")
    (tmp_path / "b.run").write_text(run_b)
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq2 0 d3 1\n")
    runs = {"bm25": tmp_path / "a.run", "dense": tmp_path / "b.run"}
    return mock.patch.dict(datasets.SAMPLE_RUNS, runs, clear=True), mock.patch.object(
        datasets, "SAMPLE_QRELS", tmp_path / "qrels"
    )


def test_one_shared_query_says_the_tests_need_two(tmp_path):
    runs, qrels = tiny_samples(tmp_path, "q1 Q0 d2 1 2.0 b\nq1 Q0 d1 2 1.0 b\n")
    with runs, qrels:
        at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert "Only 1 shared query" in at.warning[0].value
    table = summary(at)
    assert table.loc["AP", "B − A"] == 0.5 - 1.0 and table.loc["AP", "wins / ties / losses"] == "0 / 0 / 1"
    assert table.loc["AP", "t (df)"] == "undefined" and table.loc["AP", "p (t-test)"] == "1.0000"
    assert "1 in the qrels that neither run retrieved" in "\n".join(c.value for c in at.caption)


def test_no_shared_query_stops_with_a_warning(tmp_path):
    runs, qrels = tiny_samples(tmp_path, "q9 Q0 d2 1 2.0 b\n")
    with runs, qrels:
        at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.dataframe and leaderboard_cells(at) is None
    assert "No query is evaluated in every run" in at.warning[0].value


# --- the leaderboard of the three bundled samples ---

SAMPLE_ORDER = ["bm25", "dense", "rrf"]  # letters a, b, c
SUPERSCRIPTS = {"a": "ᵃ", "b": "ᵇ", "c": "ᶜ"}


@pytest.fixture(scope="module")
def three():
    qrels = read_qrels(SAMPLES / "qrels.txt.gz")
    return {name: evaluate(read_run(SAMPLES / f"{name}.run.gz"), qrels, MEASURES) for name in SAMPLE_ORDER}


def expected_letters(three, measure: str) -> dict[str, str]:
    """Holm over the 3 pairs, by hand, on scipy's paired t-test p-values: i beats j when mean_i > mean_j and the
    adjusted p is at most 0.05."""
    from itertools import combinations

    from scipy import stats

    pairs = list(combinations(SAMPLE_ORDER, 2))
    p = {pair: stats.ttest_rel(three[pair[0]].per_query[measure], three[pair[1]].per_query[measure]).pvalue
         for pair in pairs}  # fmt: skip
    ordered = sorted(pairs, key=p.get)
    adjusted, running = {}, 0.0
    for position, pair in enumerate(ordered):  # the smallest p times 3, the next times 2, the last times 1
        running = max(running, min(1.0, (3 - position) * p[pair]))
        adjusted[pair] = running
    letters = {name: "" for name in SAMPLE_ORDER}
    for (x, y), q in adjusted.items():
        if q <= 0.05:
            mx, my = three[x].means[measure], three[y].means[measure]
            winner, loser = (x, y) if mx > my else (y, x)
            letters[winner] += "abc"[SAMPLE_ORDER.index(loser)]
    return {name: "".join(SUPERSCRIPTS[c] for c in sorted(v)) for name, v in letters.items()}


def test_leaderboard_shows_the_three_samples_with_means_and_marks(page, three):
    board = leaderboard_cells(page, source=True)  # Markdown cells: the best per column in bold and shaded
    assert list(board["run"]) == ["a · bm25", "b · dense", "c · rrf"]
    for m in MEASURES:
        letters = expected_letters(three, m)
        best = max(SAMPLE_ORDER, key=lambda name: three[name].means[m])
        for row, name in enumerate(SAMPLE_ORDER):
            mean = f"{three[name].means[m]:.4f}"
            cell = f":blue-background[**{mean}**{letters[name]}]" if name == best else mean + letters[name]
            assert board[m][row] == cell, (m, name)
    assert board["NDCG@10"][1].endswith("ᵃᶜ]") and board["RR@10"][1].endswith("ᵃ]")  # dense vs rrf RR@10: p = 0.22
    assert all(board[m][1].startswith(":blue-background[") for m in ("NDCG@10", "AP", "RR@10"))  # dense leads them
    captions = "\n".join(c.value for c in page.caption)
    assert "paired t-test, Holm-corrected over the 3 pairs of runs per measure, p ≤ 0.05" in captions


def test_test_and_correction_are_stated_in_the_caption():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.segmented_control(key="cmp_test").set_value("randomization").run()
    at.segmented_control(key="cmp_correction").set_value("bonferroni").run()
    assert not at.exception
    captions = "\n".join(c.value for c in at.caption)
    assert "randomization test (10,000 permutations, seed 42), Bonferroni-corrected over the 3 pairs" in captions
    at.segmented_control(key="cmp_correction").set_value("none").run()
    assert "not corrected for multiple comparisons" in "\n".join(c.value for c in at.caption)


def test_two_sample_runs_make_a_two_row_leaderboard():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.multiselect(key="cmp_sample_runs").set_value(["dense", "bm25"]).run()
    assert not at.exception
    assert leaderboard_cells(at)["run"] == ["a · dense", "b · bm25"]
    assert "over the 1 pair of runs" in "\n".join(c.value for c in at.caption)
    at.multiselect(key="cmp_sample_runs").set_value(["dense"]).run()
    assert not at.exception and "Choose at least two runs" in at.info[0].value


def test_win_tie_loss_matrix_counts_queries(page, three):
    matrix = page.dataframe[0].value.set_index("run")
    d = three["dense"].per_query["NDCG@10"] - three["bm25"].per_query["NDCG@10"]
    wins, ties, losses = int((d > 1e-12).sum()), int((abs(d) <= 1e-12).sum()), int((d < -1e-12).sum())
    assert matrix.loc["b · dense", "a · bm25"] == f"{wins} / {ties} / {losses}"
    assert matrix.loc["a · bm25", "b · dense"] == f"{losses} / {ties} / {wins}"
    assert matrix.loc["c · rrf", "c · rrf"] == ""


def test_open_a_query_on_a_vs_b_with_both_real_rankings(engine):
    """Issue 11, item 13: both runs' rankings of the query, side by side, with the numbers of the runs' rows."""
    a, b = engine
    script = NAV_AB.format(compare=PAGE, ab=str(ROOT / "app_pages" / "play" / "ab.py"))
    at = AppTest.from_string(script, default_timeout=60).run()
    query_id = at.selectbox(key="cmp_drill_query").value
    at.button(key="cmp_drill_ab").click().run()
    assert not at.exception
    assert at.title[0].value == "Retriever A vs B"
    scenarios = at.session_state["ab_scenarios"]
    bm25, dense = read_run(SAMPLES / "bm25.run.gz"), read_run(SAMPLES / "dense.run.gz")
    assert list(scenarios["A"].full_ranking) == bm25.ranking_of(query_id)  # the whole real ranking, top 10 shown
    assert list(scenarios["B"].full_ranking) == dense.ranking_of(query_id)
    assert len(scenarios["A"].ranking) == 10
    table = markdown_table(at.markdown, "metric")  # {metric: [A, B, verdict]}
    row_a, row_b = a.queries.index(query_id), b.queries.index(query_id)
    assert table["AP"][0] == f"{a.per_query['AP'][row_a]:.4f}"
    assert table["AP"][1] == f"{b.per_query['AP'][row_b]:.4f}"
    assert table["NDCG@10"][0] == f"{a.per_query['NDCG@10'][row_a]:.4f}"
    assert table["NDCG@10"][1] == f"{b.per_query['NDCG@10'][row_b]:.4f}"
    captions = "\n".join(c.value for c in at.caption)
    assert f"Query **{query_id}** of your runs: A = **bm25**, B = **dense**" in captions
    assert "Two retrievers return the same five documents" not in captions  # the preset's intro is not claimed
    story = "\n".join(m.value for m in at.markdown)
    assert "relevant" in story  # the generated explanation is there
    at.number_input(key="ab_k").set_value(5).run()  # another cutoff: still the runs' rankings
    assert "each with its real top 10" in "\n".join(c.value for c in at.caption)
    # a drag in list A (the component's edit, applied by ir_metrics_lab.session.ab_state)
    scenarios = at.session_state["ab_scenarios"]
    scenarios["A"] = scenarios["A"].reordered(list(reversed(scenarios["A"].ranking)))
    at.session_state["ab_scenarios"] = scenarios
    at.run()
    captions = "\n".join(c.value for c in at.caption)
    assert "edited since, so the numbers are no longer the runs'" in captions and "real top 10" not in captions
    at.button(key="ab_reset").click().run()
    assert "Two retrievers return the same five documents" in "\n".join(c.value for c in at.caption)


NAV_AB = """
import streamlit as st
st.navigation([st.Page({compare!r}, default=True), st.Page({ab!r})]).run()
"""


def test_runs_given_on_the_command_line_are_read_one_at_a_time(monkeypatch, three, engine):
    """streamlit run app.py -- --run A B C --qrels Q: evaluated from disk (per-query values kept), the same table;
    a query opened from the pair view reads the two runs again."""
    import sys

    paths = [str(SAMPLES / f"{name}.run.gz") for name in SAMPLE_ORDER]
    monkeypatch.setattr(sys, "argv", ["app.py", "--run", *paths, "--qrels", str(SAMPLES / "qrels.txt.gz")])
    script = NAV_AB.format(compare=PAGE, ab=str(ROOT / "app_pages" / "play" / "ab.py"))
    at = AppTest.from_string(script, default_timeout=60).run()
    assert not at.exception
    assert at.radio(key="cmp_source").value == "cli"
    board = leaderboard_cells(at)
    assert list(board["run"]) == ["a · bm25", "b · dense", "c · rrf"]
    for row, name in enumerate(SAMPLE_ORDER):
        assert board["AP"][row].strip("*").startswith(f"{three[name].means['AP']:.4f}")
    assert "read one at a time" in "\n".join(c.value for c in at.caption)
    at.button(key="cmp_drill_ab").click().run()
    assert not at.exception and at.title[0].value == "Retriever A vs B"
    a, _ = engine
    query_id = at.session_state["ab_origin"][0]
    table = markdown_table(at.markdown, "metric")
    assert table["AP"][0] == f"{a.per_query['AP'][a.queries.index(query_id)]:.4f}"


def test_trec_evals_bare_names_expand_and_a_string_measure_is_left_out():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.multiselect(key="cmp_measures").set_value(["P", "relstring"]).run()
    assert not at.exception
    board = leaderboard_cells(at)
    columns = list(board)
    # trec_eval's P: its default cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000 (trec_eval's m_P.c)
    assert [c for c in columns if c.startswith("P")] == [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    left_out = [shown(c.value) for c in at.caption if c.value.startswith("Left out\\: relstring")]
    assert left_out == ["Left out: relstring (a string per query, no number to compare)."]


def test_a_broken_command_line_run_is_skipped_with_its_error_and_the_others_are_ranked(monkeypatch, three, tmp_path):
    import sys

    broken = tmp_path / "broken.run"
    broken.write_text("1001 Q0 doc1 1 2.0 x\n1001 Q0 doc1 2 1.0 x\n")  # a doc twice for one query
    paths = [str(SAMPLES / "bm25.run.gz"), str(SAMPLES / "dense.run.gz"), str(broken)]
    monkeypatch.setattr(sys, "argv", ["app.py", "--run", *paths, "--qrels", str(SAMPLES / "qrels.txt.gz")])
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    [error] = [shown(e.value) for e in at.error]
    assert error.startswith("Skipped: broken.run, line 2: doc 'doc1' appears twice for query '1001'"), error
    board = leaderboard_cells(at)
    assert list(board["run"]) == ["a · bm25", "b · dense"]
    for row, name in enumerate(["bm25", "dense"]):
        assert board["AP"][row].strip("*").startswith(f"{three[name].means['AP']:.4f}")
    assert not at.get("progress")  # no "Reading run 3 of 3" left behind


def test_subtopic_qrels_put_ndevals_numbers_in_the_leaderboard():
    """Two runs on the TREC 2012 example with its subtopic qrels: the full run and the same run cut to each topic's
    top 5 (in trec_eval's order). ndeval 4.5 -c -traditional's recorded means: both runs' alpha-nDCG@5 and ERR-IA@5
    (the cut changes nothing at 5), and the full run's alpha-nDCG@20."""
    import gzip
    import json

    folder = ROOT / "tests" / "data" / "ndeval45" / "trec2012"
    recorded = json.loads((folder / "outputs.json").read_text())[0]
    assert recorded["args"] == ["-c", "-traditional"]
    header, *rows = recorded["stdout"].splitlines()
    amean = dict(zip(header.split(","), rows[-1].split(","), strict=True))
    run = gzip.decompress((folder / "results-cata-filtered.txt.gz").read_bytes())
    lines = [line.split() for line in run.splitlines()]
    lines.sort(key=lambda f: f[2], reverse=True)  # trec_eval's order: score descending, then docno descending
    lines.sort(key=lambda f: (f[0], -float(f[4])))
    kept: dict[bytes, list[bytes]] = {}
    for fields in lines:
        if len(kept.setdefault(fields[0], [])) < 5:
            kept[fields[0]].append(b" ".join(fields))
    top5 = b"".join(line + b"\n" for topic in kept.values() for line in topic)
    plain = b"".join(b"%s 0 nodoc 1\n" % topic for topic in kept)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key="cmp_source").set_value("upload").run()
    at.file_uploader(key="cmp_runs_upload").set_value(
        [("full.run", run, "text/plain"), ("top5.run", top5, "text/plain")]
    )
    at.file_uploader(key="cmp_qrels_upload").set_value(("qrels.txt", plain, "text/plain"))
    at.file_uploader(key="cmp_subtopics_upload").set_value(
        ("qrels-for-ndeval.txt.gz", (folder / "qrels-for-ndeval.txt.gz").read_bytes(), "application/gzip")
    )
    at.run()
    at.multiselect(key="cmp_diversity_measures").set_value(["alpha_nDCG@5", "ERR_IA@5", "alpha_nDCG@20"]).run()
    assert not at.exception and not at.error
    cells = leaderboard_cells(at)
    assert cells is not None
    assert [shown(c) for c in cells["run"]] == ["a · full", "b · top5"]
    four = lambda column: f"{float(amean[column]):.4f}"  # noqa: E731  ndeval prints 6 decimals, the board 4
    assert [shown(c)[:6] for c in cells["alpha_nDCG@5"]] == [four("alpha-nDCG@5")] * 2
    assert [shown(c)[:6] for c in cells["ERR_IA@5"]] == [four("ERR-IA@5")] * 2
    assert shown(cells["alpha_nDCG@20"][0])[:6] == four("alpha-nDCG@20")
    assert any("ir-ndeval -traditional" in c.value for c in at.caption)

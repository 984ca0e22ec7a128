"""The "Your data" page: sample data, uploads and files given on the command line, scored exactly as the CLI scores
them, and every bad input shown as a one-line message (file, line, problem) with no exception.

Uploads: Streamlit 1.67's AppTest drives ``st.file_uploader`` (``at.file_uploader(key=...).set_value((name, bytes,
mime))``, which also fires its on_change), so the page's real upload path is tested here;
ir_metrics_lab.session.datasets.load_bytes, which the uploader calls with (name, bytes), is also tested directly.
Expected numbers come from the CLI (``metrics.cli.ir_metrics.main``, run in-process on the same files, JSON output at
full precision)."""

from __future__ import annotations

import contextlib
import copy
import gc
import gzip
import io
import json
import re
import sys
from pathlib import Path

import pytest
import streamlit as st
from streamlit import config
from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.session import datasets
from metrics.cli.ir_metrics import main as cli_main
from metrics.io import Run
from tests.markdown_text import shown

ROOT = Path(__file__).parents[1]
PAGE = str(ROOT / "app_pages" / "your_data" / "your_data.py")
APP = str(ROOT / "app.py")
SAMPLES = ROOT / "data" / "samples"
QRELS = SAMPLES / "qrels.txt.gz"
DENSE, BM25 = SAMPLES / "dense.run.gz", SAMPLES / "bm25.run.gz"
DEFAULTS = ["NDCG@10", "AP", "RR@10", "R@100", "R_cap@100", "P@10"]
GOOD_RUN = b"q1 Q0 d1 1 3.0 sys\nq1 Q0 d2 2 2.0 sys\nq1 Q0 d3 3 1.0 sys\nq2 Q0 d4 1 5.0 sys\n"
GOOD_QRELS = b"q1 0 d2 1\nq1 0 d9 2\nq2 0 d4 3\n"


@pytest.fixture(autouse=True)
def _fresh_caches(monkeypatch):
    """No test sees another's cached files, and sys.argv holds no --run/--qrels unless a test sets them."""
    st.cache_resource.clear()
    st.cache_data.clear()
    monkeypatch.setattr(sys, "argv", ["your_data.py"])
    yield
    st.cache_resource.clear()
    st.cache_data.clear()


def cli_json(qrels: Path, run: Path, measures=DEFAULTS, *extra: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    args = [str(qrels), str(run), "-q", "--format", "json", *(f"-m{m}" for m in measures), *extra]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert cli_main(args) == 0, err.getvalue()
    return json.loads(out.getvalue())


def page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=60)


def unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)  # the page backslash-escapes user text for Markdown


def errors(at: AppTest) -> list[str]:
    return [unescaped(e.value) for e in at.error]


def successes(at: AppTest) -> list[str]:
    return [unescaped(s.value) for s in at.success]


def table(at: AppTest, first_column: str):
    frames = [d.value for d in at.dataframe if d.value.columns[0] == first_column]
    assert len(frames) == 1, f"expected one table starting with {first_column!r}"
    return frames[0]


def summary(at: AppTest) -> dict[str, float]:
    frame = table(at, "measure")
    return dict(zip(frame["measure"], frame["mean"], strict=True))


def counts(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def assert_equals_cli(at: AppTest, expected: dict) -> None:
    assert not at.exception, [e.value for e in at.exception]
    shown = summary(at)
    assert list(shown) == expected["measures"]
    for name, value in expected["all"].items():
        assert shown[name] == value  # the same float, bit for bit
        assert f"{shown[name]:.4f}" == f"{value:.4f}"
    per_query = table(at, "query")
    assert len(per_query) == expected["counts"]["evaluated"] == len(expected["queries"])
    assert list(per_query["query"]) == list(expected["queries"])
    for name in expected["measures"]:
        assert per_query[name].tolist() == [expected["queries"][q][name] for q in per_query["query"]]
    assert counts(at) == {
        "Queries evaluated": f"{expected['counts']['evaluated']:,}",
        "Only in the run": f"{expected['counts']['only_in_run']:,}",
        "Only in the qrels": f"{expected['counts']['only_in_qrels']:,}",
        "No relevant doc": f"{expected['counts']['no_relevant']:,}",
    }


# --- sample data -------------------------------------------------------------------------------------------------


def test_sample_data_equals_the_cli():
    at = page().run()
    assert at.radio(key="yd_source").value == "sample"
    assert_equals_cli(at, cli_json(QRELS, DENSE))
    assert counts(at) == {
        "Queries evaluated": "294",
        "Only in the run": "4",
        "Only in the qrels": "6",
        "No relevant doc": "12",
    }
    assert any("trec_eval scores the queries found in **both** files" in m.value for m in at.markdown)


def test_sample_data_through_the_app():
    at = AppTest.from_file(APP, default_timeout=60).run()
    routes = re.findall(r'st\.Page\(\s*"([^"]+)"', Path(APP).read_text(encoding="utf-8"))
    assert "app_pages/your_data/your_data.py" in routes, "app.py does not route pages/your_data.py yet"
    at.switch_page("app_pages/your_data/your_data.py").run()
    assert_equals_cli(at, cli_json(QRELS, DENSE))


def test_other_system_complete_and_custom_measures_equal_the_cli():
    at = page().run()
    at.radio(key="yd_sample_system").set_value("bm25").run()
    assert_equals_cli(at, cli_json(QRELS, BM25))
    at.toggle(key="yd_complete").set_value(True).run()
    expected = cli_json(QRELS, BM25, DEFAULTS, "-c")
    assert expected["counts"]["evaluated"] == 300
    assert_equals_cli(at, expected)
    at.multiselect(key="yd_measures").set_value(["AP", "P@10"]).run()
    at.text_input(key="yd_more_measures").set_value("P@5, nDCG@20 map_cut_10").run()
    assert_equals_cli(at, cli_json(QRELS, BM25, ["AP", "P@10", "P@5", "nDCG@20", "map_cut_10"], "-c"))


def test_bad_measure_name_is_an_error_and_the_rest_still_shows():
    at = page().run()
    at.text_input(key="yd_more_measures").set_value("P@5, nDCG@x, bogus").run()
    assert not at.exception
    shown = errors(at)
    assert any("Measure 'nDCG@x': the cutoff after the name must be a positive integer" in e for e in shown), shown
    assert any("Unknown measure 'bogus'" in e for e in shown), shown
    assert list(summary(at)) == [*DEFAULTS, "P@5"]


def test_a_measure_spelled_twice_is_computed_once():
    at = page().run()
    at.text_input(key="yd_more_measures").set_value("ndcg_cut_10, P.10, P@5").run()
    assert list(summary(at)) == [*DEFAULTS, "P@5"]


def test_no_measure_says_so():
    at = page().run()
    at.multiselect(key="yd_measures").set_value([]).run()
    assert not at.exception
    assert any("Choose at least one measure" in i.value for i in at.info)
    assert not [d for d in at.dataframe if d.value.columns[0] == "measure"]


def test_distribution_chart_of_the_open_tab_only():
    at = page().run()
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)
    assert [t["type"] for t in spec["data"]] == ["histogram"]
    # 28 of the dense run's per-query NDCG@10 values are 0 (the CLI's -q output has the same count).
    zeros = sum(v["NDCG@10"] == 0 for v in cli_json(QRELS, DENSE)["queries"].values())
    assert spec["layout"]["xaxis"]["title"]["text"] == f"NDCG@10 per query<br>({zeros} of 294 queries score 0)"
    assert [shown(t.label) for t in at.tabs] == DEFAULTS


def test_download_is_the_per_query_table():
    at = page().run()
    labels = [button.proto.label for button in at.get("download_button")]
    assert labels == ["Per-query values (.csv)", "Open as notebook (.ipynb)"]


# --- uploads -----------------------------------------------------------------------------------------------------


def upload(at: AppTest, run: tuple[str, bytes] | None = None, qrels: tuple[str, bytes] | None = None) -> AppTest:
    if at.radio(key="yd_source").value != "upload":
        at.radio(key="yd_source").set_value("upload").run()
    if run is not None:
        at.file_uploader(key="yd_run_upload").set_value((*run, "application/octet-stream"))
    if qrels is not None:
        at.file_uploader(key="yd_qrels_upload").set_value((*qrels, "application/octet-stream"))
    return at.run()


def test_uploaded_samples_equal_the_cli_and_the_limit_is_stated():
    at = upload(page().run(), ("dense.run.gz", DENSE.read_bytes()), ("qrels.txt.gz", QRELS.read_bytes()))
    assert_equals_cli(at, cli_json(QRELS, DENSE))
    limit = st.get_option("server.maxUploadSize")
    assert any(f"Up to **{limit} MB** per file" in c.value for c in at.caption)
    loaded = successes(at)
    assert any(s.startswith("dense.run.gz: 29,800 lines, 298 queries") for s in loaded), loaded
    assert any(s.startswith("qrels.txt.gz: ") and "300 queries" in s for s in loaded), loaded


def test_plain_and_csv_uploads():
    csv_run = b"query,doc,score\nq1,d1,3\nq1,d2,2\nq1,d3,1\nq2,d4,5\n"
    at = upload(page().run(), ("run.csv", csv_run), ("qrels.txt", GOOD_QRELS))
    assert not at.exception and not at.error
    # q1: d2 (rank 2) relevant, d9 (grade 2) not retrieved; q2: d4 at rank 1.
    assert summary(at)["RR@10"] == (1 / 2 + 1) / 2
    assert summary(at)["P@10"] == (1 / 10 + 1 / 10) / 2


def test_upload_survives_a_page_switch_and_remove_unloads():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("app_pages/your_data/your_data.py").run()
    upload(at, ("run.txt", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    assert summary(at)["RR@10"] == 0.75
    at.switch_page("app_pages/play/playground.py").run()
    at.switch_page("app_pages/your_data/your_data.py").run()
    assert not at.exception
    assert at.radio(key="yd_source").value == "upload"
    assert summary(at)["RR@10"] == 0.75
    assert any("Still loaded from before" in c.value for c in at.caption)
    at.run()  # a rerun does not unload it either
    assert summary(at)["RR@10"] == 0.75
    at.button(key="yd_run_upload_remove").click().run()
    assert not at.exception
    assert not [d for d in at.dataframe if d.value.columns[0] == "measure"]
    assert any("qrels.txt: 3 judgments, 2 queries" in s for s in successes(at))


def test_removing_the_file_in_the_uploader_unloads_it():
    at = upload(page().run(), ("run.txt", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    assert summary(at)["RR@10"] == 0.75
    at.file_uploader(key="yd_run_upload").set_value(None).run()
    assert not at.exception
    assert not [d for d in at.dataframe if d.value.columns[0] == "measure"]
    assert any("Load a run and its qrels" in i.value for i in at.info)


BAD_UPLOADS = {
    "wrong column count": (
        "run",
        ("run.txt", GOOD_RUN + b"q2 Q0 d5 2 4.0\n"),
        "run.txt, line 5: has 5 columns, expected 6 (qid Q0 docid rank score tag)",
    ),
    "non-numeric score": (
        "run",
        ("run.txt", GOOD_RUN.replace(b"2.0", b"high")),
        "run.txt, line 2: score 'high' is not a number",
    ),
    "non-integer grade": (
        "qrels",
        ("qrels.txt", GOOD_QRELS.replace(b"d9 2", b"d9 0.7")),
        "qrels.txt, line 2: grade '0.7' is not an integer",
    ),
    "duplicate document": (
        "run",
        ("run.txt", GOOD_RUN + b"q2 Q0 d4 2 4.0 sys\n"),
        "run.txt, line 5: doc 'd4' appears twice for query 'q2' (line 4 and line 5)",
    ),
    "empty file": ("run", ("run.txt", b""), "run.txt: the file is empty"),
    "binary file": (
        "qrels",
        ("qrels.bin", bytes(range(256)) * 8),
        "qrels.bin, line 1: contains a NUL byte; this looks like a binary file",
    ),
    "run given as qrels": (
        "qrels",
        ("bm25.run", gzip.decompress(BM25.read_bytes())),
        "bm25.run, line 1: has 6 columns (qid Q0 docid rank score tag): this looks like a run file, given where "
        "the qrels are expected",
    ),
    "qrels given as run": (
        "run",
        ("qrels.txt", GOOD_QRELS),
        "qrels.txt, line 1: has 4 columns (qid iter docid grade): this looks like a qrels file",
    ),
    "broken gzip": ("run", ("run.txt.gz", b"\x1f\x8b\x08\x00broken"), "run.txt.gz: not a valid gzip file"),
}


@pytest.mark.parametrize("case", list(BAD_UPLOADS))
def test_bad_upload_direct(case):
    kind, (name, data), message = BAD_UPLOADS[case]
    loaded = datasets.load_bytes(kind, name, data)
    assert not loaded.ok
    assert loaded.error.startswith(message), loaded.error
    assert "\n" not in loaded.error


@pytest.mark.parametrize("case", list(BAD_UPLOADS))
def test_bad_upload_on_the_page_keeps_the_other_file(case):
    kind, bad, message = BAD_UPLOADS[case]
    at = page().run()
    good = ("qrels.txt", GOOD_QRELS) if kind == "run" else ("run.txt", GOOD_RUN)
    at = upload(at, **{kind: bad, ("qrels" if kind == "run" else "run"): good})
    assert not at.exception, [e.value for e in at.exception]
    assert any(e.startswith(message) for e in errors(at)), errors(at)
    other = "qrels.txt: 3 judgments, 2 queries" if kind == "run" else "run.txt: 4 lines, 2 queries"
    assert any(s.startswith(other) for s in successes(at)), successes(at)
    assert not [d for d in at.dataframe if d.value.columns[0] == "measure"]
    # Fixing the bad file brings the scores, with the good file as it was.
    fixed = ("run.txt", GOOD_RUN) if kind == "run" else ("qrels.txt", GOOD_QRELS)
    at = upload(at, **{kind: fixed})
    assert not at.error
    assert summary(at)["RR@10"] == 0.75


def test_mismatched_query_ids_are_named():
    other = b"".join(f"{q} 0 d1 1\n".encode() for q in ("101", "102", "103"))
    at = upload(page().run(), ("run.txt", GOOD_RUN), ("qrels.txt", other))
    assert not at.exception
    assert errors(at) == [
        "None of the 2 queries in run.txt has judgments in qrels.txt (the run has e.g. 'q1', the qrels '101'): "
        "are these the right files?"
    ]
    assert not [d for d in at.dataframe if d.value.columns[0] == "measure"]


def test_upload_over_the_limit(monkeypatch):
    limit = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", 1)
    try:
        big = GOOD_RUN * (2**20 // len(GOOD_RUN) + 1)
        at = upload(page().run(), ("huge.run", big), ("qrels.txt", GOOD_QRELS))
        assert not at.exception
        assert errors(at) == [
            f"huge.run: the file is {len(big) / 2**20:,.1f} MB, over the 1 MB limit (server.maxUploadSize in "
            ".streamlit/config.toml; raise it to load larger files) (see errors/upload-too-large in the docs)"
        ]
    finally:
        config.set_option("server.maxUploadSize", limit)


def test_unexpected_error_is_a_friendly_message(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(datasets, "read_run", broken)
    at = upload(page().run(), ("run.txt", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    assert not at.exception
    assert errors(at) == ["run.txt: unexpected error while reading (RuntimeError); please report it"]


def test_unexpected_error_while_evaluating_is_a_friendly_message(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(datasets, "evaluate", broken)
    at = page().run()
    assert not at.exception
    assert errors(at) == ["Unexpected error while evaluating (RuntimeError); please report it."]


# --- files given on the command line -----------------------------------------------------------------------------


def test_command_line_files_equal_the_cli(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["app.py", "--run", str(BM25), str(DENSE), "--qrels", str(QRELS)])
    at = page().run()
    assert at.radio(key="yd_source").value == "cli"
    assert_equals_cli(at, cli_json(QRELS, BM25))
    at.selectbox(key="yd_cli_run").set_value(str(DENSE)).run()
    assert_equals_cli(at, cli_json(QRELS, DENSE))


def test_command_line_problems(monkeypatch, tmp_path):
    big = tmp_path / "big.run"
    with big.open("wb") as f:
        f.truncate(3 * 2**20)  # sparse: 3 MB on paper
    monkeypatch.setattr(
        sys, "argv", ["app.py", "--run", str(big), "--qrels", str(tmp_path / "missing.qrels"), "--qrel"]
    )
    limit = config.get_option("server.maxUploadSize")
    config.set_option("server.maxUploadSize", 2)
    try:
        at = page().run()
    finally:
        config.set_option("server.maxUploadSize", limit)
    assert not at.exception
    assert errors(at) == [
        "big.run: the file is 3.0 MB, over the 2 MB limit (server.maxUploadSize in .streamlit/config.toml; raise it "
        "to load larger files) (see errors/upload-too-large in the docs)",
        f"{tmp_path / 'missing.qrels'}: no such file (see errors/file-missing in the docs)",
    ]
    assert [unescaped(w.value) for w in at.warning] == ["Command line: unknown option '--qrel' (did you mean --qrels?)"]


def test_command_line_without_qrels_says_what_to_add(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["app.py", "--run", str(DENSE)])
    at = page().run()
    assert not at.exception
    assert any("add `--qrels PATH`" in i.value for i in at.info)


# --- open a query in the playground -------------------------------------------------------------------------------


def test_selected_query_opens_in_the_playground():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("app_pages/your_data/your_data.py").run()
    at.session_state["yd_per_query"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    (button,) = [b for b in at.button if b.label.startswith("Open query")]
    assert button.label == "Open query 1001 in the playground"
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Playground"


def test_a_replaced_upload_is_freed_not_cached():
    """Classroom memory: an upload's parsed run lives only in its session; replacing the file frees it (no
    server-wide cache keeps it), and the same bytes uploaded again are parsed again for that session."""
    import gc
    import weakref

    at = upload(page().run(), ("run.txt", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    first = weakref.ref(at.session_state["dataset_loaded"]["yd_run"].value)
    at = upload(at, ("other.txt", GOOD_RUN.replace(b"3.0", b"4.0")))
    gc.collect()
    assert first() is None
    again = [datasets.load_bytes("run", "a.txt", GOOD_RUN).value for _ in range(2)]
    assert again[0] is not again[1]


# --- memory: a replaced upload is let go, and an upload is not copied per script run ---------------------------


def _runs_alive(name: str) -> list:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, Run) and o.name == name]


def test_a_replaced_upload_is_let_go():
    at = upload(page().run(), ("first.run", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    assert not at.error and _runs_alive("first.run")
    # a run sharing no query with the qrels: the page stops before the "complete" checkbox, whose callback (from the
    # run that drew it last) would keep that run's page globals, and the first run with them, if it were held there
    at = upload(at, ("second.run", b"zz Q0 d1 1 1.0 s\n"))
    assert _runs_alive("second.run") and shown(at.error[0].value).startswith("None of the 1 query in second.run has")
    assert _runs_alive("first.run") == []


def test_each_script_run_shares_the_uploaded_bytes():
    """Streamlit gives every script run a deep copy of a widget's value; for an upload, one that shares the bytes."""
    data = GOOD_RUN * 1000
    uploaded = UploadedFile(UploadedFileRec("id-1", "run.txt", "text/plain", data), None)
    uploaded.seek(7)
    twin = copy.deepcopy(uploaded)
    assert twin is not uploaded and twin.getvalue() is data
    assert (twin.file_id, twin.name, twin.type, twin.size) == ("id-1", "run.txt", "text/plain", len(data))
    assert twin.tell() == 7
    twin.read(3)
    assert uploaded.tell() == 7  # its own read position


def test_doc_ids_spelled_differently_get_a_warning_with_both_sides_ids():
    # The queries match, the documents never do (D1 vs 1): every score is 0 for lack of judgments.
    run = b"q1 Q0 D1 1 3.0 r\nq1 Q0 D2 2 2.0 r\nq2 Q0 D3 1 1.0 r\n"
    qrels = b"q1 0 1 1\nq1 0 2 0\nq2 0 3 2\n"
    at = upload(page().run(), ("run.txt", run), ("qrels.txt", qrels))
    assert not at.exception
    captions = "\n".join(c.value for c in at.caption)
    assert "Judged: **0 of the 3 documents** the run retrieves for the queries both files have (0.0%)" in captions
    [warning] = [shown(w.value) for w in at.warning]
    assert warning.startswith("No retrieved document is judged, so every measure is near 0")
    assert "For query q1, the run retrieves e.g. 'D1' and the qrels judge e.g. '1'." in warning


def test_the_judged_share_is_counted_by_hand():
    at = upload(page().run(), ("run.txt", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    run_pairs = {tuple(line.split()[0:3:2]) for line in GOOD_RUN.decode().splitlines()}
    judged = {tuple(line.split()[0:3:2]) for line in GOOD_QRELS.decode().splitlines()}
    shared = {q for q, _ in judged}
    retrieved = {pair for pair in run_pairs if pair[0] in shared}
    text = "\n".join(c.value for c in at.caption)
    assert f"Judged: **{len(retrieved & judged)} of the {len(retrieved)} documents**" in text
    assert not at.warning


# --- subtopic qrels (ndeval's): the diversity measures ------------------------------------------------------------

TREC2012 = ROOT / "tests" / "data" / "ndeval45" / "trec2012"
# ndeval's 21 columns as ir_measures names them
NDEVAL_COLUMNS = {
    "ERR-IA": "ERR_IA", "nERR-IA": "nERR_IA", "alpha-DCG": "alpha_DCG", "alpha-nDCG": "alpha_nDCG", "NRBP": "NRBP",
    "nNRBP": "nNRBP", "MAP-IA": "AP_IA", "P-IA": "P_IA", "strec": "StRecall",
}  # fmt: skip


def ndeval_printed(index: int = 0) -> tuple[list[str], dict[str, dict[str, str]]]:
    """ndeval 4.5's recorded output on the TREC 2012 example (index 0: ``-c -traditional``): (its measure columns
    in ir_measures' names, {topic or "amean": {name: printed value}})."""
    recorded = json.loads((TREC2012 / "outputs.json").read_text())[index]
    header, *rows = recorded["stdout"].splitlines()
    names = []
    for column in header.split(",")[2:]:
        measure, _, k = column.partition("@")
        names.append(NDEVAL_COLUMNS[measure] + (f"@{k}" if k else ""))
    return names, {row.split(",")[1]: dict(zip(names, row.split(",")[2:], strict=True)) for row in rows}


def trec2012_run() -> bytes:
    return gzip.decompress((TREC2012 / "results-cata-filtered.txt.gz").read_bytes())


def one_judgment_per_topic(run: bytes) -> bytes:
    """Plain qrels for every topic of the run (trec_eval's query set is then ndeval's)."""
    topics = dict.fromkeys(line.split()[0] for line in run.splitlines())
    return b"".join(b"%s 0 %s 1\n" % (topic, b"nodoc") for topic in topics)


def test_subtopic_qrels_give_ndevals_numbers_per_query_and_in_the_means():
    """Every one of ndeval's 21 columns on the TREC 2012 example, per topic and as the mean, equals what ndeval 4.5
    -c -traditional printed (the app reads a run in trec_eval's order, which is -traditional's)."""
    from metrics.cli.ir_ndeval import format_value

    names, printed = ndeval_printed(0)
    run = trec2012_run()
    at = upload(page().run(), ("indri.run", run), ("qrels.txt", one_judgment_per_topic(run)))
    assert not [m for m in at.multiselect if m.key == "yd_diversity_measures"]  # no picker before the file
    at.file_uploader(key="yd_subtopics_upload").set_value(
        ("qrels-for-ndeval.txt.gz", (TREC2012 / "qrels-for-ndeval.txt.gz").read_bytes(), "application/gzip")
    )
    at.run()
    at.multiselect(key="yd_diversity_measures").set_value(names).run()
    assert not at.exception and not at.error, errors(at)
    assert any(s.startswith("qrels-for-ndeval.txt.gz: 59,736 judgments, 50 topics") for s in successes(at))
    per_query = table(at, "query")
    assert list(per_query["query"]) == [t for t in printed if t != "amean"]
    means = summary(at)
    for name in names:
        got = [format_value(v) for v in per_query[name]]
        assert got == [printed[t][name] for t in per_query["query"]], name
        assert format_value(means[name]) == printed["amean"][name], name


def test_a_bad_subtopic_qrels_file_is_named_and_nothing_is_lost():
    """A line ndeval refuses: its file, line and problem; the run, the qrels and their scores stay."""
    at = upload(page().run(), ("run.txt", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    at.file_uploader(key="yd_subtopics_upload").set_value(("sub.txt", b"1 1 d1 1\n1 2 d1 x\n", "text/plain")).run()
    assert not at.exception
    assert errors(at) == [
        "sub.txt, line 2: judgment 'x' is not a natural number (digits only) (see errors/ndeval-number in the docs)"
    ]
    assert any(s.startswith("run.txt: 4 lines, 2 queries") for s in successes(at))
    assert summary(at)["RR@10"] == 0.75  # the plain measures still shown
    assert not [m for m in at.multiselect if m.key == "yd_diversity_measures"]


def test_subtopic_qrels_whose_topics_the_run_lacks_are_named():
    at = upload(page().run(), ("run.txt", GOOD_RUN), ("qrels.txt", GOOD_QRELS))
    at.file_uploader(key="yd_subtopics_upload").set_value(("sub.txt", b"7 1 d1 1\n", "text/plain")).run()
    assert not at.exception
    warnings = [unescaped(w.value) for w in at.warning]
    assert any(w.startswith("None of the 2 queries in run.txt is a topic of sub.txt") for w in warnings), warnings


def test_subtopic_qrels_alone_score_ndevals_query_set():
    """No plain qrels: the diversity measures alone, on ndeval's query set, equal ndeval 4.5 -c -traditional's
    recorded rows; the other measures are left out, and the counts come from the subtopic qrels."""
    from metrics.cli.ir_ndeval import format_value

    _, printed = ndeval_printed(0)
    at = upload(page().run(), ("indri.run", trec2012_run()))
    at.file_uploader(key="yd_subtopics_upload").set_value(
        ("qrels-for-ndeval.txt.gz", (TREC2012 / "qrels-for-ndeval.txt.gz").read_bytes(), "application/gzip")
    )
    at.run()
    assert not at.exception and not at.error, errors(at)
    assert list(summary(at)) == ["alpha_nDCG@20", "ERR_IA@20", "StRecall@20"]
    per_query = table(at, "query")
    assert list(per_query["query"]) == [t for t in printed if t != "amean"]
    for name in ("alpha_nDCG@20", "ERR_IA@20", "StRecall@20"):
        assert [format_value(v) for v in per_query[name]] == [printed[t][name] for t in per_query["query"]]
    assert counts(at)["Queries evaluated"] == "50"

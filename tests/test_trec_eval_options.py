"""trec_eval 10.0's options beyond the measures and the query set (metrics.cli.trec_options): -v, -T, -o, -D. Expected
outputs are trec_eval's own `make quicktest` files (tests/data/trec_eval10/quicktest/); the recorded corpus
(tests/test_trec_eval10_corpus.py) replays them on random inputs too."""

from __future__ import annotations

import contextlib
import gzip
import io
from pathlib import Path

import pytest

from metrics.cli.ir_metrics import main

QUICKTEST = Path(__file__).parent / "data" / "trec_eval10" / "quicktest"
QRELS, RESULTS = str(QUICKTEST / "qrels.test.gz"), str(QUICKTEST / "results.test.gz")


def expected(name: str) -> str:
    with gzip.open(QUICKTEST / f"{name}.gz", "rt", encoding="utf-8") as handle:
        return handle.read()


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([*args, "--format", "trec_eval"])
    return status, out.getvalue(), err.getvalue()


def test_v_prints_the_version_on_stderr_and_exits_0():
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as done:
        main(["-v"])  # no files needed: trec_eval exits while reading its options
    assert done.value.code == 0
    assert err.getvalue().startswith("trec_eval version 10.0-rc3")


@pytest.mark.parametrize(
    "option", [["-o"], ["-T", "trec_results"], ["-Ttrec_results"], ["--Results_format=trec_results"]]
)
def test_o_and_t_change_nothing(option):
    """-o is obsolete in trec_eval 10.0 (it sets a flag nothing reads); -T trec_results is its only results format."""
    assert run_cli(*option, QRELS, RESULTS)[:2] == (0, expected("out.test"))


def test_another_results_format_is_refused():
    status, printed, err = run_cli("-T", "trec_top", QRELS, RESULTS)
    assert (status, printed) == (2, "") and "trec_results" in err


def _query_lines(text: str, query: str) -> list[str]:
    return [line for line in text.splitlines() if line.split("\t")[1] == query]


def test_d_with_a_query_evaluates_that_query_alone():
    """-D 0.302: query 302's lines as trec_eval -q prints them for the three queries (out.test.aq), and a summary
    over 302 alone: num_q 1, each mean its value."""
    status, printed, _ = run_cli("-D", "0.302", "-q", "-m", "all_trec", QRELS, RESULTS)
    assert status == 0
    assert _query_lines(printed, "302") == _query_lines(expected("out.test.aq"), "302")
    summary = {line.split("\t")[0].strip(): line.split("\t")[2] for line in _query_lines(printed, "all")}
    per_query = {line.split("\t")[0].strip(): line.split("\t")[2] for line in _query_lines(printed, "302")}
    assert summary["num_q"] == "1"
    assert all(summary[name] == value for name, value in per_query.items() if name != "relstring")
    assert not _query_lines(printed, "301")


@pytest.mark.parametrize("level", ["0", "1", "4"])
def test_d_level_alone_changes_no_number(level):
    """trec_eval prints debugging text at some levels (for the ndcg family, from level 1); we print none, and the
    numbers are the same."""
    assert run_cli("-D", level, "-m", "all_trec", "-q", QRELS, RESULTS)[:2] == (0, expected("out.test.aq"))


@pytest.mark.parametrize("value", ["x", "1.", "", "a.301"])
def test_a_bad_debug_level_is_refused(value):
    assert run_cli("-D", value, QRELS, RESULTS)[:2] == (2, "")


def test_d_with_a_query_nobody_has_is_refused():
    """trec_eval: "No queries with both results and relevance info" (exit 7)."""
    status, printed, err = run_cli("-D", "0.999", QRELS, RESULTS)
    assert (status, printed) == (2, "") and "999" in err

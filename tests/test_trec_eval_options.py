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


def test_d_on_preferences_keeps_a_query_whose_retrieved_documents_nobody_judged(tmp_path):
    """The run's rows that no preference names are dropped before the query is cut out: the query is still in the
    run. Expected: trec_eval 10.0's output for `-q -D 0.q1 -R prefs -m prefs_simp -m num_q` on these two lines."""
    (tmp_path / "prefs").write_text("q1 user4 s2 d1 2\n")
    (tmp_path / "run").write_text("q1 Q0 x1 1 1 t\n")
    printed = run_cli("-q", "-D", "0.q1", "-R", "prefs", "-m", "prefs_simp", "-m", "num_q", *_files(tmp_path))[:2]
    assert printed == (
        0,
        "prefs_simp            \tq1\t0.0000\nnum_q                 \tall\t1\nprefs_simp            \tall\t0.0000\n",
    )


def _files(folder: Path) -> tuple[str, str]:
    return str(folder / "prefs"), str(folder / "run")


# --- -Z: z-scores against a file of means and standard deviations (trec_eval's quicktest out.test.aqZ is replayed
# by tests/test_trec_eval10_corpus.py) ---


def _zscore_case(tmp_path, zscores: str, *args: str) -> tuple[int, str, str]:
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 0\n2 0 a 1\n2 0 c 1\n")
    (tmp_path / "run").write_text("1 Q0 a 1 1 t\n1 Q0 b 2 0.5 t\n2 Q0 c 1 1 t\n")
    (tmp_path / "z").write_text(zscores)
    return run_cli("-q", "-Z", str(tmp_path / "z"), *args, str(tmp_path / "qrels"), str(tmp_path / "run"))


def test_z_by_hand(tmp_path):
    """Query 1: AP 1, P_5 1/5; query 2: AP (1/1)/2, no P_5 line in the file. A standard deviation of 0 gives 0 where
    the value is the mean, else -1000000, as a missing line does; the summary is the mean of the z-scores."""
    zscores = "1 map 0.5 0.25\n1 P_5 0.2 0\n2 map 0.75 0\n"
    status, printed, _ = _zscore_case(tmp_path, zscores, "-m", "map", "-m", "P.5")
    assert status == 0
    assert printed == (
        "Zmap                   \t1\t2.0000\n"  # (1 - 0.5) / 0.25
        "ZP_5                   \t1\t0.0000\n"  # std 0, 0.2 == 0.2
        "Zmap                   \t2\t-1000000.0000\n"  # std 0, 0.5 != 0.75
        "ZP_5                   \t2\t-1000000.0000\n"  # no line
        "Zmap                   \tall\t-499999.0000\n"
        "ZP_5                   \tall\t-500000.0000\n"
    )


def test_z_of_a_line_the_file_does_not_give_is_missing(tmp_path):
    """trec_eval 10.0's binary search looks one line past the lines of query 1 for map, finds query 2's map line and
    prints (1 - 0.5) / 0.1 = 5.0000 (tests/data/trec_eval10/defects.json, zscore_lookup_past_the_end); the file
    gives no map for query 1: -1000000."""
    status, printed, _ = _zscore_case(tmp_path, "1 P_5 0.1 0.1\n2 map 0.5 0.1\n", "-m", "map")
    assert status == 0
    assert printed.splitlines()[0] == "Zmap                   \t1\t-1000000.0000"


def test_z_counts_print_as_numbers_and_num_q_still_counts(tmp_path):
    """num_ret's z-scores are summed (its summary), printed %6.4f; num_q's summary is the number of queries."""
    status, printed, _ = _zscore_case(tmp_path, "1 num_ret 1 0.5\n2 num_ret 2 2\n", "-m", "num_q", "-m", "num_ret")
    assert status == 0
    assert printed == (
        "Znum_ret               \t1\t2.0000\n"  # (2 - 1) / 0.5
        "Znum_ret               \t2\t-0.5000\n"  # (1 - 2) / 2
        "Znum_q                 \tall\t2.0000\n"
        "Znum_ret               \tall\t1.5000\n"
    )


def test_z_of_gm_map_is_taken_on_the_log(tmp_path):
    """trec_eval keeps log(AP) per query for gm_map (m_gm_map.c): the z-scores are of the logs, the summary the
    exponential of their mean. Query 1: log 1 = 0; query 2: log 0.5."""
    import math

    zscores = "1 gm_map 0 1\n2 gm_map 0 1\n"
    status, printed, _ = _zscore_case(tmp_path, zscores, "-m", "gm_map")
    assert (status, printed) == (0, f"Zgm_map                \tall\t{math.exp(math.log(0.5) / 2):6.4f}\n")


@pytest.mark.parametrize(
    ("zscores", "message"),
    [
        ("1 map 0.5\n", "line 1: expected 4 fields"),
        ("1 map 0.5 0.1\n1 map abc 0.1\n", "line 2: mean 'abc' is not a number"),
        ("1 map 0.5 0.1\n1 map 0.5 0.2\n", "query '1', measure 'map' has two lines"),
    ],
)
def test_a_bad_zscore_file_is_refused(tmp_path, zscores, message):
    status, printed, err = _zscore_case(tmp_path, zscores, "-m", "map")
    assert (status, printed) == (2, "") and message in err


# --- -R: judgment groups and preferences (their measures: tests/families/test_p_avgjg.py, test_prefs_*.py, ...) ---


def _judged_case(tmp_path, rel_format: str, judgments: str, *args: str, run: str | None = None) -> tuple[int, str, str]:
    (tmp_path / "judgments").write_text(judgments)
    (tmp_path / "run").write_text(run or "q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\n")
    return run_cli("-R", rel_format, *args, str(tmp_path / "judgments"), str(tmp_path / "run"))


@pytest.mark.parametrize(
    ("rel_format", "judgments", "message"),
    [
        # trec_eval aborts (exit 134): "Pref inconsistency found"
        ("prefs", "q1 u1 s1 a 2\nq1 u1 s1 b 1\nq1 u1 s2 b 2\nq1 u1 s2 a 1\n", "contradict"),
        # trec_eval exits 4: "doc 'b' has both 0 and non-0 rel_level assigned"
        ("prefs", "q1 u1 s1 a 2\nq1 u1 s1 b 0\nq1 u1 s2 b 1\nq1 u1 s2 c 0\n", "level 0 and above 0"),
        # trec_eval counts a > b twice (prefs_num_prefs_poss 2): refused as a judgment given twice is
        ("prefs", "q1 u1 s1 a 2\nq1 u1 s1 a 2\nq1 u1 s1 b 1\n", "gives doc 'a' twice"),
        ("qrels_prefs", "q1 0 a 2\nq1 0 a 1\n", "gives doc 'a' twice"),
        ("qrels_jg", "q1 u1 a 1\nq1 u1 a 0\n", "judges doc 'a' twice"),
        # of two judgments given twice, the one met first in the file is named
        ("qrels_jg", "q2 u1 b 1\nq1 u1 a 1\nq2 u1 b 0\nq1 u1 a 0\n", "query 'q2', group 'u1' judges doc 'b' twice"),
        ("prefs", "q1 u1 s1 a\n", "line 1: expected 5 fields"),
        ("prefs", "q1 u1 s1 a high\n", "line 1: level 'high' is not a number"),
        ("qrels_jg", "q1 u1 a 1.5\n", "grade '1.5' is not an integer"),
    ],
)
def test_bad_judgments_are_refused(tmp_path, rel_format, judgments, message):
    status, printed, err = _judged_case(tmp_path, rel_format, judgments, "-m", "num_q")
    if status == 0:  # found only where a measure counts the query's preferences
        status, printed, err = _judged_case(tmp_path, rel_format, judgments, "-m", "prefs_simp")
    assert (status, printed) == (2, "") and message in err, err


def test_a_measure_the_judgments_cannot_give_is_refused(tmp_path):
    """As trec_eval (exit 4, "Can't calculate measure"): map from preferences, a preference measure from qrels."""
    status, _, err = _judged_case(tmp_path, "prefs", "q1 u1 s1 a 1\nq1 u1 s1 b 0\n", "-m", "map")
    assert status == 2 and "needs -R qrels" in err
    status, _, err = _judged_case(tmp_path, "qrels", "q1 0 a 1\n", "-m", "prefs_simp")
    assert status == 2 and "needs -R prefs or -R qrels_prefs" in err


def test_rnonrel_pads_a_short_lowest_level_with_documents_never_retrieved(tmp_path):
    """Levels a 1, b 1, c 0, d 0, e -1: R = 2 relevant, N = 3 non-relevant (levels 0 and below), so only the first R
    documents of the lowest level count, but it holds one (e), and no group follows. trec_eval reads its second one
    from memory (defects.json, prefs_rnonrel_reads_memory); we take a document no run retrieved: the pairs between
    the levels above the lowest, {a, b} x {c, d}, all fulfilled (4), then every document against e, fulfilled for
    a, b, c, d (4, not e itself), and against the unretrieved one, fulfilled for all 5 (retrieved): 13 / (4 + 5 + 5).
    """
    prefs = "".join(f"q1 u1 s1 {doc} {level}\n" for doc, level in zip("abcde", [1, 1, 0, 0, -1], strict=True))
    run = "".join(f"q1 Q0 {doc} {rank} {10 - rank} t\n" for rank, doc in enumerate("abcde", start=1))
    status, printed, _ = _judged_case(tmp_path, "prefs", prefs, "-q", "-m", "prefs_avgjg_Rnonrel", run=run)
    assert status == 0
    assert printed.splitlines()[0] == f"prefs_avgjg_Rnonrel   \tq1\t{13 / 14:6.4f}"


def test_rnonrel_of_issue_49_by_hand(tmp_path):
    """qrels_prefs d4, d5 2; d1, d2 0; d3 -1; run d3, d1 (scores tied: d1 first, as preferences rank ties). Docid
    ranks d1 0, d3 1 (retrieved), d2 2, d4 3, d5 4. R = 2 (d4, d5), N = 3: {d4, d5} x {d1, d2}, none fulfilled (4
    pairs); every document against the cut lowest level, d3 (d1 > d3 fulfilled; 5 pairs) and one document never
    retrieved (fulfilled for d1 and d3; 5 pairs): 3 / 14. _ret: no relevant document retrieved, so nothing counts
    (0 / 0) and the query scores 0."""
    qrels = "11 0 d3 -1\n11 0 d5 2\n11 0 d1 0\n11 0 d4 2\n11 0 d2 0\n"
    run = "11 Q0 d3 1 0.0 run1\n11 Q0 d1 2 0.0 run1\n"
    args = ["-q", "-m", "prefs_avgjg_Rnonrel", "-m", "prefs_avgjg_Rnonrel_ret"]
    status, printed, _ = _judged_case(tmp_path, "qrels_prefs", qrels, *args, run=run)
    assert status == 0
    assert printed.splitlines()[:2] == [
        f"prefs_avgjg_Rnonrel   \t11\t{3 / 14:6.4f}",
        f"prefs_avgjg_Rnonrel_ret\t11\t{0:6.4f}",
    ]


def test_rnonrel_reads_a_short_lowest_level_on_into_the_next_group(tmp_path):
    """Group a: d1 2, d2 1, d3 d4 d5 0, d6 -1; group b: x 1, y 0; run d1, x, d6, d3. Docid ranks d1 0, x 1, d6 2, d3
    3 (retrieved), d2 4, d4 5, d5 6, y 7. Group a: R = 2, N = 4, its lowest level holds d6 alone, and trec_eval
    reads its second document from the next group's list (x, then y): the pairs between the levels above the
    lowest, d1 > d2, d3, d4, d5 fulfilled (4), d2 > d3, d4, d5 not (7 pairs); every document of a against d6 and x,
    fulfilled for d1 only (2 of 12): 6 / 19. Group b: R = N = 1, x > y fulfilled: 1. (6 / 19 + 1) / 2, as trec_eval
    prints it (its reads stay within the query's judgments: valgrind finds nothing). _ret: group a R = 1, N = 2
    among the retrieved, d1 > d3, d1 > d6 fulfilled, d3 > d6 and d6 > d6 not: 2 / 4; group b 1: 0.75."""
    qrels = "1 a d1 2\n1 a d2 1\n1 a d3 0\n1 a d4 0\n1 a d5 0\n1 a d6 -1\n1 b x 1\n1 b y 0\n"
    run = "1 Q0 d1 1 4 t\n1 Q0 x 2 3 t\n1 Q0 d6 3 2 t\n1 Q0 d3 4 1 t\n"
    args = ["-q", "-m", "prefs_avgjg_Rnonrel", "-m", "prefs_avgjg_Rnonrel_ret"]
    status, printed, _ = _judged_case(tmp_path, "qrels_prefs", qrels, *args, run=run)
    assert status == 0
    assert printed.splitlines()[:2] == [
        f"prefs_avgjg_Rnonrel   \t1\t{(6 / 19 + 1) / 2:6.4f}",
        f"prefs_avgjg_Rnonrel_ret\t1\t{(2 / 4 + 1) / 2:6.4f}",
    ]


def test_preferences_rank_ties_by_doc_id_ascending(tmp_path):
    """form_prefs_counts.c breaks score ties by doc id ascending (everywhere else trec_eval goes descending): a and
    b tie, so a is ranked first and a > b is fulfilled."""
    run = "q1 Q0 b 1 1 t\nq1 Q0 a 2 1 t\n"
    status, printed, _ = _judged_case(
        tmp_path, "prefs", "q1 u1 s1 a 1\nq1 u1 s1 b 0\n", "-q", "-m", "prefs_simp", run=run
    )
    assert (status, printed.splitlines()[0]) == (0, "prefs_simp            \tq1\t1.0000")
    run = "q1 Q0 b 1 2 t\nq1 Q0 a 2 1 t\n"  # b scores higher: not fulfilled
    status, printed, _ = _judged_case(
        tmp_path, "prefs", "q1 u1 s1 a 1\nq1 u1 s1 b 0\n", "-q", "-m", "prefs_simp", run=run
    )
    assert (status, printed.splitlines()[0]) == (0, "prefs_simp            \tq1\t0.0000")


def test_other_judgment_formats_read_the_run_whole(tmp_path):
    status, _, err = _judged_case(tmp_path, "prefs", "q1 u1 s1 a 1\nq1 u1 s1 b 0\n", "-m", "prefs_simp", "--stream")
    assert status == 2 and "reads the run whole" in err

"""A corpus of hostile inputs through the CLI, the upload page and share links: each gets its exact message (the
file, the line and the reason) or is read as trec_eval reads it. The same bad line gives the same message whether
pyarrow parses the file (the fast path) or the line scanner does (the file also has runs of blanks, or tabs).

Expected messages are written out here; expected numbers come from pytrec_eval (trec_eval's own code).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
import pytrec_eval
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core import url
from metrics.cli.ir_metrics import main
from tests import uploads
from tests.markdown_text import shown

ROOT = Path(__file__).parents[1]
RUN = "q1 Q0 d1 1 3.0 s\nq1 Q0 d2 2 2.0 s\nq1 Q0 d3 3 1.0 s\nq2 Q0 d4 1 1.0 s\n"
QRELS = "q1 0 d1 0\nq1 0 d2 1\nq1 0 d9 2\nq2 0 d4 0\n"
HUGE = "99999999999999999999"  # 10^20 - 1: beyond numpy's int64
LONG = "x" * 10_000_000  # a 10 MB token
PREFIX = repr("x" * 40) + "… (10,000,000 characters)"
OUT_OF_RANGE = "is out of range: grades are integers from -2,147,483,647 to 2,147,483,647"
NOT_INTEGER = (
    "is not an integer; map scores to integer grades explicitly, e.g. 1 if score >= 0.5 else 0, or round(10 * score)"
)

# (name, kind, content, expected message): the bad file is given where ``kind`` is expected, with a good other file.
BAD_FILES = [
    ("empty-doc.csv", "run", "query,doc,score\nq1,d1,1.0\nq1,,1.0\n", "empty-doc.csv, line 3: the doc id is empty"),
    ("empty-query.csv", "run", "query,doc,score\n,d2,0.5\n", "empty-query.csv, line 2: the query id is empty"),
    ("empty-doc.tsv", "run", "query\tdoc\tscore\nq1\t\t1.0\n", "empty-doc.tsv, line 2: the doc id is empty"),
    ("qrels-empty.csv", "qrels", "query,doc,grade\nq1,,1\n", "qrels-empty.csv, line 2: the doc id is empty"),
    ("qrels-noq.csv", "qrels", "query,doc,grade\n,d1,1\n", "qrels-noq.csv, line 2: the query id is empty"),
    (
        "huge.qrels",
        "qrels",
        "q1 0 d1 99999999999999999999\n",
        f"huge.qrels, line 1: grade '99999999999999999999' {OUT_OF_RANGE}",
    ),
    ("neg.qrels", "qrels", "q1 0 d1 -3000000000\n", f"neg.qrels, line 1: grade '-3000000000' {OUT_OF_RANGE}"),
    ("e300.qrels", "qrels", "q1 0 d1 1e300\n", f"e300.qrels, line 1: grade '1e300' {OUT_OF_RANGE}"),
    ("half.qrels", "qrels", "q1 0 d1 0.5\n", f"half.qrels, line 1: grade '0.5' {NOT_INTEGER}"),
    ("inf.qrels", "qrels", "q1 0 d1 inf\n", f"inf.qrels, line 1: grade 'inf' {NOT_INTEGER}"),
    ("nan.run", "run", "q1 Q0 d1 1 nan s\n", "nan.run, line 1: score 'nan' is not a number"),
    (
        "token.run",
        "run",
        f"q1 Q0 d1 1 1.0 s\nq1 Q0 d2 2 {LONG} s\n",
        f"token.run, line 2: score {PREFIX} is not a number",
    ),
    ("grade.qrels", "qrels", f"q1 0 d1 {LONG}\n", f"grade.qrels, line 1: grade {PREFIX} {NOT_INTEGER}"),
    (
        "longdoc.run",
        "run",
        f"q1 Q0 d1 1 2.0 s\nq1 Q0 {LONG} 2 1.0 s\n",
        f"longdoc.run, line 2: the doc id {PREFIX} is 10,000,000 bytes long; ids are at most 4,096 bytes",
    ),
    (
        "longquery.qrels",
        "qrels",
        f"{'q' * 5000} 0 d1 1\n",
        f"longquery.qrels, line 1: the query id {'q' * 40!r}… (5,000 characters) is 5,000 bytes long; ids are at "
        "most 4,096 bytes",
    ),
    (
        "longtag.run",
        "run",
        f"q1 Q0 d1 1 2.0 {LONG}\n",
        f"longtag.run, line 1: is {len('q1 Q0 d1 1 2.0 ') + len(LONG):,} bytes long; lines are at most 4,194,304 bytes",
    ),
    (
        "header.csv",
        "run",
        f"a,b,{'c' * 100}\n",
        f"header.csv, line 1: expected a header naming the columns (query, doc, score); found {'a,b,' + 'c' * 36!r}"
        "… (104 characters)",
    ),
    (
        "dup.run",
        "run",
        f"q1 Q0 {'z' * 60} 1 2.0 s\nq1 Q0 {'z' * 60} 2 1.0 s\n",
        f"dup.run, line 2: doc {'z' * 40!r}… (60 characters) appears twice for query 'q1' (line 1 and line 2); "
        "trec_eval aborts on duplicate docs; keep one",
    ),
    (
        "nul.run",
        "run",
        "q1 Q0 d\x001 1 2.0 s\n",
        "nul.run, line 1: contains a NUL byte; this looks like a binary file, not a text run file",
    ),
    ("score.csv", "run", "query,doc,score\nq1,d1,high\n", "score.csv, line 2: score 'high' is not a number"),
    ("grade.tsv", "qrels", "query\tdoc\tgrade\nq1\td1\t2.5\n", f"grade.tsv, line 2: grade '2.5' {NOT_INTEGER}"),
]
# The code each message ends with (its page in the docs): metrics.core.error_codes.
CODE_OF = {
    "empty-doc.csv": "id-empty",
    "empty-query.csv": "id-empty",
    "empty-doc.tsv": "id-empty",
    "qrels-empty.csv": "id-empty",
    "qrels-noq.csv": "id-empty",
    "huge.qrels": "grade-out-of-range",
    "neg.qrels": "grade-out-of-range",
    "e300.qrels": "grade-out-of-range",
    "half.qrels": "grade-not-integer",
    "inf.qrels": "grade-not-integer",
    "nan.run": "not-a-number",
    "token.run": "not-a-number",
    "grade.qrels": "grade-not-integer",
    "longdoc.run": "id-too-long",
    "longquery.qrels": "id-too-long",
    "longtag.run": "line-too-long",
    "header.csv": "header-expected",
    "dup.run": "duplicate-doc",
    "nul.run": "not-text",
    "score.csv": "not-a-number",
    "grade.tsv": "grade-not-integer",
}
BAD_FILES = [
    (name, kind, content, f"{expected} (see errors/{CODE_OF[name]} in the docs)")
    for name, kind, content, expected in BAD_FILES
]


def _cli(capsys, *args) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _write(directory: Path, name: str, content: str) -> Path:
    path = directory / name
    path.write_bytes(content.encode("utf-8"))
    return path


def _slow_path_variant(content: str) -> str:
    """The same lines and one more, short of columns, at the end: pyarrow cannot parse the file (nor its
    whitespace-squeezed form), so the line scanner reads it from the top and must meet the same bad line first."""
    return content + "q9\n"


PATHS = [(*case, "fast") for case in BAD_FILES] + [(*case, "slow") for case in BAD_FILES if case[0] != "dup.run"]
# (a doc given twice is found after parsing, not on one line: a file that cannot be parsed stops at its bad line)


@pytest.mark.parametrize(
    ("name", "kind", "content", "expected", "path"), PATHS, ids=[f"{case[0]}-{case[-1]}" for case in PATHS]
)
def test_cli_refuses_with_file_line_and_reason(tmp_path, capsys, name, kind, content, expected, path):
    bad = _write(tmp_path, name, content if path == "fast" else _slow_path_variant(content))
    good = _write(tmp_path, "good.qrels" if kind == "run" else "good.run", QRELS if kind == "run" else RUN)
    status, out, err = _cli(capsys, *((good, bad) if kind == "run" else (bad, good)))
    assert (status, out, err) == (2, "", f"error: {expected}\n")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-m", ""], "an empty -m; name a measure such as NDCG@10, map or P.5,10"),
        (["-m", ",, ,"], "measure list ',, ,' has an empty item"),
        (
            ["-m", "P@99999999999999999999"],
            f"measure 'P@99999999999999999999': the cutoff {HUGE} is beyond the largest allowed, 1,000,000,000",
        ),
        (
            ["-m", "R@99999999999999999999"],
            f"measure 'R@99999999999999999999': the cutoff {HUGE} is beyond the largest allowed, 1,000,000,000",
        ),
        (
            ["-m", "HitRate@99999999999999999999"],
            f"measure 'HitRate@99999999999999999999': the cutoff {HUGE} is beyond the largest allowed, 1,000,000,000",
        ),
        (
            ["-m", "P_1000000001"],
            "measure 'P_1000000001': the cutoff 1000000001 is beyond the largest allowed, 1,000,000,000",
        ),
        (
            ["-m", "NDCG@" + "9" * 300],
            f"measure {'NDCG@' + '9' * 35!r}… (305 characters): the cutoff {'9' * 40}… (300 digits) is beyond the "
            "largest allowed, 1,000,000,000",
        ),
        (["-l", "-1"], "-l -1: the relevance level must be 0 or more (0: judged docs all count)"),
    ],
)
def test_cli_refuses_bad_options_in_one_line(tmp_path, capsys, args, expected):
    run, qrels = _write(tmp_path, "run.txt", RUN), _write(tmp_path, "qrels.txt", QRELS)
    code = "option-level" if args[0] == "-l" else "measure-list" if "," in args[1] or not args[1] else "measure-cutoff"
    assert _cli(capsys, qrels, run, *args) == (2, "", f"error: {expected} (see errors/{code} in the docs)\n")


def test_a_long_unknown_measure_is_quoted_by_its_prefix(tmp_path, capsys):
    run, qrels = _write(tmp_path, "run.txt", RUN), _write(tmp_path, "qrels.txt", QRELS)
    status, out, err = _cli(capsys, qrels, run, "-m", "x" * 5000)
    assert (status, out) == (2, "")
    assert err.startswith(f"error: unknown measure {'x' * 40!r}… (5,000 characters); known: P@k, R@k,")
    assert err.count("\n") == 1 and "x" * 41 not in err


def test_a_huge_cutoff_at_the_bound_is_computed(tmp_path, capsys):
    run, qrels = _write(tmp_path, "run.txt", RUN), _write(tmp_path, "qrels.txt", QRELS)
    status, out, _ = _cli(capsys, qrels, run, "-m", "P@1000000000")
    assert (status, out) == (0, f"P@1000000000\tall\t{(1 / 10**9 + 0) / 2:.4f}\n")  # q1: 1 hit in 10^9; q2: none


@pytest.mark.parametrize("name", ["run.gz", "run.txt.gz", "run.GZ"])
def test_plain_text_named_gz_is_read_by_content(tmp_path, capsys, name):
    run, qrels = _write(tmp_path, name, RUN), _write(tmp_path, "qrels.txt", QRELS)
    assert _cli(capsys, qrels, run, "-m", "P@2") == (0, "P@2\tall\t0.2500\n", "")  # q1: 1 of 2; q2: 0 of 2


def test_gzip_without_gz_name_is_read_by_content(tmp_path, capsys):
    run = tmp_path / "run.txt"
    run.write_bytes(gzip.compress(RUN.encode()))
    qrels = _write(tmp_path, "qrels.txt", QRELS)
    assert _cli(capsys, qrels, run, "-m", "P@2") == (0, "P@2\tall\t0.2500\n", "")


def test_level_0_counts_judged_non_relevant_docs_as_trec_eval_does(tmp_path, capsys):
    run, qrels = _write(tmp_path, "run.txt", RUN), _write(tmp_path, "qrels.txt", QRELS)
    measures = {"P@2": "P_2", "R@3": "recall_3", "AP": "map", "RR": "recip_rank", "HitRate@1": "success_1"}
    status, out, _ = _cli(capsys, qrels, run, "-q", "-l", "0", "--digits", "17", *(f"-m{m}" for m in measures))
    assert status == 0
    ours = {(m, q): float(v) for m, q, v in (line.split("\t") for line in out.splitlines())}
    # pytrec_eval refuses relevance_level=0 ("should be positive"), so trec_eval's -l 0 is asked for as -l 1 on
    # grades raised by 1: the same docs are relevant (every judged grade >= 0; unjudged docs never), and these
    # binary measures depend on nothing else.
    qrels_dict = {"q1": {"d1": 0 + 1, "d2": 1 + 1, "d9": 2 + 1}, "q2": {"d4": 0 + 1}}
    run_dict = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d4": 1.0}}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels_dict, set(measures.values()), relevance_level=1)
    reference = evaluator.evaluate(run_dict)
    for ours_name, trec_name in measures.items():
        for query in ("q1", "q2"):
            assert ours[(ours_name, query)] == pytest.approx(reference[query][trec_name], abs=1e-9)
    assert ours[("RR", "q2")] == 1.0  # d4 is judged 0: relevant at -l 0 (and not at -l 1)
    assert ours[("P@2", "q1")] == 1.0  # d1 (judged 0) and d2; unjudged d3 would never count


# --- the upload page -------------------------------------------------------------------------------------------


@pytest.fixture
def upload_page(monkeypatch):
    yield from uploads.opened(monkeypatch)


APP_CASES = [case for case in BAD_FILES if len(case[2]) < 1_000_000] + [
    next(case for case in BAD_FILES if case[0] == "longdoc.run")
]


@pytest.mark.parametrize(("name", "kind", "content", "expected"), APP_CASES, ids=[case[0] for case in APP_CASES])
def test_upload_shows_the_same_message_as_the_cli(upload_page, name, kind, content, expected):
    bad = (name, content.encode())
    good = ("good.qrels", QRELS.encode()) if kind == "run" else ("good.run", RUN.encode())
    at = uploads.upload(upload_page, bad, good) if kind == "run" else uploads.upload(upload_page, good, bad)
    assert not at.exception
    assert [shown(e.value) for e in at.error] == [expected]


def test_upload_of_plain_text_named_gz_is_read(upload_page):
    at = uploads.upload(upload_page, ("run.gz", RUN.encode()), ("qrels.txt", QRELS.encode()))
    assert [shown(s.value) for s in at.success] == ["run.gz: 4 lines, 2 queries", "qrels.txt: 4 judgments, 2 queries"]


@pytest.mark.parametrize(
    "measure", ["P@99999999999999999999", "R@99999999999999999999", "HitRate@99999999999999999999"]
)
def test_huge_cutoff_typed_in_the_app_is_an_explained_error(upload_page, measure):
    at = uploads.upload(upload_page, ("run.txt", RUN.encode()), ("qrels.txt", QRELS.encode()))
    at.text_input(key="yd_more_measures").input(measure).run()
    assert not at.exception
    errors = [shown(e.value) for e in at.error]
    assert errors == [
        f"Measure '{measure}': the cutoff 99999999999999999999 is beyond the largest allowed, 1,000,000,000 "
        "(see errors/measure-cutoff in the docs)"
    ]
    assert not any("Unexpected error" in shown(e.value) for e in at.error)
    assert at.dataframe  # the other measures are still scored


# --- share links ------------------------------------------------------------------------------------------------

LINKS = [
    (
        {"docs": "d1", "titles": "%E0%A4%A"},
        "Link key 'titles': the title '%E0%A4%A' of 'd1' has broken percent-encoding "
        "(bytes that are not UTF-8 text); they are shown as \ufffd.",
    ),
    (
        {"docs": "d1", "titles": "%FF"},
        "Link key 'titles': the title '%FF' of 'd1' has broken percent-encoding "
        "(bytes that are not UTF-8 text); they are shown as \ufffd.",
    ),
    (
        {"docs": "d1", "grades": "99999999999999999999"},
        "Link key 'grades': the grade '99999999999999999999' of 'd1' is not a whole number >= 0; using 0.",
    ),
    (
        {"docs": "d1", "k": "99999999999999999999"},
        "Link key 'k': '99999999999999999999' is not a whole number from 1 to 100; using k = 5.",
    ),
    ({"docs": "d1", "k": "1e3"}, "Link key 'k': '1e3' is not a whole number from 1 to 100; using k = 5."),
    (
        {"docs": "d1", "grades": "x" * 100},
        f"Link key 'grades': the grade {'x' * 30 + '…'!r} of 'd1' is not a whole number >= 0; using 0.",
    ),
    ({"docs": "d1", "gain": "**exp**"}, "Link key 'gain': '**exp**' is not linear or exp; using linear."),
    ({"docs": "d1", "<script>": "1"}, "Link key '<script>': not part of a scenario link; ignored."),
    ({"docs": "d1,,d2"}, "Link key 'docs': empty document id at position 2; ignored."),
    ({"docs": "d1", "missing": ":2"}, "Link key 'missing': the entry ':2' has no document id; ignored."),
]
LINKS = [(params, f"{expected} (see errors/share-link in the docs)") for params, expected in LINKS]


@pytest.mark.parametrize(("params", "expected"), LINKS)
def test_share_link_warning_is_exact(params, expected):
    _, warnings = url.from_query_params(params)
    assert warnings == [expected]


@pytest.mark.parametrize(("params", "expected"), LINKS[:3])
def test_share_link_warning_is_shown_literally_on_the_page(params, expected):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    [warning] = at.warning
    lines = [line for line in shown(warning.value, allowed=("strong", "ul", "li")).splitlines() if line]
    assert lines[1:] == [expected]

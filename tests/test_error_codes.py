"""Error codes: every code of the registry (metrics.core.error_codes) is raised by a bad input here, with the file and
line where there is one, and its message ends naming its page; every raise site names a registered code, and every
registered code has a raise site. (The docs' page per code: tests/test_docs.py; the upload page's error box showing
the message and its code: tests/test_hostile_input.py.)"""

from __future__ import annotations

import ast
import pickle
import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

import metrics
import metrics.io.text.fast
from ir_metrics_lab.core import url
from ir_metrics_lab.core.shared_task.collection import read_collection
from ir_metrics_lab.core.shared_task.runs import check_run
from ir_metrics_lab.session.datasets import _too_big
from metrics.cli.ir_metrics import main
from metrics.core.error_codes import CODES
from metrics.core.errors import InputError
from metrics.evaluation.zscores import read_zscores
from metrics.io import read_qrels, read_run
from metrics.io.ndeval_run import ndeval_rankings, read_ndeval_run
from metrics.io.subtopic_qrels import read_subtopic_lines

ROOT = Path(__file__).resolve().parents[1]
RUN = b"q1 Q0 d1 1 2.0 s\nq1 Q0 d2 2 1.0 s\n"
QRELS = b"q1 0 d1 1\nq1 0 d2 0\n"
POINTER = re.compile(r" \(see errors/([a-z-]+) in the docs\)$")


def _ndeval_run(source: str) -> object:
    """ir-ndeval's run reader, then its ordering (which finds repeated ranks and docs), the file shown by its name."""
    display, _, lines = read_ndeval_run(source, Path(source).name)
    return ndeval_rankings(display, lines)


def _subtopic_qrels(source: str) -> object:
    return read_subtopic_lines(source, Path(source).name)


# (code, reader, file name, the file's bytes, where the message says it is: "name, line N" or "name")
BAD_FILES = [
    ("file-empty", read_run, "run.txt", b"", "run.txt"),
    ("comments-only", read_run, "run.txt", b"# a comment\n" * 10_000, "run.txt"),
    ("gzip-invalid", read_run, "run.gz", b"\x1f\x8bnot gzip at all", "run.gz"),
    ("parquet-invalid", read_run, "run.parquet", b"not parquet", "run.parquet"),
    ("not-text", read_run, "run.txt", b"q1 Q0 d1 1 2.0 s\nq1 Q0 d\x002 2 1.0 s\n", "run.txt, line 2"),
    ("line-too-long", read_run, "run.txt", b"q1 Q0 d1 1 2.0 " + b"t" * 10_000_000 + b"\n", "run.txt, line 1"),
    ("line-columns", read_run, "run.txt", b"q1 Q0 d1 1 2.0 s\nq1 d2 1.0\n", "run.txt, line 2"),
    ("csv-columns", read_run, "run.csv", b"query,doc,score\nq1,d1,1.0,extra\n", "run.csv, line 2"),
    ("header-expected", read_run, "run.csv", b"q1,d1,1.0\n", "run.csv, line 1"),
    ("column-missing", read_run, "run.csv", b"qid,docno,value\nq1,d1,1.0\n", "run.csv, line 1"),
    ("id-empty", read_run, "run.csv", b"query,doc,score\nq1,d1,2.0\nq1,,1.0\n", "run.csv, line 3"),
    ("id-too-long", read_qrels, "qrels.txt", b"q1 0 " + b"d" * 5000 + b" 1\n", "qrels.txt, line 1"),
    ("not-a-number", read_run, "run.txt", b"q1 Q0 d1 1 2.0 s\nq1 Q0 d2 2 high s\n", "run.txt, line 2"),
    ("grade-not-integer", read_qrels, "qrels.txt", b"q1 0 d1 1\nq1 0 d2 0.7\n", "qrels.txt, line 2"),
    ("grade-out-of-range", read_qrels, "qrels.txt", b"q1 0 d1 98765432100\n", "qrels.txt, line 1"),
    ("duplicate-doc", read_run, "run.txt", b"q1 Q0 d1 1 2.0 s\nq1 Q0 d1 2 1.0 s\n", "run.txt, line 2"),
    ("duplicate-judgment", read_qrels, "qrels.txt", b"q1 0 d1 1\nq2 0 d1 1\nq1 0 d1 2\n", "qrels.txt, line 3"),
    ("duplicate-zscore", read_zscores, "z.txt", b"q1 map 0.25 0.1\nq1 map 0.3 0.1\n", "z.txt"),
    ("ndeval-number", _subtopic_qrels, "qrels.txt", b"101 1 d1 1\nq1 1 d2 1\n", "qrels.txt, line 2"),
    ("rank-repeated", _ndeval_run, "run.txt", b"101 Q0 d1 1 2.0 s\n101 Q0 d2 1 1.0 s\n", "run.txt, line 2"),
]

# A shared task's uploads: (code, the refused call, where the message says it is).
BAD_TASK_UPLOADS = [
    ("json-line-invalid", lambda: read_collection(b'{"id": "d1", "text": "b"}\n', "c.jsonl"), "c.jsonl, line 1"),
    ("doc-id-repeated", lambda: read_collection(b"id,title,text\nd1,a,b\nd1,c,d\n", "c.csv"), "c.csv, line 3"),
    ("collection-field", lambda: read_collection(b"id,title,text\nd1,,b\n", "c.csv"), "c.csv, line 2"),
    (
        "task-unknown-id",
        lambda: check_run(b"t1 Q0 d1 1 2 a\nt9 Q0 d1 1 2 a\n", "r.run", ["t1"], ["d1"]),
        "r.run, line 2",
    ),
    (
        "task-too-large",
        lambda: check_run(b"t1 Q0 d1 1 2 a\nt1 Q0 d2 2 1 a\n", "r.run", ["t1"], ["d1", "d2"], depth_max=1),
        "r.run, line 2",
    ),
]

# (code, the command line's arguments after the qrels and run files, or the judgments file's bytes for -R prefs)
BAD_OPTIONS = [
    ("measure-unknown", ["-m", "ndgc@10"]),
    ("measure-cutoff", ["-m", "P@0"]),
    ("measure-parameters", ["-m", "rbp(p=2)"]),
    ("measure-list", ["-m", "map,,P_10"]),
    ("measure-format", ["--format", "trec_eval", "-m", "NDCG_exp@10"]),
    ("option-level", ["-l", "-1"]),
    ("option-max-docs", ["-M", "0"]),
    ("option-value", ["--digits", "40"]),
    ("option-conflict", ["-R", "prefs", "-m", "map"]),
    ("debug-query", ["-D", "1.q99"]),
]
# A group preferring d1 to d2 in one subgroup and d2 to d1 in another: trec_eval 10.0 aborts ("Pref inconsistency").
CONTRADICTING_PREFS = b"q1 g1 s1 d1 2\nq1 g1 s1 d2 1\nq1 g1 s2 d1 1\nq1 g1 s2 d2 2\n"


def _refused(call: Callable[[], object]) -> InputError:
    with pytest.raises(InputError) as caught:
        call()
    error = caught.value
    message = str(error)
    assert "\n" not in message
    assert (found := POINTER.search(message)) and found[1] == error.code, message  # ends naming its page
    return error


@pytest.mark.parametrize(("code", "reader", "name", "content", "where"), BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_a_bad_file_is_refused_with_its_code_file_and_line(tmp_path, code, reader, name, content, where):
    path = tmp_path / name
    path.write_bytes(content)
    error = _refused(lambda: reader(str(path)))
    assert error.code == code
    assert str(error).startswith(f"{where}: "), str(error)
    assert error.path == name
    assert error.line == (int(where.rsplit(" ", 1)[1]) if ", line " in where else None)


@pytest.mark.parametrize(("code", "call", "where"), BAD_TASK_UPLOADS, ids=[c[0] for c in BAD_TASK_UPLOADS])
def test_a_bad_shared_task_upload_is_refused_with_its_code_and_line(code, call, where):
    error = _refused(call)
    assert error.code == code and str(error).startswith(f"{where}: "), str(error)


def test_a_missing_file_and_a_directory_are_refused_with_their_codes(tmp_path):
    missing = _refused(lambda: read_run(str(tmp_path / "nothing.txt")))
    assert (missing.code, str(missing)) == (
        "file-missing",
        "nothing.txt: no such file (see errors/file-missing in the docs)",
    )
    (tmp_path / "folder.txt").mkdir()
    folder = _refused(lambda: read_run(str(tmp_path / "folder.txt")))
    assert (folder.code, folder.path) == ("file-unreadable", "folder.txt")


def test_a_file_the_two_parsers_disagree_on_is_refused_as_parse_failed(tmp_path, monkeypatch):
    """The line scanner always names the bad line first; with it silenced, the fast path's own refusal shows."""
    monkeypatch.setattr(metrics.io.text.fast, "scan", lambda *args, **kwargs: None)
    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 d1 1 high s\n")
    error = _refused(lambda: read_run(str(path)))
    assert (error.code, error.path) == ("parse-failed", "run.txt")


def test_a_table_and_a_mapping_are_refused_with_their_codes():
    column = _refused(lambda: read_run(pd.DataFrame({"query": ["q1"], "doc": ["d1"], "score": [" 1.5"]})))
    assert column.code == "column-type" and str(column).startswith("DataFrame: the score column")
    mapping = _refused(lambda: read_qrels({"q1": ["d1", "d2"]}))
    assert mapping.code == "input-type" and str(mapping).startswith("qrels, query 'q1': qrels need grades")
    row = _refused(lambda: read_run(pd.DataFrame({"query": ["q1", "q1"], "doc": ["d1", "d2"], "score": ["1", "x"]})))
    assert (row.code, row.where, row.path) == ("not-a-number", "row 1", "DataFrame")
    mixed = _refused(lambda: read_run(pd.DataFrame({"query": ["q1", "q1"], "doc": ["d1", "d2"], "score": [1.0, "x"]})))
    assert mixed.code == "column-type" and str(mixed).startswith("DataFrame: a column cannot be converted")


def test_a_cutoff_k_of_0_is_refused_with_its_code():
    assert _refused(lambda: metrics.precision(["d1"], {"d1": 1}, k=0)).code == "cutoff-k"


@pytest.mark.parametrize(("code", "options"), BAD_OPTIONS, ids=[c[0] for c in BAD_OPTIONS])
def test_the_command_line_refuses_a_bad_option_with_its_code(tmp_path, capsys, code, options):
    (tmp_path / "qrels.txt").write_bytes(QRELS)
    (tmp_path / "run.txt").write_bytes(RUN)
    status = main([*options, str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt")])
    captured = capsys.readouterr()
    assert (status, captured.out) == (2, "")  # trec_eval's exit status for bad input, one line on stderr
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1
    assert captured.err.endswith(f" (see errors/{code} in the docs)\n"), captured.err


def test_contradicting_preferences_are_refused_with_their_code(tmp_path, capsys):
    (tmp_path / "prefs.txt").write_bytes(CONTRADICTING_PREFS)
    (tmp_path / "run.txt").write_bytes(RUN)
    status = main(["-R", "prefs", "-m", "prefs_simp", str(tmp_path / "prefs.txt"), str(tmp_path / "run.txt")])
    err = capsys.readouterr().err
    assert status == 2 and err.endswith(" (see errors/prefs-inconsistent in the docs)\n"), err


def test_a_share_links_bad_key_warns_with_its_code():
    _, warnings = url.from_query_params({"docs": "d1,d2", "grades": "3,abc"})
    assert len(warnings) == 1 and warnings[0].startswith("Link key 'grades'")
    assert warnings[0].endswith(" (see errors/share-link in the docs)")


# The codes the tests between the two tables and this line check one by one.
ONE_BY_ONE = {
    "file-missing",
    "file-unreadable",
    "parse-failed",
    "column-type",
    "input-type",
    "cutoff-k",
    "prefs-inconsistent",
    "share-link",
    "upload-too-large",
}


def test_an_upload_over_the_limit_is_refused_with_its_code():
    message = _too_big("big.run", 3 * 2**20, 2)
    assert message is not None and message.startswith("big.run: the file is 3.0 MB, over the 2 MB limit")
    assert message.endswith(" (see errors/upload-too-large in the docs)")


def test_every_registered_code_is_raised_by_a_test_above():
    tested = {case[0] for case in BAD_FILES} | {case[0] for case in BAD_OPTIONS} | ONE_BY_ONE
    assert tested | {case[0] for case in BAD_TASK_UPLOADS} == set(CODES)


def test_an_input_error_pickles_whole():
    """dask sends a worker's errors back pickled: the code, the file and the line survive."""
    error = InputError("not-a-number", "score 'x' is not a number", "run.txt", 3)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.path, copy.line, str(copy)) == ("not-a-number", "run.txt", 3, str(error))


def test_an_unregistered_code_is_refused():
    with pytest.raises(KeyError, match="unregistered error code 'no-such-code'"):
        InputError("no-such-code", "a problem")


# --- the raise sites ---

PACKAGES = ("metrics", "ir_metrics_lab", "app_pages")


def _code_sites() -> list[tuple[str, int, ast.expr]]:
    """(file, line, the code's expression) of each InputError(...), Problem(...) and pointer(...) call."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "metrics/core/errors.py":  # where InputError and pointer are defined
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name in ("InputError", "Problem", "pointer"):
                    found.append((str(path.relative_to(ROOT)), node.lineno, node.args[0]))
    return found


def _codes_of(expression: ast.expr) -> list[str] | None:
    """The codes a code expression can take: a literal, or a conditional between literals; None for anything else."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return [expression.value]
    if isinstance(expression, ast.IfExp):
        body, orelse = _codes_of(expression.body), _codes_of(expression.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


def test_every_raise_site_names_a_registered_code_and_every_code_has_one():
    used = set()
    for path, line, expression in _code_sites():
        if isinstance(expression, ast.Starred):  # InputError(*problem, ...): a Problem, itself checked here
            continue
        codes = _codes_of(expression)
        assert codes is not None, f"{path}:{line}: the error code must be written out, a literal"
        assert set(codes) <= set(CODES), f"{path}:{line}: unregistered code {codes}"
        used.update(codes)
    assert used == set(CODES)  # no code without a raise site


def test_readers_and_command_lines_refuse_with_coded_errors_only():
    """No bare ValueError left where input is read or options are checked (an internal check may assert)."""
    folders = ["metrics/io/text", "metrics/io/columnar", "metrics/cli", "metrics/preferences"]
    files = [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))]
    files += [ROOT / "metrics/catalog/measures.py", ROOT / "metrics/catalog/measure_lists.py"]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "raise ValueError(" not in text, path.relative_to(ROOT)


# --- the docs pages' examples are true ---

# Codes whose example is a file's text: the reader it is given to, and the file's name.
FILE_EXAMPLES = {
    "file-empty": (read_run, "run.csv"),
    "line-columns": (read_run, "run.txt"),
    "csv-columns": (read_run, "run.csv"),
    "header-expected": (read_run, "run.csv"),
    "column-missing": (read_run, "run.csv"),
    "id-empty": (read_run, "run.csv"),
    "not-a-number": (read_run, "run.txt"),
    "grade-not-integer": (read_qrels, "qrels.txt"),
    "grade-out-of-range": (read_qrels, "qrels.txt"),
    "duplicate-doc": (read_run, "run.txt"),
    "duplicate-judgment": (read_qrels, "qrels.txt"),
    "duplicate-zscore": (read_zscores, "z.txt"),
}
PREFS = b"q1 g1 s1 d1 2\nq1 g1 s1 d2 1\n"


@pytest.mark.parametrize("code", sorted(FILE_EXAMPLES))
def test_a_file_example_of_the_docs_is_refused_with_its_code_and_its_fix_is_read(tmp_path, code):
    reader, name = FILE_EXAMPLES[code]
    entry = CODES[code]
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / name).write_text(entry.bad, encoding="utf-8")
    assert _refused(lambda: reader(str(tmp_path / "bad" / name))).code == code
    (tmp_path / name).write_text(entry.good, encoding="utf-8")
    reader(str(tmp_path / name))  # read without error


@pytest.mark.parametrize("code", ["json-line-invalid", "doc-id-repeated", "collection-field", "task-unknown-id"])
def test_a_shared_task_example_of_the_docs_is_refused_with_its_code_and_its_fix_is_read(code):
    entry = CODES[code]

    def read(text: str) -> object:
        if code == "task-unknown-id":
            return check_run(text, "run.txt", ["t1"], ["d17"])
        return read_collection(text, "collection")

    assert _refused(lambda: read(entry.bad)).code == code
    read(entry.good)  # read without error


@pytest.mark.parametrize("code", sorted(code for code, entry in CODES.items() if entry.bad.startswith("python -m")))
def test_a_command_line_example_of_the_docs_is_refused_with_its_code_and_its_fix_runs(tmp_path, capsys, code):
    (tmp_path / "qrels.txt").write_bytes(QRELS)
    (tmp_path / "run.txt").write_bytes(RUN)
    (tmp_path / "prefs.txt").write_bytes(PREFS)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "bm25.run").write_bytes(RUN)
    entry = CODES[code]

    def status(example: str) -> tuple[int, str]:
        words = shlex.split(example)
        assert words[:3] == ["python", "-m", "metrics"]
        files = [str(tmp_path / word) if word.endswith((".txt", ".run", "/")) else word for word in words[3:]]
        done = main(files)
        return done, capsys.readouterr().err

    refused, err = status(entry.bad)
    assert refused == 2 and err.endswith(f" (see errors/{code} in the docs)\n"), err
    assert status(entry.good) == (0, "")

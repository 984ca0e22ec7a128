"""A doc given twice: trec_eval 10.0 cuts each ranking to its top -M, then refuses a doc given twice, so a copy
beyond the cut is accepted (and does not count); and it checks only the queries it evaluates (the judged; with -D
LEVEL.QID that one), so a doc twice for a query only the run has is accepted, with -c too. Its recorded answers
(tests/data/trec_eval10/max_docs_duplicates.json, made by scripts/make_max_docs_duplicates.py) are replayed through
every way the CLI reads a run: whole (plain text, Arrow), streamed (one block, or pieces smaller than a query), Parquet
(written with --to-parquet, or given as the run), Dask, and the -R qrels_jg and prefs readers; the library's read_run
takes the cut and the evaluated queries too, and without them refuses every doc given twice.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from unittest import mock

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics.io.text.plain
from metrics.cli.ir_metrics import main
from metrics.compare.leaderboard import evaluate_runs
from metrics.io import InputError, read_run

CASES = json.loads((Path(__file__).parent / "data" / "trec_eval10" / "max_docs_duplicates.json").read_text())


def _case_id(case: dict) -> str:
    return f"{case['name']}:{' '.join(case['args'])}"


def _files(tmp_path: Path, case: dict) -> tuple[str, str]:
    judgments, run = tmp_path / "judgments", tmp_path / "run.txt"
    judgments.write_text(case["judgments"])
    run.write_text(case["run"])
    return str(judgments), str(run)


def _parquet(tmp_path: Path, run_text: str) -> str:
    rows = [line.split() for line in run_text.splitlines()]
    table = pa.table({"query": [r[0] for r in rows], "doc": [r[2] for r in rows], "score": [float(r[4]) for r in rows]})
    path = tmp_path / "run.parquet"
    pq.write_table(table, path)
    return str(path)


def _cli(args: list[str], *, arrow: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        if arrow:  # small files read with pyarrow too
            stack.enter_context(mock.patch.object(metrics.io.text.plain, "SMALL_FILE_BYTES", 0))
        status = main([*args, "--format", "trec_eval"])
    return status, out.getvalue(), err.getvalue()


def _assert_as_trec_eval(case: dict, status: int, out: str, err: str) -> None:
    if case["rc"] == 0:  # our notes (e.g. a query only in the run, ignored) are not trec_eval's output
        assert status == 0 and not [line for line in err.splitlines() if not line.startswith("note: ")], err
        assert out == case["stdout"]
    else:  # trec_eval refused a doc given twice within the cut: we do too, with our message
        assert status == 2 and "appears twice" in err and "duplicate-doc" in err, err


QRELS_CASES = [case for case in CASES if "-R" not in case["args"]]
OTHER_CASES = [case for case in CASES if "-R" in case["args"]]
READS = {
    "default": [],
    "whole": ["--no-stream"],
    "stream": ["--stream"],
    "stream in small pieces": ["--stream", "--block-bytes", "40"],
}


def test_recorded_cases_cover_both_answers():
    """The recorded set holds accepted and refused runs of each -R format (a set that lost either would test less)."""
    for rel_format in ("qrels", "qrels_jg", "prefs"):
        mine = [case for case in CASES if (case["args"][-1] if "-R" in case["args"] else "qrels") == rel_format]
        assert {case["rc"] == 0 for case in mine} == {True, False}, rel_format


@pytest.mark.parametrize("read", list(READS))
@pytest.mark.parametrize("case", QRELS_CASES, ids=_case_id)
def test_qrels_cases_as_trec_eval(tmp_path, case, read):
    judgments, run = _files(tmp_path, case)
    _assert_as_trec_eval(case, *_cli([*case["args"], *READS[read], judgments, run], arrow=read == "whole"))


@pytest.mark.parametrize("case", QRELS_CASES, ids=_case_id)
def test_qrels_cases_through_parquet(tmp_path, case):
    judgments, run = _files(tmp_path, case)
    written = _cli([*case["args"], "--to-parquet", str(tmp_path / "dataset"), judgments, run])
    _assert_as_trec_eval(case, *written)
    given = _cli([*case["args"], judgments, _parquet(tmp_path, case["run"])])
    if case["rc"] == 0:  # the run's name (runid) is the Parquet file's tag-less name: compare the values only
        assert given[0] == 0 and _values(given[1]) == _values(case["stdout"])
    else:
        assert given[0] == 2 and "appears twice" in given[2]


def _values(stdout: str) -> list[list[str]]:
    return [line.split("\t") for line in stdout.splitlines() if not line.startswith("runid")]


@pytest.mark.parametrize("case", OTHER_CASES, ids=_case_id)
def test_judgment_group_and_prefs_cases_as_trec_eval(tmp_path, case):
    judgments, run = _files(tmp_path, case)
    _assert_as_trec_eval(case, *_cli([*case["args"], judgments, run]))
    _assert_as_trec_eval(case, *_cli([*case["args"], judgments, run], arrow=True))


def test_dask_as_trec_eval(tmp_path):
    """The first case on a cluster of the CLI's own (``local:1``); the others on one cluster given by its address:
    starting a cluster per case cost most of this file's time."""
    distributed = pytest.importorskip("distributed")
    first, *others = [*QRELS_CASES[:5], *[case for case in QRELS_CASES if "run only" in case["name"]]]
    judgments, run = _files(tmp_path, first)
    _assert_as_trec_eval(first, *_cli([*first["args"], "--dask", "local:1", judgments, run]))
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=50
    ) as cluster:
        for case in others:
            judgments, run = _files(tmp_path, case)
            _assert_as_trec_eval(case, *_cli([*case["args"], "--dask", cluster.scheduler_address, judgments, run]))


def _cut(args: list[str]) -> int | None:
    for at, arg in enumerate(args):
        if arg == "-M":
            return int(args[at + 1])
        if arg.startswith("-M"):
            return int(arg[2:])
    return None


def _evaluated(case: dict) -> set[str]:
    """The queries trec_eval evaluates: the judged, or with -D LEVEL.QID that one."""
    judged = {line.split()[0] for line in case["judgments"].splitlines()}
    args = case["args"]
    return judged & {args[args.index("-D") + 1].split(".", 1)[1]} if "-D" in args else judged


@pytest.mark.parametrize("case", QRELS_CASES, ids=_case_id)
def test_read_run_takes_the_cut(tmp_path, case):
    """read_run(max_docs=, queries=) accepts what trec_eval accepts under that -M and those evaluated queries; without
    them every doc given twice is refused (each recorded run gives one)."""
    _, run = _files(tmp_path, case)
    cut, queries = _cut(case["args"]), _evaluated(case)
    if case["rc"] == 0:
        read_run(run, max_docs=cut, queries=queries)
    else:
        with pytest.raises(InputError, match="appears twice"):
            read_run(run, max_docs=cut, queries=queries)
    with pytest.raises(InputError, match="appears twice"):
        read_run(run)


@pytest.mark.parametrize("stream", [False, True])
def test_compare_runs_as_trec_eval(tmp_path, stream):
    """metrics.compare (python -m metrics.cli.ir_metrics_compare) checks the judged queries only, read whole or
    streamed: a run trec_eval accepts (without -c, -D or -M) is scored, one it refuses is refused."""
    plain = [case for case in QRELS_CASES if case["args"][0] in ("-q", "-c") and "run only" in case["name"]]
    assert {case["rc"] == 0 for case in plain} == {True, False}
    for case in plain:
        judgments, run = _files(tmp_path, case)
        if case["rc"] == 0:
            evaluate_runs([("run", run)], judgments, ["map"], stream=stream)
        else:
            with pytest.raises(InputError, match="appears twice"):
                evaluate_runs([("run", run)], judgments, ["map"], stream=stream)

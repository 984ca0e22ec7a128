"""ndeval 4.5 is the oracle for the diversity measures: its recorded output over random and edge-case inputs,
replayed through ``ir-ndeval``'s main in this process.

tests/data/ndeval45/corpus.jsonl.gz holds what the binary printed (scripts/make_ndeval_corpus.py made it; run it
again with a binary's path to regenerate). Each case's stdout must equal ndeval's byte for byte with status 0 where
ndeval's is 0; where ndeval refuses the input, we must refuse it too (status 2, nothing on stdout, one line on stderr
naming the problem: our messages are ours). With NDEVAL_BIN naming an ndeval 4.5 binary, random inputs drawn by the
same generators are also scored live by it (test_live_differential); without one that test is skipped, saying why.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from metrics.cli.ir_ndeval import main

CORPUS = Path(__file__).parent / "data" / "ndeval45" / "corpus.jsonl.gz"


@functools.cache
def _corpus() -> tuple[dict, dict[int, dict], list[dict]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    inputs = {r["id"]: r for r in rows if r["kind"] == "input"}
    return rows[0], inputs, [r for r in rows if r["kind"] == "case"]


def run_cli(args: list[str]) -> tuple[int, bytes, str]:
    """main(args) in this process: (status, stdout bytes, stderr text)."""
    out, err = io.BytesIO(), io.StringIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    with mock.patch.object(sys, "stdout", stdout), contextlib.redirect_stderr(err):
        status = main(args)
        stdout.flush()
    return status, out.getvalue(), err.getvalue()


def _check(args: list[str], qrels: str, run: str, expected: dict, folder: Path) -> None:
    (folder / "qrels").write_bytes(qrels.encode())
    (folder / "run").write_bytes(run.encode())
    status, out, err = run_cli([*args, str(folder / "qrels"), str(folder / "run")])
    context = f"args {args}\nqrels:\n{qrels}\nrun:\n{run}\nndeval's stderr: {expected['stderr']}\nours: {err}"
    if expected["rc"] == 0:
        assert (status, out.decode()) == (0, expected["stdout"]), context
    else:
        assert status == 2 and out == b"" and err.count("\n") == 1 and err.startswith("error: "), context


def test_the_corpus_was_recorded_from_ndeval_45():
    meta, _inputs, cases = _corpus()
    assert meta["ndeval"] == "4.5" and meta["cases"] == len(cases) > 400
    assert {c["rc"] for c in cases} == {0, 1}  # it holds refusals as well as answers


def test_corpus_cases(tmp_path):
    """Every recorded case, replayed (the failures of all are reported together)."""
    _, inputs, cases = _corpus()
    failures = []
    for case in cases:
        source = inputs[case["input"]]
        try:
            _check(case["args"], source["qrels"], source["run"], case, tmp_path)
        except AssertionError as failure:
            failures.append(str(failure))
    assert not failures, f"{len(failures)} of {len(cases)} cases differ; the first:\n{failures[0]}"


NDEVAL_BIN = os.environ.get("NDEVAL_BIN", "")
LIVE_EXAMPLES = int(os.environ.get("NDEVAL_LIVE_EXAMPLES", "40"))


def _no_binary() -> str | None:
    if not NDEVAL_BIN:
        return "NDEVAL_BIN is not set: point it at an ndeval 4.5 binary to score random inputs live"
    if not os.access(NDEVAL_BIN, os.X_OK):
        return f"NDEVAL_BIN={NDEVAL_BIN} is not an executable file"
    return None


def test_live_differential(tmp_path):
    """Random inputs from the corpus's generators, scored by the binary and by us."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from scripts import make_ndeval_corpus as corpus

    if reason := _no_binary():
        pytest.skip(reason)
    version = subprocess.run([NDEVAL_BIN, "-version"], capture_output=True, text=True).stdout
    assert "version 4.5" in version, version

    @settings(max_examples=LIVE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(seed=st.integers(0, 2**32 - 1), args=st.sampled_from(corpus.OPTION_SETS))
    def check(seed, args):
        qrels, run = corpus.draw_input(random.Random(seed))
        (tmp_path / "theirs").mkdir(exist_ok=True)
        expected = corpus.score(NDEVAL_BIN, args, qrels, run, tmp_path / "theirs")
        _check(args, qrels, run, expected, tmp_path)

    check()


README_EXAMPLE = CORPUS.parent / "trec2012"


@pytest.mark.parametrize("index", [0, 1])
def test_the_track_readme_example(index, tmp_path):
    """The track's README command (``ndeval -c -traditional qrels.txt run.txt``, and without options) on the TREC 2012
    Web track's qrels-for-ndeval.txt and its baseline run: 50 topics, 59,736 judgments (scripts/make_ndeval_corpus.py
    says where they come from)."""
    expected = json.loads((README_EXAMPLE / "outputs.json").read_text())[index]
    paths = []
    for name in ("qrels-for-ndeval.txt", "results-cata-filtered.txt"):
        (tmp_path / name).write_bytes(gzip.decompress((README_EXAMPLE / f"{name}.gz").read_bytes()))
        paths.append(str(tmp_path / name))
    status, out, err = run_cli([*expected["args"], *paths])
    assert (status, err) == (0, "")
    assert out.decode() == expected["stdout"]
    assert out.decode().count("\n") == 52  # the header, 50 topics, amean

"""One EvaluationOptions for every evaluation path (metrics.evaluation.options): ``options=`` and the keywords are the
same call on every path, the options travel to Dask pickled, and both command lines build them from their arguments
with one function (metrics.cli.common.evaluation_options) and share the "large runs" options."""

from __future__ import annotations

import argparse
import contextlib
import io
import pickle
from pathlib import Path

import pytest

from metrics.cli.common import evaluation_options
from metrics.cli.ir_metrics import main as single_run_cli
from metrics.cli.ir_metrics_compare import main as leaderboard_cli
from metrics.compare.leaderboard import evaluate_runs
from metrics.core.conventions import Conventions
from metrics.evaluation.engine import evaluate
from metrics.evaluation.options import EvaluationOptions
from metrics.evaluation.streaming import evaluate_stream
from tests.test_streaming import assert_same

SAMPLES = Path(__file__).parents[1] / "data" / "samples"
QRELS, RUN = SAMPLES / "qrels.txt.gz", SAMPLES / "bm25.run.gz"
MEASURES = ["P@5", "AP", "NumRel", "NDCG@10", "RR"]
SWITCHES = {"conventions": Conventions(threshold=2), "complete": True, "max_docs": 50, "judged_only": True}


def test_options_and_their_keywords_are_the_same_call_on_every_path():
    by_keywords = evaluate(RUN, QRELS, MEASURES, **SWITCHES)
    assert by_keywords.means != evaluate(RUN, QRELS, MEASURES).means  # the switches matter on this run
    options = EvaluationOptions(**SWITCHES, piece_bytes=4000)  # blocks of a few queries when streamed
    assert_same(by_keywords, evaluate(RUN, QRELS, MEASURES, options=options))
    assert_same(by_keywords, evaluate_stream(RUN, QRELS, MEASURES, options=options))
    assert_same(by_keywords, evaluate_stream(RUN, QRELS, MEASURES, piece_bytes=4000, **SWITCHES))
    for stream in (False, True):
        (on_the_board,) = evaluate_runs([("bm25", RUN)], QRELS, MEASURES, options=options, stream=stream).values()
        assert_same(by_keywords, on_the_board)


def test_keywords_override_the_options_given_and_a_misspelt_one_is_refused():
    options = EvaluationOptions(**SWITCHES)
    assert_same(evaluate(RUN, QRELS, MEASURES, **SWITCHES), evaluate(RUN, QRELS, MEASURES, options=options))
    overridden = evaluate(RUN, QRELS, MEASURES, options=options, complete=False, max_docs=None)
    assert_same(evaluate(RUN, QRELS, MEASURES, conventions=Conventions(threshold=2), judged_only=True), overridden)
    with pytest.raises(TypeError, match="judged_onyl"):
        evaluate(RUN, QRELS, MEASURES, judged_onyl=True)


def test_the_options_pickle_small_for_dask():
    options = EvaluationOptions(**SWITCHES, piece_bytes=4000, spill_dir="/tmp")
    sent = pickle.dumps(options)
    assert pickle.loads(sent) == options and len(sent) < 1000


def test_both_command_lines_build_the_options_by_one_function():
    single = argparse.Namespace(
        level=2, complete=True, max_docs=5, judged_only=True, recall_rounding="plus_0.9", block_bytes=100
    )
    conventions = Conventions(threshold=2, recall_rounding="plus_0.9")
    assert evaluation_options(single) == EvaluationOptions(conventions, True, 5, True, piece_bytes=100)
    several = argparse.Namespace(level=0, complete=False, block_bytes=None)  # the leaderboard has no -M, -J
    assert evaluation_options(several) == EvaluationOptions(Conventions(threshold=0))


@pytest.mark.parametrize(
    ("cli", "runs"), [(single_run_cli, [RUN]), (leaderboard_cli, [RUN, RUN])], ids=["ir-metrics", "ir-metrics-compare"]
)
def test_both_command_lines_refuse_a_block_size_below_one_byte(cli, runs):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli([str(path) for path in (QRELS, *runs)] + ["--block-bytes", "0"])
    assert status == 2
    assert (
        err.getvalue()
        == "error: --block-bytes must be a positive number of bytes, got 0 (see errors/option-value in the docs)\n"
    )

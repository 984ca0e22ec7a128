"""YAAP, trec_eval 10.0's yaap (metrics.families.yaap). pytrec_eval's trec_eval 9.0.x has no yaap: the reference is
trec_eval 10.0's recorded output (tests/data/trec_eval10/corpus.jsonl.gz: yaap alone, under -c, -J, -M, -l, and
beside other measures; tests/test_trec_eval10_corpus.py replays every case through the CLI byte for byte)."""

from __future__ import annotations

import contextlib
import io
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions, average_precision, parse_measure
from metrics.cli.ir_metrics import main
from metrics.core.types import Term
from metrics.evaluation.engine import evaluate
from metrics.families.yaap import yet_another_average_precision as yaap
from tests.families.check import RUNS, SETTINGS, THRESHOLDS, _corpus, equals_trec_eval10, kernel_equals_readable
from tests.strategies import queries

NAMES = ["YAAP", "YAAP@3", "yaap"]
TOL = 1e-12


@SETTINGS
@given(RUNS, THRESHOLDS)
def test_kernel_equals_readable(data, threshold):
    kernel_equals_readable(NAMES, *data, Conventions(threshold=threshold))


def test_equals_trec_eval_10():
    """trec_eval 10.0's own values: yaap asked alone with -q, on every input of its recorded corpus."""
    assert equals_trec_eval10("yaap") > 0


def test_worked_example_by_hand():
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 1, "z": 1}  # R = 3; relevant at ranks 1 and 3
    b = yaap(ranking, qrels)
    # S = 1/1 + 2/3 = 5/3; YAAP = log((1 + 5/3) / (1 + 3 - 5/3)) = log((8/3) / (7/3)) = log(8/7)
    assert b.value == pytest.approx(math.log(8 / 7), abs=TOL)
    assert b.terms == {Term.PRECISION_SUM: pytest.approx(5 / 3), Term.R: 3, Term.HITS: 2}
    assert average_precision(ranking, qrels).value == pytest.approx((5 / 3) / 3)  # AP = S / R, from the same S
    # the top 2: S = 1/1, R still 3: log((1 + 1) / (1 + 3 - 1)) = log(2/3)
    assert yaap(ranking, qrels, 2).value == pytest.approx(math.log(2 / 3), abs=TOL)
    # at threshold 2 only "a" (grade 2) is relevant: R = 1, S = 1/1, log((1 + 1) / (1 + 1 - 1)) = log(2)
    graded = {"a": 2, "b": 1, "z": 1}
    assert yaap(ranking, graded, conventions=Conventions(threshold=2)).value == pytest.approx(math.log(2), abs=TOL)


def test_the_extremes_by_hand():
    qrels = {"a": 1, "b": 1, "n": 0}  # R = 2
    # nothing relevant retrieved, or nothing retrieved: S = 0, log(1 / (1 + 2)); never -inf, as the logit of AP = 0
    assert yaap(["x", "n"], qrels).value == pytest.approx(math.log(1 / 3), abs=TOL)
    assert yaap([], qrels).value == pytest.approx(math.log(1 / 3), abs=TOL)
    assert yaap([], qrels).steps == ()
    # both relevant on top: S = 1/1 + 2/2 = 2, log((1 + 2) / (1 + 2 - 2)) = log(3); never +inf, as the logit of 1
    assert yaap(["a", "b", "x"], qrels).value == pytest.approx(math.log(3), abs=TOL)
    # half way, S = R / 2: 0. Relevant at ranks 2 and 4: S = 1/2 + 2/4 = 1 = 2/2, log((1 + 1) / (1 + 2 - 1)) = 0
    assert yaap(["x", "a", "n", "b"], qrels).value == pytest.approx(0.0, abs=TOL)
    # R = 0: S = 0 as well, log(1 / 1) = 0
    assert yaap(["n", "x"], {"n": 0}).value == 0.0


def test_steps_by_hand():
    """Each rank's running value is the YAAP of the list cut there; a relevant rank's contribution is the rise."""
    steps = yaap(["a", "x", "b"], {"a": 1, "b": 1, "z": 1}).steps  # R = 3; the empty list: log(1/4)
    # rank 1: S = 1, log(2/3); rank 2 (not relevant): unchanged; rank 3: S = 5/3, log(8/7) (as above)
    assert [s.running for s in steps] == pytest.approx([math.log(2 / 3), math.log(2 / 3), math.log(8 / 7)], abs=TOL)
    # rises: log(2/3) - log(1/4) = log(8/3), 0, log(8/7) - log(2/3) = log(12/7)
    assert [s.contribution for s in steps] == pytest.approx([math.log(8 / 3), 0.0, math.log(12 / 7)], abs=TOL)


@SETTINGS
@given(queries(min_grade=-2, max_grade=3), THRESHOLDS, st.randoms(use_true_random=False))
def test_orders_one_querys_rankings_as_ap_does(query, threshold, random):
    """On one query (R fixed) YAAP rises with S = R * AP: two rankings of it are in the same order by both."""
    ranking, qrels = query
    other = random.sample(ranking, len(ranking))
    conventions = Conventions(threshold=threshold)
    ap = [average_precision(r, qrels, conventions=conventions).value for r in (ranking, other)]
    smoothed = [yaap(r, qrels, conventions=conventions).value for r in (ranking, other)]
    if ap[0] < ap[1]:
        assert smoothed[0] <= smoothed[1]
    elif ap[0] > ap[1]:
        assert smoothed[0] >= smoothed[1]


def test_a_query_missing_from_the_run_under_c_by_hand():
    """trec_eval -c scores a missing query on its stand-in ranking, one unjudged document (trec_eval.c), and leaves
    yaap as computed: S = 0, log(1 / (1 + R)), not 0."""
    result = evaluate({"q1": ["a"]}, {"q1": {"a": 1}, "q2": {"b": 1, "c": 1}}, ["yaap"], complete=True)
    # q1: R = 1, S = 1/1, log(2 / 1); q2: R = 2, S = 0, log(1 / 3); the mean over both
    assert result.per_query["yaap"].tolist() == pytest.approx([math.log(2), math.log(1 / 3)], abs=TOL)
    assert result.means["yaap"] == pytest.approx((math.log(2) + math.log(1 / 3)) / 2, abs=TOL)
    assert parse_measure("yaap").canonical == "YAAP"


def _by_query(*outputs: str) -> str:
    """trec_eval -q outputs of single measures merged as one run asking them all prints them: each query's lines
    together, in the order given (trec_eval's measure order), then the 'all' lines."""
    per_query: dict[str, list[str]] = {}
    summary: list[str] = []
    for output in outputs:
        for line in output.splitlines(keepends=True):
            query = line.split("\t")[1]
            (summary if query == "all" else per_query.setdefault(query, [])).append(line)
    return "".join(line for lines in per_query.values() for line in lines) + "".join(summary)


def test_rbp_beside_yaap_is_rbp_alone(tmp_path):
    """trec_eval computes yaap just before rbp, and rbp's min and max are never initialised (m_rbp.c): asked together,
    trec_eval's rbp reads yaap's leftovers (README, "Known differences"). Ours is the same with or without yaap: the
    lines of `-q -m yaap -m rbp` are those trec_eval printed for yaap alone and for rbp alone."""
    inputs, alone = _corpus()
    rbp = dict(alone["rbp"])
    compared = 0
    for input_id, yaap_output in alone["yaap"]:
        if input_id not in rbp:
            continue
        record = inputs[input_id]
        files = [tmp_path / "qrels", tmp_path / "run"]
        for path, text in zip(files, [record["qrels"], record["run"]], strict=True):
            path.write_text(text, encoding="utf-8")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
            status = main(["-q", "-m", "yaap", "-m", "rbp", *map(str, files), "--format", "trec_eval"])
        assert (status, printed.getvalue()) == (0, _by_query(yaap_output, rbp[input_id])), input_id
        compared += 1
    assert compared > 40

"""ir_metrics_lab.core.cli_args: the app's own arguments (``ir-metrics-lab --run PATH --qrels PATH``, or after ``--``
with
``streamlit run app.py -- --run PATH --qrels PATH``)."""

from __future__ import annotations

import pytest

from ir_metrics_lab.core.cli_args import CliFiles, parse


def test_nothing_given():
    assert parse([]) == CliFiles()
    assert not parse([]).given


def test_run_and_qrels():
    files = parse(["--run", "runs/bm25.run.gz", "--qrels", "qrels.txt"])
    assert files == CliFiles(runs=("runs/bm25.run.gz",), qrels="qrels.txt")
    assert files.given


def test_several_runs_in_one_option_or_repeated():
    assert parse(["--run", "a", "b", "--run", "c"]).runs == ("a", "b", "c")
    assert parse(["--run=a", "--run=b"]).runs == ("a", "b")


def test_a_run_given_twice_counts_once():
    assert parse(["--run", "a", "--run", "a"]).runs == ("a",)


def test_equals_form_and_order_do_not_matter():
    assert parse(["--qrels=q.txt", "--run=a"]) == CliFiles(runs=("a",), qrels="q.txt")


def test_only_qrels_or_only_runs():
    assert parse(["--qrels", "q"]) == CliFiles(qrels="q")
    assert parse(["--run", "a"]) == CliFiles(runs=("a",))


def test_last_qrels_wins_and_says_so():
    files = parse(["--qrels", "old", "--qrels", "new"])
    assert files.qrels == "new"
    assert files.problems == ("--qrels was given 2 times; using the last one (new)",)


@pytest.mark.parametrize("argv", [["--run"], ["--qrels"], ["--run", "--qrels", "q"]])
def test_option_without_a_path_is_a_problem_not_an_exit(argv):
    files = parse(argv)
    assert not files.runs
    assert len(files.problems) == 1
    assert "expected" in files.problems[0] and "usage: ir-metrics-lab --run RUN" in files.problems[0]


def test_empty_path_is_ignored_with_a_note():
    files = parse(["--run", "", "a"])
    assert files.runs == ("a",)
    assert files.problems == ("an empty path was ignored",)


def test_pytests_own_arguments_are_ignored():
    # Under AppTest the script sees pytest's sys.argv: none of it is ours, and none of it is a problem.
    assert parse(["-q", "-p", "no:cacheprovider", "tests/test_app_your_data.py", "--exitfirst"]) == CliFiles()


@pytest.mark.parametrize(("typo", "meant"), [("--qrel", "--qrels"), ("--runs", "--run"), ("--qrles=x", "--qrels")])
def test_misspelled_option_is_reported(typo, meant):
    (problem,) = parse([typo, "x"]).problems
    assert problem == f"unknown option {typo.split('=')[0]!r} (did you mean {meant}?)"


def test_abbreviations_are_not_guessed():
    files = parse(["--qre", "q"])
    assert files.qrels is None
    assert files.problems == ("unknown option '--qre' (did you mean --qrels?)",)

"""trec_eval 10.0 is the oracle: its recorded output over thousands of inputs and option sets, replayed.

tests/data/trec_eval10/corpus.jsonl.gz holds what the binary printed (scripts/make_trec_eval_corpus.py made it; run
it again with a binary's path to regenerate). Every case runs in this process through the CLI's main, whose stdout
must equal trec_eval's byte for byte and whose exit status must be 0 where trec_eval's is; the printed values are
also checked through the Python API (metrics.evaluation.engine.evaluate). Where trec_eval 10.0 is wrong on valid input,
the case names its row of tests/data/trec_eval10/defects.json (the one list of them, with reasons) and carries the
answer trec_eval gives on the repaired input, which is what we must print instead.

A small run and qrels in plain text are read and joined in plain Python (metrics.io.text.plain,
metrics.evaluation.plain_join), others with pyarrow (metrics.io, metrics.evaluation.arrow_join): most inputs here take
the plain path, and a quarter of their cases are replayed through the Arrow path as well (test_corpus_cases_by_arrow).

trec_eval's own `make quicktest` is replayed the same way (tests/data/trec_eval10/quicktest/commands.json).

With TREC_EVAL_BIN naming a trec_eval 10.0 binary, random inputs of every kind the corpus holds are also scored live
by it (test_live_differential); without one that test is skipped, saying why.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import gzip
import io
import json
import os
import subprocess
import traceback
from pathlib import Path
from unittest import mock

import pytest

import metrics.io.text.plain
from metrics.cli.ir_metrics import main

DATA = Path(__file__).parent / "data" / "trec_eval10"
DEFECTS: dict[str, str] = json.loads((DATA / "defects.json").read_text())


def _load_corpus() -> tuple[dict, dict[str, dict], list[dict]]:
    meta, inputs, cases = {}, {}, []
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["kind"] == "meta":
                meta = record
            elif record["kind"] == "input":
                inputs[record["id"]] = record
            elif record["kind"] == "case":
                cases.append(record)
    return meta, inputs, cases


META, INPUTS, CASES = _load_corpus()


@pytest.fixture(scope="module")
def input_files(tmp_path_factory) -> dict[str, tuple[str, str, dict[str, str]]]:
    """Each input's qrels and run paths, and the paths of its other files by name (a case's ``{name}`` argument)."""
    folder = tmp_path_factory.mktemp("trec_eval10")
    files = {}
    for input_id, record in INPUTS.items():
        qrels, run = folder / f"{input_id}.qrels", folder / f"{input_id}.run"
        qrels.write_text(record["qrels"], encoding="utf-8")
        run.write_text(record["run"], encoding="utf-8")
        others = {}
        for name, text in record.get("files", {}).items():
            (folder / f"{input_id}.{name}").write_text(text, encoding="utf-8")
            others[name] = str(folder / f"{input_id}.{name}")
        files[input_id] = str(qrels), str(run), others
    return files


def with_files(args: list[str], others: dict[str, str]) -> list[str]:
    """The case's arguments, each ``{name}`` replaced by the path of the input's file ``name``."""
    return [others.get(arg[1:-1], arg) if arg.startswith("{") else arg for arg in args]


def run_cli(args: list[str], *, arrow: bool = False) -> tuple[int, str]:
    """Our CLI in this process: exit status and stdout. ``arrow``: small files read with pyarrow too."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        if arrow:
            stack.enter_context(mock.patch.object(metrics.io.text.plain, "SMALL_FILE_BYTES", 0))
        status = main([*args, "--format", "trec_eval"])
    return status, out.getvalue()


def _plain(record: dict) -> bool:
    """Whether the CLI reads this input in plain Python (metrics.io.text.plain)."""
    return bool(metrics.io.text.plain.plain_run(record["run"].encode(), "run")) and bool(
        metrics.io.text.plain.plain_qrels(record["qrels"].encode(), "qrels")
    )


def _case_id(case: dict) -> str:
    return f"{case['input']}:{' '.join(case['args']) or 'default'}"


def test_corpus_is_whole():
    """The corpus holds every input and case scripts/make_trec_eval_corpus.py plans (its default seed and number of
    random inputs), in order, and no other: a corpus cut short, or regenerated from fewer inputs, fails."""
    corpus = _generator()
    planned = corpus.planned_inputs(corpus.SEED, corpus.RANDOM_INPUTS)
    assert (META["seed"], META["inputs"]) == (corpus.SEED, corpus.RANDOM_INPUTS)
    assert [(r["name"], r["qrels"], r["run"], r.get("files", {})) for r in INPUTS.values()] == [
        (name, qrels, run, files) for name, qrels, run, files, _ in planned
    ]
    recorded = by_input(CASES)
    for input_id, (name, *_, option_sets) in zip(INPUTS, planned, strict=True):
        assert [case["args"] for case in recorded.get(input_id, [])] == corpus.case_args(name, option_sets), name
    assert len(CASES) == META["cases"] == sum(len(corpus.case_args(name, sets)) for name, *_, sets in planned)
    assert all(case["defect"] in DEFECTS for case in CASES if "defect" in case)


def test_corpus_meets_negative_grades_in_every_format():
    """Grades (levels) below 0 reach every judgments format the corpus reads, and -Z."""
    met = set()
    for case in CASES:
        record = INPUTS[case["input"]]
        fields = [line.split() for line in record["qrels"].splitlines() if line.split()]
        if any(float(line[-1]) < 0 for line in fields if not line[0].startswith("#")):
            rel_format = _generator()._rel_format(case["args"])
            met.add("-Z" if "-Z" in case["args"] else rel_format)
    assert met >= {"qrels", "prefs", "qrels_prefs", "qrels_jg", "-Z"}


def by_input(cases: list[dict]) -> dict[str, list[dict]]:
    """The cases grouped by their input, in corpus order: one test per input (thousands of one-case tests cost the
    suite more in pytest's bookkeeping than in the CLI runs they check)."""
    grouped: dict[str, list[dict]] = {}
    for case in cases:
        grouped.setdefault(case["input"], []).append(case)
    return grouped


CASES_BY_INPUT = by_input(CASES)
# A quarter of the cases of the inputs the CLI reads in plain Python, to be read with pyarrow as well.
ARROW_CASES_BY_INPUT = by_input([c for c in CASES if _plain(INPUTS[c["input"]])][::4])


@pytest.mark.parametrize("input_id", CASES_BY_INPUT)
def test_corpus_cases(input_id, input_files):
    """Every option set recorded on this input, byte for byte."""
    assert_cases_replay(CASES_BY_INPUT[input_id], input_files, arrow=False)


@pytest.mark.parametrize("input_id", ARROW_CASES_BY_INPUT)
def test_corpus_cases_by_arrow(input_id, input_files):
    """Cases of inputs the CLI reads in plain Python, read with pyarrow: the two paths print the same bytes."""
    assert_cases_replay(ARROW_CASES_BY_INPUT[input_id], input_files, arrow=True)


def assert_cases_replay(cases: list[dict], input_files, *, arrow: bool) -> None:
    """Each case's exit status and output; a failure names every case that differs, each with a diff of its first
    lines (or the exception it raised: the cases after it still run)."""
    differences = [d for case in cases if (d := _difference(case, input_files, arrow=arrow))]
    assert not differences, f"{len(differences)} of {len(cases)} cases differ:\n" + "\n".join(differences)


def _difference(case, input_files, *, arrow: bool) -> str | None:
    """How our CLI's answer to ``case`` differs from trec_eval's, or None."""
    qrels, run, others = input_files[case["input"]]
    try:
        status, printed = run_cli([*with_files(case["args"], others), qrels, run], arrow=arrow)
    except (Exception, SystemExit):  # a crash is this case's difference
        return f"{_case_id(case)}: raised\n{traceback.format_exc(limit=-8)}"
    expected = case.get("expected", case)  # a trec_eval defect: what it prints on the repaired input
    printed = without_unchecked(printed, expected.get("unchecked", []))
    if expected["rc"] != 0:  # trec_eval refuses input that is invalid: so do we, printing nothing
        if status != 0 and printed == "":
            return None
        return (
            f"{_case_id(case)}: trec_eval refuses it (rc {expected['rc']}); we exit {status} printing {printed!r:.200}"
        )
    if status == 0 and printed == expected["stdout"]:
        return None
    diff = difflib.unified_diff(expected["stdout"].splitlines(), printed.splitlines(), "trec_eval", "ours", lineterm="")
    return f"{_case_id(case)}: exit {status}\n" + "\n".join(list(diff)[:12])


def without_unchecked(printed: str, unchecked: list[list[str]]) -> str:
    """Our output without the lines of ``unchecked`` ([measure, query] each): trec_eval read those values from
    memory (defects.json, prefs_rnonrel_reads_memory), so the corpus has nothing to compare them with."""
    if not unchecked:
        return printed
    kept = [line for line in printed.splitlines() if [f.strip() for f in line.split("\t")[:2]] not in unchecked]
    return "".join(line + "\n" for line in kept)


# Option sets checked through the Python API too: (the case's args, evaluate()'s keyword arguments, -m list, -l).
API_CASES = {
    ("-M3", "-q"): ({"max_docs": 3}, ["official"], 1),
    ("-l", "0", "-q"): ({}, ["official"], 0),
    ("-l", "2", "-q"): ({}, ["official"], 2),
    ("-q", "-m", "all_trec"): ({}, ["all_trec"], 1),
    ("-c", "-q", "-m", "all_trec"): ({"complete": True}, ["all_trec"], 1),
    ("-J", "-q", "-m", "all_trec"): ({"judged_only": True}, ["all_trec"], 1),
}


@pytest.mark.parametrize(
    "case", [c for c in CASES if tuple(c["args"]) in API_CASES and c.get("expected", c)["rc"] == 0], ids=_case_id
)
def test_corpus_values_through_the_api(case, input_files):
    """metrics.evaluation.engine.evaluate's per-query values round to what trec_eval printed (%6.4f, %ld, -nan)."""
    from metrics import Conventions, parse_measure
    from metrics.catalog import trec_format
    from metrics.catalog.measure_lists import measure_names
    from metrics.evaluation.engine import evaluate

    options, nickname, level = API_CASES[tuple(case["args"])]
    names = [n for n in measure_names(nickname) if n != "runid"]
    qrels, run, _ = input_files[case["input"]]
    result = evaluate(run, qrels, names, conventions=Conventions(threshold=level), **options)
    printed = {}
    for line in case.get("expected", case)["stdout"].splitlines():
        name, query, value = line.split("\t")
        printed[name.rstrip(), query] = value
    checked = 0
    for name in names:
        measure = parse_measure(name)
        if name in result.texts:  # relstring: its string, compared byte for byte by test_corpus_cases
            continue
        trec_name = trec_format.trec_name(measure)
        for query, value in zip(result.queries, result.per_query[name].tolist(), strict=True):
            if (trec_name, query) not in printed:  # num_q, gm_map: no per-query line
                continue
            shown = printed[trec_name, query]
            if shown.strip() == "-nan":
                assert value != value, (trec_name, query, value)
            else:
                assert abs(value - float(shown)) <= 0.5e-4 + 1e-9, (trec_name, query, value, shown)
            checked += 1
    assert checked > 0


QUICKTEST = json.loads((DATA / "quicktest" / "commands.json").read_text())


@pytest.mark.parametrize("command", QUICKTEST, ids=lambda c: " ".join(c["args"]))
def test_quicktest(command):
    folder = DATA / "quicktest"
    args = [str(folder / f"{arg}.gz") if (folder / f"{arg}.gz").is_file() else arg for arg in command["args"]]
    status, printed = run_cli(args)
    with gzip.open(folder / f"{command['output']}.gz", "rt", encoding="utf-8") as handle:
        expected = handle.read()
    assert status == 0
    assert printed == expected


ALONE = json.loads(gzip.decompress((DATA / "quicktest" / "alone.json.gz").read_bytes()))


def test_every_measures_c_name_is_recorded_alone():
    from metrics.catalog import registry

    assert [case["args"][2] for case in ALONE] == list(registry.TREC_EVAL_ORDER)  # all 57, measures.c's order
    assert [name for name in registry.TREC_EVAL_ORDER if not _known(name)] == []


def _known(name: str) -> bool:
    from metrics.catalog import registry

    return name == "runid" or registry.spelled(name.lower()) is not None


@pytest.mark.parametrize("case", ALONE, ids=lambda c: c["args"][2])
def test_every_measures_c_name_alone(case):
    """Each name trec_eval 10.0's measures.c registers, asked for alone with -q on trec_eval's own test inputs (in
    the -R format it reads): byte for byte."""
    folder = DATA / "quicktest"
    args = [str(folder / f"{arg}.gz") if (folder / f"{arg}.gz").is_file() else arg for arg in case["args"]]
    assert case["rc"] == 0
    assert run_cli(args) == (0, case["stdout"])


@functools.cache
def _generator():
    """scripts/make_trec_eval_corpus.py, imported when first needed: its random inputs, option sets and defect
    diagnosis."""
    from scripts import make_trec_eval_corpus

    return make_trec_eval_corpus


TREC_EVAL_BIN = os.environ.get("TREC_EVAL_BIN", "")


def _no_binary() -> str | None:
    """Why the live differential cannot run here, or None."""
    if not TREC_EVAL_BIN:
        return "TREC_EVAL_BIN is not set: point it at a trec_eval 10.0 binary to score random inputs live"
    if not os.access(TREC_EVAL_BIN, os.X_OK):
        return f"TREC_EVAL_BIN={TREC_EVAL_BIN} is not an executable file"
    return None


@pytest.mark.parametrize("kind", list(_generator().LIVE))
def test_live_differential(kind, tmp_path):
    """Random inputs of each kind the corpus holds (plain, z-scores, ...), scored by the binary and by us."""
    import random

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    if reason := _no_binary():
        pytest.skip(reason)
    version = subprocess.run([TREC_EVAL_BIN, "-v"], capture_output=True, text=True).stderr
    assert "10.0" in version, version
    corpus = _generator()
    draw, option_sets, _ = corpus.LIVE[kind]

    @settings(max_examples=LIVE_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(seed=st.integers(0, 2**32 - 1), args=st.sampled_from(option_sets))
    def check(seed, args):
        qrels_text, run_text, files = draw(random.Random(seed))
        rc, out, _, _, expected = corpus.answer(TREC_EVAL_BIN, args, qrels_text, run_text, tmp_path, files)
        unchecked = []
        if expected is not None:  # a trec_eval defect: its answer on the repaired input is ours
            rc, out, unchecked = expected["rc"], expected["stdout"], expected.get("unchecked", [])
        (tmp_path / "ours.qrels").write_text(qrels_text)
        (tmp_path / "ours.run").write_text(run_text)
        ours = [*corpus.with_files(args, files, tmp_path / "ours"), str(tmp_path / "ours.qrels")]
        for arrow in (False, True):  # plain text is read in plain Python; with pyarrow too
            status, printed = run_cli([*ours, str(tmp_path / "ours.run")], arrow=arrow)
            assert (status, without_unchecked(printed, unchecked)) == (0, out) if rc == 0 else status != 0

    (tmp_path / "ours").mkdir()
    check()


# Examples per kind: each runs the binary once or twice and our CLI twice (the suite's time is counted); set
# TREC_EVAL_LIVE_EXAMPLES for more
LIVE_EXAMPLES = int(os.environ.get("TREC_EVAL_LIVE_EXAMPLES", "30"))

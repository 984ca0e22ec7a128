"""python -m metrics: golden numbers through real files, trec_eval's options, formats, and one-line errors."""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import pytrec_eval
from golden import TIES, TREC_PUBLIC

from metrics import DEFAULT_MEASURES
from metrics.cli import ir_metrics
from metrics.cli.ir_metrics import main, measure_names
from metrics.io.text import plain

TOL = 1e-9
ROOT = Path(__file__).resolve().parent.parent
RUN = "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 x 1 5 t\nq2 Q0 y 2 4 t\nq3 Q0 m 1 1 t\n"
QRELS = "q1 0 b 1\nq1 0 c 2\nq2 0 y 1\nq2 0 z 0\nq4 0 k 1\n"


def run_cli(capsys, *args) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def parse_text(out: str) -> dict[tuple[str, str], float]:
    values = {}
    for line in out.splitlines():
        name, query, value = line.split("\t")
        values[(name, query)] = float(value)
    return values


def write_case(tmp_path, queries: dict, scored: bool) -> tuple[Path, Path, bool]:
    """TREC files for a golden case; returns whether -c is needed (an empty ranking has no run lines)."""
    run_lines, qrels_lines, needs_complete = [], [], False
    for q, data in queries.items():
        if scored:
            items = list(data["scores"].items())
        else:
            items = [(doc, float(len(data["ranking"]) - i)) for i, doc in enumerate(data["ranking"])]
        run_lines += [f"{q} Q0 {doc} {i + 1} {score!r} golden" for i, (doc, score) in enumerate(items)]
        qrels_lines += [f"{q} 0 {doc} {grade}" for doc, grade in data["qrels"].items()]
        needs_complete |= not items and bool(data["qrels"])
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_path.write_text("\n".join(run_lines) + "\n")
    qrels_path.write_text("\n".join(qrels_lines) + "\n")
    return run_path, qrels_path, needs_complete


CASES = [pytest.param(case, False, id=case["id"]) for case in TREC_PUBLIC] + [
    pytest.param(case, True, id=case["id"]) for case in TIES
]


@pytest.mark.parametrize(("case", "scored"), CASES)
def test_golden_cases_through_trec_files(tmp_path, capsys, case, scored):
    run_path, qrels_path, needs_complete = write_case(tmp_path, case["queries"], scored)
    if not run_path.read_text().strip():
        pytest.fail("every golden case has at least one retrieved doc")
    names = list(case["expected"])
    args = [qrels_path, run_path, "-q", "--digits", "12", "-m", ",".join(names)] + (["-c"] if needs_complete else [])
    status, out, _ = run_cli(capsys, *args)
    assert status == 0
    values = parse_text(out)
    for name in names:
        expected = case["expected"][name]
        got = {q: v for (n, q), v in values.items() if n == name and q != "all"}
        assert got == pytest.approx(expected["per_query"], abs=TOL), name
        assert values[(name, "all")] == pytest.approx(expected["mean"], abs=TOL), name


def test_text_output_like_trec_eval(tmp_path, capsys):
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    status, out, err = run_cli(capsys, qrels, run, "-q", "-m", "P@2", "-m", "RR")
    assert status == 0
    # q1 ranks a, b, c with b and c relevant; q2 ranks x, y with y relevant. q3 (run only) and q4 (qrels only) left out.
    assert out == (
        "P@2\tq1\t0.5000\nRR\tq1\t0.5000\nP@2\tq2\t0.5000\nRR\tq2\t0.5000\nP@2\tall\t0.5000\nRR\tall\t0.5000\n"
    )
    assert err == (
        "note: 1 query only in run.txt (ignored); 1 query only in qrels.txt (ignored; -c scores them 0); 2 evaluated\n"
    )


def test_complete_counts_missing_queries_as_zero(tmp_path, capsys):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    status, out, err = run_cli(capsys, tmp_path / "qrels.txt", tmp_path / "run.txt", "-c", "-m", "RR", "--digits", "6")
    assert status == 0 and out == "RR\tall\t0.333333\n"  # (0.5 + 0.5 + 0) / 3
    assert "1 query only in qrels.txt (scored 0 (-c))" in err


def test_default_measures_and_digits(tmp_path, capsys):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    status, out, _ = run_cli(capsys, tmp_path / "qrels.txt", tmp_path / "run.txt", "--digits", "2")
    assert status == 0
    lines = [line.split("\t") for line in out.splitlines()]
    assert [name for name, _, _ in lines] == list(DEFAULT_MEASURES)
    assert all(query == "all" and len(value.split(".")[1]) == 2 for _, query, value in lines)


def test_measure_spellings_are_echoed_as_given(tmp_path, capsys):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    spelled = ["nDCG@10", "ndcg_cut_10", "P.1,2", "MAP", "recip_rank", "success_1", "Recall@100"]
    status, out, _ = run_cli(
        capsys, tmp_path / "qrels.txt", tmp_path / "run.txt", *(a for m in spelled for a in ("-m", m))
    )
    assert status == 0
    values = parse_text(out)
    assert [name for name, _ in values] == [
        "nDCG@10",
        "ndcg_cut_10",
        "P.1",
        "P.2",
        "MAP",
        "recip_rank",
        "success_1",
        "Recall@100",
    ]
    assert values[("nDCG@10", "all")] == values[("ndcg_cut_10", "all")]
    assert values[("P.1", "all")] == 0.0 and values[("P.2", "all")] == 0.5


def test_measure_lists():
    assert measure_names(None) == list(DEFAULT_MEASURES)
    assert measure_names(["P.5,10", "map,ndcg_cut_10,20", "P@5"]) == [
        "P.5",
        "P.10",
        "map",
        "ndcg_cut_10",
        "ndcg_cut_20",
        "P@5",
    ]


def test_relevance_level_matches_pytrec_eval(tmp_path, capsys):
    run = {"q1": {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}, "q2": {"x": 2.0, "y": 1.0, "z": 1.0}}
    qrels = {"q1": {"a": 1, "b": 2, "c": 3, "d": 0, "f": 2}, "q2": {"y": 2, "z": 1, "w": 3}}
    (tmp_path / "run.txt").write_text(
        "".join(f"{q} Q0 {d} 0 {s} t\n" for q, docs in run.items() for d, s in docs.items())
    )
    (tmp_path / "qrels.txt").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items())
    )
    names = ["P_3", "recall_3", "map", "recip_rank", "success_1", "ndcg_cut_3"]
    for level in (1, 2, 3):
        expected = pytrec_eval.RelevanceEvaluator(
            qrels, {"P.3", "recall.3", "map", "recip_rank", "success.1", "ndcg_cut.3"}, relevance_level=level
        ).evaluate(run)
        status, out, _ = run_cli(
            capsys,
            tmp_path / "qrels.txt",
            tmp_path / "run.txt",
            "-q",
            "-l",
            level,
            "--digits",
            "12",
            "-m",
            ",".join(names),
        )
        assert status == 0
        values = parse_text(out)
        for q in run:
            for name in names:
                assert values[(name, q)] == pytest.approx(expected[q][name], abs=TOL), (level, name, q)


def test_csv_and_json_formats(tmp_path, capsys):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    args = [tmp_path / "qrels.txt", tmp_path / "run.txt", "-m", "P@2,RR"]
    status, out, _ = run_cli(capsys, *args, "-q", "--format", "csv", "--digits", "3")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows == [
        ["query", "P@2", "RR"],
        ["q1", "0.500", "0.500"],
        ["q2", "0.500", "0.500"],
        ["all", "0.500", "0.500"],
    ]
    status, out, _ = run_cli(capsys, *args, "--format", "csv")
    assert list(csv.reader(io.StringIO(out))) == [["query", "P@2", "RR"], ["all", "0.5000", "0.5000"]]
    status, out, _ = run_cli(capsys, *args, "-q", "--format", "json")
    document = json.loads(out)
    assert document["measures"] == ["P@2", "RR"]
    assert document["all"] == {"P@2": 0.5, "RR": 0.5}
    assert document["queries"] == {"q1": {"P@2": 0.5, "RR": 0.5}, "q2": {"P@2": 0.5, "RR": 0.5}}
    assert document["counts"] == {"evaluated": 2, "only_in_run": 1, "only_in_qrels": 1, "no_relevant": 0}


def test_help_documents_the_formats(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert "csv" in text and "json" in text and "MEASURE<TAB>QUERY<TAB>VALUE" in text


@pytest.mark.parametrize(
    ("label", "setup", "expected"),
    [
        ("missing file", lambda d: [d / "qrels.txt", d / "nope.txt"], "error: nope.txt: no such file"),
        ("directory", lambda d: [d / "qrels.txt", d], ": is a directory, not a file"),
        (
            "unknown measure",
            lambda d: [d / "qrels.txt", d / "run.txt", "-m", "bogus@5"],
            "error: unknown measure 'bogus@5'",
        ),
        ("k = 0", lambda d: [d / "qrels.txt", d / "run.txt", "-m", "P@0"], "cutoff after the name must be a positive"),
        ("level -1", lambda d: [d / "qrels.txt", d / "run.txt", "-l", "-1"], "-l -1: the relevance level must be 0"),
        (
            "bad score",
            lambda d: [d / "qrels.txt", d / "bad.txt"],
            "error: bad.txt, line 2: score 'abc' is not a number",
        ),
        ("swapped", lambda d: [d / "run.txt", d / "qrels.txt"], "error: run.txt, line 1: has 6 columns"),
        (
            "both files bad: the qrels' error, as trec_eval reads them first",
            lambda d: [d / "bad_qrels.txt", d / "bad.txt"],
            "error: bad_qrels.txt, line 1: grade 'x' is not an integer",
        ),
        ("duplicate", lambda d: [d / "qrels.txt", d / "dup.txt"], "error: dup.txt, line 3: doc 'a' appears twice"),
        ("bad format", lambda d: [d / "qrels.txt", d / "run.txt", "--format", "xml"], "error: argument --format"),
        ("missing argument", lambda d: [d / "qrels.txt"], "error: the following arguments are required: run"),
        ("bad digits", lambda d: [d / "qrels.txt", d / "run.txt", "--digits", "-1"], "error: --digits must be"),
        ("not a number", lambda d: [d / "qrels.txt", d / "run.txt", "-l", "two"], "error: argument -l/--level"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, label, setup, expected):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "bad.txt").write_text("q1 Q0 a 1 1 t\nq1 Q0 b 2 abc t\n")
    (tmp_path / "dup.txt").write_text("q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq1 Q0 a 3 0 t\n")
    (tmp_path / "bad_qrels.txt").write_text("q1 0 a x\n")
    status, out, err = run_cli(capsys, *setup(tmp_path))
    assert status == 2, label
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and expected in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # q1: (1/2 + 2/3) / 2 = 0.5833, q2: (1/2) / 1 = 0.5; their mean 0.5417
        (["-m", "map"], "map\tall\t0.5417\n"),
        (["-q", "-m", "map", "-m", "runid"], "map\tq1\t0.5833\nmap\tq2\t0.5000\nrunid\tall\tt\nmap\tall\t0.5417\n"),
        # trec_eval 10.0's output for the same options and files (its names padded: --format trec_eval)
        (
            ["-q", "-c", "-R", "qrels_prefs", "-m", "prefs_simp", "--format", "trec_eval"],
            "".join(
                f"prefs_simp            \t{q}\t{v}\n"
                for q, v in [("q1", "0.0000"), ("q2", "1.0000"), ("q4", "0.0000"), ("all", "0.3333")]
            ),
        ),
        (
            ["-q", "-D", "0.q1", "-m", "map", "--format", "trec_eval"],
            "map                   \tq1\t0.5833\nmap                   \tall\t0.5833\n",
        ),
        (
            ["-q", "-c", "-Z", "{zscores}", "-m", "map", "--format", "trec_eval"],
            "".join(
                f"Zmap                   \t{q}\t{v}\n"
                for q, v in [("q1", "0.3333"), ("q2", "1.0000"), ("q4", "-1.0000"), ("all", "0.1111")]
            ),
        ),
    ],
)
def test_real_process_is_lean_and_prints_trec_eval_lines(tmp_path, args, expected):
    """A small run is read and scored without pyarrow or pandas, whose imports would cost more than the work: with
    qrels, with -R qrels_prefs (preferences), with -D's one query and with -Z's z-scores."""
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "z.txt").write_text("q1 map 0.5 0.25\nq2 map 0.4 0.1\nq4 map 0.1 0.1\n")
    args = [str(tmp_path / "z.txt") if arg == "{zscores}" else arg for arg in args]
    probe = (
        "import sys; from metrics.cli.ir_metrics import main; status = main(sys.argv[1:]); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pyarrow', 'pandas'}), file=sys.stderr); "
        "sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout == expected
    assert done.stderr.splitlines()[-1] == "[]"


def test_judgment_groups_are_read_and_scored_without_pandas(tmp_path):
    """-R qrels_jg reads with pyarrow but needs no pandas (pyarrow's group_by, pa.array of a list and pa.scalar load
    it). With it and Python strings per line gone, a 240,000-line file's peak went from 206 to 146 MiB."""
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "jg.txt").write_text("q1 u1 d1 1\nq1 u2 d2 1\nq2 u1 d3 1\n")
    probe = (
        "import sys; from metrics.cli.ir_metrics import main; status = main(sys.argv[1:]); "
        "print('pandas' in sys.modules, file=sys.stderr); sys.exit(status)"
    )
    args = ["-R", "qrels_jg", "-m", "P_avgjg.5", str(tmp_path / "jg.txt"), str(tmp_path / "run.txt")]
    done = subprocess.run([sys.executable, "-c", probe, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "False"


def test_real_process_bad_input(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "metrics", str(tmp_path / "missing_qrels.txt"), str(tmp_path / "run.txt")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "error: missing_qrels.txt: no such file (see errors/file-missing in the docs)\n"


def test_every_installed_command_is_a_function_of_the_package():
    """pyproject.toml's [project.scripts] (ir-metrics, ir-metrics-compare, ir-metrics-explain, ir-metrics-lab): each
    names a function that exists, so the wheel's commands start."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert {"ir-metrics", "ir-metrics-compare", "ir-metrics-explain", "ir-metrics-lab"} <= set(scripts)
    for target in scripts.values():
        module, function = target.split(":")
        assert callable(getattr(importlib.import_module(module), function)), target


@pytest.mark.parametrize(("run_bytes", "expected"), [(len(RUN) + 1, "20"), (len(RUN), None)])
def test_a_large_run_keeps_the_parsers_freed_pages(tmp_path, capsys, monkeypatch, run_bytes, expected):
    """A run below the threshold has Arrow's allocator hand freed pages back after 20 ms; one at or above it
    keeps mimalloc's default (the variable unset). A caller's own setting is never overridden."""
    import metrics.cli.ir_metrics as cli

    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    monkeypatch.setattr(cli, "KEEP_FREED_PAGES_FROM_BYTES", run_bytes)
    monkeypatch.delenv("MIMALLOC_PURGE_DELAY", raising=False)
    assert run_cli(capsys, tmp_path / "qrels.txt", tmp_path / "run.txt", "-m", "map")[:2] == (0, "map\tall\t0.5417\n")
    assert os.environ.get("MIMALLOC_PURGE_DELAY") == expected
    monkeypatch.setenv("MIMALLOC_PURGE_DELAY", "5")
    run_cli(capsys, tmp_path / "qrels.txt", tmp_path / "run.txt", "-m", "map")
    assert os.environ["MIMALLOC_PURGE_DELAY"] == "5"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="transparent huge pages are a Linux feature")
def test_real_process_turns_transparent_huge_pages_off(tmp_path):
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "qrels.txt").write_text(QRELS)
    probe = (
        "import ctypes, sys; from metrics.cli.ir_metrics import main; status = main(sys.argv[1:]);"
        "print(ctypes.CDLL(None).prctl(42, 0, 0, 0, 0), file=sys.stderr); sys.exit(status)"  # 42 = PR_GET_THP_DISABLE
    )
    argv = [sys.executable, "-c", probe, str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), "-m", "map"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "map\tall\t0.5417\n"
    assert done.stderr.splitlines()[-1] == "1"  # off


@pytest.mark.parametrize("plain_path", [True, False], ids=["plain", "arrow"])
def test_memory_is_handed_back_after_large_inputs_only(tmp_path, capsys, monkeypatch, plain_path):
    """Handing freed memory back to the system (Arrow's pool, glibc's malloc_trim) walks the whole process's heap: after
    small inputs it is skipped, whichever reader read them (a long-lived process calling main again and again spent
    more time in it than in the evaluations); after inputs over RETURN_FREED_MEMORY_FROM_BYTES it is done after the
    reads and the evaluation."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text(RUN)
    qrels.write_text(QRELS)
    if not plain_path:
        monkeypatch.setattr(plain, "SMALL_FILE_BYTES", 0)  # no file is small: Arrow reads them
    handed_back: list[str] = []
    monkeypatch.setattr(ir_metrics, "_return_freed_memory", lambda: handed_back.append("freed"))
    assert run_cli(capsys, "-m", "map", qrels, run)[0] == 0
    assert handed_back == []
    monkeypatch.setattr(ir_metrics, "RETURN_FREED_MEMORY_FROM_BYTES", 1)  # every file is large
    assert run_cli(capsys, "-m", "map", qrels, run)[0] == 0
    # after the evaluation; through Arrow also after the run's read, the qrels' and the join
    assert handed_back == ["freed"] * (1 if plain_path else 4)

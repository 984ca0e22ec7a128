"""Whole runs against subtopic judgments (metrics.diversity.runs): the nine families' kernels equal their readable
functions bit for bit on generated runs, and ndeval 4.5's recorded output on its corpus."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics import Conventions, parse_measure
from metrics.cli.ir_ndeval import COLUMNS, format_value
from metrics.diversity.runs import evaluate_subtopics
from tests.families.diversity import SETTINGS, _corpus, topics

NAMES = [
    "ERR_IA@5", "nERR_IA@20", "alpha_DCG@10", "alpha_nDCG@5", "alpha_nDCG(alpha=0.2)@3", "alpha_nDCG",
    "NRBP(beta=0.9)", "nNRBP(alpha=1)", "AP_IA", "P_IA@5", "StRecall@20", "nNRBP@3",
]  # fmt: skip


@SETTINGS
@given(st.lists(topics(), max_size=4), st.integers(1, 2))
def test_kernels_equal_the_readable_functions(drawn, threshold):
    run = {f"q{i}": ranking for i, (_, ranking) in enumerate(drawn)}
    qrels = {f"q{i}": judged for i, (judged, _) in enumerate(drawn)}
    conventions = Conventions(threshold=threshold)
    values = evaluate_subtopics(run, qrels, NAMES, conventions=conventions)
    for name in NAMES:
        measure = parse_measure(name)
        for query in run:
            expected = measure.compute(run[query], qrels[query], conventions).value
            got = values[name][query]
            assert got == expected or (math.isnan(got) and math.isnan(expected)), (name, query)


def test_equals_ndeval45_on_its_corpus():
    """Every recorded topic (default options, no pair judged twice), all 21 of ndeval's columns."""
    names = [c.replace("-", "_").replace("MAP_IA", "AP_IA").replace("strec", "StRecall") for c in COLUMNS]
    checked = 0
    for options, judged, rankings, printed, repeated in _corpus():
        if (options.alpha, options.beta) != (0.5, 0.5):
            continue
        run = {str(t): r for t, r in rankings.items() if t not in repeated}
        values = evaluate_subtopics(run, {str(t): j for t, j in judged.items()}, names)
        for column, name in zip(COLUMNS, names, strict=True):
            for topic, value in values[name].items():
                assert format_value(value) == printed[int(topic)][column], (column, topic)
                checked += 1
    assert checked > 3000


def test_refuses_a_measure_of_another_family():
    with pytest.raises(ValueError, match="not a diversity measure: P@5"):
        evaluate_subtopics({}, {}, ["P@5"])


def test_the_ideal_ranking_follows_alpha():
    """A topic whose greedy ideal differs with alpha (at 0: d4, d0, ...; at 0.5: d4, d2, ...): the kernel's ideal is
    the one of the measure's alpha, as pyndeval's (ndeval's C code) is."""
    import pyndeval

    qrels = {"1": {"d0": 1, "d3": 1, "d4": 1}, "2": {"d1": 1, "d2": 1}, "3": {"d0": 1, "d1": 1, "d2": 1, "d4": 1},
             "4": {"d0": 1, "d4": 1}}  # fmt: skip
    ranking = ["d2", "d3", "d0"]
    lines = [("q", s, d, g) for s, docs in qrels.items() for d, g in docs.items()]
    run = [("q", doc, float(3 - i)) for i, doc in enumerate(ranking)]
    for alpha in (0.0, 0.5):
        expected = pyndeval.RelevanceEvaluator(lines, ["alpha-nDCG@5"], alpha=alpha).evaluate(run)["q"]["alpha-nDCG@5"]
        name = f"alpha_nDCG(alpha={alpha})@5"
        assert evaluate_subtopics({"q": ranking}, {"q": qrels}, [name])[name]["q"] == pytest.approx(expected, abs=1e-12)


def _trec2012():
    """The TREC 2012 Web track example (tests/data/ndeval45/trec2012): its files and ndeval 4.5's recorded output
    of ``ndeval -c -traditional`` ({topic: {column: printed value}}, with "amean")."""
    import gzip
    import json
    from pathlib import Path

    folder = Path(__file__).parent / "data" / "ndeval45" / "trec2012"
    files = [
        gzip.decompress((folder / f"{n}.txt.gz").read_bytes()) for n in ("qrels-for-ndeval", "results-cata-filtered")
    ]
    recorded = json.loads((folder / "outputs.json").read_text())[0]
    assert recorded["args"] == ["-c", "-traditional"]
    header, *rows = recorded["stdout"].splitlines()
    columns = header.split(",")
    printed = {row.split(",")[1]: dict(zip(columns, row.split(","), strict=True)) for row in rows}
    return (*files, printed)


NDEVAL_NAMES = {c: c.replace("-", "_").replace("MAP_IA", "AP_IA").replace("strec", "StRecall") for c in COLUMNS}


def test_evaluate_with_subtopic_qrels_equals_ndeval_traditional():
    """metrics.evaluate(run, None, ..., subtopic_qrels=...) on the TREC 2012 example: every topic and the mean, all
    21 columns, as ndeval 4.5 -traditional printed them (the run read in trec_eval's order)."""
    from metrics import evaluate

    qrels, run, printed = _trec2012()
    result = evaluate(run, None, list(NDEVAL_NAMES.values()), subtopic_qrels=qrels)
    assert result.queries == tuple(t for t in printed if t != "amean")
    for column, name in NDEVAL_NAMES.items():
        for index, topic in enumerate(result.queries):
            assert format_value(float(result.per_query[name][index])) == printed[topic][column], (column, topic)
        assert format_value(result.means[name]) == printed["amean"][column], column


def test_evaluate_with_both_qrels_scores_each_measure_on_its_own():
    """Plain qrels give trec_eval's query set and P@1; the diversity measure comes from the subtopic qrels, 0 on a
    query they lack (ndeval's row for it). By hand: q 7 ranks d2 (covers subtopic 2 of 2) then d1 (1 and 2)."""
    from metrics import evaluate

    run = b"7 Q0 d2 1 2 r\n7 Q0 d1 2 1 r\n8 Q0 d3 1 1 r\n"
    result = evaluate(
        run, b"7 0 d2 0\n8 0 d3 1\n", ["P@1", "StRecall@1"], subtopic_qrels=b"7 1 d1 1\n7 2 d1 1\n7 2 d2 1\n"
    )
    assert result.queries == ("7", "8")
    assert result.per_query["P@1"].tolist() == [0.0, 1.0]
    assert result.per_query["StRecall@1"].tolist() == [0.5, 0.0]


def test_subtopic_qrels_refusals_name_file_line_and_problem():
    from metrics import evaluate
    from metrics.io import InputError

    with pytest.raises(InputError, match=r"^subtopics.txt, line 2: judgment 'x' is not a natural number"):
        evaluate({"1": ["a"]}, None, ["alpha_nDCG@5"], subtopic_qrels=_named(b"1 1 a 1\n1 2 a x\n"))
    with pytest.raises(InputError, match="P@5: not a diversity measure, so it needs plain qrels"):
        evaluate({"1": ["a"]}, None, ["P@5"], subtopic_qrels=b"1 1 a 1\n")
    with pytest.raises(InputError, match="ndeval has no -J"):
        evaluate({"1": ["a"]}, None, ["ERR_IA@5"], subtopic_qrels=b"1 1 a 1\n", judged_only=True)


def _named(data: bytes):
    from metrics import read_subtopic_qrels

    return read_subtopic_qrels(data, name="subtopics.txt")


def test_the_command_line_reads_subtopic_qrels(tmp_path, capsys):
    from metrics.cli.ir_metrics import main

    qrels, run, printed = _trec2012()
    (tmp_path / "q.txt").write_bytes(qrels)
    (tmp_path / "r.txt").write_bytes(run)
    status = main(["--subtopic-qrels", str(tmp_path / "q.txt"), str(tmp_path / "r.txt"), "-m", "alpha_nDCG@20",
                   "--format", "json", "-q"])  # fmt: skip
    assert status == 0
    found = json.loads(capsys.readouterr().out)
    assert format_value(found["all"]["alpha_nDCG@20"]) == printed["amean"]["alpha-nDCG@20"]
    assert format_value(found["queries"]["151"]["alpha_nDCG@20"]) == printed["151"]["alpha-nDCG@20"]


def test_evaluate_with_subtopic_qrels_equals_every_traditional_case_of_the_corpus():
    """The corpus's cases recorded with ndeval 4.5 -traditional (and -M N: max_docs), their amean rows: the order
    evaluate reads a run in is -traditional's. One input has a hex score ('0x1p3') that metrics.read_run refuses."""
    import gzip
    from pathlib import Path

    from metrics import evaluate
    from metrics.diversity.runs import NDEVAL_COLUMNS
    from metrics.io import InputError

    path = Path(__file__).parent / "data" / "ndeval45" / "corpus.jsonl.gz"
    records = [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    inputs = {r["id"]: r for r in records if r["kind"] == "input"}
    checked = refused = 0
    for case in records:
        args = case.get("args", [])
        if case["kind"] != "case" or case["rc"] != 0 or args[:1] != ["-traditional"]:
            continue
        depth = int(args[args.index("-M") + 1]) if "-M" in args else None
        given = inputs[case["input"]]
        try:
            result = evaluate(
                given["run"].encode(), None, NDEVAL_COLUMNS, subtopic_qrels=given["qrels"].encode(), max_docs=depth
            )
        except InputError as error:
            assert error.code == "not-a-number" and "0x" in str(error)
            refused += 1
            continue
        amean = case["stdout"].splitlines()[-1].split(",")[2:]
        assert [format_value(result.means[name]) for name in NDEVAL_COLUMNS] == amean, (case["input"], args)
        checked += 1
    assert (checked, refused) == (41, 1)

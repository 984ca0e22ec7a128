"""Streaming (metrics.evaluation.streaming) equals the whole-file path value for value and byte for byte: on random runs
written as TREC files and read in tiny pieces (queries split across pieces), with queries not contiguous in the file
(the hash-partition pass), under -c, -M, -J, and for every measure family and summary kind (mean, sum, geometric)."""

from __future__ import annotations

import gzip
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.catalog import registry, trec_format
from metrics.catalog.measures import parse_measure
from metrics.cli.ir_metrics import main
from metrics.evaluation.engine import evaluate
from metrics.evaluation.streaming import evaluate_stream
from metrics.io import InputError, read_run
from metrics.io.text.stream import TextRun
from tests.strategies import scored_qrels_sets, scored_runs

# One measure of every family (cutoffs and parameters filled in), and the catalog's parameterized spellings.
EVERY_FAMILY = [
    n.replace("@k", "@5").replace("@multiple", "@2").replace("@level", "@0.3") for n in registry.canonical_names()
] + ["P(rel=2)@5", "ndcg.1=3,2=9", "SetF(beta=0.5)", "RBP(p=0.5)@4", "relstring@3", "utility(a=2,b=-0.5,c=-1,d=0)"]
MEASURES = [parse_measure(n) for n in EVERY_FAMILY]


def test_every_family_and_summary_kind_is_covered():
    assert {m.family for m in MEASURES} == {f.key for f in registry.FAMILIES}
    assert {registry.family(m.family).values.summary for m in MEASURES} >= {"mean", "sum", "geometric", "none"}


def _write_trec(path, run: dict, shuffle: random.Random | None = None) -> None:
    lines = [
        f"{q} Q0 {d} {rank} {score!r} tag\n"
        for q, scores in run.items()
        for rank, (d, score) in enumerate(scores.items(), start=1)
    ]
    if shuffle is not None:
        shuffle.shuffle(lines)
    path.write_text("".join(lines), encoding="utf-8")


def _write_qrels(path, qrels: dict) -> None:
    lines = [f"{q} 0 {d} {g}\n" for q, grades in qrels.items() for d, g in grades.items()]
    path.write_text("".join(lines) or "", encoding="utf-8")


def assert_same(whole, streamed) -> None:
    """The same Evaluation: per-query values bit for bit, the same query order, summaries, counts and texts."""
    assert streamed.queries == whole.queries
    assert list(streamed.per_query) == list(whole.per_query)
    for name, values in whole.per_query.items():
        assert streamed.per_query[name].tobytes() == values.tobytes(), name
    assert np.array(list(streamed.means.values())).tobytes() == np.array(list(whole.means.values())).tobytes()
    assert streamed.texts == whole.texts
    assert streamed.counts == whole.counts
    assert (streamed.only_in_run, streamed.only_in_qrels) == (whole.only_in_run, whole.only_in_qrels)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    run=scored_runs.filter(lambda r: any(r.values())),
    qrels=scored_qrels_sets.filter(lambda q: any(q.values())),
    piece_bytes=st.sampled_from([1, 17, 64, 1 << 20]),
    contiguous=st.booleans(),
    complete=st.booleans(),
    max_docs=st.sampled_from([None, 1, 3]),
    judged_only=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_stream_equals_whole_file(tmp_path, run, qrels, piece_bytes, contiguous, complete, max_docs, judged_only, seed):
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    _write_trec(run_path, run, None if contiguous else random.Random(seed))
    _write_qrels(qrels_path, qrels)
    options = {"complete": complete, "max_docs": max_docs, "judged_only": judged_only}
    whole = evaluate(run_path, qrels_path, MEASURES, **options)
    streamed = evaluate_stream(run_path, qrels_path, MEASURES, piece_bytes=piece_bytes, **options)
    assert_same(whole, streamed)


def _large_run(tmp_path, queries=60, docs=50, seed=3, shuffle=False):
    rng = random.Random(seed)
    run = {
        f"q{q}": {f"d{rng.randrange(400)}x{i}": rng.choice([1.0, 0.5, rng.random()]) for i in range(docs)}
        for q in range(queries)
    }
    qrels = {
        f"q{q}": {f"d{rng.randrange(400)}x{rng.randrange(docs)}": rng.randrange(-1, 4) for _ in range(15)}
        for q in range(5, queries + 5)
    }
    _write_trec(tmp_path / "run.txt", run, random.Random(seed) if shuffle else None)
    _write_qrels(tmp_path / "qrels.txt", qrels)
    return tmp_path / "run.txt", tmp_path / "qrels.txt"


def _cli(capsys, *args) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("shuffle", [False, True], ids=["grouped", "not-contiguous"])
def test_cli_stream_is_byte_for_byte_the_whole_file_output(tmp_path, capsys, shuffle):
    run, qrels = _large_run(tmp_path, shuffle=shuffle)
    for flags in (["-q", "-c", "-m", "all_trec"], ["-q", "-M", "7", "-m", "official", "-m", "gm_map"]):
        whole = _cli(capsys, qrels, run, "--format", "trec_eval", *flags, "--no-stream")
        streamed = _cli(capsys, qrels, run, "--format", "trec_eval", *flags, "--stream", "--block-bytes", "300")
        assert whole[0] == 0 and whole[1].count("\n") > 100
        assert streamed == whole


def test_gzip_run_streams_too(tmp_path, capsys):
    run, qrels = _large_run(tmp_path)
    packed = tmp_path / "run.gz"
    packed.write_bytes(gzip.compress(run.read_bytes()))
    whole = _cli(capsys, qrels, run, "-q", "--no-stream")
    assert _cli(capsys, qrels, packed, "-q", "--stream", "--block-bytes", "500")[:2] == whole[:2]


def test_csv_run_with_header_and_comments_streams(tmp_path):
    run = tmp_path / "run.csv"
    lines = ["# a comment\n", "query,doc,score\n"]
    lines += [f"q{q},d{d},{(d * 7) % 5}\n" for q in range(6) for d in range(20)]
    lines.insert(40, "# another comment, in the middle\n")
    run.write_text("".join(lines))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(6) for d in range(0, 20, 3)))
    whole = evaluate(run, qrels, MEASURES)
    assert_same(whole, evaluate_stream(run, qrels, MEASURES, piece_bytes=40))


def test_trec_run_with_irregular_whitespace_and_extra_columns_streams(tmp_path):
    run = tmp_path / "run.txt"
    lines = [f"q{q}  Q0\td{d} {d} {20 - d} tag extra\n" for q in range(4) for d in range(20)]
    lines[30] = "q1 Q0 d10 10 10 tag\n"  # one line with fewer columns than the first
    run.write_text("".join(lines))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{d} 1\n" for q in range(4) for d in range(0, 20, 4)))
    whole = evaluate(run, qrels, MEASURES)
    assert_same(whole, evaluate_stream(run, qrels, MEASURES, piece_bytes=100))
    assert read_run(run).ranking_of("q0")[:3] == ["d0", "d1", "d2"]  # whitespace-separated, as trec_eval reads


def test_a_trec_line_with_a_double_space_and_a_tab_is_split_as_trec_eval_splits_it(tmp_path):
    """'q1  Q0<TAB>d1 ...': split at single spaces, the double space adds a field and the tab takes one away, so
    the field count is right and pyarrow read the doc id as 'Q0<TAB>d1' (trec_eval 10.0 reads d1)."""
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q{q}  Q0\td{d} {d} {9 - d} tag extra\n" for q in range(2) for d in range(3)))
    assert read_run(run).to_rankings() == {"q0": ["d0", "d1", "d2"], "q1": ["d0", "d1", "d2"]}
    rows = list(TextRun(run, piece_bytes=30).pieces())
    assert [d for piece in rows for d in piece.columns["doc"].to_pylist()] == ["d0", "d1", "d2"] * 2


@pytest.mark.parametrize("piece_bytes", [50, 1 << 20])
def test_stream_refuses_bad_input_with_the_whole_file_message(tmp_path, piece_bytes):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    cases = {
        "bad score": "".join(f"q1 Q0 d{i} {i} {'abc' if i == 30 else i} t\n" for i in range(40)),
        "duplicate doc": "".join(f"q{i // 20} Q0 d{i % 20 if i != 35 else 3} {i} {-i} t\n" for i in range(40)),
        "empty": "# only a comment\n",
    }
    for label, text in cases.items():
        run = tmp_path / f"{label}.txt"
        run.write_text(text)
        with pytest.raises(InputError) as whole:
            evaluate(run, qrels, ["AP"])
        with pytest.raises(InputError) as streamed:
            evaluate_stream(run, qrels, ["AP"], piece_bytes=piece_bytes)
        assert str(streamed.value) == str(whole.value), label
        assert str(whole.value).startswith(f"{label}.txt"), label


def test_trec_format_lines_equal_for_the_summary_kinds(tmp_path):
    run, qrels = _large_run(tmp_path, shuffle=True)
    measures = [parse_measure(n) for n in ("map", "gm_map", "num_rel_ret", "num_q", "relstring_5", "P_5")]
    whole = evaluate(run, qrels, measures, complete=True)
    streamed = evaluate_stream(run, qrels, measures, complete=True, piece_bytes=123)
    kwargs = {"per_query": True}
    assert trec_format.lines(streamed, "r", **kwargs) == trec_format.lines(whole, "r", **kwargs)


def test_cli_reads_a_large_run_of_short_queries_in_blocks(tmp_path, capsys, monkeypatch):
    """A run file of short queries above SHORT_QUERIES_FROM_BYTES is read in blocks of whole queries (less memory
    than read whole: bench/library/cli_shapes.py) with the same output byte for byte; with --no-stream, or queries
    longer than SHORT_QUERY_ROWS, whole. The limits are lowered here so that a small file crosses them."""
    import metrics.cli.ir_metrics as cli
    import metrics.evaluation.streaming as streaming

    run, qrels = _large_run(tmp_path, queries=40, docs=30)  # 30 rows a query
    calls: list[int] = []
    original = streaming.evaluate_stream

    def spy(*args, **keywords):
        calls.append(keywords["options"].piece_bytes)
        return original(*args, **keywords)

    monkeypatch.setattr(streaming, "evaluate_stream", spy)
    monkeypatch.setattr(cli, "SHORT_QUERIES_FROM_BYTES", 1000)
    monkeypatch.setattr(cli, "SHORT_QUERY_BLOCK_BYTES", 700)
    flags = ["--format", "trec_eval", "-q", "-c", "-m", "all_trec"]
    whole = _cli(capsys, qrels, run, *flags, "--no-stream")
    assert calls == []
    in_blocks = _cli(capsys, qrels, run, *flags)
    assert calls == [700] and in_blocks == whole and whole[1].count("\n") > 100
    monkeypatch.setattr(cli, "SHORT_QUERY_ROWS", 30)  # 30 rows a query are no longer short
    assert _cli(capsys, qrels, run, *flags) == whole and calls == [700]
    monkeypatch.setattr(cli, "SHORT_QUERY_ROWS", 250)
    shuffled, _ = _large_run(tmp_path, queries=40, docs=30, shuffle=True)  # not contiguous: read whole, not spilled
    assert _cli(capsys, qrels, shuffled, *flags, "--no-stream") == _cli(capsys, qrels, shuffled, *flags)
    assert calls == [700]


def test_cli_in_blocks_reports_a_bad_qrels_file_before_a_bad_run(tmp_path, capsys, monkeypatch):
    """trec_eval reads the qrels first: with both files bad, the qrels' error is the one reported, in blocks too."""
    import metrics.cli.ir_metrics as cli

    monkeypatch.setattr(cli, "SHORT_QUERIES_FROM_BYTES", 100)
    run = tmp_path / "run.txt"
    run.write_text("q0 Q0 d0\n" + "".join(f"q{i // 3} Q0 d{i} {i} {-i} t\n" for i in range(1, 40)))  # 3 fields
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2\n")
    status, out, err = _cli(capsys, qrels, run)
    assert status == 2 and out == "" and err.startswith("error: qrels.txt") and "line 2" in err


def test_rows_per_query_counts_the_first_lines(tmp_path):
    from metrics.io.text.sources import rows_per_query

    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 a 1 1 t\n")
    assert rows_per_query(path) == 4 / 2
    path.write_text("query,doc,score\nq1,a,3\nq1,b,2\nq2,a,1\n")  # the header is one more 'query'
    assert rows_per_query(path) == 4 / 3
    path.write_text("q1 Q0 a 1 3 t\nq2 Q0 a 1 1 t\nq1 Q0 b 2 2 t\n")  # q1 in two places: not contiguous
    assert rows_per_query(path) is None
    path.write_bytes(gzip.compress(b"q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\n"))
    assert rows_per_query(path) is None
    assert rows_per_query(tmp_path / "missing.txt") is None

"""Parquet in (a file, a directory, a hive dataset partitioned by query) and out (--to-parquet): the same numbers as
the text files, and bad Parquet refused with messages that name the file, the column or the row."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from metrics.cli.ir_metrics import main
from metrics.evaluation.engine import evaluate
from metrics.evaluation.streaming import evaluate_stream, write_parquet
from metrics.io import InputError, read_qrels, read_run
from tests.test_streaming import MEASURES, _large_run, assert_same


def _tables(run_path, qrels_path):
    run = [line.split() for line in run_path.read_text().splitlines()]
    qrels = [line.split() for line in qrels_path.read_text().splitlines()]
    run_table = pa.table(
        {"qid": [r[0] for r in run], "docno": [r[2] for r in run], "score": [float(r[4]) for r in run]}
    )
    qrels_table = pa.table(
        {
            "query_id": [r[0] for r in qrels],
            "doc_id": [r[2] for r in qrels],
            "relevance": pa.array([int(r[3]) for r in qrels], pa.int8()),
        }
    )
    return run_table, qrels_table


@pytest.fixture
def files(tmp_path):
    run, qrels = _large_run(tmp_path, shuffle=True)
    run_table, qrels_table = _tables(run, qrels)
    return run, qrels, run_table, qrels_table


def test_parquet_file_equals_text(tmp_path, files):
    run, qrels, run_table, qrels_table = files
    pq.write_table(run_table, tmp_path / "run.parquet", row_group_size=100)
    pq.write_table(qrels_table, tmp_path / "qrels.parquet")
    whole = evaluate(run, qrels, MEASURES, complete=True)
    assert_same(whole, evaluate(tmp_path / "run.parquet", tmp_path / "qrels.parquet", MEASURES, complete=True))
    streamed = evaluate_stream(
        tmp_path / "run.parquet", tmp_path / "qrels.parquet", MEASURES, complete=True, piece_bytes=40 * 77
    )
    assert_same(whole, streamed)


def test_hive_dataset_partitioned_by_query_equals_text(tmp_path, files):
    run, qrels, run_table, _ = files
    ds.write_dataset(run_table, tmp_path / "hive", format="parquet", partitioning=["qid"], partitioning_flavor="hive")
    assert (tmp_path / "hive" / "qid=q7").is_dir()
    whole = evaluate(run, qrels, MEASURES)
    assert_same(whole, evaluate(tmp_path / "hive", qrels, MEASURES))
    assert_same(whole, evaluate_stream(tmp_path / "hive", qrels, MEASURES, piece_bytes=400))


def test_ids_that_look_numeric_stay_text(tmp_path):
    """A hive partition 'query=007' is the id '007', not the number 7; integer columns are read as their text."""
    table = pa.table({"query": ["007", "007", "10"], "doc": pa.array([1, 2, 1], pa.int64()), "score": [2.0, 1.0, 1.0]})
    ds.write_dataset(table, tmp_path / "hive", format="parquet", partitioning=["query"], partitioning_flavor="hive")
    run = read_run(tmp_path / "hive")
    assert sorted(run.query_ids.to_pylist()) == ["007", "10"]
    assert run.ranking_of("007") == ["1", "2"]


def test_to_parquet_writes_whole_queries_per_file_and_reads_back_the_same(tmp_path, capsys, files):
    run, qrels, *_ = files
    assert main([str(qrels), str(run), "-q", "--format", "trec_eval", "-m", "all_trec", "--no-stream"]) == 0
    expected = capsys.readouterr().out
    out = tmp_path / "parquet"
    assert (
        main(
            [
                str(qrels),
                str(run),
                "-q",
                "--format",
                "trec_eval",
                "-m",
                "all_trec",
                "--to-parquet",
                str(out),
                "--block-bytes",
                "500",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.replace("\tparquet\n", "\ttag\n") == expected  # runid: the directory's name
    files_written = sorted(out.glob("*.parquet"))
    assert files_written
    seen = set()
    for path in files_written:
        queries = pq.read_table(path).column("query").to_pylist()
        assert queries == sorted(queries)  # grouped by query
        assert not seen & set(queries)  # each query in one file only
        seen |= set(queries)


def test_to_parquet_of_a_grouped_run_writes_a_file_per_block_in_the_run_order(tmp_path):
    """A run grouped by query is written in one pass, a file per block of whole queries (so the distributed path
    has a task per block, not one for the whole run), rows in the run's order; a query in two stretches of one block
    is brought together."""
    run, qrels = _large_run(tmp_path, queries=40, docs=30)
    lines = run.read_text().splitlines(keepends=True)
    lines[3:6], lines[30:33] = lines[30:33], lines[3:6]  # q0 and q1 swap three rows: two stretches each
    run.write_text("".join(lines))
    written = write_parquet(run, tmp_path / "dataset", piece_bytes=4000)
    assert len(written) > 5 and [p.rsplit("/", 1)[-1] for p in written] == [
        f"part-{n:05d}.parquet" for n in range(len(written))
    ]
    seen: set[str] = set()
    rows = []
    for path in written:
        table = pq.read_table(path)
        queries = table.column("query").to_pylist()
        stretches = [q for i, q in enumerate(queries) if i == 0 or queries[i - 1] != q]
        assert len(stretches) == len(set(stretches))  # each query's rows together
        assert not seen & set(stretches)  # and in one file only
        seen |= set(stretches)
        rows += zip(queries, table.column("doc").to_pylist(), strict=True)
    text_rows = [(line.split()[0], line.split()[2]) for line in lines]
    assert rows[60:] == text_rows[60:] and sorted(rows[:60]) == sorted(text_rows[:60])
    assert [q for q, _ in rows[:60]] == ["q0"] * 30 + ["q1"] * 30
    whole = evaluate(run, qrels, MEASURES)
    assert_same(whole, evaluate(tmp_path / "dataset", qrels, MEASURES))
    assert_same(whole, evaluate_stream(tmp_path / "dataset", qrels, MEASURES, piece_bytes=400))
    # The run's last query comes as a block of its own (the pieces end in it): it joins the file before it.
    last = pq.read_table(write_parquet(run, tmp_path / "larger", piece_bytes=20_000)[-1]).column("query")
    assert len(set(last.to_pylist())) > 1


def _error(tmp_path, table, kind="run", name="bad.parquet") -> str:
    pq.write_table(table, tmp_path / name)
    with pytest.raises(InputError) as error:
        (read_run if kind == "run" else read_qrels)(tmp_path / name)
    ending = f" (see errors/{error.value.code} in the docs)"  # every message ends naming its page
    assert str(error.value).endswith(ending)
    return str(error.value).removesuffix(ending)


def test_bad_parquet_is_refused_with_a_clear_message(tmp_path):
    good = {"query": ["q1", "q1", "q2"], "doc": ["a", "b", "a"], "score": [1.0, 0.5, 2.0]}
    assert _error(tmp_path, pa.table({"query": good["query"], "doc": good["doc"]})) == (
        "bad.parquet: no score column (accepted names: score, sim, similarity, relevance_score; found: query, doc)"
    )
    assert _error(tmp_path, pa.table({**good, "query": ["q1", None, "q2"]})) == (
        "bad.parquet, row 1: the query id is missing"
    )
    assert _error(tmp_path, pa.table({**good, "doc": ["a", "", "c"]})) == "bad.parquet, row 1: the doc id is empty"
    assert _error(tmp_path, pa.table({**good, "score": [1.0, None, 2.0]})) == (
        "bad.parquet, row 1: score 'None' is not a number"
    )
    assert _error(tmp_path, pa.table({**good, "score": ["1", "x", "2"]})) == (
        "bad.parquet, row 1: score 'x' is not a number"
    )
    assert _error(tmp_path, pa.table({**good, "doc": ["a", "a", "c"]})) == (
        "bad.parquet, row 1: doc 'a' appears twice for query 'q1' (row 0 and row 1); trec_eval aborts on duplicate "
        "docs; keep one"
    )
    qrels = {"query": ["q1", "q2"], "doc": ["a", "b"], "grade": [1.0, 2.5]}
    assert _error(tmp_path, pa.table(qrels), "qrels").startswith("bad.parquet, row 1: grade '2.5' is not an integer")
    assert _error(tmp_path, pa.table({"q": ["q1"], "doc": ["a"], "score": [1.0]}), "qrels") == (
        "bad.parquet: no grade column (accepted names: grade, relevance, label, rel, judgment, judgement, qrel, "
        "relevance_grade; found: q, doc, score); it has a score column: is this a run table?"
    )
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 not really parquet")
    with pytest.raises(InputError, match=r"^broken.parquet: cannot be read as Parquet \("):
        read_run(tmp_path / "broken.parquet")


def test_bad_row_in_a_dataset_names_the_file_and_its_row(tmp_path):
    (tmp_path / "ds").mkdir()
    pq.write_table(pa.table({"query": ["q1"], "doc": ["a"], "score": [1.0]}), tmp_path / "ds" / "a.parquet")
    pq.write_table(
        pa.table({"query": ["q2", "q2"], "doc": ["a", "b"], "score": [1.0, float("nan")]}),
        tmp_path / "ds" / "b.parquet",
    )
    with pytest.raises(InputError) as error:
        read_run(tmp_path / "ds")
    assert str(error.value) == "ds/b.parquet, row 1: score 'nan' is not a number (see errors/not-a-number in the docs)"


def test_cli_bad_parquet_exits_2_with_one_line(tmp_path, capsys):
    pq.write_table(pa.table({"query": ["q1"], "doc": ["a"]}), tmp_path / "run.parquet")
    (tmp_path / "qrels.txt").write_text("q1 0 a 1\n")
    assert main([str(tmp_path / "qrels.txt"), str(tmp_path / "run.parquet")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: run.parquet: no score column") and err.count("\n") == 1

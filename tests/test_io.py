"""Readers: every input form accepted, every bad input refused with the file, the line and the problem."""

from __future__ import annotations

import gzip
import random

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from golden import TIES

import metrics.io.arrays.parallel
import metrics.io.duplicates
import metrics.io.order
import metrics.io.text.fast
from metrics.core.errors import pointer
from metrics.evaluation.engine import evaluate
from metrics.io import InputError, doc_hash, fingerprint, read_qrels, read_run
from metrics.io.arrays.parallel import PARALLEL_ROWS, by_halves

RUN = "q1 Q0 a 1 3.0 t\nq1 Q0 b 2 2.0 t\nq1 Q0 c 3 1.0 t\nq2 Q0 x 1 5.0 t\nq2 Q0 y 2 4.0 t\n"
QRELS = "q1 0 b 1\nq1 0 c 2\nq2 0 y 1\nq2 0 z 0\n"
RANKINGS = {"q1": ["a", "b", "c"], "q2": ["x", "y"]}
JUDGMENTS = {"q1": {"b": 1, "c": 2}, "q2": {"y": 1, "z": 0}}


def write(tmp_path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return str(path)


def error_of(read, source, name=None) -> str:
    with pytest.raises(InputError) as caught:
        read(source, name) if name else read(source)
    message = str(caught.value)
    assert "\n" not in message, "InputError must be one line"
    ending = f" {pointer(caught.value.code)}"  # every message ends naming its docs page
    assert message.endswith(ending), message
    return message.removesuffix(ending)


# ---------------------------------------------------------------------------------------------------------
# Accepted forms


def test_trec_files_read_into_rankings_and_judgments(tmp_path):
    run = read_run(write(tmp_path, "run.txt", RUN))
    qrels = read_qrels(write(tmp_path, "qrels.txt", QRELS))
    assert run.to_rankings() == RANKINGS and run.name == "run.txt"
    assert qrels.to_dict() == JUDGMENTS and qrels.name == "qrels.txt"


@pytest.mark.parametrize(
    ("label", "transform"),
    [
        ("bom", lambda text: "\ufeff" + text),
        ("crlf", lambda text: text.replace("\n", "\r\n")),
        ("bom+crlf", lambda text: "\ufeff" + text.replace("\n", "\r\n")),
        ("tabs", lambda text: text.replace(" ", "\t")),
        ("several spaces and tabs", lambda text: text.replace(" ", " \t  ")),
        ("leading and trailing blanks", lambda text: "\n".join(f"  {line} \t" for line in text.splitlines())),
        ("blank lines", lambda text: "\n\n" + text.replace("\n", "\n\n") + "\n\n"),
        ("no final newline", lambda text: text.rstrip("\n")),
    ],
)
def test_whitespace_variants_are_accepted_silently(tmp_path, label, transform):
    assert read_run(write(tmp_path, "run.txt", transform(RUN))).to_rankings() == RANKINGS, label
    assert read_qrels(write(tmp_path, "qrels.txt", transform(QRELS))).to_dict() == JUDGMENTS, label


# trec_eval 10.0 (get_trec_results.c, get_qrels.c) skips lines whose first non-blank character is '#', and ignores a
# run's fields after the 6th (the tag); a '#' later in a line is data.
@pytest.mark.parametrize(
    ("label", "run_text", "qrels_text"),
    [
        ("a comment line first", "# BM25, k1=0.9 b=0.4\n" + RUN, "# judged by the assessors\n" + QRELS),
        (
            "comment lines between, indented, and of six words",
            RUN.replace("q2 Q0 x", "# q2 Q0 x 1 5 t\n  \t# six words, like a line\nq2 Q0 x"),
            QRELS.replace("q2 0 y", "#\n#q2 0 y 1\nq2 0 y"),
        ),
        ("every run line with two more columns", RUN.replace(" t\n", " t 0.31 extra\n"), QRELS),
        (
            "run lines with 6, 7 and 9 columns",
            RUN.replace("2.0 t\n", "2.0 t x\n").replace("5.0 t\n", "5.0 t x y z\n"),
            QRELS,
        ),
        ("tab-separated with an extra column", RUN.replace(" ", "\t").replace("\tt\n", "\tt\textra\n"), QRELS),
        ("a comment at the end without a newline", RUN + "# end", QRELS + "# end"),
    ],
)
def test_comment_lines_and_extra_run_columns_are_read_as_trec_eval_reads_them(
    tmp_path, row_split, label, run_text, qrels_text
):
    assert read_run(write(tmp_path, "run.txt", run_text)).to_rankings() == RANKINGS, label
    assert read_run(run_text.encode(), "upload.txt").to_rankings() == RANKINGS, label
    assert read_run(gzip.compress(run_text.encode()), "upload.gz").to_rankings() == RANKINGS, label
    assert read_qrels(write(tmp_path, "qrels.txt", qrels_text)).to_dict() == JUDGMENTS, label
    assert read_qrels(qrels_text.encode(), "upload.txt").to_dict() == JUDGMENTS, label


def test_comment_lines_at_the_top_are_skipped_without_a_second_pass(tmp_path, monkeypatch):
    """The common case, a comment header, stays on the fast path (a second pass costs seconds at 7M rows)."""

    def second_pass(*args, **kwargs):
        raise AssertionError("the file was parsed twice")

    monkeypatch.setattr(metrics.io.text.fast, "_parse_normalized", second_pass)
    run_text = "# BM25 run\n\n  # k1=0.9\n" + RUN
    assert read_run(write(tmp_path, "run.txt", run_text)).to_rankings() == RANKINGS
    assert read_run(run_text.encode(), "upload.txt").to_rankings() == RANKINGS
    csv_text = "# exported\nquery,doc,score\nq1,a,3\nq1,b,2\nq1,c,1\nq2,x,5\nq2,y,4\n"
    assert read_run(csv_text.encode(), "run.csv").to_rankings() == RANKINGS


def test_a_hash_inside_a_line_is_data_and_a_comment_in_a_csv_is_skipped():
    run = read_run(b"q1 Q0 http://a.org/#top 1 2 t\nq1 Q0 #b 2 1 t#1\n")
    assert run.to_rankings() == {"q1": ["http://a.org/#top", "#b"]}
    csv_text = b"# exported from the notebook\n\nquery,doc,score\nq1,a,3\n# a note\nq1,b,2\n"
    assert read_run(csv_text, "run.csv").to_rankings() == {"q1": ["a", "b"]}


def test_lines_after_comments_are_named_by_their_line_in_the_file(tmp_path):
    run_text = "# header\nq1 Q0 a 1 3 t extra\n# a b c 1.0 t\nq1 Q0 b 2 two t\n"
    assert error_of(read_run, write(tmp_path, "run.txt", run_text)) == "run.txt, line 4: score 'two' is not a number"
    run_text = "# header\nq1 Q0 a 1 3 t\n#\nq1 Q0 b 2 2\n"
    message = error_of(read_run, write(tmp_path, "run.txt", run_text))
    assert message == "run.txt, line 4: has 5 columns, expected 6 (qid Q0 docid rank score tag)"
    duplicate = "q1 Q0 a 1 3 t\n# again\nq1 Q0 a 2 2 t x\n"
    assert error_of(read_run, duplicate.encode(), "run.txt").startswith(
        "run.txt, line 3: doc 'a' appears twice for query 'q1' (line 1 and line 3)"
    )
    # trec_eval refuses a qrels line with a 5th field ("Malformed line"): so do we
    message = error_of(read_qrels, b"# c\nq1 0 a 1 x\n", "qrels.txt")
    assert message == "qrels.txt, line 2: has 5 columns, expected 4 (qid iter docid grade)"
    assert error_of(read_qrels, b"# only\n# comments\n", "qrels.txt") == "qrels.txt: the file is empty (only comments)"


def test_gzip_paths_and_bytes(tmp_path):
    path = write(tmp_path, "run.txt.gz", gzip.compress(RUN.encode()))
    assert read_run(path).to_rankings() == RANKINGS
    assert read_run(gzip.compress(RUN.encode()), "upload.gz").to_rankings() == RANKINGS
    unsuffixed = write(tmp_path, "qrels", gzip.compress(QRELS.encode()))
    assert read_qrels(unsuffixed).to_dict() == JUDGMENTS


def test_bytes_with_a_display_name():
    run = read_run(RUN.encode(), "my run.txt")
    assert run.name == "my run.txt" and run.to_rankings() == RANKINGS


@pytest.mark.parametrize(
    ("name", "run_text", "qrels_text"),
    [
        (
            "x.csv",
            "query,doc,score\nq1,a,3\nq1,b,2\nq1,c,1\nq2,x,5\nq2,y,4\n",
            "qid,docid,relevance\nq1,b,1\nq1,c,2\nq2,y,1\nq2,z,0\n",
        ),
        (
            "x.tsv",
            "query_id\tdoc_id\tscore\nq1\ta\t3\nq1\tb\t2\nq1\tc\t1\nq2\tx\t5\nq2\ty\t4\n",
            "query_id\tdocno\tlabel\nq1\tb\t1\nq1\tc\t2\nq2\ty\t1\nq2\tz\t0\n",
        ),
        (
            "x.txt",
            "qid Q0 docid rank score tag\nq1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 x 1 5 t\nq2 Q0 y 2 4 t\n",
            "qid iter docid grade\nq1 0 b 1\nq1 0 c 2\nq2 0 y 1\nq2 0 z 0\n",
        ),
        (
            "x.csv",
            'Doc,Score,Query,Rank\n"a",3,q1,1\nb,2,q1,2\nc,1,q1,3\nx,5,q2,1\ny,4,q2,2\n',
            "grade,doc,query\n1,b,q1\n2,c,q1\n1,y,q2\n0,z,q2\n",
        ),
    ],
    ids=["csv", "tsv", "trec-with-header", "csv-other-order"],
)
def test_csv_and_tsv_with_a_header(tmp_path, name, run_text, qrels_text):
    assert read_run(write(tmp_path, "run_" + name, run_text)).to_rankings() == RANKINGS
    assert read_qrels(write(tmp_path, "qrels_" + name, qrels_text)).to_dict() == JUDGMENTS
    assert read_run(run_text.encode(), "upload_" + name).to_rankings() == RANKINGS


def test_csv_grades_written_as_floats_are_integers():
    qrels = read_qrels(b"query,doc,grade\nq1,b,1.0\nq1,c,2.0\nq2,y,1\nq2,z,0.0\n", "q.csv")
    assert qrels.to_dict() == JUDGMENTS


def test_dataframes():
    run_frame = pd.DataFrame(
        {"qid": ["q1", "q1", "q1", "q2", "q2"], "docno": list("abcxy"), "score": [3, 2, 1, 5, 4.0], "extra": 0}
    )
    qrels_frame = pd.DataFrame(
        {"query_id": ["q1", "q1", "q2", "q2"], "doc_id": list("bcyz"), "relevance": [1, 2, 1, 0]}
    )
    assert read_run(run_frame).to_rankings() == RANKINGS
    assert read_qrels(qrels_frame).to_dict() == JUDGMENTS
    numeric_ids = pd.DataFrame({"query": [1, 1], "doc": [10, 9], "score": [0.5, 0.5]})
    assert read_run(numeric_ids).to_rankings() == {"1": ["9", "10"]}  # ids become strings; tie -> '9' > '10'


def test_dicts():
    assert read_run({"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"x": 5, "y": 4}}).to_rankings() == RANKINGS
    assert read_run(RANKINGS).to_rankings() == RANKINGS  # lists: best first
    assert read_qrels(JUDGMENTS).to_dict() == JUDGMENTS
    assert read_run({"q1": {}, "q2": ["x"]}).to_rankings() == {"q2": ["x"], "q1": []}  # empty ranking kept


# ---------------------------------------------------------------------------------------------------------
# Ranking rule: score descending, ties by doc id descending (byte order); the rank column is ignored


@pytest.fixture(params=["whole", "in halves", "in small blocks"])
def row_split(request, monkeypatch):
    """Read as small inputs are (one pass), or as runs of a million rows are: in two halves, one per thread,
    scores compared 3 at a time, duplicates looked for a few rankings at a time (so ties and duplicates fall across
    the halves, pieces and blocks); or also parsed 64 bytes at a time (a run's query ids then come in many chunks,
    each with its own dictionary of ids, and a query's rows cross chunks)."""
    if request.param == "in small blocks":
        monkeypatch.setattr(metrics.io.text.fast, "BLOCK_BYTES", 64)
    if request.param != "whole":
        monkeypatch.setattr(metrics.io.arrays.parallel, "PARALLEL_ROWS", 2)
        monkeypatch.setattr(metrics.io.order, "_PIECE_ROWS", 3)
        monkeypatch.setattr(metrics.io.duplicates, "_GRID_CELLS", 100)
    return request.param


def test_an_error_in_the_second_half_is_raised_in_the_caller():
    def work(first, stop):
        if first > 0:
            raise InputError("parse-failed", f"rows {first}..{stop - 1}: bad")
        return first

    with pytest.raises(InputError, match=r"rows 5\.\.9: bad"):
        by_halves(work, 10, PARALLEL_ROWS)
    assert by_halves(work, 10, PARALLEL_ROWS - 1) == [0]  # small: one call, no thread


def test_ties_go_by_doc_id_descending_in_byte_order_and_rank_column_is_ignored(row_split):
    lines = ["q1 Q0 b 1 0.5 t", "q1 Q0 a 2 0.5 t", "q1 Q0 doc10 3 0.5 t", "q1 Q0 doc9 4 0.5 t", "q1 Q0 D1 5 0.5 t"]
    lines.append("q1 Q0 top 6 2.0 t")  # rank 6 in the file, first by score
    run = read_run("\n".join(lines).encode())
    assert run.to_rankings() == {"q1": ["top", "doc9", "doc10", "b", "a", "D1"]}


def test_ties_out_of_order_inside_a_sorted_file_are_reordered(row_split):
    text = "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 2 t\nq1 Q0 d 4 2 t\nq1 Q0 e 5 1 t\nq2 Q0 m 1 1 t\nq2 Q0 n 2 1 t\n"
    run = read_run(text.encode())
    assert run.moved is not None  # only the tied rows moved; no full sort
    assert run.to_rankings() == {"q1": ["a", "d", "c", "b", "e"], "q2": ["n", "m"]}


def test_interleaved_queries_and_shuffled_lines(row_split):
    lines = RUN.splitlines()
    random.Random(3).shuffle(lines)
    run = read_run("\n".join(lines).encode())
    assert {q: run.to_rankings()[q] for q in RANKINGS} == RANKINGS


def test_query_changes_are_found_across_chunks_of_dictionary_codes():
    # Each chunk has its own dictionary (as pyarrow's CSV reader makes them): code 0 is "b" in one chunk and "c" in
    # the next, so only the ids tell whether a query goes on across a chunk boundary.
    pieces = [["a", "a", "b"], ["b", "c"], ["c"], ["d", "d"], ["e"]]
    column = pa.chunked_array([pa.array(piece).dictionary_encode() for piece in pieces])
    ids = [i for piece in pieces for i in piece]
    expected = [row for row in range(1, len(ids)) if ids[row] != ids[row - 1]]  # 2, 4, 6, 8
    assert metrics.io.order._id_changes(column, 0, len(ids) - 1).tolist() == expected
    assert metrics.io.order._id_changes(column, 3, 7).tolist() == [4, 6]  # rows 4..7 against the row before


def test_a_run_read_in_small_blocks_ranks_as_a_run_read_whole(monkeypatch):
    lines = RUN.splitlines()
    whole = read_run(RUN.encode())
    monkeypatch.setattr(metrics.io.text.fast, "BLOCK_BYTES", 64)
    for text in (RUN, "\n".join(sorted(lines, key=lambda line: line.split()[2]))):  # grouped, then interleaved
        small = read_run(text.encode())
        assert small.query_ids.type == pa.string()
        assert small.to_rankings() == whole.to_rankings()


def test_fingerprints_do_not_depend_on_chunking_or_slicing():
    rnd = random.Random(5)
    words = ["".join(rnd.choice("ab\u00e9z9") for _ in range(rnd.randint(0, 30))) for _ in range(2000)]
    expected = dict(zip(words, fingerprint(pa.chunked_array([words])).tolist(), strict=True))
    for _ in range(10):
        cuts = sorted(rnd.sample(range(1, len(words)), 6))
        pieces = [words[i:j] for i, j in zip([0, *cuts], [*cuts, len(words)], strict=True)]
        chunked = pa.chunked_array(pieces)
        assert fingerprint(chunked).tolist() == [expected[w] for w in words]
        sliced = chunked.slice(37, 1500)
        assert fingerprint(sliced).tolist() == [expected[w] for w in words[37:1537]]
    assert len(set(expected.values())) == len(expected)


def test_doc_hashes_do_not_depend_on_chunking_or_slicing_and_equal_strings_hash_equal():
    rnd = random.Random(6)
    words = ["".join(rnd.choice("ab\u00e9z9") for _ in range(rnd.randint(0, 20))) for _ in range(3000)]
    expected = dict(zip(words, doc_hash(pa.chunked_array([words])).tolist(), strict=True))
    assert all(0 <= h < 2**31 for h in expected.values())
    for _ in range(10):
        cuts = sorted(rnd.sample(range(1, len(words)), 6))
        pieces = [words[i:j] for i, j in zip([0, *cuts], [*cuts, len(words)], strict=True)]
        chunked = pa.chunked_array(pieces)
        assert doc_hash(chunked).tolist() == [expected[w] for w in words]
        assert doc_hash(chunked.slice(41, 1500)).tolist() == [expected[w] for w in words[41:1541]]
    assert len(set(expected.values())) > 0.99 * len(expected)


# ---------------------------------------------------------------------------------------------------------
# One query at a time: Run.ranking_of and Qrels.grades_of equal to_rankings() and to_dict()


def _check_one_query_views(run, qrels=None):
    rankings = run.to_rankings()
    for query, ranking in rankings.items():
        assert run.ranking_of(query) == ranking, query
    assert run.ranking_of("no such query") == []
    if qrels is not None:
        judgments = qrels.to_dict()
        for query in [*judgments, *rankings]:
            assert qrels.grades_of(query) == judgments.get(query, {}), query
        assert qrels.grades_of("no such query") == {}


def test_ranking_of_follows_trec_eval_ties_in_the_golden_cases():
    for case in TIES:
        run = read_run({q: data["scores"] for q, data in case["queries"].items()})
        qrels = read_qrels({q: data["qrels"] for q, data in case["queries"].items()})
        for query, order in case["effective_order"]["pytrec_eval"].items():
            assert run.ranking_of(query) == order, case["id"]
        _check_one_query_views(run, qrels)


@pytest.mark.parametrize("seed", range(6))
def test_ranking_of_and_grades_of_on_random_files(seed, row_split):
    rnd = random.Random(seed)
    lines, qrels_lines = [], []
    for q in range(rnd.randint(1, 30)):
        docs = rnd.sample(range(400), rnd.randint(0 if seed % 2 else 1, 60))
        for doc in docs:  # few distinct scores: many ties, inside sorted files and across chunks
            lines.append(f"q{q} Q0 d{doc} 0 {rnd.choice([1, 2, 2.5, 3])} t")
        for doc in rnd.sample(range(400), rnd.randint(0, 10)):
            qrels_lines.append(f"q{q} 0 d{doc} {rnd.randint(0, 3)}")
    if seed % 3 == 0:
        rnd.shuffle(lines)  # the full-sort path
    elif seed % 3 == 1:
        lines.sort(key=lambda line: (line.split()[0], -float(line.split()[4])))  # grouped, scores descending
    run = read_run(("\n".join(lines) + "\n").encode()) if lines else None
    qrels = read_qrels(("\n".join(qrels_lines) + "\n").encode()) if qrels_lines else None
    if run is not None:
        _check_one_query_views(run, qrels)


def test_ranking_of_on_dicts_with_empty_rankings():
    run = read_run({"q1": {"a": 1.0, "b": 1.0, "c": 2.0}, "q2": {}, "q3": ["x", "y"]})
    _check_one_query_views(run)
    assert run.ranking_of("q2") == [] and run.ranking_of("q1") == ["c", "b", "a"]


# ---------------------------------------------------------------------------------------------------------
# Refused inputs: the message names the file, the line and the problem


def test_wrong_column_count(tmp_path):
    path = write(tmp_path, "run.txt", RUN + "q3 Q0 d 1 0.5\n")
    assert error_of(read_run, path) == "run.txt, line 6: has 5 columns, expected 6 (qid Q0 docid rank score tag)"
    path = write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 b\n")
    assert error_of(read_qrels, path) == "qrels.txt, line 2: has 3 columns, expected 4 (qid iter docid grade)"


def test_non_numeric_score(tmp_path):
    lines = [f"q1 Q0 d{i} {i} {1 / i} t" for i in range(1, 17)] + ["q1 Q0 d17 17 abc t"]
    message = error_of(read_run, write(tmp_path, "run.txt", "\n".join(lines)))
    assert message == "run.txt, line 17: score 'abc' is not a number"


def test_nan_score(tmp_path):
    message = error_of(read_run, write(tmp_path, "run.txt", "q1 Q0 a 1 1.0 t\nq1 Q0 b 2 nan t\n"))
    assert message == "run.txt, line 2: score 'nan' is not a number"


@pytest.mark.parametrize("grade", ["0.7", "high", "nan"])
def test_non_integer_grade_says_how_to_map_it(tmp_path, grade):
    message = error_of(read_qrels, write(tmp_path, "qrels.txt", f"q1 0 a 1\nq1 0 b {grade}\n"))
    assert message.startswith(f"qrels.txt, line 2: grade '{grade}' is not an integer")
    assert "1 if score >= 0.5" in message and "round(10 * score)" in message


def test_duplicate_doc_names_both_lines(tmp_path, row_split):
    same_score = "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 b 3 2 t\n"
    message = error_of(read_run, write(tmp_path, "run.txt", same_score))
    assert message.startswith("run.txt, line 3: doc 'b' appears twice for query 'q1' (line 2 and line 3)")
    assert "trec_eval" in message
    other_score = "q1 Q0 a 1 3 t\nq2 Q0 a 1 3 t\n\nq1 Q0 c 2 2 t\n\nq1 Q0 a 3 1 t\n"  # blank lines counted
    message = error_of(read_run, write(tmp_path, "run.txt", other_score))
    assert message.startswith("run.txt, line 6: doc 'a' appears twice for query 'q1' (line 1 and line 6)")


@pytest.mark.parametrize(
    "lengths",
    [[50, 50, 50], [3, 80, 1, 40], [1] * 30 + [2000], [7]],  # equal, uneven (padded), very uneven (one sort)
)
@pytest.mark.parametrize("doc_length", [2, 8, 9, 30])  # ids of at most 8 bytes are hashed apart from longer ones
def test_duplicate_docs_are_found_in_rankings_of_any_lengths(lengths, doc_length, row_split):
    rnd = random.Random(sum(lengths) + doc_length)

    def doc(i):
        return f"{i:0{doc_length}d}"

    lines = [f"q{q} Q0 {doc(i)} {i} {1000 - i} t" for q, n in enumerate(lengths) for i in range(n)]
    read_run(("\n".join(lines) + "\n").encode())  # no duplicate: accepted (the same docs in every query)
    q = rnd.randrange(len(lengths))
    first = sum(lengths[:q])
    if lengths[q] < 2:
        lines.insert(first + 1, f"q{q} Q0 {doc(0)} 0 0.5 t")
        a, b = first, first + 1
    else:
        a, b = sorted(rnd.sample(range(first, first + lengths[q]), 2))
        lines[b] = lines[b].replace(doc(b - first), doc(a - first), 1)
    message = error_of(read_run, ("\n".join(lines) + "\n").encode(), "run.txt")
    assert message.startswith(
        f"run.txt, line {b + 1}: doc '{doc(a - first)}' appears twice for query 'q{q}' (line {a + 1} and line {b + 1})"
    )


def test_hash_collisions_are_not_duplicates(monkeypatch):

    def same_hash(column, out=None):
        out = np.empty(len(column), dtype=np.uint32) if out is None else out
        out[:] = 0
        return out

    monkeypatch.setattr(metrics.io.order, "doc_hash", same_hash)
    run = read_run(RUN.encode())  # every doc hashes alike: candidates everywhere, the strings tell them apart
    assert run.to_rankings() == RANKINGS
    with pytest.raises(InputError, match="doc 'b' appears twice for query 'q1'"):
        read_run((RUN + "q1 Q0 b 4 0.5 t\n").encode())


def test_duplicate_doc_in_an_unsorted_file_names_the_file_lines(tmp_path, row_split):
    text = "q2 Q0 x 1 1 t\nq1 Q0 a 1 1 t\nq2 Q0 y 2 5 t\nq1 Q0 b 2 3 t\nq1 Q0 a 3 7 t\n"
    message = error_of(read_run, write(tmp_path, "run.txt", text))
    assert message.startswith("run.txt, line 5: doc 'a' appears twice for query 'q1' (line 2 and line 5)")


def test_duplicate_judgment_in_qrels(tmp_path):
    message = error_of(read_qrels, write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 b 0\nq2 0 a 1\nq1 0 a 2\n"))
    assert message.startswith("qrels.txt, line 4: doc 'a' appears twice for query 'q1' (line 1 and line 4)")


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_empty_file(tmp_path, content):
    message = error_of(read_run, write(tmp_path, "run.txt", content))
    assert message.startswith("run.txt: the file is empty")


def test_header_only_csv_is_empty():
    assert error_of(read_run, b"query,doc,score\n", "run.csv") == "run.csv: the file is empty (only a header)"


def test_nul_bytes(tmp_path):
    message = error_of(read_run, write(tmp_path, "run.txt", b"q1 Q0 a 1 1 t\nq1 Q0 b\x00\x00 2 0.5 t\n"))
    assert message == "run.txt, line 2: contains a NUL byte; this looks like a binary file, not a text run file"


def test_undecodable_bytes(tmp_path):
    message = error_of(read_qrels, write(tmp_path, "qrels.txt", b"q1 0 a 1\nq1 0 b 1\nq1 0 \xff\xfe 1\n"))
    assert message == "qrels.txt, line 3: is not valid UTF-8 text; is this a binary file?"


@pytest.mark.parametrize(
    ("bad_line", "problem"),
    [
        (b"q7 Q0 caf\xe9 3 0.5 t", "is not valid UTF-8 text; is this a binary file?"),  # Latin-1, not UTF-8
        (b"q\xff Q0 d 3 0.5 t", "is not valid UTF-8 text; is this a binary file?"),
        (b"q7 Q0 d\x00 3 0.5 t", "contains a NUL byte; this looks like a binary file, not a text run file"),
    ],
)
def test_bad_bytes_far_from_the_start_name_their_line(tmp_path, bad_line, problem):
    # 3,000 lines of valid UTF-8 (ASCII and 'é'): the bad line comes after the head the reader sniffs.
    lines = [f"q{i // 100} Q0 {'é' if i % 7 == 0 else 'd'}{i} {i % 100} {-i} t".encode() for i in range(3000)]
    assert len(b"\n".join(lines)) > 65536
    message = error_of(read_run, write(tmp_path, "run.txt", b"\n".join([*lines, bad_line]) + b"\n"))
    assert message == f"run.txt, line 3001: {problem}"


def test_non_ascii_ids_far_from_the_start_are_read_as_written(tmp_path):
    lines = [f"q{i // 100} Q0 d{i} 1 {-i} t" for i in range(3000)] + ["q99 Q0 café-日本 1 1 t", "qé Q0 ünï 1 1 t"]
    run = read_run(write(tmp_path, "run.txt", "\n".join(lines) + "\n"))
    assert run.ranking_of("q99") == ["café-日本"] and run.ranking_of("qé") == ["ünï"]


def test_binary_garbage(tmp_path):
    garbage = random.Random(1).randbytes(5000)
    message = error_of(read_run, write(tmp_path, "model.bin", garbage))
    assert message.startswith("model.bin, line ")
    assert "binary" in message or "UTF-8" in message


def test_run_given_as_qrels_and_qrels_given_as_run(tmp_path):
    message = error_of(read_qrels, write(tmp_path, "run.txt", RUN))
    assert message.startswith("run.txt, line 1: has 6 columns (qid Q0 docid rank score tag): this looks like a run")
    message = error_of(read_run, write(tmp_path, "qrels.txt", QRELS))
    assert message.startswith("qrels.txt, line 1: has 4 columns (qid iter docid grade): this looks like a qrels")
    message = error_of(read_qrels, b"query,doc,score\nq1,a,0.5\n", "scores.csv")
    assert message.startswith("scores.csv, line 1: no grade column") and "is this a run file?" in message
    message = error_of(read_run, b"query,doc,grade\nq1,a,1\n", "judged.csv")
    assert message.startswith("judged.csv, line 1: no score column") and "is this a qrels file?" in message


def test_csv_errors_count_the_header_line():
    message = error_of(read_run, b"query,doc,score\nq1,a,1\nq1,b,oops\n", "run.csv")
    assert message == "run.csv, line 3: score 'oops' is not a number"
    message = error_of(read_run, b"query,doc,score\nq1,a,1\nq1,b\n", "run.csv")
    assert message == "run.csv, line 3: has 2 columns, expected 3 as in the header"
    message = error_of(read_run, b"q1,a,1\n", "run.csv")
    assert message.startswith("run.csv, line 1: expected a header naming the columns (query, doc, score)")


def test_missing_directory_and_unreadable_paths(tmp_path, monkeypatch):
    assert error_of(read_run, str(tmp_path / "nope.txt")) == "nope.txt: no such file"
    assert error_of(read_run, str(tmp_path)).endswith(": is a directory, not a file")
    locked = write(tmp_path, "locked.txt", RUN)

    def refuse(*args, **kwargs):  # tests run as root, where chmod 000 still reads: raise what open() would
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("metrics.io.text.sources.open", refuse, raising=False)
    assert error_of(read_run, locked) == "locked.txt: permission denied"


def test_dataframe_errors_name_the_row():
    frame = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "score": ["1.0", "high"]}, index=[10, 11])
    assert error_of(read_run, frame, "frame") == "frame, row 11: score 'high' is not a number"
    graded = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "b"], "grade": [1.0, 0.5]})
    message = error_of(read_qrels, graded)
    assert message.startswith("DataFrame, row 1: grade '0.5' is not an integer") and "round(10 * score)" in message
    missing = pd.DataFrame({"query": ["q1"], "passage": ["a"], "score": [1.0]})
    assert error_of(read_run, missing).startswith("DataFrame: no doc column (accepted names: doc, docid")
    duplicated = pd.DataFrame({"query": ["q1", "q1"], "doc": ["a", "a"], "score": [1.0, 0.5]}, index=["x", "y"])
    assert error_of(read_run, duplicated).startswith("DataFrame, row y: doc 'a' appears twice for query 'q1' (row x")


def test_dict_errors():
    assert "grade '0.5' is not an integer" in error_of(read_qrels, {"q1": {"a": 0.5}})
    assert "score 'x' is not a number" in error_of(read_run, {"q1": {"a": "x"}})
    assert "appears twice, at ranks 1 and 3" in error_of(read_run, {"q1": ["a", "b", "a"]})


def test_queries_only_in_run_or_only_in_qrels_are_accepted_and_counted(tmp_path):
    run = read_run(write(tmp_path, "run.txt", RUN + "q7 Q0 a 1 1 t\n"))
    qrels = read_qrels(write(tmp_path, "qrels.txt", QRELS + "q8 0 a 1\nq9 0 a 1\n"))
    result = evaluate(run, qrels, ["P@1"])
    assert (result.counts.only_in_run, result.counts.only_in_qrels, result.counts.evaluated) == (1, 2, 2)
    assert result.only_in_run == ("q7",) and result.only_in_qrels == ("q8", "q9")


# The plain-Python reader of small files (metrics.io.text.plain): what it reads, it reads as the readers do (trec_eval's
# order: score descending, ties by doc id descending); anything else it leaves to them (None).
@pytest.mark.parametrize(
    ("text", "rankings"),
    [
        ("q1 Q0 a 1 1 t\nq1 Q0 b 2 1.0 t\nq2 Q0 c 1 -1e3 t\n", {"q1": ["b", "a"], "q2": ["c"]}),  # a tie: "b" > "a"
        ("  q1 \tQ0  a 1 2 t x y\nq1 Q0 b 2 -0 t\nq1 Q0 c 3 0 t", {"q1": ["a", "c", "b"]}),  # blanks; -0 ties 0
        ("q1\tQ0\ta\t1\t.5\tt\nq2\tQ0\tb\t1\t+5\tt\n", {"q1": ["a"], "q2": ["b"]}),  # tab-separated
    ],
)
def test_plain_reader_orders_as_trec_eval(text, rankings):
    from metrics.io.text.plain import plain_run

    assert plain_run(text.encode(), "run").rankings == rankings
    assert read_run(text.encode()).to_rankings() == rankings


@pytest.mark.parametrize(
    "text",
    [
        "q1 Q0 a 1 1 t\n# a comment\n",
        "q1 Q0 a 1 1 t\n\nq1 Q0 b 2 0 t\n",  # a blank line
        "query,doc,score\nq1,a,1\n",  # a CSV
        "qid Q0 docid rank score tag\nq1 Q0 a 1 1 t\n",  # a header
        "q1 Q0 a 1 1 t\nq1 Q0 a 2 0 t\n",  # a doc given twice
        "q1 Q0 a 1 nan t\n",
        "q1 Q0 a 1 inf t\n",  # pyarrow and Python read it alike, but not by the same rule: the readers decide
        "q1 Q0 a 1 1\n",  # five fields
        "q1\tQ0\ta\t1\t1\tt\nq1\tQ0\tb c\t2\t0\tt\n",  # a space in a tab-separated file
        "q1 Q0 é 1 1 t\n",  # not ASCII
        "q1 Q0 a 1 1 t\r\n",
    ],
)
def test_plain_reader_leaves_other_runs_to_the_readers(text):
    from metrics.io.text.plain import plain_run

    assert plain_run(text.encode(), "run") is None


@pytest.mark.parametrize("text", ["q1 0 a 1.0\n", "q1 0 a 1\nq1 0 a 2\n", "q1 0 a 1 x\n", "q1 0 a 99999999999\n"])
def test_plain_reader_leaves_other_qrels_to_the_readers(text):
    from metrics.io.text.plain import plain_qrels

    assert plain_qrels(text.encode(), "qrels") is None
    assert plain_qrels(b"q1 0 a +1\nq1 0 b -2\n", "qrels").grade == [1, -2]

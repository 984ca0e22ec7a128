"""ir-ndeval's numpy fast path (metrics.io.ndeval_arrays, metrics.cli.ndeval_scores): what it reads itself and what
it leaves to the line-by-line readers. Values here are worked by hand; the recorded ndeval corpus
(test_ndeval45_corpus.py) checks the rest byte for byte."""

from __future__ import annotations

import pytest

from metrics.cli.ndeval_scores import fast_scores
from metrics.io import ndeval_arrays as arrays
from metrics.io.ndeval_run import c_double

QRELS = "1 1 a 1\n1 2 b 1\n"


def _scores(tmp_path, qrels: str, run: str, traditional: bool = False, depth: int = 0):
    (tmp_path / "q").write_bytes(qrels.encode())
    (tmp_path / "r").write_bytes(run.encode())
    return fast_scores(str(tmp_path / "q"), str(tmp_path / "r"), 0.5, 0.5, traditional, depth)


@pytest.mark.parametrize(
    "run",
    [
        "1 Q0 a 1 2 r\n1 Q0 a-much-longer-docno 2 1 r\n1 Q0 b 3 0 r\n",  # docnos wider than the qrels' (8 bytes)
        "1\tQ0\ta\t1\t2\tr\r\n1  Q0 a-much-longer-docno 2 1 r \n\x0b1 Q0 b 3 0 r",  # C's whitespace, no last newline
    ],
)
def test_the_fast_path_matches_docnos_of_any_width_and_whitespace(tmp_path, run):
    scored = _scores(tmp_path, QRELS, run)
    assert scored is not None
    [(topic, values)] = scored.rows
    # ranks 1 and 3 cover subtopics 1 and 2 (of 2): P-IA@5 = 2 / (5 x 2), strec@5 = 2 / 2; MAP-IA: subtopic 1's AP
    # is 1 / 1, subtopic 2's (1 / 3) / 1, their mean 2 / 3
    assert topic == 1 and scored.run_id == "r"
    assert values.precision[4] == 0.2 and values.strec[4] == 1.0 and values.strec[0] == 0.5
    assert values.map_ia == (1.0 + 1.0 / 3.0) / 2


@pytest.mark.parametrize(
    "run",
    [
        "1 Q0 a 1 2 r\n1 Q0 b 3 r\n",  # a short line
        "wt09-1 Q0 a 1 2 r\n",  # a topic after a task prefix (legal, rare)
        "1000001 Q0 a 1 2 r\n",  # seven digits
        "1 Q0 a 1 2 r\n1 Q0 b 1 1 r\n",  # a repeated rank
        "1 Q0 a 1 2 r\n1 Q0 a 2 1 r\n",  # a repeated docno
        "1 Q0 a 1 2 r\n1 Q0 b x 1 r\n",  # a rank that is no number
        "",  # empty
        "1 Q0 a\x00 1 2 r\n",  # a NUL
    ],
)
def test_what_the_fast_path_leaves_to_the_line_reader(run):
    qrels = arrays.read_qrels(QRELS.encode())
    assert qrels is not None
    assert arrays.read_run(run.encode(), qrels, False, 0, c_double) is None


def test_traditional_scores_c_cannot_read_go_to_the_line_reader():
    qrels = arrays.read_qrels(QRELS.encode())
    assert qrels is not None
    assert arrays.read_run(b"1 Q0 a 1 2 r\n", qrels, True, 0, c_double) is not None
    assert arrays.read_run(b"1 Q0 a 1 x r\n", qrels, True, 0, c_double) is None


@pytest.mark.parametrize("qrels", ["1 1 a\n", "1 1 a -1\n", "1 x a 1\n", "1 1 a 1.0\n", "1234567 1 a 1\n", "\n"])
def test_bad_qrels_go_to_the_line_reader(qrels):
    assert arrays.read_qrels(qrels.encode()) is None

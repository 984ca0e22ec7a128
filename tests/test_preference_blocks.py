"""-R prefs and -R qrels_prefs three ways: small plain files in plain Python, without pyarrow
(metrics.preferences.runs.preference_scores), and any file with Arrow in bounded memory
(metrics.preferences.runs.preference_runs: the run read a piece at a time, only the rows of judged documents kept, the
judgments scored a block of queries at a time). The output must be the same bytes every way, whatever the pieces and
blocks."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import metrics.io.text.plain as plain
import metrics.preferences.runs.preference_runs as preferences
from metrics.cli.ir_metrics import main


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([*args, "--format", "trec_eval"])
    return status, out.getvalue(), err.getvalue()


def _files(tmp_path, *, contiguous: bool, subgroups: bool, seed: int) -> tuple[str, str]:
    """A run of 12 queries x 30 docs with tied scores (by file order, or shuffled), and preferences on about half
    of each query's documents and on some documents it did not retrieve."""
    rng = np.random.default_rng(seed)
    lines = []
    for query in range(12):
        scores = rng.integers(0, 8, 30)  # many ties: ranked by doc id ascending
        lines += [f"q{query} Q0 d{rng.integers(0, 60)}x{doc} {rank} {score} t\n" for rank, (doc, score) in
                  enumerate(zip(range(30), sorted(scores, reverse=True), strict=True))]  # fmt: skip
    if not contiguous:
        rng.shuffle(lines)
    (tmp_path / "run").write_text("".join(lines))
    judged = []
    for line in lines:
        query, _, doc, *_ = line.split()
        if rng.random() < 0.5:
            for user in ("u1", "u2") if subgroups else ("u1",):
                judged.append(f"{query} {user} s{rng.integers(1, 3) if subgroups else 1} {doc} {rng.integers(0, 3)}\n")
    judged += [f"q{query} u1 s1 unseen{query} 1\n" for query in range(0, 12, 3)]
    (tmp_path / "prefs").write_text("".join(judged))
    return str(tmp_path / "prefs"), str(tmp_path / "run")


@pytest.mark.parametrize("contiguous", [True, False])
@pytest.mark.parametrize("subgroups", [False, True])
@pytest.mark.parametrize("options", [["-q"], ["-q", "-c", "-M", "12"], ["-q", "-D", "0.q3"]])
def test_plain_arrow_pieces_and_blocks_print_the_same_bytes(tmp_path, monkeypatch, contiguous, subgroups, options):
    prefs, run = _files(tmp_path, contiguous=contiguous, subgroups=subgroups, seed=len(options) + 2 * subgroups)
    args = [*options, "-R", "prefs", "-m", "all_prefs", prefs, run]
    in_plain_python = _cli(*args)
    assert in_plain_python[0] == 0 and in_plain_python[1].count("\n") > 14, in_plain_python
    monkeypatch.setattr(plain, "SMALL_FILE_BYTES", 0)  # no file is small: Arrow reads them
    assert _cli(*args) == in_plain_python
    monkeypatch.setattr(preferences, "BLOCK_PIECE_BYTES", 100)  # a piece a line or two: every query in pieces
    monkeypatch.setattr(preferences, "TABLE_ENTRIES", 7)  # a table a query or two
    assert _cli(*args) == in_plain_python


def test_a_query_found_in_two_pieces_is_ranked_as_one(tmp_path, monkeypatch):
    """Its rows apart in the file: the run is read whole again, so its two parts are ranked together (q1's b, at
    score 3, ranks above a)."""
    (tmp_path / "run").write_text("q1 Q0 a 1 2 t\nq2 Q0 c 1 1 t\nq1 Q0 b 2 3 t\n")
    (tmp_path / "prefs").write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n")
    monkeypatch.setattr(plain, "SMALL_FILE_BYTES", 0)
    monkeypatch.setattr(preferences, "BLOCK_PIECE_BYTES", 14)
    status, printed, _ = _cli("-q", "-R", "qrels_prefs", "-m", "prefs_simp", str(tmp_path / "prefs"),
                              str(tmp_path / "run"))  # fmt: skip
    assert (status, printed.splitlines()[0]) == (0, "prefs_simp            \tq1\t0.0000")


def test_a_bad_line_after_a_doc_given_twice_is_the_error(tmp_path, monkeypatch):
    """A whole read parses every line before it looks for duplicates (as trec_eval): read in pieces, the bad line
    further on is still the one reported."""
    middle = "".join(f"q{query} Q0 c 1 1 t\n" for query in range(2, 3000))
    (tmp_path / "run").write_text("q1 Q0 a 1 2 t\nq1 Q0 a 2 1 t\n" + middle + "q0 Q0 d 1 x t\n")
    (tmp_path / "prefs").write_text("q1 0 a 1\nq2 0 c 1\n")
    monkeypatch.setattr(plain, "SMALL_FILE_BYTES", 0)
    monkeypatch.setattr(preferences, "BLOCK_PIECE_BYTES", 100)
    status, _, err = _cli("-R", "qrels_prefs", "-m", "prefs_simp", str(tmp_path / "prefs"), str(tmp_path / "run"))
    assert status == 2 and "line 3001: score 'x'" in err, err

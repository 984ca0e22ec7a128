"""ndeval 4.5's files as metrics.io reads them: every refusal ndeval makes (its "syntax error ... at line N",
"duplicate rank", "duplicate docno", "is empty") answered with the file, the line and the problem. That we refuse
exactly where ndeval does is checked against the binary by tests/test_ndeval45_corpus.py; the messages here."""

from __future__ import annotations

import pytest

from metrics.io.ndeval_run import c_double, ndeval_rankings, read_ndeval_run
from metrics.io.rules import InputError
from metrics.io.subtopic_qrels import natural_number, read_subtopic_lines


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"1 1 d1 1\n1 1 d1\n", "q.txt, line 2: 3 field(s); ndeval's qrels have 4: topic subtopic docno judgment"),
        (b"1 1 d1 1\n\n", "q.txt, line 2: 0 field(s)"),
        (b"1 1 d1 -1\n", "q.txt, line 1: judgment '-1' is not a natural number (digits only)"),
        (b"1 1 d1 1.0\n", "q.txt, line 1: judgment '1.0' is not a natural number"),
        (b"1 x d1 1\n", "q.txt, line 1: subtopic 'x' is not a natural number"),
        (b"1000010 1 d1 1\n", "q.txt, line 1: topic '1000010' is too large: ndeval reads numbers up to 1000009"),
        (b"", "q.txt: the qrel file is empty"),
        (b"1 1 d\x001 1\n", "q.txt, line 1: a NUL byte"),
    ],
)
def test_qrels_refusals_name_the_file_the_line_and_the_problem(text, message):
    with pytest.raises(InputError) as refused:
        read_subtopic_lines(text, "q.txt")
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"1 Q0 d1 1 3\n", "r.txt, line 1: 5 field(s); ndeval's runs have 6: topic Q0 docno rank score runid"),
        (b"1 Q0 d1 -1 3 r\n", "r.txt, line 1: rank '-1' is not a natural number"),
        (b"abc Q0 d1 1 3 r\n", "r.txt, line 1: topic 'abc' is not a natural number"),
        (b"abc  1 d1 1 3 r\n", "r.txt, line 1: topic 'abc' is not a natural number"),
        (b"", "r.txt: the run file is empty"),
    ],
)
def test_run_refusals_name_the_file_the_line_and_the_problem(text, message):
    with pytest.raises(InputError) as refused:
        read_ndeval_run(text, "r.txt")
    assert str(refused.value).startswith(message)


def test_a_repeated_rank_or_docno_names_both_lines():
    display, _, lines = read_ndeval_run(b"2 Q0 a 1 1 r\n1 Q0 b 4 1 r\n1 Q0 c 4 1 r\n", "r.txt")
    with pytest.raises(InputError, match=r"^r\.txt, line 3: topic 1 repeats rank 4 \(line 2 too\)"):
        ndeval_rankings(display, lines)
    display, _, lines = read_ndeval_run(b"1 Q0 a 1 1 r\n1 Q0 a 2 1 r\n", "r.txt")
    with pytest.raises(InputError, match=r"^r\.txt, line 2: topic 1 repeats docno 'a' \(line 1 too\)"):
        ndeval_rankings(display, lines)
    assert ndeval_rankings(display, lines, depth=1) == {1: ["a"]}  # ndeval checks docnos after its -M cut


def test_traditional_refuses_a_score_c_cannot_read():
    display, _, lines = read_ndeval_run(b"1 Q0 a 1 abc r\n", "r.txt")
    assert ndeval_rankings(display, lines) == {1: ["a"]}  # by rank, the score is never read
    with pytest.raises(InputError, match=r"^r\.txt, line 1: score 'abc' is not a number \(-traditional"):
        ndeval_rankings(display, lines, traditional=True)


def test_ndevals_topic_rules():
    """A task prefix before "-"; with no "-", ndeval reads on into the next field when one character separates it."""
    runs = {b"wt09-12 Q0 a 1 1 r\n": 12, b"-5 Q0 a 1 1 r\n": 5, b"abc 7 a 1 1 r\n": 7, b"007 Q0 a 1 1 r\n": 7}
    for text, topic in runs.items():
        assert read_ndeval_run(text)[2][0].topic == topic, text


def test_c_numbers():
    """naturalNumber's limit (it refuses a digit once the value passed 100000) and sscanf's prefixes."""
    assert natural_number(b"1000009") == 1000009 and natural_number(b"1000010") == -1
    assert natural_number(b"0000000000001") == 1  # leading zeros never pass the limit
    assert (c_double(b"3.5abc"), c_double(b"0x1p3"), c_double(b"1e"), c_double(b"abc")) == (3.5, 8.0, 1.0, None)

"""ndeval 4.5's files, read as ndeval reads them: subtopic qrels (``topic subtopic docno judgment``) and its view of
a run (metrics.io.ndeval_run). Every line ndeval refuses is refused here with the file, the line and the problem.

ndeval's rules: fields split at C's whitespace (space, tab, newline, CR, VT, FF), extra fields ignored; topic,
subtopic and judgment are natural numbers (digits only, at most 1000009: ndeval stops reading a number once it
passes 100000); a judgment above 1 counts as 1. Documents are compared as bytes (strcmp).
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from metrics.io.rules import InputError, quoted

LARGE_ENOUGH = 100000  # ndeval's: a number already above this when another digit comes is refused


def natural_number(token: bytes) -> int:
    """ndeval's naturalNumber: the value of a string of digits, or -1."""
    if len(token) <= 6 and token.isdigit():  # the usual case: at most 999999, below ndeval's limit
        return int(token)
    if not token:
        return -1
    value = 0
    for byte in token:
        if not 48 <= byte <= 57:
            return -1
        if value > LARGE_ENOUGH:
            return -1
        value = 10 * value + byte - 48
    return value


def number_problem(what: str, token: bytes) -> str:
    text = token.decode("utf-8", "surrogateescape")
    if token.isdigit():
        return f"{what} {quoted(text)} is too large: ndeval reads numbers up to 1000009"
    return f"{what} {quoted(text)} is not a natural number (digits only)"


def text_of(token: bytes) -> str:
    return token.decode("utf-8", "surrogateescape")


def file_lines(source: str | os.PathLike | bytes, name: str | None, role: str) -> tuple[str, Iterator[bytes]]:
    """(the name to show, the file's lines without their newline), as ndeval's line reader splits them."""
    if isinstance(source, bytes):
        display, data = name or role, source
    else:
        display = name or os.fspath(source)
        try:
            with open(source, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise InputError(
                "file-missing" if isinstance(error, FileNotFoundError) else "file-unreadable",
                f"cannot open the {role}: {error.strerror}",
                path=display,
            ) from None
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise InputError("not-text", "a NUL byte; ndeval reads text lines", path=display, line=line)
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    if not lines:
        raise InputError("file-empty", f"the {role} is empty", path=display)
    return display, iter(lines)


@dataclass(frozen=True, slots=True)
class SubtopicLine:
    topic: int
    subtopic: int
    doc: str
    judgment: int  # as written (ndeval counts any value above 0 as 1)
    line: int


def read_subtopic_lines(source: str | os.PathLike | bytes, name: str | None = None) -> tuple[str, list[SubtopicLine]]:
    """(the file's name, its lines) of an ndeval qrels file (a path or its bytes)."""
    display, lines = file_lines(source, name, "qrel file")
    parsed = []
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if len(fields) < 4:
            raise InputError(
                "line-columns",
                f"{len(fields)} field(s); ndeval's qrels have 4: topic subtopic docno judgment",
                path=display,
                line=number,
            )
        values = [natural_number(fields[i]) for i in (0, 1, 3)]
        for what, index, value in zip(("topic", "subtopic", "judgment"), (0, 1, 3), values, strict=True):
            if value < 0:
                raise InputError("ndeval-number", number_problem(what, fields[index]), path=display, line=number)
        parsed.append(SubtopicLine(values[0], values[1], text_of(fields[2]), values[2], number))
    return display, parsed


@dataclass(frozen=True, eq=False)
class SubtopicQrels:
    """Subtopic judgments, read (:func:`read_subtopic_qrels`): each topic's ``(subtopic, doc, judgment)`` lines in
    file order (ndeval's rules for a pair judged twice need them all: metrics.diversity.aspects).

    ``numeric``: the topics are ndeval's numbers (a file), so a run's query ``012`` or ``wt09-12`` is topic ``12``,
    as ndeval reads it (:func:`ndeval_topic`); from a dict, a query is the topic of the same name."""

    name: str
    topics: dict[str, list[tuple[int, str, int]]]  # topic (as text) -> its lines, topics in ndeval's order
    numeric: bool = True

    @property
    def judgments(self) -> int:
        return sum(len(lines) for lines in self.topics.values())

    def topic_of(self, query: str) -> str | None:
        """The topic a run's query id stands for, if these judgments have it."""
        topic = ndeval_topic(query) if self.numeric else query
        return topic if topic in self.topics else None

    def to_dict(self) -> dict[str, dict[str, dict[str, int]]]:
        """``{topic: {subtopic: {doc: judgment}}}`` (a pair judged twice keeps its last line)."""
        out: dict[str, dict[str, dict[str, int]]] = {}
        for topic, lines in self.topics.items():
            judged = out.setdefault(topic, {})
            for subtopic, doc, judgment in lines:
                judged.setdefault(str(subtopic), {})[doc] = judgment
        return out


def ndeval_topic(query: str) -> str | None:
    """The topic number ndeval reads from a run's query id, as text (``"012"`` and ``"wt09-12"`` are ``"12"``), or
    None when ndeval would read none."""
    token = query.encode("utf-8", "surrogateescape")
    if not token[:1].isdigit() and b"-" in token:
        token = token[token.index(b"-") + 1 :]
    number = natural_number(token)
    return str(number) if number >= 0 else None


def read_subtopic_qrels(source, name: str | None = None) -> SubtopicQrels:
    """Subtopic qrels, ndeval's format (``topic subtopic docno judgment``), read as ndeval 4.5 reads them; every line
    it refuses is refused with the file, the line and the problem (an InputError).

    Parameters
    ----------
    source : str, os.PathLike, bytes, Mapping or SubtopicQrels
        A file's path or its bytes (gzipped too), a dict ``{topic: {subtopic: {doc: judgment}}}``, or what this
        returns (passed through).
    name : str, optional
        The name errors show (default: the path, or "qrel file").

    Returns
    -------
    SubtopicQrels
        Each topic's ``(subtopic, doc, judgment)`` lines in file order, topics in ndeval's (numeric) order.

    Raises
    ------
    metrics.io.InputError
        For a line ndeval refuses (too few fields, a topic, subtopic or judgment that is not a natural number), a
        NUL byte, an empty or unreadable file: the file, the line and the problem.

    Examples
    --------
    >>> qrels = read_subtopic_qrels(b"7 1 d1 1\\n7 2 d1 0\\n7 2 d2 1\\n")
    >>> qrels.to_dict(), qrels.topic_of("wt09-7")
    ({'7': {'1': {'d1': 1}, '2': {'d1': 0, 'd2': 1}}}, '7')
    """
    if isinstance(source, SubtopicQrels):
        return source
    if isinstance(source, Mapping):
        return _from_mapping(source, name or "subtopic qrels")
    if not isinstance(source, bytes | bytearray | memoryview):
        display, data = name or os.fspath(source), _read(source, name)
    else:
        display, data = name or "qrel file", bytes(source)
    if data[:2] == b"\x1f\x8b":  # gzip, by its magic bytes (ndeval reads plain text only)
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise InputError("not-text", f"a broken gzip file ({error})", path=display) from None
    grouped: dict[int, list[tuple[int, str, int]]] = {}
    columns = _plain_columns(data)
    if columns is None:  # the line-by-line reader names a bad line (or reads a rare legal one)
        _, lines = read_subtopic_lines(data, display)
        columns = (
            [x.topic for x in lines],
            [x.subtopic for x in lines],
            [x.doc for x in lines],
            [x.judgment for x in lines],
        )
    for topic, subtopic, doc, judgment in zip(*columns, strict=True):
        grouped.setdefault(topic, []).append((subtopic, doc, judgment))
    return SubtopicQrels(display, {str(topic): grouped[topic] for topic in sorted(grouped)})


def _plain_columns(data: bytes):
    """The four columns of a file whose every line has exactly 4 fields, its numbers at most 6 digits (the usual
    file; read column by column, several times faster than line by line), or None."""
    if b"\0" in data:
        return None
    rows = [line.split() for line in data.split(b"\n")]
    if rows and not rows[-1]:
        rows.pop()
    if not rows or any(len(row) != 4 for row in rows):
        return None
    topic, subtopic, doc, judgment = zip(*rows, strict=True)
    for column in (topic, subtopic, judgment):
        if not b"".join(column).isdigit() or max(map(len, column)) > 6:
            return None
    numbers = [list(map(int, column)) for column in (topic, subtopic, judgment)]
    return numbers[0], numbers[1], [text_of(d) for d in doc], numbers[2]


def _read(source: str | os.PathLike, name: str | None) -> bytes:
    try:
        with open(source, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise InputError(
            "file-missing" if isinstance(error, FileNotFoundError) else "file-unreadable",
            f"cannot open the subtopic qrels: {error.strerror}",
            path=name or os.fspath(source),
        ) from None


def _from_mapping(source: Mapping, name: str) -> SubtopicQrels:
    topics: dict[str, list[tuple[int, str, int]]] = {}
    for topic, subtopics in source.items():
        if not isinstance(subtopics, Mapping):
            raise InputError(
                "option-value", f"topic {topic!r}: expected {{subtopic: {{doc: judgment}}}}, got {subtopics!r}"
            )
        names = [str(s) for s in subtopics]
        numeric = all(n.isdigit() for n in names)
        number = {n: i for i, n in enumerate(sorted(names, key=lambda n: (int(n), n) if numeric else (0, n)))}
        lines = []
        for subtopic, docs in subtopics.items():
            for doc, judgment in docs.items():
                if not isinstance(doc, str) or isinstance(judgment, bool) or not isinstance(judgment, int):
                    raise InputError(
                        "option-value", f"topic {topic!r}, subtopic {subtopic!r}: expected doc: int, got {doc!r}"
                    )
                lines.append((int(subtopic) if numeric else number[str(subtopic)], doc, judgment))
        topics[str(topic)] = lines
    return SubtopicQrels(name, topics, numeric=False)

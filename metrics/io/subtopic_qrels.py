"""ndeval 4.5's files, read as ndeval reads them: subtopic qrels (``topic subtopic docno judgment``) and its view of
a run (metrics.io.ndeval_run). Every line ndeval refuses is refused here with the file, the line and the problem.

ndeval's rules: fields split at C's whitespace (space, tab, newline, CR, VT, FF), extra fields ignored; topic,
subtopic and judgment are natural numbers (digits only, at most 1000009: ndeval stops reading a number once it
passes 100000); a judgment above 1 counts as 1. Documents are compared as bytes (strcmp).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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

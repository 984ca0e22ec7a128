"""A small TREC run or qrels file read in plain Python, without pyarrow, whose import costs more than such a file's
whole evaluation (metrics.evaluation.plain_join scores it for the CLI).

Only a plain file is read here: ASCII text, fields separated by spaces and tabs (or by one tab, when the first line
is tab-separated, as metrics.io.text.layout decides), no comment, blank or header line, numbers in the decimal forms
pyarrow and Python read alike, no (query, doc) given twice. Anything else returns
None, and the readers (metrics.io.readers) read the file: both accept the same files with the same values, and only
they describe a bad line.

>>> run = plain_run(b"q1 Q0 b 1 2.0 t\\nq1 Q0 a 2 2 t\\nq2 Q0 c 1 -1e3 t\\n", "run")
>>> run.rankings
{'q1': ['b', 'a'], 'q2': ['c']}
>>> plain_run(b"q1 Q0 a 1 2.0 t\\n# a comment\\n", "run") is None  # the readers skip it
True
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass

from metrics.io.rules import MAX_GRADE, MAX_ID_BYTES
from metrics.io.text.layout import ALIASES

# Chosen by measurement (-q -m all_trec, 100 docs and ~35 judgments a query, 2026-11-28): at 50k lines (1.5 MB)
# this path took about the time pyarrow's did, in 54 MB instead of 90; at 100k lines (3 MB), 0.1 s more and 95 MB
# instead of 86. A TREC track's run (50 topics x 1,000 docs, ~1.9 MB) comes here.
SMALL_FILE_BYTES = 2 << 20
_SCORE = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"  # (pyarrow reads "inf", "1_0"... its own way)
_GRADE = r"[-+]?\d+"
_NUMBER = {"number": re.compile(_SCORE), "grade": re.compile(_GRADE)}
# Characters whose reading is left to the readers (C's isspace counts \v and \f as blanks, Python the \x1c-\x1f
# separators; in a tab-separated file, a space), by whether the first line is tab-separated.
_OTHER_BLANKS = {False: "\x0b\x0c\x1c\x1d\x1e\x1f", True: " \x0b\x0c\x1c\x1d\x1e\x1f"}


@dataclass(frozen=True)
class PlainRun:
    name: str
    rankings: dict[str, list[str]]  # query id -> doc ids in trec_eval's order (score descending, doc id descending)


@dataclass(frozen=True)
class PlainQrels:
    name: str  # the judgments, one per line, in file order:
    query: list[str]
    doc: list[str]
    grade: list[int]


def small_file(path: str) -> bool:
    """Whether ``path`` is a file of fewer than SMALL_FILE_BYTES bytes (a directory, a Parquet file: no)."""
    if path.lower().endswith((".parquet", ".pq")):
        return False
    try:
        return os.path.isfile(path) and os.path.getsize(path) < SMALL_FILE_BYTES
    except OSError:
        return False


def read_plain_run(path: str) -> PlainRun | None:
    """The run at ``path`` (see plain_run), named as the readers name it."""
    return plain_run(_read(path), _name(path))


def read_plain_qrels(path: str) -> PlainQrels | None:
    """The qrels at ``path`` (see plain_qrels), named as the readers name it."""
    return plain_qrels(_read(path), _name(path))


def read_plain_run_rows(path: str) -> tuple[str, list[tuple[str, str, float]]] | None:
    """(the run's name, every line's (query, doc, score) in file order), or None when the file is not small and
    plain (see the module's docstring): -R prefs ranks the rows its own way (ties by doc id ascending)."""
    if not small_file(path):
        return None
    name = _name(path)
    rows = _columns(_read(path), name, "run")
    return None if rows is None else (name, [(query, doc, float(score)) for query, doc, score in rows])


def read_plain_fields(path: str, fields) -> tuple[str, list[tuple]] | None:
    """(the file's name, its lines' fields) of a small plain file of ``fields`` (a metrics.io.text.fields.Fields: ids as
    str, numbers as float), read as metrics.io.text.fields.read_fields reads it; None when the file is not small and
    plain, or when a line breaks a rule or is blank or a comment: read_fields reads it then, and names the line."""
    if not small_file(path):
        return None
    data = _read(path)
    if not data or not data.isascii() or b"\0" in data or b"\r" in data:
        return None
    text = data.decode("ascii")
    if any(blank in text for blank in _OTHER_BLANKS[False]):
        return None
    kinds = [fields.numbers.get(field) for field in fields.names]
    rows = []
    for line in text.splitlines():
        tokens = line.split()
        if len(tokens) != len(kinds) or tokens[0].startswith("#"):
            return None
        row: list[str | float] = []
        for token, kind in zip(tokens, kinds, strict=True):
            if kind is None:
                if len(token) > MAX_ID_BYTES:
                    return None
                row.append(token)
                continue
            if not _NUMBER[kind].fullmatch(token):
                return None
            value = float(token)
            if not math.isfinite(value) or (kind == "grade" and abs(value) > MAX_GRADE):
                return None
            row.append(value)
        rows.append(tuple(row))
    return (_name(path), rows) if rows else None


def plain_run(data: bytes | None, name: str) -> PlainRun | None:
    """A run's rankings in trec_eval's order, or None when the text is not plain (see the module's docstring)."""
    rows = _columns(data, name, "run")
    if rows is None:
        return None
    ranked: dict[str, list[tuple[float, str]]] = {}
    for query, doc, score in rows:
        ranked.setdefault(query, []).append((float(score), doc))
    rankings = {}
    for query, scored in ranked.items():
        scored.sort(reverse=True)  # score descending (as doubles: -0.0 ties 0.0), then doc id descending
        docs = [doc for _, doc in scored]
        if len(set(docs)) < len(docs):  # a doc given twice: the readers name the line
            return None
        rankings[query] = docs
    return PlainRun(name, rankings)


def plain_qrels(data: bytes | None, name: str) -> PlainQrels | None:
    """The judgments in file order, or None when the text is not plain (see the module's docstring)."""
    rows = _columns(data, name, "qrels")
    if rows is None:
        return None
    query, doc, grades = (list(column) for column in zip(*rows, strict=True))
    grade = [int(value) for value in grades]
    if max(map(abs, grade)) > MAX_GRADE or len(set(zip(query, doc, strict=True))) < len(query):
        return None  # out of range, or a judgment given twice: the readers name the line
    return PlainQrels(name, query, doc, grade)


def _columns(data: bytes | None, name: str, kind: str) -> list[tuple[str, str, str]] | None:
    """Every line's (query, doc, score or grade) text, or None when the text is not plain. As metrics.io.text.layout
    decides: a first line of tab-separated fields (no space) makes every line split at each tab, into as many fields;
    otherwise every run of spaces and tabs separates fields (trec_eval's reading), and a run's lines may have more
    than six. One regular expression reads every line, and must match every line."""
    if not data or not data.isascii() or b"\0" in data or b"\r" in data:
        return None
    suffixes = [suffix.lower() for suffix in name.split(".")[1:]]
    if "csv" in suffixes or "tsv" in suffixes:
        return None
    text = data.decode("ascii")
    first = text.split("\n", 1)[0]
    tabs = "\t" in first and " " not in first.strip()
    if "," in first or any(blank in text for blank in _OTHER_BLANKS[tabs]):  # a CSV; blanks str.split would cut at
        return None
    if _is_header(first.split("\t") if tabs else first.split()):
        return None
    pattern = _line_pattern(kind, first.count("\t") + 1 if tabs else None)
    if pattern is None:
        return None
    rows = pattern.findall(text)
    if len(rows) != text.count("\n") + (not text.endswith("\n")):  # a line it does not match: blank, comment, ...
        return None
    if max(len(row[0]) for row in rows) > MAX_ID_BYTES or max(len(row[1]) for row in rows) > MAX_ID_BYTES:
        return None
    return rows


def _line_pattern(kind: str, tab_fields: int | None) -> re.Pattern | None:
    """A line of a run (query, doc and score captured) or of qrels (query, doc, grade): blank-separated fields, or
    exactly ``tab_fields`` tab-separated ones. A query id never starts with '#' (a comment line)."""
    value = _SCORE if kind == "run" else _GRADE
    if tab_fields is None:
        field, blank = "[^ \t\n]+", "[ \t]+"
        query = "[^# \t\n][^ \t\n]*"
        rest = f"{blank}{field}(?:{blank}{field})*" if kind == "run" else ""  # the tag, and any columns after it
        middle = (
            f"{field}{blank}({field}){blank}{field}{blank}({value})"
            if kind == "run"
            else f"{field}{blank}({field}){blank}({value})"
        )
        return re.compile(f"^[ \t]*({query}){blank}{middle}{rest}[ \t]*$", re.MULTILINE)
    field, query = "[^\t\n]+", "[^#\t\n][^\t\n]*"
    if kind == "run" and tab_fields >= 6:
        fields = [f"({query})", field, f"({field})", field, f"({value})", *[field] * (tab_fields - 5)]
    elif kind == "qrels" and tab_fields == 4:
        fields = [f"({query})", field, f"({field})", f"({value})"]
    else:
        return None
    return re.compile("^" + "\t".join(fields) + "$", re.MULTILINE)


def _is_header(fields: list[str]) -> bool:
    """metrics.io.text.layout's test: a line naming a query column and a doc column is a header."""
    names = {field.strip().strip('"').lower() for field in fields}
    return bool(names & set(ALIASES["query"])) and bool(names & set(ALIASES["doc"]))


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError:  # the readers name the problem
        return None


def _name(path: str) -> str:
    return os.path.basename(path) or path

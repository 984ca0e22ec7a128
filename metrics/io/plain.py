"""A small TREC run or qrels file read in plain Python, without pyarrow, whose import costs more than such a file's
whole evaluation (metrics.evaluation.plain_join scores it for the CLI).

Only a plain file is read here: ASCII text, fields separated by spaces and tabs (or by one tab, when the first line
is tab-separated, as metrics.io.layout decides), no comment, blank or header line, numbers in the decimal forms
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

import os
import re
from dataclasses import dataclass

from metrics.io.layout import ALIASES
from metrics.io.rules import MAX_GRADE, MAX_ID_BYTES

# Chosen by measurement (bench/cli_shapes.py): below this, parsing in Python costs less than importing pyarrow.
SMALL_FILE_BYTES = 1 << 20
_SCORE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")  # (pyarrow reads "inf", "1_0"... its own way)
_GRADE = re.compile(r"[-+]?\d+")
# Blanks that would split a field here but not in the readers (str.split cuts at them; so does a tab-separated line
# at a space); by whether the first line is tab-separated.
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


def plain_run(data: bytes | None, name: str) -> PlainRun | None:
    """A run's rankings in trec_eval's order, or None when the text is not plain (see the module's docstring)."""
    rows = _rows(data, name, minimum=6)
    if rows is None:
        return None
    ranked: dict[str, list[tuple[float, str]]] = {}
    for fields in rows:
        score = fields[4]
        if not _SCORE.fullmatch(score):
            return None
        ranked.setdefault(fields[0], []).append((float(score), fields[2]))
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
    rows = _rows(data, name, minimum=4, maximum=4)
    if rows is None:
        return None
    query, doc, grade = [], [], []
    for fields in rows:
        if not _GRADE.fullmatch(fields[3]) or abs(value := int(fields[3])) > MAX_GRADE:
            return None
        query.append(fields[0])
        doc.append(fields[2])
        grade.append(value)
    if len(set(zip(query, doc, strict=True))) < len(query):  # a judgment given twice: the readers name the line
        return None
    return PlainQrels(name, query, doc, grade)


def _rows(data: bytes | None, name: str, *, minimum: int, maximum: int | None = None) -> list[list[str]] | None:
    """Every line's fields, or None when the text is not plain. As metrics.io.layout decides: a first line of
    tab-separated fields (no space) makes every line split at each tab; otherwise every run of spaces and tabs
    separates fields (trec_eval's reading), and a run's lines may have more than six."""
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
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    rows = [line.split("\t") if tabs else line.split() for line in lines]
    if _is_header(rows[0]):
        return None
    widths = {len(fields) for fields in rows}
    if min(widths) < minimum or (maximum is not None and max(widths) > maximum) or (tabs and len(widths) > 1):
        return None
    for fields in rows:
        if fields[0].startswith("#") or (tabs and "" in fields):  # comments; empty fields
            return None
        if len(fields[0]) > MAX_ID_BYTES or len(fields[2]) > MAX_ID_BYTES:
            return None
    return rows


def _is_header(fields: list[str]) -> bool:
    """metrics.io.layout's test: a line naming a query column and a doc column is a header."""
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

"""A shared task's documents and topics: read from JSON Lines or CSV (``id, title, text``), every line checked, each
refusal an InputError naming the line and the problem; and the sample collection the app bundles
(data/shared_task/: documents.jsonl, topics.jsonl).

A topic is read as a document is, its ``description`` in the place of the text (``id, title, description``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ir_metrics_lab.core.paths import SHARED_TASK_DIR
from metrics.core.errors import InputError
from metrics.io.rules import id_problem, quoted

DOCS_MAX = 5000  # documents in one collection: a class judges a pool of a few hundred
TOPICS_MAX = 50
TITLE_MAX = 300  # characters
TEXT_MAX = 20_000  # characters: a document is read on a phone
BYTES_MAX = 20 * 2**20
ID_MAX = 100  # characters: ids key the task's tables (a PostgreSQL index row holds about 2,700 bytes)


@dataclass(frozen=True, slots=True)
class Document:
    id: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Topic:
    id: str
    title: str
    description: str


@dataclass(frozen=True, slots=True)
class Collection:
    """Documents in file order, each id once."""

    documents: tuple[Document, ...]

    def ids(self) -> frozenset[str]:
        return frozenset(d.id for d in self.documents)

    def by_id(self) -> dict[str, Document]:
        return {d.id: d for d in self.documents}


def read_collection(data: bytes | str, name: str = "collection") -> Collection:
    """Documents from JSON Lines (one object a line: ``id``, ``title``, ``text``) or CSV with a header naming those
    columns; the format is told by the first non-blank character (``{`` is JSON Lines).

    Raises
    ------
    metrics.core.errors.InputError
        For the first bad line: not UTF-8, not a JSON object, a column or field missing, an empty or too long id,
        title or text, an id given twice, more than DOCS_MAX documents or BYTES_MAX bytes.
    """
    rows = [(line, Document(*fields)) for line, fields in _records(data, name, ("id", "title", "text"), DOCS_MAX)]
    return Collection(tuple(doc for _, doc in rows))


def read_topics(data: bytes | str, name: str = "topics") -> tuple[Topic, ...]:
    """Topics from JSON Lines or CSV (``id``, ``title``, ``description``), checked as :func:`read_collection` checks
    documents (the description may be empty, the title may not)."""
    return tuple(Topic(*fields) for _, fields in _records(data, name, ("id", "title", "description"), TOPICS_MAX))


def _records(data: bytes | str, name: str, columns: tuple[str, str, str], most: int) -> list[tuple[int, tuple]]:
    text = _text(data, name)
    first = text.lstrip()[:1]
    rows = _json_rows(text, name, columns) if first == "{" else _csv_rows(text, name, columns)
    seen: dict[str, int] = {}
    found = []
    kind = "document" if columns[2] == "text" else "topic"
    for line, values in rows:
        fields = tuple(_checked(name, line, kind, c, value) for c, value in zip(columns, values, strict=True))
        if fields[0] in seen:
            problem = f"the {kind} id {quoted(fields[0])} is given twice (first on line {seen[fields[0]]})"
            raise InputError("doc-id-repeated", problem, path=name, line=line)
        seen[fields[0]] = line
        if len(found) == most:
            raise InputError("task-too-large", f"more than {most:,} rows; a shared task has at most that many", name)
        found.append((line, fields))
    if not found:
        raise InputError("file-empty", "no rows: the file is empty or holds only a header or blank lines", name)
    return found


def _text(data: bytes | str, name: str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > BYTES_MAX:
        raise InputError("task-too-large", f"the file is {len(data):,} bytes, over {BYTES_MAX:,}", name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError("not-text", "bytes that are not UTF-8 text (export the file as UTF-8)", name, line) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError("not-text", "a NUL byte: a binary file, not text", name, line)
    return text


def _json_rows(text: str, name: str, columns: tuple[str, ...]) -> Iterator[tuple[int, list[str]]]:
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError as error:
            raise InputError("json-line-invalid", f"not valid JSON ({error.msg})", name, number) from None
        if not isinstance(record, dict):
            raise InputError("json-line-invalid", f"a JSON {type(record).__name__}, not an object", name, number)
        missing = [c for c in columns if c not in record]
        if missing:
            raise InputError("json-line-invalid", f"the object has no {' or '.join(map(repr, missing))}", name, number)
        for column in columns:
            if not isinstance(record[column], str):
                problem = f"{column!r} is a JSON {type(record[column]).__name__}, not a string"
                raise InputError("json-line-invalid", problem, name, number)
        yield number, [record[c] for c in columns]


def _csv_rows(text: str, name: str, columns: tuple[str, ...]) -> Iterator[tuple[int, list[str]]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    for row in reader:
        number = reader.line_num  # the row's last line, a quoted field may span several
        if not any(field.strip() for field in row):
            continue
        if header is None:
            header = [field.strip().lower() for field in row]
            missing = [c for c in columns if c not in header]
            if missing:
                problem = f"the header has no {' or '.join(map(repr, missing))} column (it needs {', '.join(columns)})"
                raise InputError("column-missing", problem, name, number)
            continue
        if len(row) != len(header):
            problem = f"{len(row)} fields, the header has {len(header)} (quote a field holding a comma)"
            raise InputError("csv-columns", problem, name, number)
        yield number, [row[header.index(c)] for c in columns]


def _checked(name: str, line: int, kind: str, column: str, value: str) -> str:
    if column == "id":
        value = value.strip()
        if problem := id_problem(kind, value):
            raise InputError(*problem, path=name, line=line)
        if len(value) > ID_MAX:
            problem = (
                f"the {kind} id {quoted(value)} is {len(value):,} characters long; a shared task's are at most {ID_MAX}"
            )
            raise InputError("id-too-long", problem, name, line)
        return value
    value = value.strip()
    most = TITLE_MAX if column == "title" else TEXT_MAX
    if len(value) > most:
        problem = f"the {column} is {len(value):,} characters long; at most {most:,}"
        raise InputError("collection-field", problem, name, line)
    if not value and column != "description":
        raise InputError("collection-field", f"the {column} is empty", name, line)
    return value


def sample() -> tuple[Collection, tuple[Topic, ...]]:
    """The bundled sample collection and its topics (data/shared_task/), written for the project: city cycling."""
    documents = (SHARED_TASK_DIR / "documents.jsonl").read_bytes()
    topics = (SHARED_TASK_DIR / "topics.jsonl").read_bytes()
    return read_collection(documents, "documents.jsonl"), read_topics(topics, "topics.jsonl")


def _terms(text: str) -> set[str]:
    return {word for word in re.findall(r"\w+", text.casefold()) if len(word) > 1}


def search(collection: Collection, query: str, limit: int = 20) -> list[Document]:
    """Documents for a keyword query, for a run built by hand: each query word (two letters or more, any case) found
    in the title counts 2, in the text 1; the highest total first, ties by id; documents with no word left out.
    Plain on purpose: the class builds the ranking itself, the search only finds candidates.

    >>> docs = Collection((Document("d1", "Rain", "Mudguards keep you dry."), Document("d2", "Lights", "Rain.")))
    >>> [d.id for d in search(docs, "rain mudguards")]
    ['d1', 'd2']
    """
    asked = _terms(query)
    scored = []
    for doc in collection.documents:
        score = 2 * len(asked & _terms(doc.title)) + len(asked & _terms(doc.text))
        if score:
            scored.append((-score, doc.id, doc))
    return [doc for _, _, doc in sorted(scored)[:limit]]

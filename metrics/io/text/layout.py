"""Layout sniffing: TREC columns or a CSV/TSV header, and which column holds the query, the doc and the value; and
which lines are comments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from metrics.io.rules import InputError, quoted
from metrics.io.text.sources import HEAD_BYTES, TextSource

RUN_COLUMNS = ("qid", "Q0", "docid", "rank", "score", "tag")
QRELS_COLUMNS = ("qid", "iter", "docid", "grade")
ALIASES = {
    "query": ("query", "qid", "query_id", "queryid", "topic", "topic_id", "q"),
    "doc": ("doc", "docid", "doc_id", "docno", "document", "document_id", "passage_id", "pid", "corpus_id"),
    "score": ("score", "sim", "similarity", "relevance_score"),
    "grade": ("grade", "relevance", "label", "rel", "judgment", "judgement", "qrel", "relevance_grade"),
}


def is_comment(raw: bytes) -> bool:
    """A line whose first non-blank character is '#': trec_eval skips it in runs and qrels, and so do we, in every
    layout (a '#' later in the line is data: URLs as doc ids have them)."""
    return raw.lstrip(b" \t").startswith(b"#")


def is_content(raw: bytes) -> bool:
    """A line that holds data (or a header): neither blank nor a comment."""
    return bool(raw.strip()) and not is_comment(raw)


@dataclass(frozen=True)
class Layout:
    header: bool
    delimiter: str | None  # None: any run of spaces and tabs (TREC)
    names: tuple[str, ...]  # every column, as named in the header (or the TREC names, and a run's extra columns)
    roles: dict  # role ("query", "doc", "score"/"grade") -> column name
    skip_lines: int = 0  # lines before the first data row: blank and comment lines, and the header if any


def sniff(text: TextSource, kind: str, describe_binary: Callable[[], None]) -> Layout:
    """The layout of ``text``, from its first line that is neither blank nor a comment. ``describe_binary`` raises the
    InputError for a head that is not UTF-8 text (the line scanner, which itself needs a Layout, names the line)."""
    lines = text.head.splitlines()
    first_index = next((i for i, line in enumerate(lines) if is_content(line)), None)
    if first_index is None:
        if len(text.head) < HEAD_BYTES:
            only = " (only comments)" if any(map(is_comment, lines)) else " (only blank lines)" if text.head else ""
            raise InputError("file-empty", f"the file is empty{only}", text.name)
        problem = f"starts with {HEAD_BYTES} bytes of blank or comment lines; is this a run or qrels file?"
        raise InputError("comments-only", problem, text.name)
    first = lines[first_index]
    try:
        if b"\0" in text.head:
            raise UnicodeError
        text.head[: text.head.rfind(b"\n") + 1 or len(text.head)].decode("utf-8")
    except UnicodeError:
        describe_binary()  # raises: names the first line with a NUL byte or bad UTF-8
    first_text = first.decode("utf-8")
    if "," in first_text:
        delimiter = ","
    elif "\t" in first_text and " " not in first_text.strip():
        delimiter = "\t"
    else:
        delimiter = None
    fields = [f.strip().strip('"').lower() for f in (first_text.split(delimiter) if delimiter else first_text.split())]
    suffixes = [s.lower() for s in text.name.split(".")[1:]]
    header_expected = "csv" in suffixes or "tsv" in suffixes
    found = {role: next((f for f in fields if f in aliases), None) for role, aliases in ALIASES.items()}
    if found["query"] and found["doc"]:
        names = tuple(f.strip().strip('"') for f in (first_text.split(delimiter) if delimiter else first_text.split()))
        value_role = "score" if kind == "run" else "grade"
        other_role = "grade" if kind == "run" else "score"
        if not found[value_role]:
            hint = ""
            if found[other_role]:
                hint = f"; it has a {other_role} column: is this a {'qrels' if kind == 'run' else 'run'} file?"
            problem = f"no {value_role} column in the header (accepted names: {', '.join(ALIASES[value_role])}){hint}"
            raise InputError("column-missing", problem, text.name, line=1)
        lowered = [n.lower() for n in names]
        roles = {role: names[lowered.index(cast(str, found[role]))] for role in ("query", "doc", value_role)}
        return Layout(True, delimiter, names, roles, skip_lines=first_index + 1)
    if header_expected:
        wanted = "query, doc, score" if kind == "run" else "query, doc, grade"
        problem = f"expected a header naming the columns ({wanted}); found {quoted(first_text)}"
        raise InputError("header-expected", problem, text.name, line=1)
    names = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    if kind == "run":  # trec_eval ignores a run's columns after the 6th: name them, so pyarrow can skip them
        count = len(first_text.split("\t") if delimiter == "\t" else first_text.split())
        names += tuple(f"extra_{n}" for n in range(1, count - len(RUN_COLUMNS) + 1))
    value_role = "score" if kind == "run" else "grade"
    roles = {"query": "qid", "doc": "docid", value_role: value_role}
    return Layout(False, "\t" if delimiter == "\t" else None, names, roles, skip_lines=first_index)

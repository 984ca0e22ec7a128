"""The slow path: walk the lines to find and describe the first bad one (file, line and reason), with the rules of
rules.py."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from typing import cast

from metrics.io.rules import InputError, grade_problem, id_problem, score_problem
from metrics.io.text.layout import QRELS_COLUMNS, RUN_COLUMNS, Layout, is_comment, is_content
from metrics.io.text.sources import BLOCK_BYTES, TextSource


def scan(text: TextSource, kind: str, layout: Layout | None, binary_only: bool = False) -> None:
    """Walk the lines and raise InputError for the first bad one. Returns if every line is fine.

    ``binary_only``: look only for NUL bytes and invalid UTF-8 (a binary file fails every other check too).
    """
    expected = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    header_pending = layout is not None and layout.header
    value_index = None
    reader_delimiter = layout.delimiter if layout is not None else None
    first_data = True
    for number, raw in text.lines():
        where = (text.name, number)
        if b"\0" in raw:
            problem = f"contains a NUL byte; this looks like a binary file, not a text {kind} file"
            raise InputError("not-text", problem, *where)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not-text", "is not valid UTF-8 text; is this a binary file?", *where) from None
        if binary_only or not line.strip() or is_comment(raw):
            continue
        if reader_delimiter == ",":
            fields = next(csv.reader([line]), [])
        elif reader_delimiter == "\t" and layout is not None and layout.header:
            fields = line.split("\t")
        else:
            fields = line.split()
        if header_pending:
            assert layout is not None  # a header is pending only with a layout that has one
            header_pending = False
            lowered = [f.strip().lower() for f in fields]
            wanted = layout.roles["score" if kind == "run" else "grade"].lower()
            value_index = lowered.index(wanted) if wanted in lowered else None
            roles_index = [lowered.index(layout.roles[r].lower()) for r in ("query", "doc")]
            continue
        if layout is not None and layout.header:
            if len(fields) != len(layout.names):
                count = f"has {len(fields)} columns, expected {len(layout.names)} as in the header"
                raise InputError("csv-columns", count, *where)
            value = fields[cast(int, value_index)]  # set from the header, which names the value's column
            query, doc = (fields[i] for i in roles_index)
        else:
            too_few_or_many = len(fields) < len(expected) if kind == "run" else len(fields) != len(expected)
            if too_few_or_many:  # trec_eval ignores a run's columns after the 6th; a qrels line has exactly 4
                raise InputError("line-columns", _column_count_problem(len(fields), kind, first_data), *where)
            value = fields[4] if kind == "run" else fields[3]
            query, doc = fields[0], fields[2]
        first_data = False
        refused = (
            id_problem("query", query)
            or id_problem("doc", doc)
            or (score_problem(value) if kind == "run" else grade_problem(value))
        )
        if refused:
            raise InputError(*refused, *where)
        if len(raw) > BLOCK_BYTES:
            problem_text = f"is {len(raw):,} bytes long; lines are at most {BLOCK_BYTES:,} bytes"
            raise InputError("line-too-long", problem_text, *where)


def _column_count_problem(count: int, kind: str, first: bool) -> str:
    expected = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    if first and kind == "run" and count == len(QRELS_COLUMNS):
        return (
            f"has 4 columns ({' '.join(QRELS_COLUMNS)}): this looks like a qrels file, given where the run is "
            f"expected (a run has 6 columns: {' '.join(RUN_COLUMNS)})"
        )
    if first and kind == "qrels" and count == len(RUN_COLUMNS):
        return (
            f"has 6 columns ({' '.join(RUN_COLUMNS)}): this looks like a run file, given where the qrels are "
            f"expected (qrels have 4 columns: {' '.join(QRELS_COLUMNS)})"
        )
    return f"has {count} columns, expected {len(expected)} ({' '.join(expected)})"


def text_line_numbers(text: TextSource, layout: Layout, rows: Sequence[int]) -> list[str]:
    """Where the given data rows are, as 'line N' (pyarrow skips blank lines and comment lines are emptied first, so
    count the lines that are neither)."""
    wanted = set(rows)
    found: dict[int, int] = {}
    row = -2 if layout.header else -1
    for number, raw in text.lines():
        if is_content(raw):
            row += 1
            if row in wanted:
                found[row] = number
                if len(found) == len(wanted):
                    break
    return [f"line {found.get(r, '?')}" for r in rows]

"""The other files trec_eval reads, each a fixed number of whitespace-separated fields per line: z-score files (-Z),
preference files (-R prefs), and qrels read as preferences or judgment groups (-R qrels_prefs, -R qrels_jg).

The same rules as runs and qrels (rules.py): ids neither empty nor over MAX_ID_BYTES, numbers not NaN, grades whole;
lines whose first non-blank character is ``#`` are comments, blank lines are skipped; a bad line is refused with the
file, the line and the reason. pyarrow parses the file; only when that fails are the lines scanned for the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from metrics.io.rules import InputError, grade_problem, id_problem, ids_ok, quoted, score_problem
from metrics.io.text.sources import BLOCK_BYTES, TextSource


@dataclass(frozen=True)
class Fields:
    """What one kind of file holds: its fields in order, and which of them are numbers (the rest are ids)."""

    kind: str  # as messages name the file's kind, e.g. "z-score file"
    names: tuple[str, ...]
    numbers: Mapping[str, str]  # field -> "number" (a double, not NaN) or "grade" (a whole number)


PREFS_FIELDS = Fields("prefs file", ("query", "group", "subgroup", "doc", "level"), {"level": "number"})
QRELS_PREFS_FIELDS = Fields("qrels_prefs file", ("query", "group", "doc", "level"), {"level": "number"})
ONE_SUBGROUP = "0"  # the subgroup of every line of a qrels_prefs file, as get_qrels_prefs.c names it


def read_fields(source, fields: Fields, name: str | None = None) -> tuple[str, dict]:
    """(the file's name, {field: column}): ids as pyarrow string arrays, numbers as float64 numpy arrays. ``source``
    is a path or bytes (gzip'd or not)."""
    from metrics.io.text.fast import (  # pyarrow: not for a plain small file's Fields
        _squeeze_whitespace,
        _without_comments,
    )

    text = TextSource.open(source, name)
    data = text.read_all()
    # Squeezing empties the lines of blanks too: the regular expression's pass (30 ms at 300k lines) is for comments.
    data = _squeeze_whitespace(_without_comments(data, blank_lines_too=True) if b"#" in data else data)
    columns = _parsed(data, fields)
    if columns is None:
        _scan(text, fields)  # raises, naming the first bad line
        raise InputError("parse-failed", f"cannot be read as a {fields.kind}", text.name)
    if len(columns[fields.names[0]]) == 0:
        raise InputError("file-empty", "the file is empty", text.name)
    return text.name, columns


def _parsed(data: bytes, fields: Fields) -> dict | None:
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    from metrics.io.arrays.conversions import float_numpy
    from metrics.io.text.fast import _read_csv

    types = {field: pa.float64() if field in fields.numbers else pa.string() for field in fields.names}
    options = pa_csv.ConvertOptions(
        column_types=types, null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False
    )
    read = pa_csv.ReadOptions(column_names=list(fields.names), block_size=BLOCK_BYTES, use_threads=False)
    parse = pa_csv.ParseOptions(delimiter=" ", quote_char=False)
    try:  # block by block: the peak is the columns themselves (fast.py's in-memory read)
        table = _read_csv(pa.BufferReader(pa.py_buffer(data)), read, parse, options, True)
    except pa.ArrowInvalid:
        return None
    columns: dict = {}
    for field in fields.names:
        column = table.column(field)
        if field not in fields.numbers:
            if not ids_ok(column):
                return None
            columns[field] = column.combine_chunks()
            continue
        values = float_numpy(column)
        if np.isnan(values).any():
            return None
        if fields.numbers[field] == "grade" and not np.all(values == np.floor(values)):
            return None
        columns[field] = values
    return columns


def _scan(text: TextSource, fields: Fields) -> None:
    """Raise the InputError of the first line that breaks a rule."""
    expected = len(fields.names)
    for number, raw in text.lines():
        line = raw.decode("utf-8", errors="replace")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = (text.name, number)
        tokens = line.split()
        if len(tokens) != expected:
            problem_text = f"expected {expected} fields ({' '.join(fields.names)}), got {len(tokens)}: {quoted(line)}"
            raise InputError("line-columns", problem_text, *where)
        for field, token in zip(fields.names, tokens, strict=True):
            kind = fields.numbers.get(field)
            if kind == "number":
                problem = score_problem(token, field)
            elif kind == "grade":
                problem = grade_problem(token)
            else:
                problem = id_problem(field, token)
            if problem:
                raise InputError(*problem, *where)
        if "\x00" in line or "\ufffd" in line:
            raise InputError("not-text", "a NUL byte or invalid UTF-8", *where)

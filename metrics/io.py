"""Readers for TREC runs and qrels (also .gz, CSV/TSV with a header, DataFrames and dicts), with errors that
name the file, the line and the problem.

A fast path parses with pyarrow; only when it fails do we scan line by line, to find and describe the first
bad line. pandas is never imported here unless the input already is a DataFrame or a dict.
"""

from __future__ import annotations

import csv
import gzip
import io
import math
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

RUN_COLUMNS = ("qid", "Q0", "docid", "rank", "score", "tag")
QRELS_COLUMNS = ("qid", "iter", "docid", "grade")
ALIASES = {
    "query": ("query", "qid", "query_id", "queryid", "topic", "topic_id", "q"),
    "doc": ("doc", "docid", "doc_id", "docno", "document", "document_id", "passage_id", "pid", "corpus_id"),
    "score": ("score", "sim", "similarity", "relevance_score"),
    "grade": ("grade", "relevance", "label", "rel", "judgment", "judgement", "qrel", "relevance_grade"),
}
MAPPING_ADVICE = "map scores to integer grades explicitly, e.g. 1 if score >= 0.5 else 0, or round(10 * score)"
_HEAD_BYTES = 1 << 16
_BLOCK_BYTES = 1 << 22  # pyarrow parses this much at a time; a longer line cannot be parsed


class InputError(ValueError):
    """A run or qrels input that cannot be read; str() is one line, e.g. ``run.txt, line 17: ...``."""


# ---------------------------------------------------------------------------------------------------------
# What a value must be: the one statement of each rule. The line scanner applies them to one token at a time; the
# fast path applies the same rules to whole columns (_ids_ok, _values_ok) and, when a column breaks one, hands over
# to the scanner, so both paths refuse the same values with the same message.

MAX_GRADE = 2**31 - 1  # grades are small integers (trec_eval reads them as C ints); beyond this: a score column
MAX_ID_BYTES = 4096  # a query or doc id; real ids (even URLs) are far shorter
SHOWN_CHARS = 40  # a bad token is quoted up to this many characters


def quoted(token: str) -> str:
    """A token of the input as an error message quotes it: whole if short, else its first characters and length."""
    if len(token) <= SHOWN_CHARS:
        return repr(token)
    return f"{token[:SHOWN_CHARS]!r}… ({len(token):,} characters)"


def id_problem(role: str, value: str) -> str | None:
    """Why a query or doc id (``role``: "query" or "doc") is refused, or None."""
    if value == "":
        return f"the {role} id is empty"
    size = len(value.encode("utf-8", "surrogatepass"))
    if size > MAX_ID_BYTES:
        return f"the {role} id {quoted(value)} is {size:,} bytes long; ids are at most {MAX_ID_BYTES:,} bytes"
    return None


def score_problem(token: str) -> str | None:
    """Why a score is refused (it must be a number, not NaN), or None."""
    try:
        number = float(token)
    except ValueError:
        number = math.nan
    return f"score {quoted(token)} is not a number" if math.isnan(number) else None


def grade_problem(token: str) -> str | None:
    """Why a grade is refused (an integer, 1.0 read as 1, of at most MAX_GRADE in size), or None."""
    try:
        number = int(token)
    except ValueError:
        try:
            number = float(token)
        except ValueError:
            return f"grade {quoted(token)} is not an integer; {MAPPING_ADVICE}"
        if not (math.isfinite(number) and number == math.floor(number)):
            return f"grade {quoted(token)} is not an integer; {MAPPING_ADVICE}"
    if abs(number) > MAX_GRADE:
        return f"grade {quoted(token)} is out of range: grades are integers from -{MAX_GRADE:,} to {MAX_GRADE:,}"
    return None


@dataclass(frozen=True, eq=False)
class Run:
    """A run, grouped by query, with trec_eval's ranking: score descending, ties by doc id descending (byte
    order). The rank column of the file is ignored, as trec_eval ignores it.
    """

    name: str
    query_ids: pa.Array  # one string per ranking, in row order; a ranking may be empty (dict input)
    starts: np.ndarray  # int64, len(query_ids) + 1: the rows of ranking i are starts[i]:starts[i + 1]
    doc: pa.ChunkedArray  # string, one per row
    doc_hash: np.ndarray  # uint32 doc_hash() of each row's doc id: finds duplicates, filters the qrels join
    moved: tuple[np.ndarray, np.ndarray] | None = None  # (rows, their positions in trec_eval's order) for tied
    # rows out of doc-id order, the only rows that move; None when every row already is in that order

    @property
    def num_rows(self) -> int:
        return len(self.doc_hash)

    def ranks(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ranking index, 1-based rank) of the given rows."""
        positions = np.array(rows, dtype=np.int64)
        if self.moved is not None and len(positions):
            moved_rows, moved_to = self.moved
            at = np.minimum(np.searchsorted(moved_rows, positions), len(moved_rows) - 1)
            hit = moved_rows[at] == positions
            positions[hit] = moved_to[at[hit]]
        groups = np.searchsorted(self.starts, positions, side="right") - 1
        return groups, positions - self.starts[groups] + 1

    def to_rankings(self) -> dict[str, list[str]]:
        """{query id: doc ids best first}, the input of the readable metric functions."""
        docs = self.doc.to_pylist()
        if self.moved is not None:
            ordered = list(docs)
            for row, slot in zip(*(a.tolist() for a in self.moved), strict=True):
                ordered[slot] = docs[row]
            docs = ordered
        bounds = self.starts.tolist()
        return {q: docs[bounds[i] : bounds[i + 1]] for i, q in enumerate(self.query_ids.to_pylist())}

    def ranking_of(self, query_id: str) -> list[str]:
        """One query's doc ids best first (``to_rankings()[query_id]``, [] for an unknown query), reading only its
        rows: the cheap way to look at one ranking of a large run."""
        found = pc.index(self.query_ids, pa.scalar(str(query_id), pa.string())).as_py()
        if found < 0:
            return []
        first, stop = int(self.starts[found]), int(self.starts[found + 1])
        docs = self.doc.slice(first, stop - first).to_pylist()
        if self.moved is not None:
            moved_rows, moved_to = self.moved  # moved_rows ascending; a tie never crosses rankings
            lo, hi = np.searchsorted(moved_rows, [first, stop])
            if hi > lo:
                ordered = list(docs)
                for row, slot in zip(moved_rows[lo:hi].tolist(), moved_to[lo:hi].tolist(), strict=True):
                    ordered[slot - first] = docs[row - first]
                docs = ordered
        return docs


@dataclass(frozen=True, eq=False)
class Qrels:
    """Judgments, one row per (query, doc), in file order."""

    name: str
    query: pa.ChunkedArray  # string
    doc: pa.ChunkedArray  # string
    grade: np.ndarray  # int64

    def to_dict(self) -> dict[str, dict[str, int]]:
        """{query id: {doc id: grade}}, the input of the readable metric functions."""
        result: dict[str, dict[str, int]] = {}
        for q, d, g in zip(self.query.to_pylist(), self.doc.to_pylist(), self.grade.tolist(), strict=True):
            result.setdefault(q, {})[d] = g
        return result

    def grades_of(self, query_id: str) -> dict[str, int]:
        """One query's judgments {doc id: grade} (``to_dict().get(query_id, {})``), reading only its rows."""
        if len(self.grade) == 0:
            return {}
        rows = np.flatnonzero(_bool_numpy(pc.equal(self.query, pa.scalar(str(query_id), pa.string()))))
        return dict(zip(_take(self.doc, rows).to_pylist(), self.grade[rows].tolist(), strict=True))


# ---------------------------------------------------------------------------------------------------------
# Public readers


def read_run(source, name: str | None = None) -> Run:
    """Read a run: a TREC file (``qid Q0 docid rank score tag``; path or bytes, optionally .gz), a CSV/TSV with a
    header (query, doc, score), a DataFrame with those columns, or a dict {query: {doc: score}}.
    """
    return _read(source, name, "run")


def read_qrels(source, name: str | None = None) -> Qrels:
    """Read qrels: a TREC file (``qid iter docid grade``; path or bytes, optionally .gz), a CSV/TSV with a header
    (query, doc, grade), a DataFrame with those columns, or a dict {query: {doc: grade}}. Grades must be integers.
    """
    return _read(source, name, "qrels")


def _read(source, name: str | None, kind: str):
    if isinstance(source, Run | Qrels):
        if (kind == "run") != isinstance(source, Run):
            raise InputError(f"{source.name}: expected {kind}, got {type(source).__name__.lower()}")
        return source
    if isinstance(source, str | os.PathLike | bytes | bytearray | memoryview):
        text = _Text.open(source, name)
        columns, line_of = _parse_text(text, kind)
    elif hasattr(source, "columns") and (hasattr(source, "to_arrow") or hasattr(source, "iloc")):
        columns, line_of = _parse_frame(source, name or "DataFrame", kind)
        text = None
    elif isinstance(source, Mapping):
        return _from_mapping(source, name or kind, kind)
    else:
        raise InputError(f"{name or kind}: cannot read a {kind} from {type(source).__name__}")
    display = name or (text.name if text else "DataFrame")
    if kind == "run":
        return _prepare_run(display, columns, line_of)  # takes the columns out of the dict: freed once used
    return _prepare_qrels(display, columns["query"], columns["doc"], columns["grade"], line_of)


# ---------------------------------------------------------------------------------------------------------
# Text sources: where the bytes come from, and how to walk their lines on the slow path


@dataclass
class _Text:
    name: str
    path: str | None
    data: bytes | None
    gz: bool
    head: bytes  # the first bytes (decompressed), BOM removed, for sniffing the layout

    @classmethod
    def open(cls, source, name: str | None) -> _Text:
        if isinstance(source, bytes | bytearray | memoryview):
            data = bytes(source)
            gz = data[:2] == b"\x1f\x8b"
            if gz:
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError, gzip.BadGzipFile) as error:
                    raise InputError(f"{name or 'input'}: not a valid gzip file ({error})") from None
            return cls(name or "input", None, data, False, _strip_bom(data[:_HEAD_BYTES]))
        path = os.fspath(source)
        display = name or os.path.basename(path) or path
        try:
            with open(path, "rb") as raw:
                gz = raw.read(2) == b"\x1f\x8b"
            with gzip.open(path, "rb") if gz else open(path, "rb") as stream:
                head = stream.read(_HEAD_BYTES)
        except FileNotFoundError:
            raise InputError(f"{display}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{display}: is a directory, not a file") from None
        except PermissionError:
            raise InputError(f"{display}: permission denied") from None
        except (OSError, EOFError) as error:
            raise InputError(f"{display}: cannot be read ({error.__class__.__name__}: {error})") from None
        return cls(display, path, None, gz, _strip_bom(head))

    def read_all(self) -> bytes:
        if self.data is not None:
            return self.data
        try:
            with gzip.open(self.path, "rb") if self.gz else open(self.path, "rb") as stream:
                return stream.read()
        except (OSError, EOFError) as error:
            raise InputError(f"{self.name}: cannot be read ({error.__class__.__name__}: {error})") from None

    def arrow_input(self):
        if self.data is not None:
            return pa.BufferReader(pa.py_buffer(self.data))  # py_buffer: no copy, 2-4x faster than bytes
        if self.gz:
            return pa.input_stream(self.path, compression="gzip")
        # A file, not its path: given a path, pyarrow picks a decompressor by the name (a plain run.gz would fail);
        # the content decided (self.gz). Same speed: pyarrow opens the path as this same file.
        return pa.OSFile(self.path)

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """(line number, raw line without its newline), BOM removed from line 1."""
        if self.data is not None:
            stream = io.BytesIO(self.data)
        else:
            stream = gzip.open(self.path, "rb") if self.gz else open(self.path, "rb")  # noqa: SIM115
        with stream:
            for number, line in enumerate(stream, start=1):
                if number == 1:
                    line = _strip_bom(line)
                yield number, line.rstrip(b"\r\n")


def _strip_bom(data: bytes) -> bytes:
    return data[3:] if data[:3] == b"\xef\xbb\xbf" else data


# ---------------------------------------------------------------------------------------------------------
# Layout sniffing


@dataclass(frozen=True)
class _Layout:
    header: bool
    delimiter: str | None  # None: any run of spaces and tabs (TREC)
    names: tuple[str, ...]  # every column, as named in the header (or the TREC names)
    roles: dict  # role ("query", "doc", "score"/"grade") -> column name


def _sniff(text: _Text, kind: str) -> _Layout:
    first = next((line for line in text.head.splitlines() if line.strip()), None)
    if first is None:
        if len(text.head) < _HEAD_BYTES:
            raise InputError(f"{text.name}: the file is empty" + (" (only blank lines)" if text.head else ""))
        raise InputError(f"{text.name}: starts with {_HEAD_BYTES} blank bytes; is this a run or qrels file?")
    try:
        if b"\0" in text.head:
            raise UnicodeError
        text.head[: text.head.rfind(b"\n") + 1 or len(text.head)].decode("utf-8")
    except UnicodeError:
        _scan(text, kind, None, binary_only=True)  # names the first line with a NUL byte or bad UTF-8
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
            raise InputError(
                f"{text.name}, line 1: no {value_role} column in the header (accepted names: "
                f"{', '.join(ALIASES[value_role])}){hint}"
            )
        lowered = [n.lower() for n in names]
        roles = {role: names[lowered.index(found[role])] for role in ("query", "doc", value_role)}
        return _Layout(True, delimiter, names, roles)
    if header_expected:
        wanted = "query, doc, score" if kind == "run" else "query, doc, grade"
        raise InputError(
            f"{text.name}, line 1: expected a header naming the columns ({wanted}); found {quoted(first_text)}"
        )
    names = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    roles = {
        "query": "qid",
        "doc": "docid",
        ("score" if kind == "run" else "grade"): names[-2 if kind == "run" else -1],
    }
    return _Layout(False, "\t" if delimiter == "\t" else None, names, roles)


# ---------------------------------------------------------------------------------------------------------
# Fast path: pyarrow.csv


def _parse_text(text: _Text, kind: str) -> tuple[dict, Callable]:
    layout = _sniff(text, kind)
    value_role = "score" if kind == "run" else "grade"
    wanted = [layout.roles["query"], layout.roles["doc"], layout.roles[value_role]]
    convert = pa_csv.ConvertOptions(
        include_columns=wanted,
        column_types={wanted[0]: pa.string(), wanted[1]: pa.string(), wanted[2]: pa.float64()},
        null_values=[],  # pyarrow reads 'nan', 'NULL', 'N/A'... as null by default: here they are bad values
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
        check_utf8=False,  # _ids_ok checks, faster (ids are ASCII): 0.03-0.05 s less at 7M rows
    )
    if layout.header:
        read = pa_csv.ReadOptions(skip_rows=1, column_names=list(layout.names), block_size=_BLOCK_BYTES)
    else:
        read = pa_csv.ReadOptions(column_names=list(layout.names), block_size=_BLOCK_BYTES)
    quoting = layout.delimiter == ","  # TREC files have no quoting: a doc id may contain a quote
    parse = pa_csv.ParseOptions(delimiter=layout.delimiter or " ", quote_char='"' if quoting else False)
    try:
        table = pa_csv.read_csv(text.arrow_input(), read, parse, convert)
    except pa.ArrowInvalid:
        table = None
        if layout.delimiter in (None, "\t"):
            # Several spaces, tabs or trailing blanks between fields: pyarrow takes one delimiter character,
            # so squeeze the whitespace (line breaks kept, so line numbers stay right) and parse again.
            squeezed = _squeeze_whitespace(text.read_all())
            try:
                spaces = pa_csv.ParseOptions(delimiter=" ", quote_char=False)
                table = pa_csv.read_csv(pa.BufferReader(pa.py_buffer(squeezed)), read, spaces, convert)
            except pa.ArrowInvalid:
                table = None
            del squeezed
        if table is None:
            _scan(text, kind, layout)
            raise InputError(f"{text.name}: cannot be parsed as a {kind} file") from None
    except OSError as error:
        raise InputError(f"{text.name}: cannot be read ({error})") from None
    columns = {"query": table.column(wanted[0]), "doc": table.column(wanted[1]), value_role: table.column(wanted[2])}
    del table
    if len(columns["query"]) == 0:
        raise InputError(f"{text.name}: the file is empty" + (" (only a header)" if layout.header else ""))
    if not (_ids_ok(columns["query"]) and _ids_ok(columns["doc"]) and _values_ok(columns[value_role], kind)):
        _scan(text, kind, layout)
        raise InputError(f"{text.name}: cannot be read as a {kind} file (a value the line check accepts was refused)")
    return columns, lambda rows: _text_line_numbers(text, layout, rows)


def _squeeze_whitespace(data: bytes) -> bytes:
    """Turn any run of spaces and tabs into one space and drop blanks at line ends (bytes methods run in C)."""
    data = data.replace(b"\r\n", b"\n").replace(b"\t", b" ")
    while b"  " in data:
        data = data.replace(b"    ", b" ").replace(b"  ", b" ")
    data = data.replace(b"\n ", b"\n").replace(b" \n", b"\n")
    data = _strip_bom(data)
    data = data[1:] if data.startswith(b" ") else data
    return data[:-1] if data.endswith(b" ") else data


def _ids_ok(column: pa.ChunkedArray) -> bool:
    """id_problem's rules for a whole column (no id empty or over MAX_ID_BYTES), and valid UTF-8 without NUL bytes
    (trec_eval would cut a string at a NUL). ASCII is checked with two numpy reductions per chunk; only a chunk with
    other bytes needs Arrow's full UTF-8 validation."""

    def clean(first: int, stop: int) -> bool:
        for chunk in column.chunks[first:stop]:
            offsets, values = _string_views(chunk)
            if len(offsets) > 1:
                lengths = np.diff(offsets)
                if lengths.min() == 0 or lengths.max() > MAX_ID_BYTES:
                    return False
            if not len(values):
                continue
            if not values.min():
                return False
            if values.max() >= 0x80:
                try:
                    chunk.validate(full=True)
                except pa.ArrowInvalid:
                    return False
        return True

    return all(_by_halves(clean, column.num_chunks, len(column)))


def _values_ok(column: pa.ChunkedArray, kind: str) -> bool:
    """score_problem's and grade_problem's rules for a whole column: scores not NaN, grades integers (1.0 is read
    as 1) of at most MAX_GRADE in size."""
    if column.null_count:
        return False
    if kind == "run":  # chunk by chunk: no concatenated copy of 7M scores
        return not any(np.isnan(part).any() for part in _float64_parts(column, 0, len(column)))
    values = _float_numpy(column)
    return bool(np.all((values == np.floor(values)) & (np.abs(values) <= MAX_GRADE)))


# ---------------------------------------------------------------------------------------------------------
# Slow path: describe the first bad line


def _scan(text: _Text, kind: str, layout: _Layout | None, binary_only: bool = False) -> None:
    """Walk the lines and raise InputError for the first bad one. Returns if every line is fine.

    ``binary_only``: look only for NUL bytes and invalid UTF-8 (a binary file fails every other check too).
    """
    expected = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    header_pending = layout is not None and layout.header
    value_index = None
    reader_delimiter = layout.delimiter if layout is not None else None
    first_data = True
    for number, raw in text.lines():
        where = f"{text.name}, line {number}"
        if b"\0" in raw:
            raise InputError(f"{where}: contains a NUL byte; this looks like a binary file, not a text {kind} file")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{where}: is not valid UTF-8 text; is this a binary file?") from None
        if binary_only or not line.strip():
            continue
        if reader_delimiter == ",":
            fields = next(csv.reader([line]), [])
        elif reader_delimiter == "\t" and layout is not None and layout.header:
            fields = line.split("\t")
        else:
            fields = line.split()
        if header_pending:
            header_pending = False
            lowered = [f.strip().lower() for f in fields]
            wanted = layout.roles["score" if kind == "run" else "grade"].lower()
            value_index = lowered.index(wanted) if wanted in lowered else None
            roles_index = [lowered.index(layout.roles[r].lower()) for r in ("query", "doc")]
            continue
        if layout is not None and layout.header:
            if len(fields) != len(layout.names):
                raise InputError(f"{where}: has {len(fields)} columns, expected {len(layout.names)} as in the header")
            value = fields[value_index]
            query, doc = (fields[i] for i in roles_index)
        else:
            if len(fields) != len(expected):
                raise InputError(f"{where}: {_column_count_problem(len(fields), kind, first_data)}")
            value = fields[4] if kind == "run" else fields[3]
            query, doc = fields[0], fields[2]
        first_data = False
        problem = (
            id_problem("query", query)
            or id_problem("doc", doc)
            or (score_problem(value) if kind == "run" else grade_problem(value))
        )
        if problem:
            raise InputError(f"{where}: {problem}")
        if len(raw) > _BLOCK_BYTES:
            raise InputError(f"{where}: is {len(raw):,} bytes long; lines are at most {_BLOCK_BYTES:,} bytes")


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


def _text_line_numbers(text: _Text, layout: _Layout, rows: Sequence[int]) -> list[str]:
    """Where the given data rows are, as 'line N' (pyarrow skips blank lines, so count non-blank lines)."""
    wanted = set(rows)
    found: dict[int, int] = {}
    row = -2 if layout.header else -1
    for number, raw in text.lines():
        if raw.strip():
            row += 1
            if row in wanted:
                found[row] = number
                if len(found) == len(wanted):
                    break
    return [f"line {found.get(r, '?')}" for r in rows]


# ---------------------------------------------------------------------------------------------------------
# DataFrames and dicts


def _parse_frame(frame, name: str, kind: str) -> tuple[dict, Callable]:
    value_role = "score" if kind == "run" else "grade"
    names = [str(c) for c in frame.columns]
    lowered = [n.lower() for n in names]
    chosen = {}
    for role in ("query", "doc", value_role):
        match = next((a for a in ALIASES[role] if a in lowered), None)
        if match is None:
            other = "grade" if kind == "run" else "score"
            hint = ""
            if role == value_role and any(a in lowered for a in ALIASES[other]):
                hint = f"; it has a {other} column: is this a {'qrels' if kind == 'run' else 'run'} table?"
            accepted = ", ".join(ALIASES[role])
            raise InputError(f"{name}: no {role} column (accepted names: {accepted}; found: {', '.join(names)}){hint}")
        chosen[role] = names[lowered.index(match)]
    if hasattr(frame, "to_arrow"):  # polars and friends
        table = frame.select([chosen[r] for r in ("query", "doc", value_role)]).to_arrow()
        labels = None
    else:  # pandas
        table = pa.Table.from_pandas(frame[[chosen[r] for r in ("query", "doc", value_role)]], preserve_index=False)
        labels = frame.index
    if table.num_rows == 0:
        raise InputError(f"{name}: the table is empty")

    def row_names(rows: Sequence[int]) -> list[str]:
        return [f"row {labels[r] if labels is not None else r}" for r in rows]

    columns = {}
    for role in ("query", "doc"):
        column = table.column(chosen[role])
        if column.null_count:
            row = _first_true(pc.is_null(column))
            raise InputError(f"{name}, {row_names([row])[0]}: the {role} id is missing")
        if not pa.types.is_string(column.type):
            column = pc.cast(column, pa.string())
        if not _ids_ok(column):
            for row, value in enumerate(column.to_pylist()):
                if problem := id_problem(role, value) or ("\0" in value and f"the {role} id contains a NUL byte"):
                    raise InputError(f"{name}, {row_names([row])[0]}: {problem}")
        columns[role] = column
    values = table.column(chosen[value_role])
    try:
        values = pc.cast(values, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raw = values.to_pylist()
        for row, value in enumerate(raw):
            if problem := (score_problem if kind == "run" else grade_problem)(str(value)):
                raise InputError(f"{name}, {row_names([row])[0]}: {problem}") from None
        raise InputError(f"{name}: the {value_role} column ({values.type}) is not numeric") from None
    numbers = _float_numpy(values.fill_null(math.nan))
    bad = np.isnan(numbers)
    if kind == "qrels":
        bad |= ~((numbers == np.floor(numbers)) & (np.abs(numbers) <= MAX_GRADE))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        where = f"{name}, {row_names([row])[0]}"
        value = values[row].as_py()
        token = repr(value) if value is None else str(int(value) if value == math.floor(value) else value)
        problem = score_problem(token) if kind == "run" else grade_problem(token)
        raise InputError(f"{where}: {problem}")
    columns[value_role] = values
    return columns, row_names


def _from_mapping(mapping: Mapping, name: str, kind: str):
    """{query: {doc: score}} (or {query: [docs best first]}) for runs, {query: {doc: grade}} for qrels."""
    queries, docs, values, empty = [], [], [], []
    for query, entries in mapping.items():
        if isinstance(entries, str) or not isinstance(entries, Mapping | Sequence):
            raise InputError(
                f"{name}: query {quoted(str(query))} maps to {type(entries).__name__}, expected a dict of docs"
            )
        if not isinstance(entries, Mapping):
            if kind == "qrels":
                raise InputError(f"{name}: query {quoted(str(query))}: qrels need grades, a {{doc: grade}} dict")
            if len(set(entries)) != len(entries):
                seen: dict = {}
                for rank, doc in enumerate(entries, start=1):
                    if doc in seen:
                        raise InputError(
                            f"{name}: query {quoted(str(query))}: doc {quoted(str(doc))} appears twice, at ranks "
                            f"{seen[doc]} and {rank}; "
                            "trec_eval refuses duplicate docs"
                        )
                    seen[doc] = rank
            entries = {doc: float(len(entries) - rank) for rank, doc in enumerate(entries)}
        if not entries:
            empty.append(str(query))
        for doc, value in entries.items():
            queries.append(str(query))
            docs.append(str(doc))
            values.append(value)
    for query, doc, value in zip(queries, docs, values, strict=True):
        where = f"{name}: query {quoted(query)} doc {quoted(doc)}"
        problem = id_problem("query", query) or id_problem("doc", doc)
        if kind == "run":
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                problem = problem or f"score {quoted(str(value))} is not a number"
        elif isinstance(value, bool) or not isinstance(value, int | np.integer):
            problem = problem or f"grade {quoted(str(value))} is not an integer; {MAPPING_ADVICE}"
        else:
            problem = problem or grade_problem(str(int(value)))
        if problem:
            raise InputError(f"{where}: {problem}")
    column = pa.chunked_array([pa.array(queries, pa.string())])
    doc_column = pa.chunked_array([pa.array(docs, pa.string())])

    def row_names(rows: Sequence[int]) -> list[str]:
        return [f"query {quoted(queries[r])}" for r in rows]

    if kind == "run":
        columns = {"query": column, "doc": doc_column, "score": np.asarray(values, dtype=np.float64)}
        run = _prepare_run(name, columns, row_names)
        if not empty:
            return run
        extra = pa.array(empty, pa.string())
        return Run(
            run.name,
            pa.concat_arrays([run.query_ids, extra]),
            np.concatenate([run.starts, np.full(len(empty), run.starts[-1], dtype=np.int64)]),
            run.doc,
            run.doc_hash,
            run.moved,
        )
    return _prepare_qrels(name, column, doc_column, np.asarray(values, dtype=np.int64), row_names)


# ---------------------------------------------------------------------------------------------------------
# Putting rows in trec_eval's order, refusing duplicates


def _prepare_run(name: str, columns: dict, row_names: Callable) -> Run:
    """Group by query and rank by (score desc, doc id desc), sorting only what is out of that order.

    ``columns`` (query, doc, score) is emptied: each parsed column is freed as soon as it is no longer needed.
    """
    query = _chunked(columns.pop("query"))
    doc = _chunked(columns.pop("doc"))
    score = columns.pop("score")
    if not isinstance(score, np.ndarray):
        score = _chunked(score)
        if score.type != pa.float64():
            score = pc.cast(score, pa.float64())
    hashed, new_query, rising = _row_pass(query, doc, score)
    file_row = None  # the file row of each row, when everything had to be sorted
    moved = None
    starts, grouped = _group_starts(query, new_query)
    descending, tied = _descending_ties(starts, rising, score) if grouped else (False, None)
    if descending:
        moved = _order_ties(tied, doc)  # usually None: the file is in trec_eval's order already
    else:
        # A full sort by query, score descending, doc id descending (byte order). Queries are sorted by an
        # integer code (their block, or their first appearance), which is much faster than comparing strings.
        if grouped:
            code = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
        else:
            encoded = pc.dictionary_encode(query.combine_chunks())
            code = _int_numpy(encoded.indices)
            del encoded
        rounded = np.empty(len(doc), dtype=np.float32)
        _round_to_float32(score, rounded)
        table = pa.table({"query": _arrow_int64(code), "score": _arrow_float32(rounded), "doc": doc})
        del code, rounded
        indices = pc.sort_indices(
            table, sort_keys=[("query", "ascending"), ("score", "descending"), ("doc", "descending")]
        )
        del table
        file_row = _int_numpy(indices)
        query, doc, hashed = query.take(indices), doc.take(indices), hashed[file_row]
        starts, _ = _group_starts(query)
    del score
    query_ids = _take(query, starts[:-1])
    del query

    def query_of(rows: np.ndarray) -> list[str]:
        groups = np.searchsorted(starts, rows, side="right") - 1
        return query_ids.take(_arrow_int64(groups)).to_pylist()

    _refuse_duplicate_docs(name, starts, hashed, query_of, doc, file_row, row_names)
    return Run(name, query_ids, starts, doc, hashed, moved)


_PARALLEL_ROWS = 1 << 20  # below this, a second thread costs more than it saves


def _row_pass(query: pa.ChunkedArray, doc: pa.ChunkedArray, score) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One pass over every row, comparing each row with the next (i, i + 1) in its own piece of the file:

    - the doc hashes (uint32, one per row);
    - ``new_query``, the rows whose query id differs from the row before (int64, ascending);
    - ``rising``, the rows i where the score of row i + 1, rounded to float32 as trec_eval keeps it, is >= row
      i's: few (ties, and the first row of each ranking) in a run written in trec_eval's order.

    Large runs are split in two halves, one per thread (_by_halves).
    """
    n = len(doc)
    hashed = _pool_array(n, np.uint32)
    empty = np.zeros(0, dtype=np.int64)

    def work(first: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        doc_hash(doc.slice(first, stop - first), out=hashed[first:stop])
        last = min(stop, n - 1)  # rows first..last - 1, each compared with the row after it
        if last <= first:
            return empty, empty
        differs = pc.not_equal(query.slice(first + 1, last - first), query.slice(first, last - first))
        new_query, at = [empty], first + 1
        for chunk in differs.chunks:  # chunk by chunk: no full-length boolean temporary
            new_query.append(np.flatnonzero(_bool_numpy(chunk)) + at)
            at += len(chunk)
        return np.concatenate(new_query), _rising_rows(score, first, last + 1)

    halves = _by_halves(work, n, n)
    return hashed, np.concatenate([h[0] for h in halves]), np.concatenate([h[1] for h in halves])


_PIECE_ROWS = 1 << 16  # float32 copies of this many scores at a time: small, cache-friendly temporaries


def _rising_rows(score, first: int, stop: int) -> np.ndarray:
    """The rows i in first..stop - 2 where float32(score[i + 1]) >= float32(score[i])."""
    found = []
    previous = None  # the float32 score of the row before the current piece
    at = first
    for part in _float64_parts(score, first, stop):
        for begin in range(0, len(part), _PIECE_ROWS):
            with np.errstate(over="ignore"):  # beyond float32's range is inf, as in C
                rounded = part[begin : begin + _PIECE_ROWS].astype(np.float32)
            if previous is not None and rounded[0] >= previous:
                found.append(np.array([at - 1], dtype=np.int64))
            found.append(np.flatnonzero(rounded[1:] >= rounded[:-1]) + at)
            previous = rounded[-1]
            at += len(rounded)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def _float64_parts(score, first: int, stop: int) -> list[np.ndarray]:
    """Rows first..stop - 1 of float64 scores (numpy, or a float64 ChunkedArray) as numpy views, in row order."""
    if isinstance(score, np.ndarray):
        return [score[first:stop]]
    chunks = score.slice(first, stop - first).chunks
    return [np.frombuffer(c.buffers()[1], np.float64)[c.offset : c.offset + len(c)] for c in chunks if len(c)]


def _float32_at(score, rows: np.ndarray) -> np.ndarray:
    """The float32-rounded scores of a few rows."""
    if isinstance(score, np.ndarray):
        values = score[rows]
    else:
        values = _float_numpy(_take(score, rows)) if len(rows) else np.zeros(0)
    with np.errstate(over="ignore"):
        return values.astype(np.float32)


def _by_halves(work: Callable[[int, int], object], count: int, rows: int) -> list:
    """[work(0, count)], or for a large input (``rows``) [work(0, count // 2), work(count // 2, count)]: the first
    half here, the second in a helper thread. numpy and pyarrow release the GIL in their loops, so the halves run
    on two cores. An exception in either half is raised here."""
    if rows < _PARALLEL_ROWS or count < 2:
        return [work(0, count)]
    import threading

    results: list = [None, None]
    failure: list[BaseException] = []

    def second_half() -> None:
        try:
            results[1] = work(count // 2, count)
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    helper = threading.Thread(target=second_half, name="metrics-second-half", daemon=True)
    helper.start()
    try:
        results[0] = work(0, count // 2)
    finally:
        helper.join()
    if failure:
        raise failure[0]
    return results


def _round_to_float32(score, out: np.ndarray) -> None:
    """Write the float64 scores, rounded to float32, into ``out``: trec_eval keeps scores as C floats
    (TEXT_RESULTS.sim), so scores equal in 32 bits tie, and ties go by doc id."""
    at = 0
    with np.errstate(over="ignore"):  # beyond float32's range is inf, as in C
        for part in _float64_parts(score, 0, len(score)):
            np.copyto(out[at : at + len(part)], part, casting="same_kind")
            at += len(part)


def _prepare_qrels(name: str, query, doc, grade, row_names: Callable) -> Qrels:
    query = _chunked(query)
    doc = _chunked(doc)
    grade = grade if isinstance(grade, np.ndarray) else _float_numpy(grade).astype(np.int64)
    keys = pair_key(query, doc)
    _refuse_duplicates(name, keys, lambda rows: _take(query, rows).to_pylist(), doc, None, row_names, "qrels")
    return Qrels(name, query, doc, grade)


def _group_starts(query: pa.ChunkedArray, new_query: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
    """Row offsets where the query id changes, and whether each query forms one contiguous block.

    ``new_query``: the rows whose id differs from the row before, if already known (see _row_pass)."""
    n = len(query)
    if n == 0:
        return np.zeros(1, dtype=np.int64), True
    if new_query is None:
        new_query = np.flatnonzero(_bool_numpy(pc.not_equal(query.slice(1), query.slice(0, n - 1)))) + 1
    starts = np.concatenate([[0], new_query, [n]]).astype(np.int64)
    grouped = pc.count_distinct(_take(query, starts[:-1])).as_py() == len(starts) - 1
    return starts, grouped


def _descending_ties(starts: np.ndarray, rising: np.ndarray, score) -> tuple[bool, np.ndarray]:
    """Is every ranking by score descending (ties aside)? And the tied pairs of rows (i, i + 1) within a ranking,
    as the array of their i. ``rising``: the rows i whose next row's score is >= theirs (from _row_pass)."""
    at = np.minimum(np.searchsorted(starts, rising + 1), len(starts) - 1)
    pairs = rising[starts[at] != rising + 1]  # a row starting a ranking may score anything
    return not (_float32_at(score, pairs + 1) > _float32_at(score, pairs)).any(), pairs


def _order_ties(pairs: np.ndarray, doc: pa.ChunkedArray):
    """trec_eval breaks score ties by doc id descending. Sort only the tied rows; None if they already are.

    ``pairs``: the rows i tied with row i + 1 in one ranking, ascending (from _descending_ties).
    Returns (tied rows, their positions in trec_eval's order): rows outside ties keep theirs, strings never move.
    """
    if len(pairs) == 0:
        return None
    if pc.all(pc.greater(_take(doc, pairs), _take(doc, pairs + 1))).as_py():
        return None
    rows = np.sort(np.concatenate([pairs, pairs + 1]))  # every row in a tie, in row order
    rows = rows[np.concatenate([[True], rows[1:] != rows[:-1]])]  # (np.union1d would import numpy.ma: 6 ms)
    new_block = np.ones(len(rows), dtype=bool)
    before = rows[1:] - 1
    at = np.minimum(np.searchsorted(pairs, before), len(pairs) - 1)
    new_block[1:] = pairs[at] != before  # a row starts a block unless it ties with the row before it
    block = np.cumsum(new_block)
    table = pa.table({"block": _arrow_int64(block), "doc": _take(doc, rows)})
    sorted_rows = rows[_int_numpy(pc.sort_indices(table, sort_keys=[("block", "ascending"), ("doc", "descending")]))]
    # The j-th doc of a block in trec_eval's order takes the block's j-th slot.
    order = np.argsort(sorted_rows)
    return sorted_rows[order], rows[order]


def _refuse_duplicate_docs(name, starts, hashed: np.ndarray, query_of: Callable, doc, file_row, row_names) -> None:
    """Refuse a doc given twice for one query. Only rows of one ranking can collide, so each ranking's 31-bit
    doc hashes are sorted on their own (one row of a 2-D array per ranking: small sorts of 4-byte values);
    equal neighbours name candidates, which the strings confirm.
    """
    n = len(hashed)
    if n < 2:
        return
    lengths = np.diff(starts)
    count = len(lengths)
    if count * int(lengths.max()) <= 2 * n + 4096:

        def suspects_among(first: int, stop: int) -> np.ndarray:  # rankings first..stop-1
            return _sorted_grid_suspects(hashed[starts[first] : starts[stop]], lengths[first:stop], first)

        suspects = np.concatenate(_by_halves(suspects_among, count, n))
        if len(suspects) == 0:
            return
    else:  # very uneven lengths: one sort of (ranking, hash) keys
        suspects = None
    ranking_hash = np.repeat(np.arange(count, dtype=np.uint64) << np.uint64(32), lengths)
    ranking_hash |= hashed
    if suspects is None:
        ordered = np.sort(ranking_hash)
        suspects = ordered[1:][ordered[1:] == ordered[:-1]]
        del ordered
        if len(suspects) == 0:
            return
    rows = np.flatnonzero(np.isin(ranking_hash, suspects))
    _confirm_duplicates(name, rows, query_of, doc, file_row, row_names, "run")


def _sorted_grid_suspects(hashed: np.ndarray, lengths: np.ndarray, first_ranking: int) -> np.ndarray:
    """(ranking << 32 | hash) of each hash found twice in one ranking: the rankings' hashes as the rows of a 2-D
    array (padded), each row sorted, equal neighbours compared. A block of rows at a time, in reused arrays:
    cache-sized, and no page faults for a full-size sorted copy."""
    count = len(lengths)
    width = int(lengths.max()) if count else 0
    if width < 2:
        return np.zeros(0, dtype=np.uint64)
    padded = not (lengths == width).all()
    rows_per_block = min(count, max(1, _GRID_CELLS // width))
    grid = np.empty((rows_per_block, width), dtype=np.uint32)
    same = np.empty((rows_per_block, width - 1), dtype=bool)
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    found = []
    for top in range(0, count, rows_per_block):
        size = min(rows_per_block, count - top)
        block, equal = grid[:size], same[:size]
        values = hashed[bounds[top] : bounds[top + size]]
        if padded:
            block.fill(_PAD)
            block[np.arange(width) < lengths[top : top + size, None]] = values  # row-major: ranking by ranking
        else:
            block[...] = values.reshape(size, width)
        block.sort(axis=1)
        np.equal(block[:, 1:], block[:, :-1], out=equal)
        if padded:
            equal &= block[:, 1:] != _PAD
        if equal.any():
            ranking, at = np.divmod(np.flatnonzero(equal), width - 1)
            key = (ranking + top + first_ranking).astype(np.uint64) << np.uint64(32)
            found.append(key | block[ranking, at].astype(np.uint64))
    return np.concatenate(found) if found else np.zeros(0, dtype=np.uint64)


_GRID_CELLS = 1 << 18  # hashes sorted per block in _sorted_grid_suspects (1 MiB)
_PAD = np.uint32(0xFFFFFFFF)


def _refuse_duplicates(name, keys: np.ndarray, query_of: Callable, doc, file_row, row_names, kind) -> None:
    """Refuse a (query, doc) pair given twice: equal 64-bit fingerprints find candidates, the strings confirm.

    A sort finds equal keys without a hash table of every row (pyarrow's takes ~1.5 s at 7M rows).
    """
    ordered = np.sort(keys)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if len(repeated) == 0:
        return
    rows = np.flatnonzero(np.isin(keys, repeated))
    _confirm_duplicates(name, rows, query_of, doc, file_row, row_names, kind)


def _confirm_duplicates(name, rows: np.ndarray, query_of: Callable, doc, file_row, row_names, kind) -> None:
    """Compare the candidate rows' (query, doc) strings; raise for the first pair given twice."""
    first_row: dict = {}
    for row, pair in zip(rows.tolist(), zip(query_of(rows), _take(doc, rows).to_pylist(), strict=True), strict=True):
        if pair in first_row:
            where = row_names(sorted(int(file_row[r]) if file_row is not None else r for r in (first_row[pair], row)))
            advice = "trec_eval aborts on duplicate docs; keep one" if kind == "run" else "keep one judgment"
            raise InputError(
                f"{name}, {where[1]}: doc {quoted(pair[1])} appears twice for query {quoted(pair[0])} "
                f"({where[0]} and {where[1]}); {advice}"
            )
        first_row[pair] = row


# ---------------------------------------------------------------------------------------------------------
# Arrow <-> numpy without pandas (pyarrow's to_numpy and pa.array import pandas when it is installed)


def _chunked(column) -> pa.ChunkedArray:
    return column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])


def _float_numpy(column) -> np.ndarray:
    column = _chunked(pc.cast(column, pa.float64()) if column.type != pa.float64() else column)
    parts = _float64_parts(column, 0, len(column))
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0)


def _int_numpy(array, null: int | None = None) -> np.ndarray:
    """An integer array as int64; nulls become ``null``."""
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    dtype = np.dtype(f"{'u' if pa.types.is_unsigned_integer(array.type) else 'i'}{array.type.bit_width // 8}")
    parts = []
    for c in chunks:
        if len(c):
            values = np.frombuffer(c.buffers()[1], dtype)[c.offset : c.offset + len(c)].astype(np.int64)
            if c.null_count:
                if null is None:
                    raise ValueError("unexpected nulls")
                values[~_bool_numpy(pc.is_valid(c))] = null
            parts.append(values)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _bool_numpy(array) -> np.ndarray:
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    parts = []
    for c in chunks:
        if len(c):
            bits = np.unpackbits(np.frombuffer(c.buffers()[1], np.uint8), bitorder="little")
            parts.append(bits[c.offset : c.offset + len(c)].view(bool))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=bool)


def _pool_array(size: int, dtype) -> np.ndarray:
    """An uninitialized numpy array in Arrow's memory pool, where the pages the parser used and freed are reused:
    a large array there costs no fresh page faults (about 7,000 for 28 MB from numpy's allocator)."""
    dtype = np.dtype(dtype)
    return np.frombuffer(pa.allocate_buffer(size * dtype.itemsize), dtype)


def _arrow_int64(values: np.ndarray) -> pa.Array:
    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def _arrow_float32(values: np.ndarray) -> pa.Array:
    values = np.ascontiguousarray(values, dtype=np.float32)
    return pa.Array.from_buffers(pa.float32(), len(values), [None, pa.py_buffer(values)])


def _first_true(mask) -> int:
    return int(np.flatnonzero(_bool_numpy(mask))[0])


def _take(column, rows: np.ndarray) -> pa.Array:
    """Take a few rows chunk by chunk: ChunkedArray.take would first concatenate every chunk."""
    column = _chunked(column)
    rows = np.asarray(rows, dtype=np.int64)
    if len(rows) == 0 or column.num_chunks == 0:
        return pa.chunked_array([], column.type).combine_chunks()
    if column.num_chunks == 1:
        return column.chunk(0).take(_arrow_int64(rows))
    bounds = np.cumsum([0] + [len(c) for c in column.chunks])
    which = np.searchsorted(bounds, rows, side="right") - 1
    if (np.diff(which) < 0).any():  # out of row order: a plain take keeps it simple
        return column.take(_arrow_int64(rows)).combine_chunks()
    cuts = np.searchsorted(which, np.arange(column.num_chunks + 1))
    pieces = [
        column.chunk(i).take(_arrow_int64(rows[cuts[i] : cuts[i + 1]] - bounds[i]))
        for i in range(column.num_chunks)
        if cuts[i + 1] > cuts[i]
    ]
    return pa.concat_arrays(pieces)


# ---------------------------------------------------------------------------------------------------------
# Fingerprints of strings with numpy: pyarrow exposes no hash function, and its hash tables take ~1.5 s at 7M
# rows. Every full-length temporary costs page faults too, so the arithmetic is done in place.

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xBF58476D1CE4E5B9)
_K3 = np.uint64(0x94D049BB133111EB)
_HIGH_WORD = 1 if sys.byteorder == "little" else 0  # where a uint64's high half is, seen as two uint32
_MAX_WORDS = 8  # ids longer than 64 bytes share fingerprints more often; exact checks follow every match
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _mix(values: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """splitmix64's finalizer, in place on a uint64 array: spreads every input bit over the 64 output bits."""
    x = values if values.dtype == np.uint64 else values.astype(np.uint64)
    tmp = scratch if scratch is not None else np.empty_like(x)
    for shift, factor in ((30, _K2), (27, _K3), (31, None)):
        np.right_shift(x, np.uint64(shift), out=tmp)
        np.bitwise_xor(x, tmp, out=x)
        if factor is not None:
            np.multiply(x, factor, out=x)
    return x


def fingerprint(column, salt: Callable | None = None) -> np.ndarray:
    """A 64-bit fingerprint of each string: equal strings, equal fingerprints (unequal ones collide ~2^-64).

    ``salt(first, stop)`` gives values XOR-ed into rows first..stop-1 (chunk by chunk, so no full-size temporary).
    """
    column = _chunked(column)
    out = np.empty(len(column), dtype=np.uint64)
    scratch = np.empty(max((len(c) for c in column.chunks), default=0), dtype=np.uint64)
    at = 0
    for chunk in column.chunks:
        if len(chunk):
            h = out[at : at + len(chunk)]
            _fingerprint_chunk(chunk, h, scratch[: len(chunk)])
            if salt is not None:
                np.bitwise_xor(h, salt(at, at + len(chunk)), out=h)
            at += len(chunk)
    return out


def doc_hash(column, out: np.ndarray | None = None) -> np.ndarray:
    """A 31-bit hash (uint32) of each string: equal strings, equal hashes. Cheap for ids of at most 8 bytes (their
    bytes as a little-endian integer, multiply-shifted: one multiplication); a longer id's fingerprint is hashed.
    """
    column = _chunked(column)
    if out is None:
        out = np.empty(len(column), dtype=np.uint32)
    longest = max((len(c) for c in column.chunks), default=0)
    # Work arrays reused chunk after chunk, from Arrow's pool: fresh ones per chunk would cost page faults.
    key, mask = _pool_array(longest, np.uint64), _pool_array(longest, np.uint64)
    offsets, lengths = _pool_array(longest + 1, np.int64), _pool_array(longest, np.int64)
    at = 0
    for chunk in column.chunks:
        size = len(chunk)
        if size:
            h = key[:size]
            _first_word(chunk, h, offsets[: size + 1], lengths[:size])
            if lengths[:size].max() > 8:
                long = np.flatnonzero(lengths[:size] > 8)
                h[long] = fingerprint(chunk.take(_arrow_int64(long)))
            np.minimum(lengths[:size], 8, out=lengths[:size])
            _LOW_BYTES.take(lengths[:size], out=mask[:size], mode="clip")  # in range; "raise" would buffer "out"
            np.bitwise_and(h, mask[:size], out=h)  # keep each id's own bytes
            np.multiply(h, _K1, out=h)  # multiply-shift: the product's top 31 bits, its high 32-bit word >> 1
            np.right_shift(h.view(np.uint32)[_HIGH_WORD::2], np.uint32(1), out=out[at : at + size])
            at += size
    return out


def pair_key(query, doc) -> np.ndarray:
    """The fingerprint of each (query, doc) pair, as Run.row_key holds it for a run's rows."""
    key = _mix(fingerprint(query))
    return np.bitwise_xor(key, fingerprint(doc), out=key)


def _string_views(chunk: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """A string or binary chunk as numpy views, no copy: its len + 1 offsets (int32, or int64 for the large types;
    not rebased) and its bytes from the first string's start to the last one's end."""
    large = pa.types.is_large_string(chunk.type) or pa.types.is_large_binary(chunk.type)
    if chunk.buffers()[1] is None:  # an empty array may have no offsets buffer
        return np.zeros(1, np.int64 if large else np.int32), np.zeros(0, np.uint8)
    offsets = np.frombuffer(chunk.buffers()[1], np.int64 if large else np.int32)
    offsets = offsets[chunk.offset : chunk.offset + len(chunk) + 1]
    data_buffer = chunk.buffers()[2]
    if data_buffer is None:
        return offsets, np.zeros(0, np.uint8)
    return offsets, np.frombuffer(data_buffer, np.uint8)[int(offsets[0]) : int(offsets[-1])]


def _first_word(chunk: pa.Array, out: np.ndarray, offsets: np.ndarray, lengths: np.ndarray) -> None:
    """Each string's first 8 bytes as a little-endian uint64 into ``out``, unmasked: bytes past a string's end
    belong to the strings after it. Fills ``offsets`` (rebased to 0) and ``lengths``, int64 arrays of the chunk's
    length + 1 and length."""
    raw, data = _string_views(chunk)
    np.subtract(raw, raw[0], out=offsets)
    np.subtract(offsets[1:], offsets[:-1], out=lengths)
    starts = offsets[:-1]
    body = len(data) - 7  # strings starting before this can read 8 bytes in place
    if body > 0:
        words = np.ndarray(shape=(body,), dtype="<u8", buffer=data, strides=(1,))
        in_body = int(np.searchsorted(starts, body))  # starts are sorted
        # Indexing, not np.take: take would first copy the overlapping 8-byte windows into a contiguous array.
        out[:in_body] = words[starts[:in_body]]
    else:
        in_body = 0
    if in_body < len(starts):
        tail_from = max(body, 0)
        padded = np.zeros(len(data) - tail_from + 8, np.uint8)
        padded[: len(data) - tail_from] = data[tail_from:]
        tail_words = np.ndarray(shape=(len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
        out[in_body:] = tail_words[starts[in_body:] - tail_from]


def _fingerprint_chunk(chunk: pa.Array, h: np.ndarray, scratch: np.ndarray) -> None:
    offsets, data = _string_views(chunk)
    base = int(offsets[0])
    # Pad a copy of the last few bytes so that an 8-byte window read at any string start stays in bounds.
    padded_tail = np.zeros(16, np.uint8)
    tail_from = max(len(data) - 8, 0)
    padded_tail[: len(data) - tail_from] = data[tail_from:]
    words = (
        np.ndarray(shape=(max(len(data) - 7, 0),), dtype="<u8", buffer=data, strides=(1,)) if len(data) >= 8 else None
    )
    tail_words = np.ndarray(shape=(9,), dtype="<u8", buffer=padded_tail, strides=(1,))
    starts = offsets[:-1] - base
    lengths = np.diff(offsets)
    np.bitwise_xor(lengths.astype(np.uint64), _K1, out=h)
    _mix(h, scratch)
    longest = int(lengths.max())
    for word_index in range(min(_MAX_WORDS, -(-longest // 8))):
        rows = slice(None) if word_index == 0 else np.flatnonzero(lengths > 8 * word_index)
        at = starts[rows] + 8 * word_index
        remaining = np.minimum(lengths[rows] - 8 * word_index, 8)
        word = np.empty(len(at), dtype=np.uint64)
        if word_index == 0:  # starts are sorted: the strings near the end read from the padded tail
            in_body = np.searchsorted(at, tail_from, side="right") if words is not None else 0
            word[:in_body] = words[at[:in_body]] if in_body else 0
            word[in_body:] = tail_words[at[in_body:] - tail_from]
        else:
            near_end = at > tail_from if words is not None else np.ones(len(at), dtype=bool)
            if words is not None:
                word[~near_end] = words[at[~near_end]]
            word[near_end] = tail_words[at[near_end] - tail_from]
        np.bitwise_and(word, _LOW_BYTES[remaining], out=word)
        if word_index == 0:
            np.bitwise_xor(h, word, out=h)
            _mix(h, scratch)
        else:
            part = h[rows] ^ word
            h[rows] = _mix(part) + np.uint64(word_index)

"""The fast path: pyarrow.csv parses the three columns we need (first emptying comment lines, squeezing runs of blanks
and cutting a run's extra columns when it has to); the columns are checked with rules.py, and any failure hands over
to the line scanner for the message."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

from metrics.io.arrays.conversions import distinct_values, string_views
from metrics.io.rules import InputError, ids_ok, values_ok
from metrics.io.text.layout import RUN_COLUMNS, Layout, sniff
from metrics.io.text.scan import scan, text_line_numbers
from metrics.io.text.sources import BLOCK_BYTES, TextSource, strip_bom

_COMMENT_LINE = re.compile(rb"(?m)^[ \t]*#[^\n]*")
_COMMENT_OR_BLANK_LINE = re.compile(rb"(?m)^[ \t]*(?:#[^\n]*)?$")
_AFTER_SIXTH_FIELD = re.compile(rb"(?m)^((?:[^ \n]+ ){5}[^ \n]+) [^\n]*")


def parse_text(text: TextSource, kind: str) -> tuple[dict, Callable]:
    layout = sniff_layout(text, kind)
    wanted = _wanted(layout, kind)
    # A run's query ids as int32 codes into each block's few distinct ids: 8 MB at 2M rows, where the strings take
    # 19 MB (and as much again while parsed); prepare_run reads the codes. Qrels are small: plain strings.
    convert = _convert_options(wanted, query_codes=kind == "run")
    quoting = layout.delimiter == ","  # TREC files have no quoting: a doc id may contain a quote
    try:
        try:  # comment lines before the first data row are skipped with the header (skip_lines)
            parse = pa_csv.ParseOptions(delimiter=layout.delimiter or " ", quote_char='"' if quoting else False)
            table = _read_csv(
                text.arrow_input(), _read_options(layout.names, layout), parse, convert, text.data is not None
            )
        except pa.ArrowInvalid:
            table = None
        if table is not None and _misread(table, wanted, layout):
            table = None  # a comment line further down that pyarrow read as a row, or blanks it split wrongly
        if table is None:
            table = _parse_normalized(text.read_all(), kind, layout, convert, quoting)
    except OSError as error:
        raise InputError("file-unreadable", f"cannot be read ({error})", text.name) from None
    columns = checked_columns(text, kind, layout, table)
    del table
    if len(columns["query"]) == 0:
        raise InputError("file-empty", "the file is empty" + (" (only a header)" if layout.header else ""), text.name)
    return columns, lambda rows: text_line_numbers(text, layout, rows)


def sniff_layout(text: TextSource, kind: str) -> Layout:
    return sniff(text, kind, lambda: scan(text, kind, None, binary_only=True))


def parse_chunk(text: TextSource, kind: str, layout: Layout, data) -> dict:
    """The columns (query, doc, score or grade) of a piece of a file after its head (bytes or a memoryview, from a
    data line to a line break: a streamed block), parsed and checked as parse_text parses and checks a whole file:
    the same fallbacks, the same rules, the same messages (the line scanner walks the file)."""
    wanted = _wanted(layout, kind)
    convert = _convert_options(wanted)
    quoting = layout.delimiter == ","
    names = layout.names if layout.header else _trec_names(layout, data, kind)
    read = pa_csv.ReadOptions(column_names=list(names), block_size=BLOCK_BYTES)
    parse = pa_csv.ParseOptions(delimiter=layout.delimiter or " ", quote_char='"' if quoting else False)
    try:
        table = pa_csv.read_csv(pa.BufferReader(pa.py_buffer(data)), read, parse, convert)
    except pa.ArrowInvalid:
        table = None
    if table is not None and _misread(table, wanted, layout):
        table = None
    if table is None:  # the normalized parse names the columns from the layout and skips its first lines
        layout = Layout(layout.header, layout.delimiter, names, layout.roles, skip_lines=0)
        table = _parse_normalized(bytes(data), kind, layout, convert, quoting)
    return checked_columns(text, kind, layout, table)


def _trec_names(layout: Layout, data: bytes, kind: str) -> tuple[str, ...]:
    """A piece of a TREC run may have as many extra columns as the file's first line, or not: its own first line
    names them (pyarrow reads a piece whose lines differ with the cut-after-6th fallback, as for a whole file)."""
    if kind != "run":
        return layout.names
    line = bytes(data[: 1 << 16]).split(b"\n", 1)[0]  # (data: a memoryview of the piece)
    count = len(line.split(b"\t") if layout.delimiter == "\t" else line.split())
    return RUN_COLUMNS + tuple(f"extra_{n}" for n in range(1, count - len(RUN_COLUMNS) + 1))


def checked_columns(text: TextSource, kind: str, layout: Layout, table: pa.Table | None) -> dict:
    """The three columns of a parsed table, or the InputError naming the first bad line (the line scanner's)."""
    if table is None:
        scan(text, kind, layout)
        raise InputError("parse-failed", f"cannot be parsed as a {kind} file", text.name) from None
    value_role = "score" if kind == "run" else "grade"
    wanted = _wanted(layout, kind)
    columns = {"query": table.column(wanted[0]), "doc": table.column(wanted[1]), value_role: table.column(wanted[2])}
    ids_fine = ids_ok(distinct_values(columns["query"])) and ids_ok(columns["doc"])
    if not (ids_fine and values_ok(columns[value_role], kind)):
        scan(text, kind, layout)
        problem = f"cannot be read as a {kind} file (a value the line check accepts was refused)"
        raise InputError("parse-failed", problem, text.name)
    return columns


def _wanted(layout: Layout, kind: str) -> list[str]:
    value_role = "score" if kind == "run" else "grade"
    return [layout.roles["query"], layout.roles["doc"], layout.roles[value_role]]


def _convert_options(wanted: list[str], query_codes: bool = False) -> pa_csv.ConvertOptions:
    query_type = pa.dictionary(pa.int32(), pa.string()) if query_codes else pa.string()
    return pa_csv.ConvertOptions(
        include_columns=wanted,
        column_types={wanted[0]: query_type, wanted[1]: pa.string(), wanted[2]: pa.float64()},
        null_values=[],  # pyarrow reads 'nan', 'NULL', 'N/A'... as null by default: here they are bad values
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
        check_utf8=False,  # ids_ok checks, faster (ids are ASCII): 0.03-0.05 s less at 7M rows
    )


def _parse_normalized(data: bytes, kind: str, layout: Layout, convert, quoting: bool) -> pa.Table | None:
    """The slower way, for what pyarrow cannot parse as it is: comment lines emptied (line breaks kept, so line
    numbers stay right); in a TREC file, runs of blanks squeezed to one space (pyarrow takes one delimiter character)
    and, if a run's lines still differ in their number of columns, each cut after its 6th. None: not parsable."""
    trec = not layout.header
    data = _without_comments(data, blank_lines_too=layout.header)
    if trec:
        data = _squeeze_whitespace(data)
    parse = pa_csv.ParseOptions(delimiter=" " if trec else layout.delimiter, quote_char='"' if quoting else False)
    try:
        return _read_csv(pa.BufferReader(pa.py_buffer(data)), _read_options(layout.names, layout), parse, convert, True)
    except pa.ArrowInvalid:
        if not (trec and kind == "run"):
            return None
    data = _cut_after_sixth_column(data)
    try:
        return _read_csv(pa.BufferReader(pa.py_buffer(data)), _read_options(RUN_COLUMNS, layout), parse, convert, True)
    except pa.ArrowInvalid:
        return None


def _read_options(names, layout: Layout) -> pa_csv.ReadOptions:
    return pa_csv.ReadOptions(skip_rows=layout.skip_lines, column_names=list(names), block_size=BLOCK_BYTES)


def _misread(table: pa.Table, wanted: list[str], layout: Layout) -> bool:
    """Rows pyarrow read that are not what trec_eval reads: a comment line, or in a TREC file a line whose blanks the
    single-space split got wrong (``q1  Q0<TAB>d1 ...``: the double space adds a field where the tab takes one
    away, so the line has the right number of fields but the doc id is 'Q0<TAB>d1')."""
    if _has_comment_rows(distinct_values(table.column(wanted[0]))):
        return True
    return not layout.header and any(_has_tab(distinct_values(table.column(name))) for name in wanted[:2])


def _has_tab(ids: pa.ChunkedArray) -> bool:
    return any((string_views(chunk)[1] == ord("\t")).any() for chunk in ids.chunks)


def _has_comment_rows(query_ids: pa.ChunkedArray) -> bool:
    """Whether a query id starts with '#' (a comment line read as data) or a blank (a line led by a tab or a space,
    whose blanks trec_eval skips: the normalized parse drops them). One numpy gather per chunk."""
    for chunk in query_ids.chunks:
        offsets, values = string_views(chunk)
        starts = offsets[:-1][np.diff(offsets) > 0] - offsets[0]
        if len(starts) and np.isin(values[starts], _NOT_AN_ID_START).any():
            return True
    return False


_NOT_AN_ID_START = np.frombuffer(b"# \t", dtype=np.uint8)


def _read_csv(source, read, parse, convert, in_memory: bool) -> pa.Table:
    """The three columns as a table. Bytes already ``in_memory`` (an upload) are read block by block: the peak is the
    columns themselves, where read_csv's parallel reader holds about as much again in parsed blocks (measured at 7M
    rows: 245 MB above the input instead of 475-500 MB). A file on disk is read in parallel: faster."""
    if in_memory:
        with pa_csv.open_csv(source, read, parse, convert) as reader:
            return pa.Table.from_batches(list(reader), schema=reader.schema)
    return pa_csv.read_csv(source, read, parse, convert)


def _without_comments(data: bytes, blank_lines_too: bool) -> bytes:
    """Comment lines emptied, their line breaks kept (about 1 s for 250 MB; only files pyarrow could not parse as
    they are come here); ``blank_lines_too``: lines of spaces and tabs as well (pyarrow reads those as a row)."""
    if blank_lines_too:
        return _COMMENT_OR_BLANK_LINE.sub(b"", data)
    return _COMMENT_LINE.sub(b"", data) if b"#" in data else data


def _cut_after_sixth_column(data: bytes) -> bytes:
    """Squeezed run lines cut after their 6th field, as trec_eval ignores the rest (slow, about 10 s for 7M lines
    that all have more: a run whose lines all have the same number of columns never comes here)."""
    return _AFTER_SIXTH_FIELD.sub(rb"\1", data)


def _squeeze_whitespace(data: bytes) -> bytes:
    """Turn any run of spaces and tabs into one space and drop blanks at line ends (bytes methods run in C)."""
    data = data.replace(b"\r\n", b"\n").replace(b"\t", b" ")
    while b"  " in data:
        data = data.replace(b"    ", b" ").replace(b"  ", b" ")
    data = data.replace(b"\n ", b"\n").replace(b" \n", b"\n")
    data = strip_bom(data)
    data = data[1:] if data.startswith(b" ") else data
    return data[:-1] if data.endswith(b" ") else data

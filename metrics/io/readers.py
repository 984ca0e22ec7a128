"""read_run and read_qrels: one entry point per kind, whatever the source (a path, bytes, a DataFrame, a dict)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from metrics.io.columnar.frames import from_mapping, parse_frame
from metrics.io.columnar.parquet import ParquetInput
from metrics.io.model import Qrels, Run
from metrics.io.order import prepare_qrels, prepare_run
from metrics.io.rules import InputError
from metrics.io.text.fast import parse_text
from metrics.io.text.sources import TextSource, is_parquet


def read_run(source, name: str | None = None) -> Run:
    """Read a run: a TREC file (``qid Q0 docid rank score tag``; path or bytes, optionally .gz), a CSV/TSV with a
    header (query, doc, score), a Parquet file or dataset directory with those columns, a DataFrame with those
    columns, or a dict {query: {doc: score}}.
    """
    return _read(source, name, "run")


def read_qrels(source, name: str | None = None) -> Qrels:
    """Read qrels: a TREC file (``qid iter docid grade``; path or bytes, optionally .gz), a CSV/TSV with a header
    (query, doc, grade), a Parquet file or dataset directory or a DataFrame with those columns, or a dict
    {query: {doc: grade}}. Grades must be integers.
    """
    return _read(source, name, "qrels")


def _read(source, name: str | None, kind: str):
    if isinstance(source, Run | Qrels):
        if (kind == "run") != isinstance(source, Run):
            raise InputError(f"{source.name}: expected {kind}, got {type(source).__name__.lower()}")
        return source
    if is_parquet(source):  # a .parquet file or a directory of them (a dataset)
        parquet = ParquetInput(source, kind, name)
        columns, line_of = parquet.read_columns()
        text, name = None, parquet.name
    elif isinstance(source, str | os.PathLike | bytes | bytearray | memoryview):
        text = TextSource.open(source, name)
        columns, line_of = parse_text(text, kind)
    elif hasattr(source, "columns") and (hasattr(source, "to_arrow") or hasattr(source, "iloc")):
        columns, line_of = parse_frame(source, name or "DataFrame", kind)
        text = None
    elif isinstance(source, Mapping):
        return from_mapping(source, name or kind, kind)
    else:
        raise InputError(f"{name or kind}: cannot read a {kind} from {type(source).__name__}")
    display = name or (text.name if text else "DataFrame")
    if kind == "run":
        return prepare_run(display, columns, line_of)  # takes the columns out of the dict: freed once used
    return prepare_qrels(display, columns["query"], columns["doc"], columns["grade"], line_of)

"""read_run and read_qrels: one entry point per kind, whatever the source (a path, bytes, a DataFrame, a dict)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from metrics.io.columnar.frames import from_mapping, parse_frame
from metrics.io.columnar.parquet import ParquetInput
from metrics.io.duplicates import query_set
from metrics.io.model import Qrels, Run
from metrics.io.order import prepare_qrels, prepare_run
from metrics.io.rules import InputError
from metrics.io.text.fast import parse_text
from metrics.io.text.sources import TextSource, is_parquet


def read_run(source, name: str | None = None, *, max_docs: int | None = None, queries=None) -> Run:
    r"""Read a run, whatever its form, into trec_eval's order: each query's documents by score, highest first.

    Parameters
    ----------
    source : str, os.PathLike, bytes, DataFrame, Mapping or Run
        A TREC run file (``qid Q0 docid rank score tag``), a CSV/TSV file with a header (query, doc, score), each
        as a path or as bytes, optionally gzipped; a Parquet file or dataset directory with those columns; a
        pandas DataFrame with those columns; a dict ``{query: {doc: score}}`` or ``{query: [doc, ...]}`` (best
        first). A Run is returned as it is.
    name : str, optional
        The name error messages and the Run give the input; by default the file's path (``input`` for bytes,
        ``run`` for a dict).
    max_docs : int, optional
        The cut the run will be scored under (trec_eval ``-M``): a doc given twice for a query is refused only
        when both copies are in the query's top ``max_docs``, as trec_eval checks after its cut. By default every
        doc given twice is refused.
    queries : iterable of str, optional
        The queries that will be evaluated (those judged; trec_eval ``-D LEVEL.QID``: that one): a doc given twice
        is refused only for them, as trec_eval checks a query's ranking only when it evaluates it. By default every
        query's.

    Returns
    -------
    Run
        The run grouped by query: ``to_rankings()`` gives ``{query: [doc, ...]}``, best first, the input of the
        readable functions; ``ranking_of(query)`` one query's. Ties in score are broken as trec_eval breaks them
        (doc id descending); the file's rank column is ignored, as trec_eval ignores it.

    Raises
    ------
    metrics.io.InputError
        If the source cannot be read, or a line or an entry is malformed (a score that is not a number, a doc
        given twice for a query, ...): a ValueError whose one-line message names the file, the line and the
        problem, and ends with its code's page in the docs (``error.code``, ``error.path``, ``error.line``). Also
        for a Qrels given as a run.

    See Also
    --------
    read_qrels, evaluate

    Examples
    --------
    >>> run = read_run(b"q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 3.0 bm25\nq2 Q0 d3 1 1.0 bm25\n", name="bm25.run")
    >>> run.name, run.to_rankings()
    ('bm25.run', {'q1': ['d2', 'd1'], 'q2': ['d3']})
    >>> read_run({"q1": {"a": 0.5, "b": 0.9}}).to_rankings()
    {'q1': ['b', 'a']}
    """
    return _read(source, name, "run", max_docs, queries)


def read_qrels(source, name: str | None = None) -> Qrels:
    r"""Read qrels (graded judgments), whatever their form; grades must be integers.

    Parameters
    ----------
    source : str, os.PathLike, bytes, DataFrame, Mapping or Qrels
        A TREC qrels file (``qid iter docid grade``), a CSV/TSV file with a header (query, doc, grade), each as a
        path or as bytes, optionally gzipped; a Parquet file or dataset directory with those columns; a pandas
        DataFrame with those columns; a dict ``{query: {doc: grade}}``. A Qrels is returned as it is.
    name : str, optional
        The name error messages and the Qrels give the input; by default the file's path (``input`` for bytes,
        ``qrels`` for a dict).

    Returns
    -------
    Qrels
        The judgments, one row per (query, doc) in file order: ``to_dict()`` gives ``{query: {doc: grade}}``, the
        input of the readable functions; ``grades_of(query)`` one query's.

    Raises
    ------
    metrics.io.InputError
        If the source cannot be read, or a line or an entry is malformed (a grade that is not an integer, a
        judgment given twice, ...): a ValueError whose one-line message names the file, the line and the problem.
        Also for a Run given as qrels.

    See Also
    --------
    read_run, evaluate

    Examples
    --------
    >>> read_qrels(b"q1 0 d1 1\nq1 0 d2 0\n").to_dict()
    {'q1': {'d1': 1, 'd2': 0}}
    >>> read_qrels(b"q1 0 d1 1.5\n", name="qrels.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    metrics.core.errors.InputError: qrels.txt, line 1: grade '1.5' is not an integer; map scores to integer grades ...
    """
    return _read(source, name, "qrels")


def _read(source, name: str | None, kind: str, max_docs: int | None = None, queries=None):
    if isinstance(source, Run | Qrels):
        if (kind == "run") != isinstance(source, Run):
            raise InputError("input-type", f"expected {kind}, got {type(source).__name__.lower()}", source.name)
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
        raise InputError("input-type", f"cannot read a {kind} from {type(source).__name__}", name or kind)
    display = name or (text.name if text else "DataFrame")
    if kind == "run":
        # takes the columns out of the dict: freed once used
        return prepare_run(display, columns, line_of, max_docs, query_set(queries))
    return prepare_qrels(display, columns["query"], columns["doc"], columns["grade"], line_of)

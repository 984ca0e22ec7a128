"""Input that is already in memory: DataFrames (pandas, polars) and dicts {query: {doc: value}}."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import first_true, float_numpy
from metrics.io.model import Run
from metrics.io.order import prepare_qrels, prepare_run
from metrics.io.rules import (
    MAPPING_ADVICE,
    MAX_GRADE,
    InputError,
    Problem,
    grade_problem,
    id_problem,
    ids_ok,
    quoted,
    score_problem,
)
from metrics.io.text.layout import ALIASES


def parse_frame(frame, name: str, kind: str, first_row: int = 0) -> tuple[dict, Callable]:
    """The three columns of a table, checked; ``first_row``: the number of its first row when it is a piece of a
    larger table (a Parquet file read in batches), so messages name the row in the whole."""
    value_role = "score" if kind == "run" else "grade"
    chosen = choose_columns([str(c) for c in frame.columns], name, kind)
    if hasattr(frame, "to_arrow"):  # polars and friends
        table = frame.select([chosen[r] for r in ("query", "doc", value_role)]).to_arrow()
        labels = None
    else:  # pandas
        try:
            table = pa.Table.from_pandas(frame[[chosen[r] for r in ("query", "doc", value_role)]], preserve_index=False)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as error:  # a column mixing types, e.g. numbers and text
            raise InputError(
                "column-type", f"a column cannot be converted ({str(error).splitlines()[0]})", name
            ) from None
        labels = frame.index
    if table.num_rows == 0:
        raise InputError("file-empty", "the table is empty", name)

    def row_names(rows: Sequence[int]) -> list[str]:
        return [f"row {labels[r] if labels is not None else r + first_row}" for r in rows]

    columns = {}
    for role in ("query", "doc"):
        column = table.column(chosen[role])
        if column.null_count:
            row = first_true(pc.is_null(column))
            raise InputError("id-empty", f"the {role} id is missing", name, where=row_names([row])[0])
        if not pa.types.is_string(column.type):
            column = pc.cast(column, pa.string())
        if not ids_ok(column):
            for row, value in enumerate(column.to_pylist()):
                nul = "\0" in value and Problem("not-text", f"the {role} id contains a NUL byte")
                if problem := id_problem(role, value) or nul:
                    raise InputError(*problem, name, where=row_names([row])[0])
        columns[role] = column
    values = table.column(chosen[value_role])
    try:
        values = pc.cast(values, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raw = values.to_pylist()
        for row, value in enumerate(raw):
            if refused := (score_problem if kind == "run" else grade_problem)(str(value)):
                raise InputError(*refused, name, where=row_names([row])[0]) from None
        raise InputError("column-type", f"the {value_role} column ({values.type}) is not numeric", name) from None
    numbers = float_numpy(values.fill_null(math.nan))
    bad = np.isnan(numbers)
    if kind == "qrels":
        bad |= ~((numbers == np.floor(numbers)) & (np.abs(numbers) <= MAX_GRADE))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = values[row].as_py()
        if value is None:
            token = repr(value)
        else:  # NaN and infinities as they print (math.floor would raise on them)
            token = str(int(value) if math.isfinite(value) and value == math.floor(value) else value)
        refused = score_problem(token) if kind == "run" else grade_problem(token)
        assert refused is not None  # the row is bad by the same rules
        raise InputError(*refused, name, where=row_names([row])[0])
    columns[value_role] = values
    return columns, row_names


def choose_columns(names: Sequence[str], name: str, kind: str) -> dict[str, str]:
    """Which column holds the query, the doc and the score (or grade): {role: column name}, by the accepted names
    (layout.ALIASES, case-insensitive), or the InputError naming what is missing."""
    value_role = "score" if kind == "run" else "grade"
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
            problem = f"no {role} column (accepted names: {accepted}; found: {', '.join(names)}){hint}"
            raise InputError("column-missing", problem, name)
        chosen[role] = names[lowered.index(match)]
    return chosen


def from_mapping(mapping: Mapping, name: str, kind: str):
    """{query: {doc: score}} (or {query: [docs best first]}) for runs, {query: {doc: grade}} for qrels."""
    queries, docs, values, empty = [], [], [], []
    for query, entries in mapping.items():
        if isinstance(entries, str) or not isinstance(entries, Mapping | Sequence):
            problem = f"query {quoted(str(query))} maps to {type(entries).__name__}, expected a dict of docs"
            raise InputError("input-type", problem, name)
        if not isinstance(entries, Mapping):
            entries = _ranked_as_scores(entries, name, str(query), kind)
        if not entries:
            empty.append(str(query))
        for doc, value in entries.items():
            queries.append(str(query))
            docs.append(str(doc))
            values.append(value)
    for query, doc, value in zip(queries, docs, values, strict=True):
        _check_entry(name, kind, query, doc, value)
    column = pa.chunked_array([pa.array(queries, pa.string())])
    doc_column = pa.chunked_array([pa.array(docs, pa.string())])

    def row_names(rows: Sequence[int]) -> list[str]:
        return [f"query {quoted(queries[r])}" for r in rows]

    if kind == "run":
        columns = {"query": column, "doc": doc_column, "score": np.asarray(values, dtype=np.float64)}
        return _with_empty_queries(prepare_run(name, columns, row_names), empty)
    return prepare_qrels(name, column, doc_column, np.asarray(values, dtype=np.int64), row_names)


def _ranked_as_scores(ranked: Sequence, name: str, query: str, kind: str) -> dict:
    """A run's [docs best first] as {doc: score}, the first scoring highest; a doc listed twice is an error, as in
    trec_eval, and qrels need their grades."""
    if kind == "qrels":
        raise InputError("input-type", "qrels need grades, a {doc: grade} dict", name, where=f"query {quoted(query)}")
    if len(set(ranked)) != len(ranked):
        seen: dict = {}
        for rank, doc in enumerate(ranked, start=1):
            if doc in seen:
                problem = (
                    f"doc {quoted(str(doc))} appears twice, at ranks {seen[doc]} and {rank}; trec_eval refuses "
                    "duplicate docs"
                )
                raise InputError("duplicate-doc", problem, name, where=f"query {quoted(query)}")
            seen[doc] = rank
    return {doc: float(len(ranked) - rank) for rank, doc in enumerate(ranked)}


def _check_entry(name: str, kind: str, query: str, doc: str, value: object) -> None:
    """One (query, doc, value) of a mapping: its ids, and its score (a number) or grade (an integer in range)."""
    problem = id_problem("query", query) or id_problem("doc", doc)
    if kind == "run":
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
            problem = problem or Problem("not-a-number", f"score {quoted(str(value))} is not a number")
    elif isinstance(value, bool) or not isinstance(value, int | np.integer):
        problem = problem or Problem(
            "grade-not-integer", f"grade {quoted(str(value))} is not an integer; {MAPPING_ADVICE}"
        )
    else:
        problem = problem or grade_problem(str(int(value)))
    if problem:
        raise InputError(*problem, name, where=f"query {quoted(query)} doc {quoted(doc)}")


def _with_empty_queries(run: Run, empty: list[str]) -> Run:
    """``run`` with the queries that mapped to no doc added after its own, each with no rows."""
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

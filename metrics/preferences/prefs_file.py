"""Preference judgments (trec_eval's -R prefs and -R qrels_prefs): ``qid group subgroup docno level`` lines, or a qrels
file ``qid group docno level`` read as one subgroup per group. metrics.preferences.readable_preferences says what they
mean."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import arrow_int64, arrow_strings
from metrics.io.arrays.hashing import _mix, encode_strings, fingerprint
from metrics.io.rules import InputError
from metrics.io.text.fields import ONE_SUBGROUP, PREFS_FIELDS, QRELS_PREFS_FIELDS, read_fields


@dataclass(frozen=True, eq=False)
class Preferences:
    """Preference judgments, one row per (query, group, subgroup, doc), in file order."""

    name: str
    query: pa.Array  # string
    group: pa.Array
    subgroup: pa.Array
    doc: pa.Array
    level: np.ndarray  # float64

    def to_dict(self) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
        """{query: {group: {subgroup: {doc: level}}}}, the input of the preference measures' readable functions."""
        result: dict = {}
        columns = (self.query, self.group, self.subgroup, self.doc)
        for query, group, subgroup, doc, level in zip(
            *(c.to_pylist() for c in columns), self.level.tolist(), strict=True
        ):
            result.setdefault(query, {}).setdefault(group, {}).setdefault(subgroup, {})[doc] = level
        return result

    @functools.cached_property
    def docs(self) -> tuple[pa.Array, np.ndarray]:
        """(the distinct doc ids, each row's index among them): one hashing pass, shared by the run's filter and the
        join (metrics.preferences.runs.preference_runs)."""
        return encode_strings(self.doc)

    def only(self, query: str) -> Preferences:
        """The rows of one query."""
        rows = pc.equal(self.query, pa.scalar(query, pa.string()))
        kept = np.flatnonzero(np.asarray(rows.to_numpy(zero_copy_only=False)))
        query, group, subgroup, doc = (c.filter(rows) for c in (self.query, self.group, self.subgroup, self.doc))
        return Preferences(self.name, query, group, subgroup, doc, self.level[kept])


def read_prefs(source, name: str | None = None) -> Preferences:
    """Read a prefs file (trec_eval -R prefs; a path or bytes, gzip'd or not), or take {query: {group: {subgroup:
    {doc: level}}}}. A document given twice in one subgroup is refused."""
    if isinstance(source, Preferences):
        return source
    if isinstance(source, dict):
        rows = [
            (q, g, s, d, float(level))
            for q, groups in source.items()
            for g, subgroups in groups.items()
            for s, docs in subgroups.items()
            for d, level in docs.items()
        ]
        return _checked(name or "prefs", rows)
    display, columns = read_fields(source, PREFS_FIELDS, name)
    return _checked_columns(display, *(columns[f] for f in PREFS_FIELDS.names))


def read_qrels_prefs(source, name: str | None = None) -> Preferences:
    """Read a qrels file as preferences (trec_eval -R qrels_prefs): each query's lines one group per value of the
    second field, each group one subgroup, the grade (any number) its level; or take {query: {group: {doc:
    level}}}."""
    if isinstance(source, Preferences):
        return source
    if isinstance(source, dict):
        rows = [
            (q, g, ONE_SUBGROUP, d, float(level))
            for q, groups in source.items()
            for g, docs in groups.items()
            for d, level in docs.items()
        ]
        return _checked(name or "qrels_prefs", rows)
    display, columns = read_fields(source, QRELS_PREFS_FIELDS, name)
    subgroup = arrow_strings([ONE_SUBGROUP]).take(arrow_int64(np.zeros(len(columns["level"]))))
    return _checked_columns(display, columns["query"], columns["group"], subgroup, columns["doc"], columns["level"])


def _checked(name: str, rows: list[tuple]) -> Preferences:
    columns = list(zip(*rows, strict=True)) if rows else [(), (), (), (), ()]
    query, group, subgroup, doc = (arrow_strings(column) for column in columns[:4])
    return _checked_columns(name, query, group, subgroup, doc, np.array(columns[4], dtype=np.float64))


def _checked_columns(name, query, group, subgroup, doc, level) -> Preferences:
    if np.isnan(level).any():
        raise InputError("not-a-number", "a level is not a number", name)
    prefs = Preferences(name, query, group, subgroup, doc, level)
    key = np.zeros(len(level), dtype=np.uint64)
    for column in (query, group, subgroup, doc):  # each field's fingerprint mixed in: equal rows, equal keys
        key = fingerprint(column, lambda first, stop, k=key: _mix(k[first:stop].copy()))
    ordered = np.sort(key)
    suspects = ordered[1:][ordered[1:] == ordered[:-1]]
    if len(suspects):
        seen: set[tuple] = set()
        for row in np.flatnonzero(np.isin(key, suspects)).tolist():
            found = tuple(column[row].as_py() for column in (query, group, subgroup, doc))
            if found in seen:
                q, g, s, d = found
                problem = f"query {q!r}, group {g!r}, subgroup {s!r} gives doc {d!r} twice"
                raise InputError("duplicate-judgment", problem, name)
            seen.add(found)
    return prefs

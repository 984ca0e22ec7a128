"""Qrels with judgment groups (trec_eval's -R qrels_jg): ``qid group docno grade``, a qrels file whose second field
names the set of judgments (a user, an assessor) a line belongs to, so that one query can be judged several times."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.hashing import encode_strings
from metrics.io.rules import MAX_GRADE, InputError
from metrics.io.text.fields import Fields, read_fields

QRELS_JG_FIELDS = Fields("qrels_jg file", ("query", "group", "doc", "grade"), {"grade": "grade"})


@dataclass(frozen=True, eq=False)
class JudgmentGroups:
    """Judgments in groups, one row per (query, group, doc), in file order."""

    name: str
    query: pa.Array  # string
    group: pa.Array  # string
    doc: pa.Array  # string
    grade: np.ndarray  # int64

    def to_dict(self) -> dict[str, dict[str, dict[str, int]]]:
        """{query: {group: {doc: grade}}}, the input of the judgment-group measures' readable functions."""
        result: dict[str, dict[str, dict[str, int]]] = {}
        rows = zip(
            self.query.to_pylist(), self.group.to_pylist(), self.doc.to_pylist(), self.grade.tolist(), strict=True
        )
        for query, group, doc, grade in rows:
            result.setdefault(query, {}).setdefault(group, {})[doc] = grade
        return result

    def only(self, query: str) -> JudgmentGroups:
        """The rows of one query."""
        rows = pc.equal(self.query, pa.scalar(query, pa.string()))
        kept = np.flatnonzero(np.asarray(rows.to_numpy(zero_copy_only=False)))
        return JudgmentGroups(
            self.name, self.query.filter(rows), self.group.filter(rows), self.doc.filter(rows), self.grade[kept]
        )


def read_qrels_jg(source, name: str | None = None) -> JudgmentGroups:
    """Read a qrels_jg file (a path or bytes, gzip'd or not), or take a dict {query: {group: {doc: grade}}}. As
    qrels: grades whole numbers, a doc judged twice by one group of a query refused (trec_eval: "duplicate docs")."""
    if isinstance(source, JudgmentGroups):
        return source
    if isinstance(source, dict):
        rows = [(q, g, d, grade) for q, by in source.items() for g, docs in by.items() for d, grade in docs.items()]
        columns = list(zip(*rows, strict=True)) if rows else [(), (), (), ()]
        display = name or "qrels_jg"
        query, group, doc = (pa.array(list(c), pa.string()) for c in columns[:3])
        grade = np.array(columns[3], dtype=np.float64)
        if not np.all(grade == np.floor(grade)):
            raise InputError("grade-not-integer", "grades must be integers", display)
    else:
        display, parsed = read_fields(source, QRELS_JG_FIELDS, name)
        query, group, doc, grade = (parsed[field] for field in QRELS_JG_FIELDS.names)
    if len(grade) and np.abs(grade).max() > MAX_GRADE:
        problem = f"a grade is out of range: grades are integers of at most {MAX_GRADE:,} in size"
        raise InputError("grade-out-of-range", problem, display)
    judged = JudgmentGroups(display, query, group, doc, grade.astype(np.int64))
    _refuse_duplicates(judged)
    return judged


def _refuse_duplicates(judged: JudgmentGroups) -> None:
    """Refuse a (query, group, doc) judged twice, naming the first one in file order. The columns' codes
    (encode_strings) sorted in numpy: pyarrow's Table.group_by loads pyarrow.dataset and pandas, and with its hash
    tables took 100 MB more than the file's columns for a 240,000-line file."""
    columns = (judged.query, judged.group, judged.doc)
    codes = [encode_strings(column)[1] for column in columns]
    order = np.lexsort(codes[::-1])  # stable: a key's rows stay in file order
    keys = np.stack([code[order] for code in codes])
    repeats = np.flatnonzero(np.all(keys[:, 1:] == keys[:, :-1], axis=0))  # row order[i + 1] repeats row order[i]
    if len(repeats):
        first = int(order[repeats].min())  # the repeated key whose first row comes first in the file
        query, group, doc = (column[first].as_py() for column in columns)
        problem = f"query {query!r}, group {group!r} judges doc {doc!r} twice"
        raise InputError("duplicate-judgment", problem, judged.name)

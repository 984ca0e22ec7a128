"""The Run and Qrels objects every reader returns: a run grouped by query in trec_eval's order, and the judgments."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.arrays.conversions import bool_numpy, take


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
        rows = np.flatnonzero(bool_numpy(pc.equal(self.query, pa.scalar(str(query_id), pa.string()))))
        return dict(zip(take(self.doc, rows).to_pylist(), self.grade[rows].tolist(), strict=True))

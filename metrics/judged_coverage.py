"""How many retrieved documents have a qrels line: the first thing to check when every score is 0.

A run whose doc ids are spelled differently from the qrels' (``D123`` vs ``123``) matches its queries but none of
its documents, so every measure is 0 with nothing wrong in either file. This counts, over the queries the run and
the qrels share, the retrieved documents that are judged (any grade), and gives an example id from each side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.io.model import Qrels, Run

ALMOST_NONE = 0.05  # under 1 in 20 judged, the scores measure the missing judgments more than the ranking


@dataclass(frozen=True)
class JudgedCoverage:
    retrieved: int  # retrieved documents of the queries that have judgments
    judged: int  # of those, the ones with a qrels line
    query: str | None = None  # a shared query, for the examples
    run_doc: str | None = None  # a document the run retrieved for it
    qrels_doc: str | None = None  # a document the qrels judge for it

    @property
    def fraction(self) -> float:
        return self.judged / self.retrieved if self.retrieved else 0.0

    @property
    def almost_none(self) -> bool:
        """True when there are retrieved documents to judge and under ALMOST_NONE of them are judged."""
        return self.retrieved > 0 and self.fraction < ALMOST_NONE


def judged_coverage(run: Run, qrels: Qrels) -> JudgedCoverage:
    """Count the judged documents among those retrieved for the queries both files have.

    >>> from metrics.io import read_qrels, read_run
    >>> run = read_run({"q1": {"D1": 2.0, "D2": 1.0}, "q2": {"D3": 1.0}, "q9": {"x": 1.0}})
    >>> c = judged_coverage(run, read_qrels({"q1": {"1": 1, "D2": 0}, "q2": {"3": 2}}))
    >>> (c.retrieved, c.judged, c.query, c.run_doc, c.qrels_doc)
    (3, 1, 'q1', 'D1', '1')
    """
    lengths = np.diff(run.starts)
    row_query = pc.take(run.query_ids, pa.array(np.repeat(np.arange(len(lengths)), lengths)))
    shared = pc.is_in(row_query, value_set=pc.unique(qrels.query))
    retrieved = pa.table({"query": row_query, "doc": run.doc}).filter(shared)
    if retrieved.num_rows == 0:
        return JudgedCoverage(0, 0)
    judged_pairs = pa.table({"query": qrels.query, "doc": qrels.doc, "judged": pa.repeat(True, len(qrels.grade))})
    joined = retrieved.join(judged_pairs, keys=["query", "doc"], join_type="left outer")
    judged = int(pc.sum(pc.is_valid(joined["judged"])).as_py() or 0)
    query = retrieved["query"][0].as_py()
    qrels_docs = qrels.doc.filter(pc.equal(qrels.query, query))
    qrels_doc = qrels_docs[0].as_py() if len(qrels_docs) else None
    return JudgedCoverage(retrieved.num_rows, judged, query, retrieved["doc"][0].as_py(), qrels_doc)

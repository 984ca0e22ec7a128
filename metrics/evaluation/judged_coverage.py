"""How many retrieved documents have a qrels line: the first thing to check when every score is 0.

A run whose doc ids are spelled differently from the qrels' (``D123`` vs ``123``) matches its queries but none of
its documents, so every measure is 0 with nothing wrong in either file. This counts, over the queries the run and
the qrels share, the retrieved documents that are judged (a grade of 0 or more), and gives an example id from each side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow.compute as pc

from metrics.evaluation.engine import evaluate
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
    """Count the judged documents (a grade of 0 or more: trec_eval reads a negative grade as pooled, not judged)
    among those retrieved for the queries both files have.

    The engine's own join does the counting (num_rel_ret + num_nonrel_judged_ret over num_ret), so it costs what an
    evaluation costs; joining the 7M-row tables again in Arrow held a second copy of the run (1x the file more at
    the page's peak, and 200 MiB kept after the file was replaced).

    >>> from metrics.io import read_qrels, read_run
    >>> run = read_run({"q1": {"D1": 2.0, "D2": 1.0}, "q2": {"D3": 1.0}, "q9": {"x": 1.0}})
    >>> c = judged_coverage(run, read_qrels({"q1": {"1": 1, "D2": 0}, "q2": {"3": 2}}))
    >>> (c.retrieved, c.judged, c.query, c.run_doc, c.qrels_doc)
    (3, 1, 'q1', 'D1', '1')
    >>> judged_coverage(run, read_qrels({"q1": {"D1": 1, "D2": -1}})).judged  # D2 pooled, not judged
    1
    """
    counts = evaluate(run, qrels, _COUNTS)
    retrieved = int(counts.per_query["num_ret"].sum())
    if retrieved == 0:
        return JudgedCoverage(0, 0)
    judged = int(counts.per_query["num_rel_ret"].sum() + counts.per_query["num_nonrel_judged_ret"].sum())
    # the examples: the first query of the run that has judgments, its first retrieved and its first judged document
    shared = np.flatnonzero(pc.is_in(run.query_ids, value_set=pc.unique(qrels.query)).to_numpy(zero_copy_only=False))
    first = int(shared[0])
    query = run.query_ids[first].as_py()
    qrels_docs = qrels.doc.filter(pc.equal(qrels.query, query))
    qrels_doc = qrels_docs[0].as_py() if len(qrels_docs) else None
    return JudgedCoverage(retrieved, judged, query, run.doc[int(run.starts[first])].as_py(), qrels_doc)


_COUNTS = ("num_ret", "num_rel_ret", "num_nonrel_judged_ret")

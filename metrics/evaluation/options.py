"""How a run is evaluated, as one value: trec_eval's switches (conventions, -c, -M, -J) and how a large run is read.

Every evaluation path takes it (metrics.evaluation.engine, streaming, distributed; metrics.compare.leaderboard's
evaluate_runs), and each command line builds it once from its arguments (metrics.cli.common.evaluation_options). The
public functions take its fields as keywords too (``evaluate(run, qrels, complete=True)``), or ``options=`` one, and
build it once per call (:func:`given`), never per query or block. Small and picklable: Dask sends it with every task.

>>> options = given(None, {"complete": True, "max_docs": 100})
>>> options.complete, options.max_docs, options.judged_only, options.conventions.threshold
(True, 100, False, 1)
>>> given(options, {"max_docs": None}).max_docs is None  # keywords override the options given
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.io.text.sources import PIECE_BYTES


@dataclass(frozen=True, slots=True)
class EvaluationOptions:
    """What every evaluation path needs to know besides the run, the qrels and the measures."""

    conventions: Conventions = TREC_EVAL
    complete: bool = False  # trec_eval -c: judged queries missing from the run are scored (as trec_eval scores them)
    max_docs: int | None = None  # trec_eval -M: only the top max_docs of each ranking; None: all
    judged_only: bool = False  # trec_eval -J: documents without a judgment of 0 or more leave the rankings
    # large runs (streamed, or sent to Dask in blocks): bytes of run text read at a time; where a run whose queries
    # are not contiguous is regrouped (None: the system's temporary directory; it needs about the run's size)
    piece_bytes: int = PIECE_BYTES
    spill_dir: str | None = None

    def cut(self) -> int | None:
        """max_docs for the readers, which refuse a doc given twice only within it (trec_eval -M cuts, then checks);
        None when unset or not a positive integer (the join refuses that, naming it)."""
        max_docs = self.max_docs
        valid = isinstance(max_docs, int) and not isinstance(max_docs, bool) and max_docs >= 1
        return max_docs if valid else None


def given(options: EvaluationOptions | None, keywords: dict) -> EvaluationOptions:
    """The options a public function was called with: ``options`` (default: trec_eval's) with the fields named in
    ``keywords`` replaced. A keyword that is no field is a TypeError, as for any function."""
    if options is None:
        return EvaluationOptions(**keywords)
    return dataclasses.replace(options, **keywords) if keywords else options

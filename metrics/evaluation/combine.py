"""Evaluations of disjoint sets of queries (the blocks of a streamed run, the partitions of a distributed one)
joined into the Evaluation the whole run would give: the per-query values in trec_eval -q's query order, and the
summaries formed from them by the same function as for a whole run (metrics.evaluation.engine.summaries)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow.compute as pc

from metrics.catalog.family import Measure
from metrics.evaluation.engine import Evaluation, QueryCounts, summaries
from metrics.evaluation.options import EvaluationOptions
from metrics.io.arrays.conversions import arrow_strings, int_numpy


def combine(
    parts: Sequence[Evaluation],
    measures: Sequence[Measure],
    options: EvaluationOptions,
    *,
    only_in_qrels: Sequence[str],
    qrels=None,
) -> Evaluation:
    """One Evaluation of ``parts`` (evaluations of the same measures on disjoint queries) under the whole run's
    ``options``. ``only_in_qrels``: the judged queries that no part's run had (each part only knows its own
    queries); ``qrels``: all the judgments (with ``complete``, num_rel's 'all' counts them,
    metrics.evaluation.engine.summaries)."""
    queries = [q for part in parts for q in part.queries]
    order = int_numpy(pc.sort_indices(arrow_strings(queries))) if queries else np.zeros(0, np.int64)
    parsed = {m.name: m for m in measures}
    per_query = {name: _joined([part.per_query[name] for part in parts], np.float64)[order] for name in parsed}
    texts = {}
    for name in parts[0].texts if parts else ():
        joined = [t for part in parts for t in part.texts[name]]
        texts[name] = tuple(joined[i] for i in order.tolist())
    only_in_run = tuple(sorted(q for part in parts for q in part.only_in_run))
    counts = QueryCounts(
        len(queries),
        sum(part.counts.only_in_run for part in parts),
        len(only_in_qrels),
        sum(part.counts.no_relevant for part in parts),
    )
    return Evaluation(
        tuple(queries[i] for i in order.tolist()),
        tuple(measures),
        per_query,
        summaries(per_query, parsed, positive_judgments=_positive(qrels) if options.complete else None),
        counts,
        only_in_run,
        tuple(sorted(only_in_qrels)),
        options.conventions,
        options.complete,
        texts,
    )


def _positive(qrels) -> int:
    return int(np.count_nonzero(qrels.grade > 0))


def _joined(arrays: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype)

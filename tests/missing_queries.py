"""trec_eval -c's values for a query missing from the run, applied to readable per-query values (the readable
functions score such a query on an empty ranking; trec_eval on its one-document stand-in, then zeroes some)."""

from __future__ import annotations

from metrics.evaluation.aggregate import STAND_IN_DOC, zero_when_missing


def with_trec_eval_missing(measure, per_query, run, qrels, conventions, judged_only=False) -> dict[str, float]:
    out = {}
    for q, value in per_query.items():
        if q in run:
            out[q] = value
        elif zero_when_missing(measure):
            out[q] = 0.0
        elif measure.family == "utility":  # a utility with parameters keeps the stand-in document's value
            out[q] = measure.compute([] if judged_only else [STAND_IN_DOC], qrels[q], conventions).value
        else:
            out[q] = value
    return out


def num_rel_all(qrels) -> float:
    """-c's num_rel 'all' line: every qrels line with a grade above 0, whatever -l says (m_num_rel.c)."""
    return float(sum(g > 0 for docs in qrels.values() for g in docs.values()))

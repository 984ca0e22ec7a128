"""The pandas-first entry point: a run and qrels as DataFrames in, the values as a DataFrame out, with the column
names ir_measures and ranx use (``query_id``, ``doc_id``, ``score``, ``relevance``; results ``query_id``,
``measure``, ``value``), so a practitioner's existing frames go straight in and the result joins theirs.

>>> import pandas as pd
>>> run = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"], "score": [2.0, 1.0, 1.0]})
>>> qrels = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["b", "z"], "relevance": [1, 1]})
>>> evaluate_frame(run, qrels, ["RR"])
  query_id measure  value
0       q1      RR    0.5
1       q2      RR    0.0
>>> evaluate_frame(run, qrels, ["RR"], aggregate=True)
  measure  value
0      RR   0.25
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from metrics.catalog.family import Measure
from metrics.catalog.measures import DEFAULT_MEASURES
from metrics.evaluation.engine import evaluate

RUN_COLUMNS = ("query_id", "doc_id", "score")
QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RESULT_COLUMNS = ("query_id", "measure", "value")


def evaluate_frame(
    run, qrels, measures: Iterable[str | Measure] = DEFAULT_MEASURES, *, aggregate: bool = False, **options
):
    """Score ``run`` against ``qrels`` (DataFrames with query_id/doc_id/score and query_id/doc_id/relevance, or any
    input :func:`metrics.evaluation.engine.evaluate` takes, with the same ``options``: ``conventions``,
    ``complete``, ...). One row per query and measure (``query_id``, ``measure``, ``value``), as ir_measures'
    ``iter_calc`` yields them; with ``aggregate``, one row per measure (its mean over the evaluated queries)."""
    import pandas as pd  # lazily: importing metrics never pays pandas' import time

    result = evaluate(run, qrels, measures, **options)
    if aggregate:
        return pd.DataFrame({"measure": list(result.means), "value": list(result.means.values())})
    rows = [
        (query, name, result.texts[name][i] if name in result.texts else float(values[i]))
        for name, values in result.per_query.items()
        for i, query in enumerate(result.queries)
    ]
    rows.sort(key=lambda row: row[0].encode())  # query by query, in trec_eval -q's byte order
    return pd.DataFrame(rows, columns=list(RESULT_COLUMNS))


def run_frame(run: Mapping[str, Sequence[str] | Mapping[str, float]]):
    """{query: [docs best first]} or {query: {doc: score}} as a run DataFrame (query_id, doc_id, score); a list
    gets scores n, n-1, ..., 1, so its order is the ranking."""
    import pandas as pd

    rows = []
    for query, docs in run.items():
        scored = docs.items() if isinstance(docs, Mapping) else ((d, float(len(docs) - i)) for i, d in enumerate(docs))
        rows += [(query, doc, float(score)) for doc, score in scored]
    return pd.DataFrame(rows, columns=list(RUN_COLUMNS))


def qrels_frame(qrels: Mapping[str, Mapping[str, int]]):
    """{query: {doc: grade}} as a qrels DataFrame (query_id, doc_id, relevance)."""
    import pandas as pd

    rows = [(query, doc, int(grade)) for query, judged in qrels.items() for doc, grade in judged.items()]
    return pd.DataFrame(rows, columns=list(QRELS_COLUMNS))

"""trec_eval's -Z: each per-query value given as a z-score, its distance from a mean in standard deviations, the
mean and standard deviation of each (query, measure) read from a file of lines ``qid measure mean std_dev``.

As trec_eval does (get_zscores.c, convert_zscores.c): the value of a query the file does not name, or of a measure
it does not name for that query, becomes -1000000 (MISSING); a standard deviation of 0 gives 0 when the value equals
the mean and MISSING otherwise. Every value of every evaluated query is converted (with -c, those of queries
missing from the run too), then summarised as before: the mean of the z-scores, their sum for the counts; gm_map and
gm_bpref keep log(value) per query (m_gm_map.c), so theirs are z-scores of logs and their summary the exponential of
the mean; num_q still counts the queries, and with -c num_rel's summary still counts
the judgments graded above 0. A measure is looked up by the name trec_eval prints for it (``P_10``,
``iprec_at_recall_0.50``); one trec_eval has no name for, by its name as given.

>>> z_scores(np.array([0.5, 0.2, 0.1]), np.array([0.3, 0.2, 0.4]), np.array([0.1, 0.0, 0.0])).tolist()
[2.0, 0.0, -1000000.0]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from metrics.catalog import registry, trec_format
from metrics.evaluation.aggregate import GEOMETRIC_FLOOR, mean
from metrics.evaluation.engine import Evaluation, summaries
from metrics.io.rules import InputError
from metrics.io.text.fields import Fields, read_fields
from metrics.io.text.plain import read_plain_fields

MISSING = -1000000.0  # trec_eval's MISSING_ZSCORE_VALUE
ZSCORE_FIELDS = Fields("z-score file", ("query", "measure", "mean", "std_dev"), {"mean": "number", "std_dev": "number"})


@dataclass(frozen=True)
class ZScoreTable:
    """The file's (mean, standard deviation) of each (query, measure)."""

    name: str
    stats: dict[tuple[str, str], tuple[float, float]]

    @property
    def queries(self) -> frozenset[str]:
        return frozenset(query for query, _ in self.stats)


def read_zscores(source, name: str | None = None) -> ZScoreTable:
    """Read a z-score file: lines ``qid measure mean std_dev`` (trec_eval -Z). A (query, measure) given twice is
    refused: trec_eval would use one of the lines, which one depending on where its binary search lands."""
    plain = read_plain_fields(source, ZSCORE_FIELDS) if name is None and isinstance(source, str) else None
    rows: Iterable[tuple[Any, ...]]
    if plain is not None:  # a small plain file: no pyarrow
        display, rows = plain
    else:
        display, columns = read_fields(source, ZSCORE_FIELDS, name)
        rows = zip(
            columns["query"].to_pylist(),
            columns["measure"].to_pylist(),
            columns["mean"].tolist(),
            columns["std_dev"].tolist(),
            strict=True,
        )
    stats: dict[tuple[str, str], tuple[float, float]] = {}
    for query, measure, average, deviation in rows:
        if (query, measure) in stats:
            raise InputError("duplicate-zscore", f"query {query!r}, measure {measure!r} has two lines", display)
        stats[query, measure] = (average, deviation)
    return ZScoreTable(display, stats)


def z_scores(values: np.ndarray, means: np.ndarray, deviations: np.ndarray) -> np.ndarray:
    """(value - mean) / std_dev, element by element, as convert_zscores.c computes it (MISSING where it cannot)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = (values - means) / np.where(deviations != 0, deviations, 1.0)
    return np.where(deviations != 0, scaled, np.where(values == means, 0.0, MISSING))


def converted(result: Evaluation, table: ZScoreTable) -> Evaluation:
    """The evaluation with every per-query value replaced by its z-score, and the summaries formed again."""
    per_query: dict[str, np.ndarray] = {}
    geometric = set()
    for measure in result.measures:
        name = _looked_up_as(measure)
        stats = [table.stats.get((query, name), (np.nan, np.nan)) for query in result.queries]
        means = np.array([mean for mean, _ in stats], dtype=np.float64).reshape(-1)
        deviations = np.array([deviation for _, deviation in stats], dtype=np.float64).reshape(-1)
        values = result.per_query[measure.name]
        if registry.family(measure.family).values.summary == "geometric":  # trec_eval keeps log(value) per query
            geometric.add(measure.name)
            values = np.array([math.log(max(value, GEOMETRIC_FLOOR)) for value in values.tolist()], dtype=np.float64)
        values = z_scores(values, means, deviations)
        per_query[measure.name] = np.where(np.isnan(means), MISSING, values)  # not in the file
    by_name = {measure.name: measure for measure in result.measures}
    summary = summaries(per_query, by_name)
    for measure in result.measures:
        family = registry.family(measure.family)
        if measure.name in geometric:  # the exponential of the mean z-score of the logs (m_gm_map.c, meas_avg.c)
            summary[measure.name] = math.exp(mean(per_query[measure.name].tolist())) if len(result.queries) else 0.0
        elif family.values.summary == "queries" or (family.trec_eval.counts_positive_judgments and result.complete):
            summary[measure.name] = result.means[measure.name]  # not formed from the values (m_num_q.c, m_num_rel.c)
    return dataclasses.replace(result, per_query=per_query, means=summary)


def _looked_up_as(measure) -> str:
    try:
        return trec_format.trec_name(measure)
    except ValueError:  # a measure trec_eval has no name for: its name as given
        return measure.name

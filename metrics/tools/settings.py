"""A tool's whole way of scoring a run, as switches the engine evaluates: the per-ranking conventions of
metrics.core.conventions (threshold, gain, ideal ranking, AP's denominator) plus the two choices every tool makes over
queries: which queries it averages, and what a query with no relevant document scores.

``score`` evaluates one measure under one Setting with metrics.evaluation.engine: a value for every query of the run or
the qrels, and which of them the Setting averages. Pure (no Streamlit).

>>> run = {"q1": ["a", "b"], "q2": ["c"], "q3": ["d"]}
>>> qrels = {"q1": {"b": 1}, "q2": {"c": 0}, "q4": {"z": 1}}
>>> scored = score(run, qrels, "NDCG@10", Setting())
>>> scored.queries, scored.values.round(4).tolist(), scored.counted.tolist()
(('q1', 'q2', 'q3', 'q4'), [0.6309, 0.0, 0.0, 0.0], [True, True, False, False])
>>> scored = score(run, qrels, "NDCG@10", Setting(queries="run", no_relevant="one"))
>>> scored.values.round(4).tolist(), scored.counted.tolist(), round(scored.mean, 4)
([0.6309, 1.0, 1.0, 0.0], [True, True, True, False], 0.877)
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from metrics.catalog import registry
from metrics.catalog.family import Measure
from metrics.catalog.measures import parse_measure
from metrics.core.conventions import ApDenominator, Conventions, Gain, IdcgSource
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels, read_run

Queries = Literal["judged", "complete", "run"]
NoRelevant = Literal["zero", "one"]


@dataclass(frozen=True, slots=True)
class Setting:
    """Every switch on which tools split, with trec_eval's choices as the defaults.

    queries: which queries are averaged. ``"judged"``: those in the run with at least one qrels line (trec_eval);
        ``"complete"``: every judged query, one missing from the run scoring 0 (trec_eval ``-c``); ``"run"``: every
        query of the run, one with no judgments scoring as a query with no relevant document (learning-to-rank
        libraries and TorchMetrics, which see only the lists they are given).
    no_relevant: what a query scores when the measure's normaliser is 0 (NDCG's ideal DCG, AP's denominator,
        recall's R): ``"zero"`` (trec_eval, ranx, scikit-learn) or ``"one"`` (LightGBM, xgboost ``ndcg@k``).
    """

    threshold: int = 1
    gain: Gain = "linear"
    idcg: IdcgSource = "all"
    ap_denominator: ApDenominator = "all"
    queries: Queries = "judged"
    no_relevant: NoRelevant = "zero"

    def __post_init__(self) -> None:
        self.conventions  # noqa: B018 -- validates the per-ranking switches
        if self.queries not in ("judged", "complete", "run"):
            raise ValueError(f"queries must be 'judged', 'complete' or 'run', got {self.queries!r}")
        if self.no_relevant not in ("zero", "one"):
            raise ValueError(f"no_relevant must be 'zero' or 'one', got {self.no_relevant!r}")

    @property
    def conventions(self) -> Conventions:
        return Conventions(self.threshold, self.gain, self.idcg, self.ap_denominator)


TREC_EVAL_SETTING = Setting()
SWITCHES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Setting))
PER_RANKING = ("threshold", "gain", "idcg", "ap_denominator", "no_relevant")  # change a query's value
# ``queries`` changes only which values are averaged

# The switch's name on a chart bar, and each choice in words, for the sentence that heads an explanation.
TITLES = {
    "threshold": "Relevance threshold",
    "gain": "Gain",
    "idcg": "Ideal ranking",
    "ap_denominator": "AP's denominator",
    "queries": "Queries averaged",
    "no_relevant": "No relevant document",
}
_CHOICES: dict[tuple[str, object], str] = {
    ("gain", "linear"): "linear gain (the grade itself)",
    ("gain", "exp"): "exponential gain (2^grade − 1)",
    ("idcg", "all"): "building the ideal ranking from every judged document",
    ("idcg", "retrieved"): "building the ideal ranking from the retrieved list",
    ("ap_denominator", "all"): "dividing AP by every relevant document (R)",
    ("ap_denominator", "retrieved"): "dividing AP by the relevant documents retrieved",
    ("queries", "judged"): "averaging over the queries in both files",
    ("queries", "complete"): "counting judged queries missing from the run as 0",
    ("queries", "run"): "averaging over every query of the run, judged or not",
    ("no_relevant", "zero"): "scoring a query with no relevant document 0",
    ("no_relevant", "one"): "scoring a query with no relevant document 1",
}


def described(switch: str, choice: object) -> str:
    """A choice in words: ``described("idcg", "retrieved")`` -> 'building the ideal ranking from the retrieved list'."""
    if switch == "threshold":
        return f"counting grades of {choice} or more as relevant"
    return _CHOICES[switch, choice]


def differing(first: Setting, second: Setting) -> tuple[str, ...]:
    """The switches on which two settings differ, in SWITCHES order."""
    return tuple(s for s in SWITCHES if getattr(first, s) != getattr(second, s))


def mixed(first: Setting, second: Setting, taken: frozenset[str] | set[str]) -> Setting:
    """``first`` with the switches in ``taken`` set as ``second`` sets them (a coalition of Shapley's game)."""
    return dataclasses.replace(first, **{s: getattr(second, s) for s in taken})


@dataclass(frozen=True, eq=False)
class Scored:
    """One measure under one Setting: a value for every query of the run or the qrels, and which are averaged."""

    queries: tuple[str, ...]  # every query id of the run or the qrels, in trec_eval's (byte) order
    values: np.ndarray  # float64, aligned with queries (0 or the no-relevant value where the setting averages none)
    counted: np.ndarray  # bool, aligned with queries: averaged by the setting

    @property
    def mean(self) -> float:
        """math.fsum / n over the counted queries, as the engine forms its means; 0.0 with none."""
        n = int(self.counted.sum())
        return math.fsum(self.values[self.counted].tolist()) / n if n else 0.0


def _normaliser(measure: Measure, setting: Setting) -> Measure:
    """The measure whose value is ``measure``'s denominator under ``setting`` (Family.normaliser)."""
    normaliser = registry.family(measure.family).normaliser
    if normaliser is None:
        normalised = ", ".join(f.key for f in registry.FAMILIES if f.normaliser is not None)
        raise ValueError(f"no_relevant='one' is defined for {normalised}, not {measure.family}")
    return parse_measure(normaliser(measure.k, setting.conventions))


def values_under(run, qrels, measure: str | Measure, setting: Setting) -> tuple[tuple[str, ...], np.ndarray]:
    """(every query of the run or the qrels, the measure's value for each under ``setting``'s per-ranking switches)."""
    run, qrels = read_run(run), read_qrels(qrels)
    measure = measure if isinstance(measure, Measure) else parse_measure(measure)
    one = setting.no_relevant == "one"
    wanted = [measure, _normaliser(measure, setting)] if one else [measure]
    evaluation = evaluate(run, qrels, wanted, conventions=setting.conventions, complete=True)
    judged = evaluation.queries
    only_in_run = evaluation.only_in_run  # no qrels line: every measure is 0, every normaliser too
    queries = tuple(sorted((*judged, *only_in_run)))
    where = {q: i for i, q in enumerate(queries)}
    slots = np.array([where[q] for q in judged], dtype=np.int64)
    values = np.zeros(len(queries))
    values[slots] = evaluation.per_query[measure.name]
    if one:
        normaliser = np.zeros(len(queries))
        normaliser[slots] = evaluation.per_query[wanted[1].name]
        values[normaliser == 0] = 1.0
    return queries, values


def counted_under(run, qrels, queries: tuple[str, ...], setting: Setting) -> np.ndarray:
    """Which of ``queries`` (from values_under) the setting averages."""
    run, qrels = read_run(run), read_qrels(qrels)
    in_run = set(run.query_ids.to_pylist())
    judged = set(qrels.query.unique().to_pylist()) if len(qrels.grade) else set()
    if setting.queries == "judged":
        keep = in_run & judged
    elif setting.queries == "complete":
        keep = judged
    else:
        keep = in_run
    return np.array([q in keep for q in queries], dtype=bool)


def score(run, qrels, measure: str | Measure, setting: Setting) -> Scored:
    """The measure's value for every query under ``setting``, and which queries it averages."""
    run, qrels = read_run(run), read_qrels(qrels)
    queries, values = values_under(run, qrels, measure, setting)
    return Scored(queries, values, counted_under(run, qrels, queries, setting))

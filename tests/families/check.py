"""The checks every family's test file runs (tests/families/test_<module>.py): the engine's kernel equals the
readable function bit for bit on generated runs, and both equal trec_eval (pytrec_eval's extension, which takes
trec_eval's own measure strings) where it has the measure."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pytest
import pytrec_eval_ext
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from metrics import Conventions, parse_measure, registry
from metrics.engine import evaluate
from tests.strategies import runs

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-9
# Generated whole runs (rankings as lists, best first; any grade from -2) and a relevance threshold.
RUNS = runs(min_grade=-2, max_grade=4)
THRESHOLDS = st.integers(1, 3)


def kernel_equals_readable(
    names: Sequence[str], run: Mapping[str, list[str]], qrels: Mapping[str, Mapping[str, int]], conventions: Conventions
) -> None:
    """Every query's engine value (the family's kernel) == its readable function's value, bit for bit; the string
    too for a text family (relstring)."""
    result = evaluate(run, qrels, names, conventions=conventions)
    for name in names:
        measure = parse_measure(name)
        text = registry.family(measure.family).text
        for index, query in enumerate(result.queries):
            readable = measure.compute(run.get(query, []), qrels[query], conventions)
            if text:
                assert result.texts[name][index] == readable.text, (name, query)
            else:
                got, expected = result.per_query[name][index], readable.value
                # == on floats: bit for bit; NaN where trec_eval divides 0 by 0 (both must give it)
                assert got == expected or (math.isnan(got) and math.isnan(expected)), (name, query)


def _scores(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores, so trec_eval ranks the documents in the given order."""
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def equals_trec_eval(
    names: Mapping[str, str],
    run: Mapping[str, list[str]],
    qrels: Mapping[str, Mapping[str, int]],
    level: int = 1,
    requested: set[str] | None = None,
) -> None:
    """Our per-query values (engine and readable) == trec_eval's, for ``names`` {ours: trec_eval's printed name};
    ``requested`` are the measure strings handed to trec_eval (default: the printed names). Queries with no qrels
    lines are left out, as pytrec_eval's wrapper does (its issue 57); so are queries with no ranking, which
    trec_eval never sees."""
    judged = {q: dict(g) for q, g in qrels.items() if g}
    ranked = {q: r for q, r in run.items() if r and q in judged}
    if not ranked:
        return
    evaluator = pytrec_eval_ext.RelevanceEvaluator(judged, requested or set(names.values()), level)
    expected = evaluator.evaluate({q: _scores(r) for q, r in ranked.items()})
    conventions = Conventions(threshold=level, recall_rounding="plus_0.9")  # pytrec_eval runs trec_eval 9.0.x
    ours = evaluate(ranked, {q: judged[q] for q in ranked}, list(names), conventions=conventions)
    for name, trec_name in names.items():
        measure = parse_measure(name)
        for index, query in enumerate(ours.queries):
            want = expected[query][trec_name]
            value = ours.per_query[name][index]
            readable = measure.compute(ranked[query], judged[query], conventions).value
            if math.isnan(want):  # trec_eval 9's 0 / 0 where 10.0 and we give 0 (thresholds here are 1 and up)
                assert value == readable == 0.0, (name, query)
            else:
                assert value == pytest.approx(want, abs=TOL), (name, query, value, want)
                assert readable == pytest.approx(want, abs=TOL), (name, query, readable, want)

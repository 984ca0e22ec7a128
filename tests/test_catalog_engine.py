"""The catalog's part 2 (bpref, infAP, Judged, unj, RBP, ERR, the gain walks, utility, relstring, gain maps) in the
engine: equal to the readable functions bit for bit, under every threshold, -c, -M and -J."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from missing_queries import num_rel_all, with_trec_eval_missing

from metrics import Conventions, mean_over_queries, parse_measure, rank_by_score
from metrics.catalog import registry
from metrics.evaluation.aggregate import summarize
from metrics.evaluation.engine import evaluate

DOCS = [f"d{i}" for i in range(10)] + ["D1", "doc10", "doc9", "a", "é"]
QUERIES = ["q1", "q2", "q3", "q10"]
scores = st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0]) | st.floats(-5, 5, allow_nan=False)
runs = st.dictionaries(
    st.sampled_from(QUERIES), st.dictionaries(st.sampled_from(DOCS), scores, max_size=12), max_size=4
)
qrels_sets = st.dictionaries(
    st.sampled_from(QUERIES), st.dictionaries(st.sampled_from(DOCS), st.integers(-2, 11), max_size=10), max_size=4
)

MEASURES = [
    "bpref",
    "gm_bpref",
    "infAP",
    "Judged",
    "Judged@3",
    "unj",
    "unj@5",
    "RBP",
    "RBP(p=0.5)@4",
    "rbp_resid",
    "RBP_resid(p=0.8)@3",
    "ERR",
    "ERR@3",
    "binG",
    "G",
    "G(gains={1:0.5,3:2})",
    "Rndcg",
    "Rndcg(gains={0:1,2:-1})",
    "ndcg_rel",
    "ndcg_rel(gains={2:9,1:3})",
    "ndcg.1=3,2=9,4=4.5",
    "NDCG(gains={0:0.5,1:0.5})@3",
    "utility",
    "utility(a=2,b=-0.5,c=-1,d=0.25,collection=100)",
    "relative_P_3",
    "set_relative_P",
    "relstring",
    "relstring@3",
]


def _effective(docs: dict[str, float], qrels: dict[str, int], max_docs: int | None, judged_only: bool) -> list[str]:
    """The ranking trec_eval scores: sorted, cut to max_docs (-M), then unjudged documents dropped (-J)."""
    ranking = rank_by_score(docs)[:max_docs]
    return [d for d in ranking if qrels.get(d, -1) >= 0] if judged_only else ranking


def _check(run, qrels, conventions, complete, max_docs=None, judged_only=False, names=MEASURES):
    result = evaluate(
        run, qrels, names, conventions=conventions, complete=complete, max_docs=max_docs, judged_only=judged_only
    )
    rankings = {q: _effective(docs, qrels.get(q, {}), max_docs, judged_only) for q, docs in run.items()}
    for name in names:
        measure = parse_measure(name)
        family = registry.family(measure.family)
        readable = mean_over_queries(
            lambda ranking, judged, m=measure: m.compute(ranking, judged, conventions),
            rankings,
            qrels,
            complete=complete,
        )
        got = dict(zip(result.queries, result.per_query[name].tolist(), strict=True))
        if family.key == "relstring":
            texts = {q: measure.compute(rankings.get(q, []), qrels[q], conventions).text for q in readable.per_query}
            assert dict(zip(result.queries, result.texts[name], strict=True)) == texts, name
            assert got == dict.fromkeys(texts, 0.0)  # the number trec_eval stores for it
            assert math.isnan(result.means[name])
            continue
        expected = readable.per_query
        if complete:  # trec_eval -c's values for a query missing from the run
            expected = with_trec_eval_missing(measure, expected, run, qrels, conventions, judged_only)
        assert _nan_as_text(got) == _nan_as_text(expected), name  # == on floats: bit for bit (NaN: trec_eval's 0/0)
        if complete and family.key == "NumRel":
            assert result.means[name] == num_rel_all(qrels), name
        else:
            mean = summarize([expected[q] for q in sorted(expected)], family.values.summary)
            assert _nan_as_text({"all": result.means[name]}) == _nan_as_text({"all": mean}), name


def _nan_as_text(values: dict[str, float]) -> dict[str, float | str]:
    return {q: "nan" if math.isnan(v) else v for q, v in values.items()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, st.integers(1, 3), st.booleans())
def test_engine_equals_readable_exactly(run, qrels, threshold, complete):
    _check(run, qrels, Conventions(threshold=threshold), complete)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs, qrels_sets, st.integers(1, 2), st.integers(1, 6), st.booleans())
def test_engine_equals_readable_exactly_under_max_docs_and_judged_only(run, qrels, threshold, max_docs, judged_only):
    _check(run, qrels, Conventions(threshold=threshold), False, max_docs, judged_only)


def test_long_rankings_with_ties_and_deep_judgments():
    import random

    rnd = random.Random(11)
    run, qrels = {}, {}
    for q in range(12):
        docs = [f"doc{i}" for i in rnd.sample(range(3000), 700)]
        run[f"q{q}"] = {d: float(rnd.randint(0, 30)) for d in docs}
        judged = [*rnd.sample(docs, 60), f"missed{q}", f"pool{q}"]
        qrels[f"q{q}"] = {d: rnd.choice((-1, 0, 0, 1, 2, 3, 4)) for d in judged}
    for conventions in (Conventions(), Conventions(threshold=2)):
        _check(run, qrels, conventions, False)
        _check(run, qrels, conventions, True, max_docs=300, judged_only=True)


def test_every_catalog_choice_computes_renders_and_summarises():
    """The playground's picker and the Evaluate page's summary column take every family, relstring's missing
    summary included."""
    from ir_metrics_lab.parts import scenario_numbers
    from ir_metrics_lab.session import datasets
    from metrics.teaching.formulas import latex

    ranking, qrels = ["a", "x", "b", "u"], {"a": 2, "b": 0, "u": -1, "z": 1}
    choices = scenario_numbers.catalog_choices(3)
    assert len(choices) == len(registry.FAMILIES)
    for name in choices:
        b = parse_measure(name).compute(ranking, qrels)
        assert latex(b).startswith(r"\begin{aligned}"), name
    result = evaluate({"q1": ranking}, {"q1": qrels}, choices)
    labels = datasets.summary_labels(result)
    assert labels[choices.index("relstring")] == "none (per query only)"
    assert labels[choices.index("gm_bpref")] == "geometric mean"

"""Each profile of an installed tool gives the tool's own number: pytrec_eval, ir_measures, ranx and scikit-learn are
run on random runs, and the engine under the profile's Setting must agree with them to 1e-9, per query and in the
mean. Profiles that cannot be run here (xgboost, LightGBM, TorchMetrics) are checked to say so.

Random runs: scores distinct within a query and exact in 32-bit floats (multiples of 1/8), so no tool's tie rule
matters; every query retrieves at least 2 documents (scikit-learn's ndcg_score refuses one); queries only in the run
and only in the qrels occur, and so do queries with no relevant document.
"""

from __future__ import annotations

import math
import os
import warnings

import ir_measures  # the test extra installs the four tools: a missing one is an error, never a skip
import numba
import numpy as np
import pytest
import pytrec_eval
import sklearn.metrics as sklearn_metrics
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.catalog import registry
from metrics.catalog.measures import parse_measure
from metrics.tools.profiles import MEASURES, TOOLS, profile, tool, usable_tools
from metrics.tools.settings import score

# ranx is numba code: on a fresh venv its parallel kernels take about a minute of CPU to compile, for runs of a few
# queries. numba runs the same Python source uncompiled when told so before ranx decorates its functions: the same
# rules, the same numbers, no compile. NUMBA_DISABLE_JIT=0 in the environment checks against the compiled kernels
# instead.
numba.config.DISABLE_JIT = os.environ.get("NUMBA_DISABLE_JIT", "1") != "0"
import ranx  # noqa: E402 - after the setting above

TOLERANCE = 1e-9
CUTOFFS = (1, 3, 5, 10)


@st.composite
def scored_runs(draw):
    """(run {query: {doc: score}}, qrels {query: {doc: grade}}) with distinct scores per query."""
    pool = [f"d{i}" for i in range(12)]
    queries = [f"q{i}" for i in range(draw(st.integers(2, 7)))]
    run, qrels = {}, {}
    for q in queries:
        where = draw(st.sampled_from(["both", "both", "both", "run", "qrels"]))
        if where in ("both", "run"):
            docs = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=10, unique=True))
            ranks = draw(st.permutations(range(len(docs))))
            run[q] = {doc: (len(docs) - r) / 8 for doc, r in zip(docs, ranks, strict=True)}
        if where in ("both", "qrels"):
            judged = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=8, unique=True))
            qrels[q] = {doc: draw(st.integers(0, 3)) for doc in judged}
    if not run:
        run["q_extra"] = {"d0": 1.0, "d1": 0.5}
    if not qrels:
        qrels["q_judged"] = {"d0": 1}
    return run, qrels


def ours(run, qrels, tool_key: str, family: str, k: int | None) -> tuple[float, dict[str, float]]:
    """The engine under the tool's profile: (mean, {query: value} for the averaged queries)."""
    setting = profile(tool_key, family).setting
    scored = score(run, qrels, family if k is None else f"{family}@{k}", setting)
    per_query = {q: float(v) for q, v, c in zip(scored.queries, scored.values, scored.counted, strict=True) if c}
    return scored.mean, per_query


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE


RUNS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PYTREC_NAMES = {"NDCG": "ndcg_cut", "AP": "map_cut", "P": "P", "R": "recall"}


@RUNS
@given(scored_runs(), st.sampled_from(CUTOFFS))
def test_pytrec_eval_profiles(data, k):
    run, qrels = data
    # pytrec_eval computes only its default cutoffs for bare names: ask for each measure at k explicitly
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, {f"ndcg_cut.{k}", f"map_cut.{k}", f"P.{k}", f"recall.{k}", "map", "recip_rank"}
    )
    theirs = evaluator.evaluate(run)
    cases = [(family, k, f"{name}_{k}") for family, name in PYTREC_NAMES.items()]
    cases += [("AP", None, "map"), ("RR", None, "recip_rank")]
    for family, cut, name in cases:
        mean, per_query = ours(run, qrels, "pytrec_eval", family, cut)
        expected = {q: values[name] for q, values in theirs.items()}
        assert per_query.keys() == expected.keys(), (family, name)
        assert all(close(per_query[q], expected[q]) for q in expected), (family, name, per_query, expected)
        expected_mean = math.fsum(expected.values()) / len(expected) if expected else 0.0
        assert close(mean, expected_mean), (family, name)


@RUNS
@given(scored_runs(), st.sampled_from(CUTOFFS))
def test_ir_measures_profiles(data, k):
    run, qrels = data
    from ir_measures import AP, RR, P, R, nDCG

    measures = {("NDCG", k): nDCG @ k, ("AP", k): AP @ k, ("AP", None): AP, ("P", k): P @ k, ("R", k): R @ k}
    measures |= {("RR", None): RR, ("RR", k): RR @ k}
    theirs = ir_measures.calc_aggregate(list(measures.values()), qrels, run)
    for (family, cut), measure in measures.items():
        mean, _ = ours(run, qrels, "ir_measures", family, cut)
        assert close(mean, theirs[measure]), (family, cut, mean, theirs[measure])


RANX_NAMES = {"NDCG": "ndcg", "DCG": "dcg", "AP": "map", "P": "precision", "R": "recall", "RR": "mrr"}


@RUNS
@given(scored_runs(), st.sampled_from(CUTOFFS))
def test_ranx_profiles(data, k):
    run, qrels = data
    names = {f"{name}@{k}": ("ranx", family, k) for family, name in RANX_NAMES.items()}
    names |= {"map": ("ranx", "AP", None), "mrr": ("ranx", "RR", None), "ndcg": ("ranx", "NDCG", None)}
    names |= {f"ndcg_burges@{k}": ("ranx_burges", "NDCG", k), f"dcg_burges@{k}": ("ranx_burges", "DCG", k)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's type-safety notes
        theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), list(names), return_mean=False, make_comparable=True)
    for name, (tool_key, family, cut) in names.items():
        mean, per_query = ours(run, qrels, tool_key, family, cut)
        values = np.asarray(theirs[name], dtype=np.float64)
        assert close(mean, math.fsum(values.tolist()) / len(values)), (name, mean, values)
        assert sorted(per_query) == sorted(qrels), name  # ranx scores every judged query
        assert all(close(a, b) for a, b in zip(sorted(per_query.values()), sorted(values.tolist()), strict=True))


@RUNS
@given(scored_runs(), st.sampled_from((None, *CUTOFFS)))
def test_sklearn_profiles(data, k):
    """One call per query of the run that has judgments; y_true the grades (0 when unjudged), y_score the scores."""
    run, qrels = data
    counted = sorted(q for q in run if q in qrels)
    expected = {"NDCG": {}, "DCG": {}, "AP": {}}
    for q in counted:
        docs = list(run[q])
        y_true = np.array([[qrels[q].get(d, 0) for d in docs]])
        y_score = np.array([[run[q][d] for d in docs]])
        expected["NDCG"][q] = sklearn_metrics.ndcg_score(y_true, y_score, k=k)
        expected["DCG"][q] = sklearn_metrics.dcg_score(y_true, y_score, k=k)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "No positive class found in y_true": scored 0
            expected["AP"][q] = sklearn_metrics.average_precision_score(y_true[0] >= 1, y_score[0])
    for family, theirs in expected.items():
        if family == "AP" and k is not None:
            continue  # average_precision_score takes no cutoff
        mean, per_query = ours(run, qrels, "sklearn", family, k)
        assert per_query.keys() == theirs.keys(), family
        assert all(close(per_query[q], theirs[q]) for q in theirs), (family, k, per_query, theirs)
        assert close(mean, math.fsum(theirs.values()) / len(theirs) if theirs else 0.0), family


def test_sklearn_ties_are_averaged_and_the_profile_says_so():
    """With tied scores the engine follows trec_eval's order and scikit-learn averages: the profile flags it."""
    run = {"q": {"a": 0.5, "b": 0.5, "c": 0.1}}
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    theirs = sklearn_metrics.ndcg_score([[2, 0, 1]], [[0.5, 0.5, 0.1]], k=1)
    mean, _ = ours(run, qrels, "sklearn", "NDCG", 1)
    assert close(theirs, 0.5)  # a and b share rank 1: gain (2 + 0) / 2 over the ideal 2
    assert mean == 0.0  # trec_eval's order puts b (doc id descending) at rank 1
    assert profile("sklearn", "NDCG").ties == "average"


def test_every_runnable_tool_is_tested_here_and_the_others_say_they_are_not_installed():
    tested = {"pytrec_eval", "ir_measures", "ranx", "ranx_burges", "sklearn"}
    assert {t.key for t in TOOLS if t.runnable} == tested
    for t in TOOLS:
        if not t.runnable and t.key != "trec_eval":
            assert "not installed" in t.checked, t.key
        for p in t.profiles:
            assert registry.family(p.measure)  # a family the registry knows
            assert p.source, (t.key, p.measure)
            if p.setting is None:
                assert "Not reproducible" in p.note, (t.key, p.measure)


def test_profiles_name_each_measure_as_the_tools_are_run_here():
    """The names the profiles show (read from the families' records: profiles.named) are the ones the tests above
    run pytrec_eval, ir_measures and ranx with."""
    for family, name in PYTREC_NAMES.items():
        assert profile("pytrec_eval", family).name.startswith(f"{name}_{{k}}"), family
        assert profile("trec_eval", family).name == profile("pytrec_eval", family).name, family
    assert profile("pytrec_eval", "RR").name == "recip_rank"
    assert profile("pytrec_eval", "AP").name.endswith("(map uncut)")
    ir_measures_names = {"NDCG": "nDCG", "AP": "AP", "P": "P", "R": "R", "RR": "RR"}  # test_ir_measures_profiles'
    for family, name in ir_measures_names.items():
        assert profile("ir_measures", family).name.startswith(f"{name}@{{k}}"), family
    for family, name in RANX_NAMES.items():
        assert profile("ranx", family).name == f"{name}@{{k}}", family


def test_profiles_agree_with_the_registry_tool_notes():
    """registry.tools() names who makes each choice; the profiles must make the same choices."""
    assert profile("sklearn", "NDCG").setting.idcg == "retrieved"
    assert "scikit-learn" in registry.tools("idcg", "retrieved")
    assert profile("ranx_burges", "NDCG").setting.gain == "exp" and "ndcg_burges" in registry.tools("gain", "exp")
    for key in ("trec_eval", "pytrec_eval", "ranx", "ir_measures"):
        assert profile(key, "NDCG").setting.gain == "linear" and profile(key, "NDCG").setting.idcg == "all"
        assert profile(key, "AP").setting.ap_denominator == "all"


def test_unknown_tool_and_missing_measure_are_clear_errors():
    with pytest.raises(ValueError, match="unknown tool 'nope'; known: trec_eval"):
        tool("nope")
    with pytest.raises(ValueError, match="scikit-learn has no RR measure here"):
        profile("sklearn", "RR")
    assert tool("scikit-learn").key == "sklearn" and tool(" LGBM ").key == "lightgbm"


def test_why_tools_differ_offers_every_profiled_family_each_by_two_tools_or_more():
    """MEASURES (the page's picker) covers each family some profile has, and no measure of it has fewer than two
    tools to compare."""
    assert {parse_measure(m).family for m in MEASURES} == {p.measure for t in TOOLS for p in t.profiles}
    assert {m: usable_tools(m)[0] for m in MEASURES if len(usable_tools(m)[0]) < 2} == {}
    assert len(set(MEASURES)) == len(MEASURES)

"""The catalog's part 2 against its references, run live: trec_eval itself (pytrec_eval's extension, which takes
trec_eval's own measure strings such as ``ndcg.1=3,2=9`` and ``utility.2,-1,0,0``) for bpref, gm_bpref, infAP, binG,
G, Rndcg, ndcg_rel, gain maps, relative_P, set_relative_P and utility; the ir-measures package for Judged@k and
ERR@k (gdeval). The arithmetic written out for RBP, rbp_resid and unj (pytrec_eval has no rbp or unj), relstring
(pytrec_eval reports it as 0.0) and ERR is in each family's test file, tests/families/."""

from __future__ import annotations

import math

import ir_measures
import pytest
import pytrec_eval_ext
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import runs

from metrics import Conventions, parse_measure
from metrics.evaluation.aggregate import GEOMETRIC_FLOOR
from metrics.evaluation.engine import evaluate

TOL = 1e-9
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CUTOFFS = (1, 3, 5, 10)


def _scores(ranking: list[str]) -> dict[str, float]:
    """Strictly decreasing scores, so every tool ranks the docs in the given order."""
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def _trec(qrels, run, measures: set[str], level: int = 1, judged_only: bool = False) -> dict[str, dict[str, float]]:
    """trec_eval's per-query values through pytrec_eval's extension (trec_eval's measure strings, parameters
    included). Queries with no qrels lines are left out, as pytrec_eval's wrapper does (its issue 57)."""
    judged = {q: dict(g) for q, g in qrels.items() if g}
    evaluator = pytrec_eval_ext.RelevanceEvaluator(judged, measures, level, judged_only)
    return evaluator.evaluate({q: _scores(r) for q, r in run.items()})


def _compare(ours, expected, name: str, trec_name: str) -> None:
    for q, value in zip(ours.queries, ours.per_query[name].tolist(), strict=True):
        want = expected.get(q, {}).get(trec_name, 0.0)
        if math.isnan(want):  # trec_eval divides 0 by 0 (Rndcg with no positive gain): NaN, as trec_eval 10.0
            assert math.isnan(value), (name, q, value)
        else:
            assert value == pytest.approx(want, abs=TOL), (name, q, value, want)


PLAIN = {"bpref": "bpref", "infAP": "infAP", "binG": "binG", "G": "G", "Rndcg": "Rndcg", "ndcg_rel": "ndcg_rel"}
PLAIN |= {"set_relative_P": "set_relative_P", "utility": "utility"}
PLAIN |= {f"relative_P_{k}": f"relative_P_{k}" for k in CUTOFFS}
TREC_PLAIN = {"bpref", "infAP", "binG", "G", "Rndcg", "ndcg_rel", "set_relative_P", "utility"}
TREC_PLAIN |= {f"relative_P.{','.join(map(str, CUTOFFS))}"}


def _check_plain(run, qrels, level, judged_only=False, max_docs=None):
    # trec_eval's bpref sums its per-level counts up to the relevance level, but sizes them by the query's highest
    # grade (form_res_rels.c): a level above that grade + 1 reads past the array (garbage, or a crash). Leave such
    # queries out; they are only undefined in trec_eval.
    qrels = {q: g for q, g in qrels.items() if not g or max(g.values()) >= level - 1}
    top = {q: r[:max_docs] for q, r in run.items()}
    expected = _trec(qrels, top, TREC_PLAIN, level, judged_only)
    # gm_bpref on its own: pytrec-eval-terrier 0.5.11 crashed (segfault) computing it beside infAP on some inputs
    geometric = _trec(qrels, top, {"gm_bpref"}, level, judged_only)
    ours = evaluate(
        run,
        qrels,
        [*PLAIN, "gm_bpref"],
        conventions=Conventions(threshold=level),
        judged_only=judged_only,
        max_docs=max_docs,
    )
    for name, trec_name in PLAIN.items():
        _compare(ours, expected, name, trec_name)
    # gm_bpref: trec_eval keeps log(max(bpref, 0.00001)) per query and prints exp(mean) as the summary
    # (pytrec_eval reports 0.0, i.e. log 1, for a query whose ranking is empty: trec_eval never sees one, so skip them)
    shown = [q for q in ours.queries if top.get(q)]
    logs = [geometric.get(q, {}).get("gm_bpref", math.log(GEOMETRIC_FLOOR)) for q in shown]
    if logs:
        ours_shown = evaluate(
            {q: top[q] for q in shown},
            {q: qrels[q] for q in shown},
            ["gm_bpref"],
            conventions=Conventions(threshold=level),
            judged_only=judged_only,
        )
        assert ours_shown.means["gm_bpref"] == pytest.approx(math.exp(math.fsum(logs) / len(logs)), rel=1e-12)


@SETTINGS
@given(runs(), st.integers(1, 3))
def test_against_trec_eval(data, level):
    run, qrels = data
    _check_plain(run, qrels, level)


@SETTINGS
@given(runs(), st.integers(1, 2))
def test_against_trec_eval_judged_only(data, level):
    """-J: unjudged documents (no qrels line or a negative grade) leave the ranking before any measure."""
    run, qrels = data
    _check_plain(run, qrels, level, judged_only=True)


@SETTINGS
@given(runs(), st.integers(1, 4), st.booleans())
def test_against_trec_eval_max_docs(data, max_docs, judged_only):
    """-M keeps the top max_docs (before -J): trec_eval is given only those."""
    run, qrels = data
    _check_plain(run, qrels, 1, judged_only=judged_only, max_docs=max_docs)


gain_maps = st.dictionaries(
    st.integers(0, 4), st.sampled_from([-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 9.0]), min_size=1, max_size=3
)


@SETTINGS
@given(runs(), gain_maps, st.integers(1, 2), st.booleans())
def test_gain_maps_against_trec_eval(data, gains, level, judged_only):
    """ndcg, G, Rndcg and ndcg_rel with trec_eval's level=gain parameters, fractional and negative gains included
    (gains less than 1 apart exercise trec_eval's truncating gain comparison)."""
    run, qrels = data
    pairs = ",".join(f"{lvl}={_number(g)}" for lvl, g in gains.items())
    for family in ("ndcg", "G", "Rndcg", "ndcg_rel"):
        name = f"{family}.{pairs}"
        expected = _trec(qrels, run, {name}, level, judged_only)
        ours = evaluate(run, qrels, [name], conventions=Conventions(threshold=level), judged_only=judged_only)
        _compare(ours, expected, name, family)


def _number(x: float) -> str:
    return str(int(x)) if x.is_integer() else str(x)


@SETTINGS
@given(runs(), st.tuples(*[st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.25, 1.0, 3.0])] * 4), st.integers(1, 2))
def test_utility_parameters_against_trec_eval(data, abcd, level):
    run, qrels = data
    expected = _trec(qrels, run, {"utility." + ",".join(map(_number, abcd))}, level)
    a, b, c, d = abcd
    name = f"utility(a={a},b={b},c={c},d={d})"
    ours = evaluate(run, qrels, [name], conventions=Conventions(threshold=level))
    _compare(ours, expected, name, "utility")


def test_utility_of_an_empty_ranking_counts_the_missed_documents():
    """Retrieving nothing misses every relevant document: c·R + d·(N − R), as trec_eval computes it."""
    qrels = {"q1": {"r1": 1, "r2": 2, "n": 0}, "q2": {"x": 1}}
    expected = _trec(qrels, {"q1": [], "q2": ["x"]}, {"utility.1,-1,-0.5,0.25"})
    b = parse_measure("utility(a=1,b=-1,c=-0.5,d=0.25)").compute([], qrels["q1"])
    assert b.value == expected["q1"]["utility"] == -0.5 * 2 + 0.25 * (0 - 2)
    assert b.steps == ()


# ---------------------------------------------------------------------------------------------------------------
# ir-measures: Judged@k (its judged provider) and ERR@k (gdeval, which needs numeric query ids and grades <= 4)


@SETTINGS
@given(runs(), st.sampled_from([1, 3, 5, 10]))
def test_judged_against_ir_measures(data, k):
    run, qrels = data
    run = {q: r for q, r in run.items() if r}  # ir_measures divides by the list length: an empty list raises there
    measure = ir_measures.parse_measure(f"Judged@{k}")
    qrel_rows = [ir_measures.Qrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    run_rows = [ir_measures.ScoredDoc(q, d, s) for q, r in run.items() for d, s in _scores(r).items()]
    expected = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrel_rows, run_rows)}
    ours = evaluate(run, qrels, [f"Judged@{k}"])
    for q, value in zip(ours.queries, ours.per_query[f"Judged@{k}"].tolist(), strict=True):
        assert value == pytest.approx(expected[q], abs=TOL), q


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs(max_grade=4), st.sampled_from([1, 3, 5, 10]))
def test_err_against_ir_measures_gdeval(data, k):
    run, qrels = data
    numeric = {q: str(i + 1) for i, q in enumerate(sorted(set(run) | set(qrels)))}  # gdeval: numeric topics only
    run = {numeric[q]: r for q, r in run.items() if r}
    qrels = {numeric[q]: g for q, g in qrels.items()}
    measure = ir_measures.parse_measure(f"ERR@{k}")
    qrel_rows = [ir_measures.Qrel(q, d, g) for q, docs in qrels.items() for d, g in docs.items()]
    run_rows = [ir_measures.ScoredDoc(q, d, s) for q, r in run.items() for d, s in _scores(r).items()]
    assume(qrel_rows and run_rows)
    expected = {m.query_id: m.value for m in ir_measures.gdeval.iter_calc([measure], qrel_rows, run_rows)}
    ours = evaluate(run, qrels, [f"ERR@{k}"])
    for q, value in zip(ours.queries, ours.per_query[f"ERR@{k}"].tolist(), strict=True):
        # gdeval prints 5 decimals: off by up to half a unit, exactly 5e-6 at a tie (0.109375 prints 0.10938)
        assert value == pytest.approx(expected.get(q, 0.0), abs=5e-6 + 1e-12), q


# ---------------------------------------------------------------------------------------------------------------
# Arithmetic written out for RBP, rbp_resid, unj, relstring and ERR: tests/families/test_rbp.py, test_rbp_resid.py,
# test_unjudged.py, test_relstring.py, test_err.py


@pytest.mark.parametrize("pairs", ["1=0.5", "2=0.5", "1=1.5,2=1.2", "0=0.5,1=0.2", "2=0.4,1=0.9,3=0.1", "3=-0.5,1=0.4"])
@pytest.mark.parametrize("family", ["ndcg", "G", "Rndcg", "ndcg_rel"])
def test_gains_less_than_one_apart_keep_trec_evals_order(pairs, family):
    """trec_eval compares gains by their difference converted to int, so gains less than 1 apart keep their listed
    order in its stable sort, and the ideal ranking can stop early (ndcg.1=0.5 scores 0 when grade-0 docs exist)."""
    qrels = {"q1": {"a": 1, "b": 0, "c": 2, "d": 3, "e": 1}, "q2": {"a": 2, "b": 1, "z": 0}, "q3": {"x": 1, "y": 3}}
    run = {"q1": ["a", "x", "c", "b", "d"], "q2": ["b", "a"], "q3": ["y", "q", "x"]}
    name = f"{family}.{pairs}"
    _compare(evaluate(run, qrels, [name]), _trec(qrels, run, {name}), name, family)

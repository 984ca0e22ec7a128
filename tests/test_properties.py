"""Invariants of the readable metrics that hold for every input, checked on hypothesis-generated queries."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import ZERO_OVER_ZERO, binary_queries, cutoffs, queries, runs, thresholds

from metrics import (
    FUNCTIONS,
    Conventions,
    average_precision,
    capped_recall,
    dcg,
    f1,
    hit_rate,
    idcg,
    ideal_ranking,
    mean_over_queries,
    ndcg,
    parse_measure,
    precision,
    rank_by_score,
    recall,
    reciprocal_rank,
)
from metrics.catalog import registry

SETTINGS = settings(max_examples=150, deadline=None)
# no trec_eval runs here, so all-negative qrels are fine
ANY_QUERY = queries(min_grade=-3, max_grade=4, trec_safe=False)
OPTIONAL_K = st.none() | cutoffs()
CONVENTIONS = st.builds(
    Conventions,
    threshold=thresholds(),
    gain=st.sampled_from(["linear", "exp"]),
    idcg=st.sampled_from(["all", "retrieved"]),
    ap_denominator=st.sampled_from(["all", "retrieved"]),
)
# utility is a weighted count: negative when non-relevant documents cost more than relevant ones bring; YAAP is a
# log-odds, negative below AP = 1/2
SIGNED = {"utility", "YAAP"}
# Their value is not a sum over ranks: R (num_rel) comes from the qrels alone, num_q is 1 per query, the preferences
# possible are stated whatever was retrieved.
NOT_FROM_RANKS = {"NumRel", "NumQ", "prefs_num_prefs_poss"}
# The diversity families divide after summing (ndeval's "ideal ideal" divisor, then the ideal ranking's value): a
# rank's contribution is its term of the numerator, g_i / i or g_i / log2(1 + i) (their Breakdowns say so), and the
# worked formula shows the sum over the divisor. Their contributions sum to a value of 0 exactly when it is 0.
DIVIDED_AFTER_SUM = {"ERR_IA", "nERR_IA", "alpha_DCG", "alpha_nDCG", "nNRBP"}
# An empty list scores other than 0 (YAAP: log(1 / (1 + R))): their contributions rise from that value.
NONZERO_WHEN_EMPTY = {"YAAP"}


def undefined(family: str, value: float, qrels: dict, conv: Conventions) -> bool:
    """A 0 / 0 of ZERO_OVER_ZERO's: NaN, and only where nothing in the qrels is relevant."""
    if family in ZERO_OVER_ZERO and math.isnan(value):
        assert not any(grade >= max(conv.threshold, 1) for grade in qrels.values()), family
        return True
    return False


def relevant_positions(ranking, qrels, threshold=1):
    return [i for i, d in enumerate(ranking) if qrels.get(d, 0) >= threshold]


@SETTINGS
@given(query=ANY_QUERY, k=OPTIONAL_K, conv=CONVENTIONS)
def test_values_lie_in_the_declared_range_and_unbounded_ones_are_non_negative(query, k, conv):
    """Each family's value_range (the registry's display fact that fixes chart scales) holds for every input."""
    ranking, qrels = query
    for family, metric in FUNCTIONS.items():
        value = metric(ranking, qrels, k, conventions=conv).value
        if undefined(family, value, qrels, conv):
            continue
        assert not math.isnan(value), family
        declared = registry.family(family).values.range
        if declared is not None:
            assert declared[0] <= value <= declared[1] + 1e-12, family
        elif family not in SIGNED:
            assert value >= 0.0, family


@SETTINGS
@given(query=ANY_QUERY, k=OPTIONAL_K, conv=CONVENTIONS)
def test_contributions_sum_to_the_value_and_running_is_their_cumulative_sum(query, k, conv):
    ranking, qrels = query
    for family, metric in FUNCTIONS.items():
        if family in NOT_FROM_RANKS:
            continue
        result = metric(ranking, qrels, k, conventions=conv)
        if undefined(family, result.value, qrels, conv):
            continue
        start = metric([], qrels, k, conventions=conv).value if family in NONZERO_WHEN_EMPTY else 0.0
        contributions = [s.contribution for s in result.steps]
        if family in DIVIDED_AFTER_SUM:
            assert (math.fsum(contributions) == 0) == (result.value == 0), family
        else:
            assert math.fsum([start, *contributions]) == pytest.approx(result.value, abs=1e-12, rel=1e-12), family
        total = start
        for step in result.steps:
            total += step.contribution
            assert step.running == pytest.approx(total, abs=1e-12, rel=1e-12), family
        if family != "IDCG":  # IDCG walks the ideal list, not the ranking
            n = len(ranking) if k is None else min(k, len(ranking))
            if family == "relstring" and k is None:  # trec_eval's relstring shows the first 10 by default
                n = min(n, 10)
            assert [s.doc_id for s in result.steps] == ranking[:n], family


@SETTINGS
@given(query=ANY_QUERY, k=OPTIONAL_K, gain=st.sampled_from(["linear", "exp"]), padding=st.integers(0, 3))
def test_ideal_order_gives_ndcg_one(query, k, gain, padding):
    _, qrels = query
    conv = Conventions(gain=gain)
    best = ideal_ranking([], qrels, conventions=conv) + [f"pad{i}" for i in range(padding)]
    expected = 1.0 if any(g > 0 for g in qrels.values()) else 0.0
    assert ndcg(best, qrels, k, conventions=conv).value == pytest.approx(expected, abs=1e-12)


@SETTINGS
@given(query=ANY_QUERY, k=cutoffs(), level=thresholds(), data=st.data())
def test_shuffling_non_relevant_docs_among_themselves_changes_nothing_binary(query, k, level, data):
    ranking, qrels = query
    conv = Conventions(threshold=level)
    keep = set(relevant_positions(ranking, qrels, level))
    others = [d for i, d in enumerate(ranking) if i not in keep]
    shuffled = iter(data.draw(st.permutations(others)))
    moved = [d if i in keep else next(shuffled) for i, d in enumerate(ranking)]
    for metric in (average_precision, reciprocal_rank, precision, recall, capped_recall, hit_rate, f1):
        for cut in (k, None):
            assert (
                metric(moved, qrels, cut, conventions=conv).value == metric(ranking, qrels, cut, conventions=conv).value
            )


@SETTINGS
@given(query=ANY_QUERY, k=OPTIONAL_K, data=st.data())
def test_swapping_a_better_doc_upwards_never_lowers_ap_rr_ndcg(query, k, data):
    ranking, qrels = query
    assume_pairs = [
        (i, j)
        for i in range(len(ranking))
        for j in range(i + 1, len(ranking))
        if qrels.get(ranking[j], 0) > qrels.get(ranking[i], 0)
    ]
    if not assume_pairs:
        ranking = [*ranking, "better"]
        qrels = qrels | {"better": 5}
        assume_pairs = [(0, len(ranking) - 1)] if len(ranking) > 1 else []
    assume(assume_pairs)
    i, j = data.draw(st.sampled_from(assume_pairs))
    swapped = list(ranking)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    for conv in (Conventions(), Conventions(gain="exp")):
        before, after = ndcg(ranking, qrels, k, conventions=conv).value, ndcg(swapped, qrels, k, conventions=conv).value
        assert after >= before - 1e-12
    # binary view: the doc moving up is relevant whenever the one moving down is
    assert average_precision(swapped, qrels, k).value >= average_precision(ranking, qrels, k).value - 1e-12
    assert reciprocal_rank(swapped, qrels, k).value >= reciprocal_rank(ranking, qrels, k).value


@SETTINGS
@given(
    scores=st.dictionaries(st.text("abcdD019", min_size=1, max_size=3), st.integers(-1000, 1000), max_size=12),
    shift=st.integers(-(10**6), 10**6),
)
def test_rank_by_score_is_unchanged_by_adding_a_constant(scores, shift):
    # integers below 2^24 are exact in float32 and float64, so the shift cannot merge or split ties
    as_float = {d: float(s) for d, s in scores.items()}
    shifted = {d: float(s + shift) for d, s in scores.items()}
    scaled = {d: float(s) * 4 for d, s in scores.items()}
    assert rank_by_score(shifted) == rank_by_score(as_float) == rank_by_score(scaled)


@SETTINGS
@given(
    scores=st.dictionaries(st.text("abcdD019", min_size=1, max_size=3), st.integers(-5, 5), max_size=12), data=st.data()
)
def test_rank_by_score_sorts_by_score_then_docno_descending_whatever_the_insertion_order(scores, data):
    items = data.draw(st.permutations(list(scores.items())))
    order = rank_by_score({d: float(s) for d, s in items})
    assert order == rank_by_score({d: float(s) for d, s in scores.items()})
    keys = [(scores[d], d) for d in order]
    assert keys == sorted(keys, reverse=True)


@SETTINGS
@given(query=ANY_QUERY, k=OPTIONAL_K, factor=st.integers(1, 5))
def test_linear_ndcg_is_invariant_to_scaling_grades(query, k, factor):
    ranking, qrels = query
    scaled = {d: g * factor for d, g in qrels.items()}
    assert ndcg(ranking, scaled, k).value == pytest.approx(ndcg(ranking, qrels, k).value, abs=1e-12)


@SETTINGS
@given(query=ANY_QUERY, k=cutoffs(), level=thresholds())
def test_set_metric_relations(query, k, level):
    ranking, qrels = query
    conv = Conventions(threshold=level)
    hits = sum(qrels.get(d, 0) >= level for d in ranking[:k])
    R = sum(g >= level for g in qrels.values())
    p = precision(ranking, qrels, k, conventions=conv).value
    r = recall(ranking, qrels, k, conventions=conv).value
    assert p * k == pytest.approx(hits)
    assert r * R == pytest.approx(hits)
    assert capped_recall(ranking, qrels, k, conventions=conv).value >= r
    assert hit_rate(ranking, qrels, k, conventions=conv).value == float(
        reciprocal_rank(ranking, qrels, k, conventions=conv).value > 0
    )
    f = f1(ranking, qrels, k, conventions=conv).value
    assert min(p, r) - 1e-12 <= f <= max(p, r) + 1e-12
    assert (
        average_precision(ranking, qrels, k, conventions=conv).value
        <= average_precision(ranking, qrels, conventions=conv).value + 1e-12
    )
    retrieved = dataclasses.replace(conv, ap_denominator="retrieved")
    assert (
        average_precision(ranking, qrels, k, conventions=retrieved).value
        >= average_precision(ranking, qrels, k, conventions=conv).value - 1e-12
    )
    assert ndcg(ranking, qrels, k, conventions=Conventions(idcg="retrieved")).value >= ndcg(ranking, qrels, k).value


@SETTINGS
@given(query=ANY_QUERY, level=thresholds(2))
def test_cutoff_monotonicity(query, level):
    ranking, qrels = query
    conv = Conventions(threshold=level)
    for metric in (recall, hit_rate, average_precision, reciprocal_rank, dcg, idcg):
        values = [metric(ranking, qrels, k, conventions=conv).value for k in range(1, len(ranking) + 3)]
        assert values == sorted(values), metric.__name__
    # a higher threshold makes fewer docs relevant
    strict = Conventions(threshold=level + 1)
    for metric in (precision, hit_rate, reciprocal_rank):
        assert metric(ranking, qrels, 3, conventions=strict).value <= metric(ranking, qrels, 3, conventions=conv).value


@SETTINGS
@given(query=queries(min_ranked=1, min_grade=-3, trec_safe=False), conv=CONVENTIONS)
def test_k_none_equals_k_list_length_except_ideal_dcg(query, conv):
    ranking, qrels = query
    n = len(ranking)
    for family in ("P", "R", "R_cap", "HitRate", "F1", "RR", "AP", "DCG"):
        metric = FUNCTIONS[family]
        assert metric(ranking, qrels, conventions=conv).value == metric(ranking, qrels, n, conventions=conv).value
    # k=None keeps the whole ideal list (trec ndcg), k=n only its top n
    m = max(n, len(ideal_ranking(ranking, qrels, conventions=conv)))
    assert idcg(ranking, qrels, conventions=conv).value == idcg(ranking, qrels, m, conventions=conv).value
    assert idcg(ranking, qrels, conventions=conv).value >= idcg(ranking, qrels, n, conventions=conv).value
    assert ndcg(ranking, qrels, conventions=conv).value == ndcg(ranking, qrels, m, conventions=conv).value
    assert ndcg(ranking, qrels, conventions=conv).value <= ndcg(ranking, qrels, n, conventions=conv).value + 1e-12


@SETTINGS
@given(query=ANY_QUERY, extra=st.integers(1, 20), conv=CONVENTIONS)
def test_k_beyond_the_list(query, extra, conv):
    ranking, qrels = query
    n = len(ranking)
    k = n + extra
    for family in ("R", "HitRate", "RR", "AP", "DCG"):
        metric = FUNCTIONS[family]
        assert metric(ranking, qrels, k, conventions=conv).value == metric(ranking, qrels, conventions=conv).value
    if n:
        p_k = precision(ranking, qrels, k, conventions=conv).value
        assert p_k * k == pytest.approx(precision(ranking, qrels, conventions=conv).value * n)


@SETTINGS
@given(query=binary_queries())
def test_binary_grades_make_exponential_and_linear_gain_agree(query):
    ranking, qrels = query
    for k in (1, 3, None):
        assert ndcg(ranking, qrels, k, conventions=Conventions(gain="exp")).value == ndcg(ranking, qrels, k).value


# trec_eval's infAP and relstring tell "in the pool, not judged" (a negative grade) from "not in the pool" (no qrels
# line); ir_measures' Judged counts any qrels line as judged.
POOL_AWARE = {"infAP", "relstring", "Judged"}


@SETTINGS
@given(query=ANY_QUERY, k=OPTIONAL_K, conv=CONVENTIONS)
def test_negative_grades_act_like_unjudged_docs(query, k, conv):
    ranking, qrels = query
    cleaned = {d: g for d, g in qrels.items() if g >= 0}
    for family, metric in FUNCTIONS.items():
        if family in POOL_AWARE:
            continue
        value = metric(ranking, qrels, k, conventions=conv).value
        if undefined(family, value, qrels, conv):
            assert math.isnan(metric(ranking, cleaned, k, conventions=conv).value), family
            continue
        assert value == metric(ranking, cleaned, k, conventions=conv).value, family


@SETTINGS
@given(data=runs(min_grade=-3, trec_safe=False), name=st.sampled_from(["P@3", "R@5", "RR", "AP", "NDCG@3", "F1@2"]))
def test_complete_mean_is_at_most_the_plain_mean_and_adds_only_zeros(data, name):
    run, qrels = data
    metric = parse_measure(name).compute
    plain = mean_over_queries(metric, run, qrels)
    complete = mean_over_queries(metric, run, qrels, complete=True)
    assert complete.mean <= plain.mean + 1e-12
    assert set(plain.per_query) <= set(complete.per_query)
    assert {q: complete.per_query[q] for q in plain.per_query} == plain.per_query
    assert all(complete.per_query[q] == 0.0 for q in plain.qrels_only)
    assert set(complete.per_query) - set(plain.per_query) == set(plain.qrels_only)


@SETTINGS
@given(data=runs(min_grade=-3, trec_safe=False), seed=st.randoms(use_true_random=False))
def test_mean_does_not_depend_on_query_order(data, seed):
    run, qrels = data
    items = list(run.items())
    seed.shuffle(items)
    metric = parse_measure("AP").compute
    assert mean_over_queries(metric, dict(items), qrels).mean == mean_over_queries(metric, run, qrels).mean

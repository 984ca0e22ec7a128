"""RBP's per-rank weights and ERR's cascade (metrics.families.rbp.rbp_weights, metrics.families.err.err_cascade), which
the User models lesson draws: arithmetic written out by hand, and the cascade summing to ERR@k as ir_measures' gdeval
computes it."""

from __future__ import annotations

import ir_measures
import pytest

from metrics.families.err import err_cascade, expected_reciprocal_rank
from metrics.families.rbp import rbp_weights

TOL = 1e-12


def test_rbp_weights_are_one_minus_p_times_p_to_the_rank_minus_one_and_the_tail_is_p_to_the_n():
    weights, tail = rbp_weights(4, 0.8)
    assert weights == pytest.approx([0.2, 0.2 * 0.8, 0.2 * 0.64, 0.2 * 0.512], abs=TOL)
    assert tail == pytest.approx(0.8**4, abs=TOL)
    assert sum(weights) + tail == pytest.approx(1.0, abs=TOL)
    assert rbp_weights(0, 0.9) == ([], 1.0)  # nothing retrieved: everything is beyond the list


def test_err_cascade_by_hand():
    ranking, qrels = ["a", "x", "b", "c"], {"a": 3, "b": 1, "c": 4, "n": 0}
    steps = err_cascade(ranking, qrels)
    r_a, r_b, r_c = 7 / 16, 1 / 16, 15 / 16
    assert [s.stop for s in steps] == [r_a, 0.0, r_b, r_c]
    reach = [1.0, 1 - r_a, 1 - r_a, (1 - r_a) * (1 - r_b)]
    assert [s.reach for s in steps] == pytest.approx(reach, abs=TOL)
    assert [s.contribution for s in steps] == pytest.approx(
        [r_a, 0.0, (1 - r_a) * r_b / 3, (1 - r_a) * (1 - r_b) * r_c / 4], abs=TOL
    )
    assert [s.rank for s in err_cascade(ranking, qrels, k=2)] == [1, 2]


def test_err_cascade_sums_to_gdeval_err():
    ranking, qrels = ["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
    measure = ir_measures.parse_measure("ERR@5")
    qrel_rows = [ir_measures.Qrel("1", d, g) for d, g in qrels.items()]
    run_rows = [ir_measures.ScoredDoc("1", d, 10.0 - i) for i, d in enumerate(ranking)]
    [expected] = ir_measures.gdeval.iter_calc([measure], qrel_rows, run_rows)
    total = sum(s.contribution for s in err_cascade(ranking, qrels, 5))
    assert total == pytest.approx(expected.value, abs=5e-6)  # gdeval prints 5 decimals
    assert total == expected_reciprocal_rank(ranking, qrels, 5).value

"""The explanation of two tools' difference (metrics.tools.explain): Shapley parts that sum to the difference, per query
too, whatever the run; the means equal each profile's own number; the CLI's text and JSON, and its bad input.

Expected numbers in the worked example are arithmetic written out by hand (also in the README, as a doctest)."""

from __future__ import annotations

import contextlib
import io
import json
import math
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.cli.ir_metrics_explain import main
from metrics.tools.explain import explain, shapley
from metrics.tools.profiles import TOOLS, profile
from metrics.tools.settings import Setting, score
from tests.strategies import runs

FAMILIES = {"NDCG": ("NDCG@3", "NDCG@10"), "AP": ("AP",), "P": ("P@5",), "R": ("R@5",), "RR": ("RR",)}


def pairs() -> list[tuple[str, str, str]]:
    """(measure, first tool, second tool) for every two tools with a reproducible profile that fits the measure."""
    found = []
    for family, measures in FAMILIES.items():
        for measure in measures:
            has_cut = "@" in measure
            usable = [
                t.key
                for t in TOOLS
                for p in t.profiles
                if p.measure == family
                and p.reproducible
                and not (has_cut and p.cutoff == "none")
                and not (not has_cut and p.cutoff == "required")
            ]
            found += [(measure, a, b) for a, b in permutations(usable, 2)]
    return found


PAIRS = pairs()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs(trec_safe=False, max_grade=3), st.sampled_from(PAIRS))
def test_parts_sum_to_the_difference_and_means_are_the_profiles(data, pair):
    run, qrels = data
    measure, first, second = pair
    found = explain(run, qrels, measure, first, second)
    family = measure.split("@")[0]
    for side, key in enumerate((first, second)):
        assert found.means[side] == score(run, qrels, measure, profile(key, family).setting).mean
    assert math.isclose(math.fsum(found.attribution.values()), found.difference, rel_tol=0, abs_tol=1e-12)
    for i in range(len(found.queries)):
        parts = math.fsum(float(p[i]) for p in found.query_attribution.values())
        assert math.isclose(parts, float(found.query_difference[i]), rel_tol=0, abs_tol=1e-12)
    assert set(found.attribution) == set(found.switches)


def test_shapley_by_hand_and_independent_of_the_players_order():
    """v(∅) = 0, v(a) = 1, v(b) = 2, v(ab) = 6: a gets (1 + (6 - 2)) / 2 = 2.5, b gets (2 + (6 - 1)) / 2 = 3.5."""
    table = {frozenset(): 0.0, frozenset("a"): 1.0, frozenset("b"): 2.0, frozenset("ab"): 6.0}
    assert shapley(["a", "b"], table.__getitem__) == {"a": 2.5, "b": 3.5}
    assert shapley(["b", "a"], table.__getitem__) == {"b": 3.5, "a": 2.5}
    three = {frozenset(s): float(len(s) ** 2) for n in range(4) for s in permutations("xyz", n)}
    assert all(math.isclose(v, 3.0) for v in shapley(["x", "y", "z"], three.__getitem__).values())


# The README's worked example, by hand. Two queries; run: q1 = [a, b, c], q2 = [d, e]; qrels: q1 {c: 2, z: 3},
# q2 {e: 1}, q3 {y: 1} (q3 missing from the run).
#   trec_eval NDCG@10: q1 DCG = 2/log2(4) = 1, IDCG = 3 + 2/log2(3) = 4.26186 -> 0.23464; q2 = (1/log2 3) / 1 = 0.63093;
#     mean over q1, q2 = 0.43279.
#   LightGBM ndcg@10: gain 2^g - 1, ideal from the retrieved list, every query of the run, no relevant -> 1:
#     q1 DCG = 3/2 = 1.5, IDCG = 3 -> 0.5; q2 = 0.63093; mean 0.56546 (q3 is not in the run: not averaged).
RUN = b"q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 d 1 2 t\nq2 Q0 e 2 1 t\n"
QRELS = b"q1 0 c 2\nq1 0 z 3\nq2 0 e 1\nq3 0 y 1\n"


def cli(tmp_path, *args: str) -> tuple[int, str, str]:
    (tmp_path / "run.txt").write_bytes(RUN)
    (tmp_path / "qrels.txt").write_bytes(QRELS)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), *args])
    return status, out.getvalue(), err.getvalue()


def test_cli_json_worked_example(tmp_path):
    status, out, err = cli(tmp_path, "--measure", "NDCG@10", "--tools", "trec_eval,lightgbm", "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    trec = (2 / math.log2(4)) / (3 + 2 / math.log2(3))
    q2 = 1 / math.log2(3)
    assert doc["tools"] == {"trec_eval": pytest.approx((trec + q2) / 2, abs=1e-12),
                            "lightgbm": pytest.approx((0.5 + q2) / 2, abs=1e-12)}  # fmt: skip
    assert doc["difference"] == pytest.approx((0.5 - trec) / 2, abs=1e-12)
    assert set(doc["attribution"]) == {"gain", "idcg", "queries", "no_relevant"}
    assert math.isclose(math.fsum(doc["attribution"].values()), doc["difference"], abs_tol=1e-12)
    assert doc["attribution"]["no_relevant"] == 0.0 and doc["attribution"]["queries"] == 0.0  # nothing to change
    # q1 alone moves: exp gain on the retrieved ideal is 1.5 / 3; linear on it 1 / 2: the same 0.5, so the whole
    # move is the ideal ranking's when the gain is linear, and a mix when it is exp: Shapley averages both orders.
    # gain: ((exp, all) - (linear, all) + (exp, ret) - (linear, ret)) / 2 on q1:
    exp_all = (3 / 2) / (7 + 3 / math.log2(3))
    part_gain = ((exp_all - trec) + (0.5 - 0.5)) / 2
    assert doc["queries"]["q1"]["attribution"]["gain"] == pytest.approx(part_gain, abs=1e-12)
    assert doc["attribution"]["gain"] == pytest.approx(part_gain / 2, abs=1e-12)
    assert doc["queries"]["q1"]["values"] == {"trec_eval": pytest.approx(trec), "lightgbm": pytest.approx(0.5)}
    assert next(iter(doc["queries"])) == "q1"  # the query that moves most comes first
    assert doc["sentence"].startswith("LightGBM gives 0.1327 more than trec_eval 10.0 on NDCG@10 (0.5655 vs 0.4328)")


def test_cli_text_heads_with_the_sentence_and_lists_the_parts(tmp_path):
    status, out, err = cli(tmp_path, "--measure", "NDCG@10", "--tools", "trec_eval,sklearn")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == (
        "scikit-learn gives 0.1327 more than trec_eval 10.0 on NDCG@10 (0.5655 vs 0.4328): all of it comes from "
        "building the ideal ranking from the retrieved list."
    )
    assert any(line.split()[:4] == ["idcg", "all", "->", "retrieved"] and line.endswith("+0.1327") for line in lines)
    assert any(line.startswith("  q1\t0.2346\t0.5000\t+0.2654") for line in lines)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tools", "trec_eval"], "--tools takes two tools separated by a comma"),
        (["--tools", "trec_eval,nope"], "unknown tool 'nope'; known: trec_eval"),
        (["--tools", "trec_eval,sklearn", "--measure", "P@5"], "scikit-learn has no P measure here"),
        (["--tools", "trec_eval,sklearn", "--measure", "AP@5"], "takes no cutoff"),
        (["--tools", "trec_eval,lightgbm", "--measure", "AP@5"], "is not reproducible here"),
        (["--tools", "trec_eval,sklearn", "--measure", "abc"], "unknown measure 'abc'"),
        (["--tools", "trec_eval,sklearn", "--measure", "NDCG@0"], "cutoff"),
        (["--tools", "trec_eval,sklearn", "--format", "xml"], "invalid choice"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(tmp_path, args, message):
    status, out, err = cli(tmp_path, *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_cli_bad_file_names_file_and_line(tmp_path):
    (tmp_path / "bad.txt").write_bytes(b"q1 0 d1 abc\n")
    (tmp_path / "run.txt").write_bytes(RUN)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main([str(tmp_path / "bad.txt"), str(tmp_path / "run.txt"), "--tools", "trec_eval,sklearn"])
    assert status == 2 and "bad.txt" in err.getvalue() and "line 1" in err.getvalue()


# Worked by hand: q1 retrieves a, b with b relevant (R = 1); q2's only judgment is grade 0 (R = 0); q3's relevant
# document z is never retrieved (R = 1, none retrieved). A query whose denominator (Family.normaliser) is 0 scores
# 1 under no_relevant="one".
_RUN = {"q1": ["a", "b"], "q2": ["c"], "q3": ["d", "e"]}
_QRELS = {"q1": {"b": 1}, "q2": {"c": 0}, "q3": {"z": 1}}
_LOG2_3 = 1 / math.log2(3)


@pytest.mark.parametrize(
    ("measure", "ap_denominator", "expected"),
    [
        ("NDCG@10", "all", [_LOG2_3, 1.0, 0.0]),  # IDCG@10: q2's is 0
        ("AP", "all", [0.5, 1.0, 0.0]),  # R: q2's is 0
        ("AP", "retrieved", [0.5, 1.0, 1.0]),  # relevant retrieved: q2's and q3's are 0
        ("AP@1", "retrieved", [1.0, 1.0, 1.0]),  # relevant retrieved in the top 1: none anywhere
        ("AP@1", "all", [0.0, 1.0, 0.0]),
        ("R@1", "all", [0.0, 1.0, 0.0]),
    ],
)
def test_no_relevant_one_scores_1_where_the_familys_denominator_is_0(measure, ap_denominator, expected):
    setting = Setting(ap_denominator=ap_denominator, queries="run", no_relevant="one")
    scored = score(_RUN, _QRELS, measure, setting)
    assert scored.queries == ("q1", "q2", "q3")
    assert scored.values.tolist() == pytest.approx(expected, abs=1e-12)


def test_no_relevant_one_is_refused_for_a_family_without_a_denominator():
    with pytest.raises(ValueError, match=r"no_relevant='one' is defined for R, AP, NDCG, not P"):
        score(_RUN, _QRELS, "P@1", Setting(no_relevant="one"))

"""The N-run leaderboard (metrics.compare.leaderboard) and its CLI (ir-metrics-compare).

Expected values: the single-run CLI's means (trec_eval-checked elsewhere), scipy's ttest_rel, ranx's Fisher
randomization test (recorded by scripts/make_ranx_reference.py, whose sample runs and measures these are) and scipy's
permutation_test on the same data, and p-value corrections written out by hand.
"""

from __future__ import annotations

import contextlib
import io
import json
from itertools import combinations

import numpy as np
import pytest
from scipy import stats

from metrics.cli.ir_metrics import main as single_run_cli
from metrics.cli.ir_metrics_compare import main as leaderboard_cli
from metrics.compare.leaderboard import (
    Leaderboard,
    correct,
    evaluate_runs,
    from_evaluations,
    from_values,
    judge,
    query_order,
    run_name,
    unique_names,
    win_tie_loss,
)
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels
from scripts.make_ranx_reference import MEASURES, N_PERMUTATIONS, OUT, QRELS, RUNS, digest


def run_cli(main, argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def evaluations():
    return evaluate_runs(list(RUNS.items()), QRELS, MEASURES)


# --- means ---


def test_means_equal_the_single_run_cli_for_every_run():
    status, out, _ = run_cli(leaderboard_cli, [QRELS, *RUNS.values(), "-m", ",".join(MEASURES), "--format", "json"])
    assert status == 0
    board = json.loads(out)
    assert [r["run"] for r in board["runs"]] == list(RUNS) and [r["letter"] for r in board["runs"]] == ["a", "b", "c"]
    for row in board["runs"]:
        status, single, _ = run_cli(
            single_run_cli, [QRELS, RUNS[row["run"]], "--format", "json", "-m", ",".join(MEASURES)]
        )
        assert status == 0
        assert row["means"] == json.loads(single)["all"]  # the same numbers, to the last bit


def test_progress_is_printed_while_runs_are_read():
    status, _, err = run_cli(leaderboard_cli, [QRELS, RUNS["dense"], RUNS["bm25"]])
    assert status == 0
    assert "reading run 1/2: dense ..." in err and "reading run 2/2: bm25 ..." in err and "2 runs evaluated" in err
    seen = []
    evaluate_runs(list(RUNS.items()), QRELS, ["AP"], progress=lambda i, n, name: seen.append((i, n, name)))
    assert seen == [(0, 3, "dense"), (1, 3, "rrf"), (2, 3, "bm25"), (3, 3, "")]


def test_runs_are_read_one_at_a_time_keeping_only_per_query_values(monkeypatch):
    """Each parsed run is released before the next is read: at most one is alive at any time."""
    import gc
    import weakref

    import metrics.io

    alive: list[weakref.ref] = []
    real = metrics.io.read_run

    def tracked(source, *args, **kwargs):
        gc.collect()
        assert sum(ref() is not None for ref in alive) == 0, "the previous run is still in memory"
        run = real(source, *args, **kwargs)
        alive.append(weakref.ref(run))
        return run

    monkeypatch.setattr(metrics.io, "read_run", tracked)
    result = evaluate_runs(list(RUNS.items()), QRELS, ["AP"])
    assert len(alive) == 3 and list(result) == list(RUNS)


# --- the tests per pair ---


def test_t_test_p_values_equal_scipys(evaluations):
    board = from_evaluations(evaluations, test="t-test", correction="none")
    for m in MEASURES:
        for a, b in combinations(RUNS, 2):
            expected = stats.ttest_rel(board.per_query[m][b], board.per_query[m][a]).pvalue
            assert board.pair(m, a, b).p_value == pytest.approx(expected, rel=1e-9, abs=1e-300)


def close_pairs(board: Leaderboard) -> list[tuple[str, str, str]]:
    """Pairs whose p-value is neither tiny nor 1: where two Monte Carlo estimates can be compared."""
    return [(p.measure, p.a, p.b) for p in board.pairs if 0.01 < p.p_value < 0.9]


def test_randomization_is_reproducible_with_a_seed(evaluations):
    first = from_evaluations(evaluations, test="randomization", n_permutations=2_000, seed=7)
    again = from_evaluations(evaluations, test="randomization", n_permutations=2_000, seed=7)
    other = from_evaluations(evaluations, test="randomization", n_permutations=2_000, seed=8)
    assert [p.p_value for p in first.pairs] == [p.p_value for p in again.pairs]
    pairs = close_pairs(first)
    assert pairs, "the samples should have pairs with a moderate p-value"
    assert any(first.pair(*key).p_value != other.pair(*key).p_value for key in pairs)


# Two Monte Carlo estimates of the same p (10,000 permutations each) differ by at most sqrt(2 * 0.25 / 10,000)
# = 0.0071 in standard error; 0.025 is 3.5 of those.
TOLERANCE = 0.025


def test_randomization_is_close_to_ranx_fisher_randomization(evaluations):
    """ranx's p-values, recorded with a digest of the per-query values each came from (its kernel costs about 14 s
    of CPU to compile or to run uncompiled)."""
    recorded = {(r["measure"], r["a"], r["b"]): r for r in json.loads(OUT.read_text())["pairs"]}
    board = from_evaluations(evaluations, test="randomization", n_permutations=N_PERMUTATIONS)
    pairs = close_pairs(board)
    assert len(pairs) >= 2
    for m, a, b in pairs:
        ranx_run = recorded[m, a, b]
        x, y = board.per_query[m][a], board.per_query[m][b]
        assert digest(x, y) == ranx_run["inputs"], f"{m} {a} {b}: rerun scripts/make_ranx_reference.py"
        assert board.pair(m, a, b).p_value == pytest.approx(ranx_run["p_value"], abs=TOLERANCE), (m, a, b)


def test_randomization_is_close_to_scipys_permutation_test(evaluations):
    board = from_evaluations(evaluations, test="randomization", n_permutations=N_PERMUTATIONS)
    for m, a, b in close_pairs(board):
        x, y = board.per_query[m][a], board.per_query[m][b]
        expected = stats.permutation_test(
            (y, x),
            lambda u, v, axis: np.mean(u - v, axis=axis),
            permutation_type="samples",
            n_resamples=N_PERMUTATIONS,
            random_state=1,
        ).pvalue
        assert board.pair(m, a, b).p_value == pytest.approx(expected, abs=TOLERANCE), (m, a, b)


# --- corrections, by hand ---


def test_holm_by_hand():
    # sorted: 0.01 (x4) = 0.04, 0.02 (x3) = 0.06, 0.03 (x2) = 0.06, 0.04 (x1) = 0.04 -> kept at 0.06 (monotone)
    assert correct([0.03, 0.01, 0.04, 0.02], "holm") == pytest.approx([0.06, 0.04, 0.06, 0.06])
    assert correct([0.5, 0.6], "holm") == pytest.approx([1.0, 1.0])  # 0.5 x 2 = 1.0; 0.6 x 1 kept at 1.0


def test_bonferroni_by_hand():
    assert correct([0.03, 0.01, 0.04, 0.02], "bonferroni") == pytest.approx([0.12, 0.04, 0.16, 0.08])
    assert correct([0.3, 0.001], "bonferroni") == pytest.approx([0.6, 0.002])
    assert correct([0.4, 0.9], "bonferroni") == [0.8, 1.0]  # capped at 1
    assert correct([0.03, 0.2], "none") == [0.03, 0.2]


# --- letters ---

MEANS = {"a": 0.6, "b": 0.5, "c": 0.4}
P_VALUES = {("a", "b"): 0.001, ("a", "c"): 0.02, ("b", "c"): 0.01}


def board_from(pairs, means=MEANS) -> Leaderboard:
    runs = tuple(means)
    return Leaderboard(runs, ("AP",), ("q1",), {"AP": dict(means)}, {}, tuple(pairs), "t-test", "bonferroni", 0.05,
                       0, 0)  # fmt: skip


def test_letters_when_a_vs_c_is_not_significant_after_correction():
    """Bonferroni over 3 pairs: a-b 0.003 and b-c 0.03 stay under 0.05, a-c 0.06 does not (raw 0.02 did)."""
    pairs = judge("AP", MEANS, P_VALUES, "bonferroni", 0.05)
    assert [round(p.adjusted, 12) for p in pairs] == [0.003, 0.06, 0.03]
    board = board_from(pairs)
    assert board.beats("AP", "a") == ["b"] and board.beats("AP", "b") == ["c"] and board.beats("AP", "c") == []
    assert [board.cell("AP", r) for r in "abc"] == ["0.6000ᵇ", "0.5000ᶜ", "0.4000"]
    assert board.best("AP") == ["a"]
    # Holm: 0.001 x 3 = 0.003, 0.01 x 2 = 0.02, 0.02 x 1 = 0.02: all three significant, so a beats b and c.
    holm = board_from(judge("AP", MEANS, P_VALUES, "holm", 0.05))
    assert holm.beats("AP", "a") == ["b", "c"] and holm.beats("AP", "b") == ["c"]


def test_letters_on_per_query_values_where_a_beats_b_and_c_and_b_beats_c():
    rng = np.random.default_rng(0)
    c = rng.uniform(0.2, 0.4, 60)
    b = c + 0.1 + rng.normal(0, 0.02, 60)
    a = b + 0.1 + rng.normal(0, 0.02, 60)
    board = from_values(["a", "b", "c"], [f"q{i}" for i in range(60)], {"AP": {"a": a, "b": b, "c": c}})
    assert [board.cell("AP", r) for r in "abc"] == [f"{a.mean():.4f}ᵇᶜ", f"{b.mean():.4f}ᶜ", f"{c.mean():.4f}"]
    flipped = from_values(["c", "b", "a"], [f"q{i}" for i in range(60)], {"AP": {"a": a, "b": b, "c": c}})
    assert flipped.beats("AP", "a") == ["c", "b"]  # letters follow the order the runs were given: c is a, b is b
    assert flipped.cell("AP", "a").endswith("ᵃᵇ")


def test_equal_means_are_never_significant():
    values = np.array([0.1, 0.5, 0.9])
    board = from_values(["x", "y"], ["1", "2", "3"], {"AP": {"x": values, "y": values.copy()}})
    assert board.pairs[0].better is None and not board.pairs[0].significant
    assert board.best("AP") == ["x", "y"]


# --- exports and the CLI ---


@pytest.fixture(scope="module")
def sample_board(evaluations):
    return from_evaluations(evaluations)


def test_samples_leaderboard_marks(sample_board):
    """dense beats rrf and bm25 on NDCG@10; on RR@10 dense vs rrf is not significant (t-test p = 0.22)."""
    assert sample_board.beats("NDCG@10", "dense") == ["rrf", "bm25"]
    assert sample_board.beats("NDCG@10", "rrf") == ["bm25"]
    assert sample_board.beats("RR@10", "dense") == ["bm25"]
    assert sample_board.best("R@100") == ["rrf"] and sample_board.best("NDCG@10") == ["dense"]


def test_latex_is_a_booktabs_table_with_the_marks(sample_board):
    latex = sample_board.to_latex()
    assert "\\toprule" in latex and "\\midrule" in latex and "\\bottomrule" in latex
    dense = sample_board.means["NDCG@10"]["dense"]
    assert f"\\textbf{{{dense:.4f}}}$^{{bc}}$" in latex
    assert "Holm-corrected over the 3 pairs of runs" in latex and "p $\\leq$ 0.05" in latex


def test_markdown_and_csv(sample_board):
    md = sample_board.to_markdown().splitlines()
    assert md[0] == "| | run | NDCG@10 | AP | RR@10 | P@10 | R@100 |"
    assert md[2].startswith(f"| a | dense | **{sample_board.means['NDCG@10']['dense']:.4f}**<sup>b,c</sup> |")
    rows = list(__import__("csv").DictReader(io.StringIO(sample_board.to_csv())))
    assert [r["run"] for r in rows] == ["dense", "rrf", "bm25"]
    assert rows[0]["NDCG@10 beats"] == "b c" and rows[0]["NDCG@10 best"] == "yes" and rows[2]["NDCG@10 beats"] == ""


def test_run_names_are_escaped_in_exports():
    values = {"AP": {"a_b & 100%": np.array([0.5, 0.6]), "x|y*": np.array([0.1, 0.2])}}
    board = from_values(list(values["AP"]), ["1", "2"], values)
    assert "a\\_b \\& 100\\%" in board.to_latex()
    assert "x\\|y\\*" in board.to_markdown()


def test_cli_formats_and_errors(tmp_path):
    status, text, _ = run_cli(leaderboard_cli, [QRELS, RUNS["dense"], RUNS["bm25"], "--quiet", "-m", "AP"])
    assert status == 0 and text.splitlines()[0].split() == ["run", "AP"]
    status, out, _ = run_cli(leaderboard_cli, [QRELS, RUNS["dense"], RUNS["bm25"], "--format", "csv", "--quiet"])
    assert status == 0 and out.startswith("letter,run,NDCG@10,NDCG@10 beats,NDCG@10 best")
    status, _, err = run_cli(leaderboard_cli, [QRELS, RUNS["dense"], "--quiet"])
    assert status == 2 and "at least two runs" in err
    bad = tmp_path / "bad.run"
    bad.write_text("1001 Q0 D1 1 high x\n")
    status, _, err = run_cli(leaderboard_cli, [QRELS, RUNS["dense"], bad, "--quiet"])
    assert status == 2 and err.count("\n") == 1 and "bad.run, line 1" in err
    status, _, err = run_cli(leaderboard_cli, [QRELS, RUNS["dense"], RUNS["bm25"], "-m", "nDCG@x"])
    assert status == 2 and err.startswith("error:")


def test_names_from_files():
    assert run_name("runs/bm25.run.gz") == "bm25" and run_name("x/dense.trec") == "dense"
    assert unique_names(["run", "run", "other", "run"]) == ["run", "run (2)", "other", "run (3)"]


# --- where runs differ ---


def test_query_order_and_win_tie_loss():
    values = {"a": [0.5, 0.25, 1.0, 0.0], "b": [0.5, 1.0, 0.25, 0.5]}
    assert query_order(["q1", "q2", "q3", "q4"], values) == [1, 2, 3, 0]  # ranges 0, 0.75, 0.75, 0.5 (stable)
    assert query_order(["q1", "q2", "q3", "q4"], values, by="mean") == [3, 0, 1, 2]  # 0.5, 0.625, 0.625, 0.25
    assert win_tie_loss(values) == {("a", "b"): (1, 1, 2), ("b", "a"): (2, 1, 1)}


def test_only_queries_in_every_run_are_compared():
    qrels = read_qrels({"q1": {"d1": 1}, "q2": {"d2": 1}})
    both = evaluate({"q1": ["d1"], "q2": ["d2"]}, qrels, ["AP"])
    one = evaluate({"q1": ["d1"]}, qrels, ["AP"])
    board = from_evaluations({"both": both, "one": one})
    assert board.queries == ("q1",) and board.left_out == 1
    assert board.means["AP"] == {"both": 1.0, "one": 1.0}


def test_all_trec_ranks_every_measure_with_a_number():
    """`-m all_trec` is trec_eval's list: runid (the run's tag) and relstring (a string per query) have nothing to
    rank, so they are left out, with a note; the other 130-odd columns come as the single-run CLI spells them."""
    argv = [QRELS, RUNS["dense"], RUNS["bm25"], "-m", "all_trec", "--format", "json"]
    status, out, err = run_cli(leaderboard_cli, argv)
    assert status == 0, err
    assert "left out (a string per query, nothing to rank): relstring" in err
    means = json.loads(out)["runs"][0]["means"]
    assert "map" in means and "ndcg_cut_10" in means and "iprec_at_recall_0.50" in means
    assert "runid" not in means and "relstring" not in means
    status, _, err = run_cli(leaderboard_cli, [QRELS, RUNS["dense"], RUNS["bm25"], "-m", "relstring", "--quiet"])
    assert status == 2 and "no measure with a number to compare" in err

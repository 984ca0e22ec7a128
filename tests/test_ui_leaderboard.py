"""ir_metrics_lab.core.figures.leaderboard: the tables the compare page shows, built from a Leaderboard whose numbers
are written here."""

from __future__ import annotations

import numpy as np
import pytest

from ir_metrics_lab.core.figures import heatmaps, leaderboard
from metrics.compare.leaderboard import from_values
from tests.markdown_text import shown, table_source

VALUES = {"AP": {"base": np.array([0.1, 0.2, 0.3, 0.4]), "new": np.array([0.5, 0.2, 0.6, 0.3])}}


def board():
    return from_values(["base", "new"], ["q1", "q2", "q3", "q4"], VALUES)


def test_table_has_one_row_per_run_with_letters_and_means():
    frame = leaderboard.table(board())
    assert list(frame["run"]) == ["a · base", "b · new"]
    assert list(frame["AP"]) == [f"{(0.1 + 0.2 + 0.3 + 0.4) / 4:.4f}", f"{(0.5 + 0.2 + 0.6 + 0.3) / 4:.4f}"]


def test_best_is_bold_and_shaded_in_its_column_only_and_names_are_escaped():
    frame = leaderboard.markdown_table(board())
    assert list(frame["AP"]) == ["0.2500", "**0.4000**"]  # no significant win on 4 queries: no letters
    cells = table_source(leaderboard.markdown(board()))
    assert cells == [["run", "AP"], ["a · base", "0.2500"], ["b · new", ":blue-background[**0.4000**]"]]
    values = {"NDCG@1*0": {"*x*": np.array([0.1, 0.2]), "<b>y</b>": np.array([0.3, 0.4])}}
    escaped = leaderboard.markdown_table(from_values(["*x*", "<b>y</b>"], ["1", "2"], values))
    assert [shown(cell) for cell in escaped["run"]] == ["a · *x*", "b · <b>y</b>"]  # escaped, read back literally
    assert [shown(column) for column in escaped.columns] == ["run", "NDCG@1*0"]


def test_win_tie_loss_table_and_the_pair_a_click_picks():
    b = board()
    matrix = leaderboard.win_tie_loss_table(b, "AP").set_index("run")
    # new vs base per query: 0.5 > 0.1 win, 0.2 = 0.2 tie, 0.6 > 0.3 win, 0.3 < 0.4 loss
    assert matrix.loc["b · new", "a · base"] == "2 / 1 / 1"
    assert matrix.loc["a · base", "b · new"] == "1 / 1 / 2"
    assert leaderboard.pair_from_cell(b, 1, "a · base") == ("base", "new")  # row = B, column = A
    assert leaderboard.pair_from_cell(b, 0, "a · base") is None  # the diagonal
    assert leaderboard.pair_from_cell(b, 0, "run") is None


def test_heatmap_rows_follow_the_order_and_the_limit():
    queries, values = leaderboard.heatmap_rows(board(), "AP", [2, 0, 1, 3], 2)
    assert queries == ["q3", "q1"] and values == [[0.3, 0.1], [0.6, 0.5]]
    assert leaderboard.on_unit_scale("NDCG@10") and not leaderboard.on_unit_scale("DCG@10")


@pytest.mark.parametrize("measure", ["num_ret", "num_rel_ret", "NumRel", "utility", "DCG@10"])
def test_heatmap_colour_scale_of_an_unbounded_measure_follows_its_values(measure):
    """Counts, utility and DCG are not in [0, 1]: the runs x queries heatmap must not pin their scale to 0-1 (a
    retrieved count of 40 would be the darkest colour, and so would 2)."""
    values = [[2.0, 40.0], [0.0, 12.0]]
    figure = heatmaps.runs_heatmap(["q1", "q2"], ["a", "b"], values, measure, unit=leaderboard.on_unit_scale(measure))
    assert figure.data[0].zmin is None and figure.data[0].zmax is None


@pytest.mark.parametrize("measure", ["NDCG@10", "AP", "P@5", "RBP", "Judged@10"])
def test_heatmap_colour_scale_of_a_normalised_measure_is_fixed_to_0_1(measure):
    figure = heatmaps.runs_heatmap(["q1"], ["a"], [[0.5]], measure, unit=leaderboard.on_unit_scale(measure))
    assert (figure.data[0].zmin, figure.data[0].zmax) == (0.0, 1.0)

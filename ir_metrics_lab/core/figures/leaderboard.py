"""The compare page's leaderboard as a Markdown table: one row per run (its letter and name), one column per measure
whose cell is the mean with its superscript letters (metrics.compare.leaderboard computes them), the best per column
in bold and shaded; and the runs x runs win/tie/loss matrix for st.dataframe. Pure (pandas, no Streamlit)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ir_metrics_lab.core.markdown import plain
from metrics.catalog import registry
from metrics.catalog.measures import parse_measure
from metrics.compare.leaderboard import Leaderboard, win_tie_loss

BEST = ":blue-background[{}]"  # the best value of a column, shaded (Streamlit Markdown)
RUN_COLUMN = "run"


def run_label(board: Leaderboard, run: str) -> str:
    """``a · bm25``: the letter the superscripts use, then the run's name."""
    return f"{board.letters[run]} · {run}"


def table(board: Leaderboard, digits: int = 4) -> pd.DataFrame:
    """One row per run, in the runs' order: ``run`` (letter · name), then each measure's cell, e.g. ``0.5876ᵃᶜ``."""
    rows = [
        {RUN_COLUMN: run_label(board, run), **{m: board.cell(m, run, digits) for m in board.measures}}
        for run in board.runs
    ]
    return pd.DataFrame(rows, columns=[RUN_COLUMN, *board.measures])


def markdown_table(board: Leaderboard, digits: int = 4) -> pd.DataFrame:
    """``table`` with Markdown cells: run and measure names escaped (they come from files and
    typing), the best value of each column in bold."""
    best = {m: set(board.best(m)) for m in board.measures}
    rows = []
    for run in board.runs:
        row = {RUN_COLUMN: plain(run_label(board, run))}
        for m in board.measures:
            value = f"{board.means[m][run]:.{digits}f}"
            letters = board.cell(m, run, digits)[len(value) :]
            row[plain(m)] = (f"**{value}**" if run in best[m] else value) + letters
        rows.append(row)
    return pd.DataFrame(rows, columns=[RUN_COLUMN, *(plain(m) for m in board.measures)])


def markdown(board: Leaderboard, digits: int = 4) -> str:
    """The leaderboard for st.markdown: ``markdown_table``'s cells (names escaped, the best of each column in bold),
    the best also shaded, the numbers aligned right. A Markdown table is drawn by the code the page's text has
    already loaded; st.table waited for about 0.8 MB of Arrow and table code (743 kB of it Arrow formatting), and a new
    visitor's first numbers with it (ir_metrics_lab.shell.first_paint)."""
    frame = markdown_table(board, digits)
    best = {plain(m): {board.runs.index(r) for r in board.best(m)} for m in board.measures}
    lines = ["| " + " | ".join(frame.columns) + " |", "|:--|" + "--:|" * len(board.measures)]
    for row, cells in enumerate(frame.itertuples(index=False, name=None)):
        shaded = [
            BEST.format(cell) if row in best.get(column, ()) else cell
            for column, cell in zip(frame.columns, cells, strict=True)
        ]
        lines.append("| " + " | ".join(shaded) + " |")
    return "\n".join(lines)


def win_tie_loss_table(board: Leaderboard, measure: str) -> pd.DataFrame:
    """Runs x runs for one measure: the cell in row X, column Y reads ``wins / ties / losses`` of X against Y over
    the compared queries; the diagonal is empty."""
    counts = win_tie_loss(board.per_query[measure])
    labels = {run: run_label(board, run) for run in board.runs}
    rows = []
    for x in board.runs:
        row = {RUN_COLUMN: labels[x]}
        for y in board.runs:
            row[labels[y]] = "" if x == y else "{} / {} / {}".format(*counts[(x, y)])
        rows.append(row)
    return pd.DataFrame(rows, columns=[RUN_COLUMN, *labels.values()])


def pair_from_cell(board: Leaderboard, row: int, column: str) -> tuple[str, str] | None:
    """The pair (A, B) a click on the win/tie/loss matrix asks for: A is the column's run, B the row's (the row reads
    "B against A"); None for the diagonal or the name column."""
    labels = {run_label(board, run): run for run in board.runs}
    if column not in labels or not 0 <= row < len(board.runs):
        return None
    a, b = labels[column], board.runs[row]
    return None if a == b else (a, b)


def heatmap_rows(
    board: Leaderboard, measure: str, order: Sequence[int], limit: int
) -> tuple[list[str], list[list[float]]]:
    """The first ``limit`` queries of ``order`` and each run's values on them (rows in the runs' order)."""
    shown = list(order)[:limit]
    queries = [board.queries[i] for i in shown]
    values: Mapping[str, Sequence[float]] = board.per_query[measure]
    return queries, [[float(values[run][i]) for i in shown] for run in board.runs]


def on_unit_scale(measure: str) -> bool:
    """True when the measure's family declares its values in [0, 1] (the registry's value_range), so a colour scale
    can be fixed; DCG, the counts and utility are not."""
    return registry.value_range(parse_measure(measure).family) == (0.0, 1.0)

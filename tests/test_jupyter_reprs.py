"""The library's Jupyter reprs: the HTML tables hold the values (by hand, or ir_measures' for the pandas entry point),
user text is escaped and kept away from MathJax, and the LaTeX is the worked formula the pages draw."""

from __future__ import annotations

import html.parser

import ir_measures
import pandas as pd
import pytest

from metrics import average_precision, mean_over_queries, reciprocal_rank
from metrics.compare.leaderboard import from_values
from metrics.core.tables import NO_MATH
from metrics.evaluation.dataframes import evaluate_frame, qrels_frame, run_frame
from metrics.evaluation.engine import evaluate
from metrics.teaching import formulas
from metrics.tools.explain import explain


class Tables(html.parser.HTMLParser):
    """The cells of every table in an HTML fragment, as text, and the class of each table."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.classes: list[str] = []
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
            self.classes.append(dict(attrs).get("class", ""))
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


HOSTILE_DOC = "<b>$x$</b> & `y`"


def test_a_breakdown_shows_its_per_rank_values_and_the_pages_formula():
    # AP of [rel, non, rel] with R = 2: (1/1 + 2/3) / 2; rank 1 adds 1/2, rank 3 adds (2/3)/2.
    b = average_precision(["a", HOSTILE_DOC, "c"], {"a": 1, "c": 1, HOSTILE_DOC: 0})
    parsed = Tables(b._repr_html_())
    (table,) = parsed.tables
    assert table[0] == ["rank", "doc", "grade", "relevant", "contribution", "running"]
    assert [row[4] for row in table[1:]] == [f"{1 / 2:.4f}", "0.0000", f"{(2 / 3) / 2:.4f}"]
    assert [row[5] for row in table[1:]] == [f"{1 / 2:.4f}", f"{1 / 2:.4f}", f"{(1 + 2 / 3) / 2:.4f}"]
    assert table[2][1] == HOSTILE_DOC  # shown as the text it is
    assert "<b>$x$" not in b._repr_html_() and NO_MATH in parsed.classes[0]
    assert b._repr_latex_() == f"$$\n{formulas.latex(b)}\n$$"  # the string the pages pass to st.latex
    assert f"{(1 + 2 / 3) / 2:.4f}" in b._repr_markdown_() and "\\<b\\>\\$x\\$" in b._repr_markdown_()


def test_a_query_set_result_shows_each_query_and_the_mean():
    result = mean_over_queries(
        reciprocal_rank, {"q1": ["a", "b"], HOSTILE_DOC: ["c"]}, {"q1": {"b": 1}, HOSTILE_DOC: {"c": 1}}
    )
    (table,) = Tables(result._repr_html_()).tables
    assert {row[0]: row[1] for row in table[1:]} == {"q1": "0.5000", HOSTILE_DOC: "1.0000", "mean": "0.7500"}


def test_an_evaluation_shows_per_query_values_and_means():
    found = evaluate({"q1": ["a", "b"], "q2": ["c"]}, {"q1": {"b": 1}, "q2": {"z": 1}}, ["RR", "P@1"])
    (table,) = Tables(found._repr_html_()).tables
    assert table == [
        ["query", "RR", "P@1"],
        ["q1", "0.5000", "0.0000"],
        ["q2", "0.0000", "0.0000"],
        ["all", "0.2500", "0.0000"],
    ]


def test_a_leaderboard_and_an_explanation_show_as_escaped_tables():
    board = from_values([HOSTILE_DOC, "b"], ["q1", "q2"], {"AP": {HOSTILE_DOC: [1.0, 0.5], "b": [0.0, 0.5]}})
    (table,) = Tables(board._repr_html_()).tables
    assert table[1][:3] == ["a", HOSTILE_DOC, f"*{(1.0 + 0.5) / 2:.4f}"] and table[2][2] == f"{(0.0 + 0.5) / 2:.4f}"
    assert "<b>$x$" not in board._repr_html_() and board._repr_markdown_() == board.to_markdown()
    found = explain({"q1": ["a", "b"]}, {"q1": {"b": 2}}, "NDCG@2", "trec_eval", "ranx_burges")
    means = Tables(found._repr_html_()).tables[0]
    assert means[1][1:3] == [f"{found.means[0]:.4f}", f"{found.means[1]:.4f}"]


@pytest.mark.parametrize("aggregate", [False, True])
def test_evaluate_frame_takes_and_returns_ir_measures_frames(aggregate):
    run = pd.DataFrame(
        {"query_id": ["q1", "q1", "q1", "q2", "q2"], "doc_id": ["a", "b", "c", "d", "e"], "score": [3, 2, 1, 2, 1.0]}
    )
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["b", "c", "e"], "relevance": [1, 2, 1]})
    ours = evaluate_frame(run, qrels, ["nDCG@2", "AP", "RR"], aggregate=aggregate)
    measures = [ir_measures.parse_measure(m) for m in ("nDCG@2", "AP", "RR")]
    if aggregate:
        theirs = {str(m): v for m, v in ir_measures.calc_aggregate(measures, qrels, run).items()}
        assert list(ours.columns) == ["measure", "value"]
        assert ours.set_index("measure")["value"].to_dict() == pytest.approx(theirs, abs=1e-12)
    else:
        theirs = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, qrels, run)}
        assert list(ours.columns) == ["query_id", "measure", "value"]
        assert {(r.query_id, r.measure): r.value for r in ours.itertuples()} == pytest.approx(theirs, abs=1e-12)


def test_dict_runs_and_qrels_become_frames_with_the_shared_column_names():
    assert run_frame({"q1": ["a", "b"]}).to_dict("list") == {
        "query_id": ["q1", "q1"],
        "doc_id": ["a", "b"],
        "score": [2.0, 1.0],
    }
    assert qrels_frame({"q1": {"a": 2}}).to_dict("list") == {"query_id": ["q1"], "doc_id": ["a"], "relevance": [2]}

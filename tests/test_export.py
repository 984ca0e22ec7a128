"""ir_metrics_lab.core.exports.export: the worked solution as Markdown (formulas with the user's numbers, escaped user
text) and the numbers as CSV. Expected values by hand and from the golden file (tests/data/golden_public.json,
trec_eval)."""

from __future__ import annotations

import csv
import io
import re
from math import log2

import pytest

from ir_metrics_lab.core.exports import export
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog.measures import FUNCTIONS
from metrics.core.conventions import Conventions
from metrics.teaching.examples import EXAMPLES
from tests.golden import PUBLIC

GOLDEN = {case["id"]: case for case in PUBLIC}
UNCUT = ("RR", "AP")

DCG5 = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6)  # 6.1487
IDCG5 = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)  # ideal order 3, 3, 2, 1: 6.3235


def breakdowns(scn: Scenario) -> dict:
    """As the page computes them (ir_metrics_lab.core.numbers.breakdowns, without importing Streamlit)."""
    return {
        family: fn(list(scn.full_ranking), scn.qrels, None if family in UNCUT else scn.k, conventions=scn.conventions)
        for family, fn in FUNCTIONS.items()
    }


@pytest.fixture
def graded() -> Scenario:
    """The golden case pub-seed001-rel-32301: grades [3, 2, 3, 0, 1] in rank order, k = 5."""
    ranking = ("d1", "d2", "d3", "d4", "d5")
    titles = {"d1": "Install | guide", "d2": "<script>alert(1)</script>", "d3": "*bold* _it_ [x](y) $x$"}
    return Scenario(ranking, (), dict(zip(ranking, (3, 2, 3, 0, 1), strict=True)), titles, k=5)


def test_markdown_has_the_worked_ndcg_with_its_numbers(graded):
    md = export.markdown(graded, breakdowns(graded))
    golden = GOLDEN["pub-seed001-rel-32301"]["expected"]
    assert f"{golden['NDCG@5']['mean']:.4f}" == f"{DCG5 / IDCG5:.4f}" == "0.9724"
    blocks = re.findall(r"\$\$\n(.*?)\n\$\$", md, flags=re.DOTALL)
    ndcg = next(b for b in blocks if r"\mathrm{NDCG@5} &= \frac{\mathrm{DCG@5}}{\mathrm{IDCG@5}}" in b)
    assert r"\frac{6.1487}{6.3235} = 0.9724" in ndcg
    assert f"{DCG5:.4f}" == "6.1487" and f"{IDCG5:.4f}" == "6.3235"
    assert (
        r"\frac{3}{\log_2 2} + \frac{2}{\log_2 3} + \frac{3}{\log_2 4} + \frac{0}{\log_2 5} + \frac{1}{\log_2 6}"
        in ndcg
    )
    assert len(blocks) == len(FUNCTIONS)  # one formula per metric
    assert "| NDCG@5 | 0.9724 |" in md
    assert f"{golden['AP']['mean']:.4f}" == f"{(1 + 1 + 1 + 4 / 5) / 4:.4f}" == "0.9500"
    assert "| AP | 0.9500 |" in md


def test_markdown_table_escapes_user_text(graded):
    md = export.markdown(graded, breakdowns(graded))
    rows = [line for line in md.splitlines() if line.startswith("| ") and " | d" in line]
    assert rows[0] == r"| 1 | d1 | Install \| guide | 3 |"
    assert rows[1] == r"| 2 | d2 | \<script\>alert\(1\)\<\/script\> | 2 |"
    assert rows[2] == r"| 3 | d3 | \*bold\* \_it\_ \[x\]\(y\) \$x\$ | 3 |"
    assert "<script>" not in md.replace("%3Cscript%3E", "")
    for row in rows:  # every row still has exactly four cells
        assert len(re.split(r"(?<!\\)\|", row)) == 6


def test_markdown_lists_the_shelf_the_conventions_and_the_link():
    scn = Scenario(("d1",), ("d9",), {"d1": 3, "d9": 3}, {"d9": "Missed\nline"}, k=1)
    md = export.markdown(scn, breakdowns(scn))
    assert "| not retrieved | d9 | Missed line | 3 |" in md
    assert "trec_eval's defaults" in md
    assert "`/?docs=d1&grades=3&missing=d9:3&titles=|Missed%250Aline&k=1`" in md


def test_markdown_names_the_tools_of_other_conventions():
    conv = Conventions(threshold=2, gain="exp", idcg="retrieved", ap_denominator="retrieved")
    scn = Scenario(("a", "b"), (), {"a": 3, "b": 1}, k=2, conventions=conv)
    md = export.markdown(scn, breakdowns(scn))
    assert "trec_eval `-l 2`" in md
    assert "ranx `ndcg_burges@k`" in md
    assert "retrieved list only" in md
    assert "RAGAS" in md
    assert "Not trec_eval's defaults" in md
    assert r"\mathrm{NDCG}_{\exp}\mathrm{@2}" in md


def test_markdown_of_an_unlinkable_scenario_says_why():
    scn = Scenario(("a,b",), (), {"a,b": 1})
    md = export.markdown(scn, breakdowns(scn))
    assert "No link" in md and r"a\,b" in md  # the id, escaped: shown as a,b


def test_csv_parses_and_holds_the_golden_values():
    case = GOLDEN["pub-seed001-idcg-from-all-qrels"]
    query = case["queries"]["q1"]
    ranking = tuple(query["ranking"])
    shelf = tuple(d for d in query["qrels"] if d not in ranking)
    scn = Scenario(ranking, shelf, dict(query["qrels"]), k=5)
    rows = list(csv.DictReader(io.StringIO(export.csv(scn, breakdowns(scn)))))
    assert list(rows[0]) == list(export.CSV_COLUMNS)
    by_metric = {row["metric"]: row for row in rows}
    assert len(rows) == len(FUNCTIONS)
    for metric in ("NDCG@5", "DCG@5", "P@5", "R@5", "AP", "RR"):
        assert float(by_metric[metric]["value"]) == pytest.approx(case["expected"][metric]["mean"], abs=1e-12)
    assert float(by_metric["NDCG@5"]["value"]) == pytest.approx(0.8047, abs=5e-5)
    assert by_metric["NDCG@5"]["k"] == "5" and by_metric["AP"]["k"] == ""
    assert {row["threshold"] for row in rows} == {"1"}
    assert {(row["gain"], row["idcg"], row["ap_denominator"]) for row in rows} == {("linear", "all", "all")}


def test_table_cells_escape_every_active_character_on_one_line():
    assert plain("a|b", one_line=True) == r"a\|b"
    assert plain("`x` #h <i>", one_line=True) == r"\`x\` \#h \<i\>"
    assert plain("two\nlines\r\nend", one_line=True) == "two lines end"


def test_a_hidden_tail_is_stated_and_counted():
    """A query opened from a run: n1, r1 listed; n2, r2 after them, hidden. AP = (1/2 + 2/4) / 2, not (1/2) / 2."""
    scn = Scenario(("n1", "r1"), grades={"n1": 0, "r1": 1, "n2": 0, "r2": 1}, k=2, scale=1, tail=("n2", "r2"))
    md = export.markdown(scn, breakdowns(scn))
    assert "\\+ 2 more retrieved documents are counted (ranks 3–4, 1 of them relevant)" in md
    assert "full ranking of 4 documents, not only the 2 listed" in md
    assert f"| AP | {(1 / 2 + 2 / 4) / 2:.4f} |" in md and f"| R@2 | {1 / 2:.4f} |" in md
    assert "| not retrieved |" not in md and "n2" not in md.split("## Conventions")[0]  # the table lists 2 rows
    rows = list(csv.DictReader(io.StringIO(export.csv(scn, breakdowns(scn)))))
    assert {row["retrieved"] for row in rows} == {"4"}
    assert float(next(r["value"] for r in rows if r["metric"] == "AP")) == pytest.approx((1 / 2 + 2 / 4) / 2)


def test_no_tail_no_tail_line(graded):
    assert "more retrieved document" not in export.markdown(graded, breakdowns(graded))
    assert export.tail_line(graded) is None


def test_the_markdown_scenario_link_is_absolute_when_the_app_address_is_known():
    scn = Scenario.from_example(EXAMPLES["grades-32301"])
    md = export.markdown(scn, breakdowns(scn), "http://127.0.0.1:8501")
    assert "Open this scenario in the app: <http://127.0.0.1:8501/?docs=d1,d2,d3,d4,d5&grades=3,2,3,0,1&titles=" in md


def test_without_the_app_address_the_markdown_says_the_link_is_relative():
    scn = Scenario.from_example(EXAMPLES["grades-32301"])
    md = export.markdown(scn, breakdowns(scn))
    assert "put its address in front" in md and "`/?docs=d1,d2,d3,d4,d5" in md


def test_an_unjudged_document_is_named_in_the_table_and_kept_in_the_link():
    scn = Scenario(("d1", "d2"), (), {"d1": 1, "d2": 0}, k=2).with_unjudged({"d2"})
    md = export.markdown(scn, breakdowns(scn))
    assert "| 1 | d1 |  | 1 |" in md and "| 2 | d2 |  | unjudged |" in md
    assert "`/?docs=d1,d2&grades=1,0&unjudged=d2&k=2&scale=3`" in md

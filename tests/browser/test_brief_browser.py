"""The brief for stakeholders (issue 29) in a real Chromium: opened from disk with every network request blocked, its
charts draw; it prints on exactly one A4 page and one US Letter page, and in its slide layout on one 16:9 page; its
numbers are ir-metrics-compare's; hostile file names and run tags stay literal; axe-core finds no WCAG 2.0/2.1/2.2 A
or AA violation (and does find one in a deliberately low-contrast brief, so the audit can fail).

Most briefs are built in-process from the sample files (no server); one is downloaded from the live app's Compare
runs page, the way a user makes one.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from ir_metrics_lab.core.brief import html_page, many_runs, model, two_lists, two_runs, two_tools
from ir_metrics_lab.core.scenario import Scenario
from metrics.cli.ir_metrics_compare import main as compare_cli
from metrics.compare import leaderboard as boards
from metrics.evaluation.engine import evaluate
from metrics.io import read_qrels, read_run
from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B
from metrics.tools.explain import explain
from tests.browser.conftest import download

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
QRELS = SAMPLES / "qrels.txt.gz"
RUN_FILES = {name: SAMPLES / f"{name}.run.gz" for name in ("bm25", "dense", "rrf")}
MEASURES = ["NDCG@10", "AP", "P@10"]
DAY = date(2026, 11, 27)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
CHARTS_DRAWN = (
    "[...document.querySelectorAll('.chart')].every((box) => box.querySelector('svg')?.getBoundingClientRect().width)"
)
SLIDE = {"width": "13.333in", "height": "7.5in"}  # 16:9


def page_count(pdf: bytes) -> int:
    """Pages of a PDF Chromium wrote: its page objects (``/Type /Page``, not the ``/Type /Pages`` tree)."""
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))


def test_page_count_counts_pages():
    one = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >> << /Type /Page /Parent 2 0 R >>"
    assert page_count(one) == 1
    assert page_count(one + b"<< /Type/Page >>") == 2


def cli(*runs: str, extra: tuple[str, ...] = ()) -> dict:
    out = io.StringIO()
    args = [str(QRELS), *(str(RUN_FILES[r]) for r in runs), *(f"-m{m}" for m in MEASURES), "--format", "json"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert compare_cli([*args, *extra]) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def samples():
    qrels = read_qrels(QRELS)
    runs = {name: read_run(path) for name, path in RUN_FILES.items()}
    evaluations = {name: evaluate(run, qrels, MEASURES) for name, run in runs.items()}
    return qrels, runs, evaluations


def inputs(*runs: str) -> model.Inputs:
    return model.Inputs(QRELS.name, {r: RUN_FILES[r].name for r in runs}, DAY, "http://127.0.0.1:8501")


@pytest.fixture(scope="module")
def briefs(samples, tmp_path_factory) -> dict[str, Path]:
    """Each kind of brief written to disk."""
    qrels, runs, evaluations = samples
    made = {
        "pair": two_runs.brief(
            evaluations["bm25"], evaluations["dense"], "bm25", "dense", runs=[runs["bm25"], runs["dense"]],
            qrels=qrels, inputs=inputs("bm25", "dense"),
        ),
        "leaderboard": many_runs.brief(
            boards.from_evaluations(evaluations), runs=runs, qrels=qrels, inputs=inputs(*runs)
        ),
        "tools": two_tools.brief(
            explain(runs["bm25"], qrels, "NDCG@10", "trec_eval", "sklearn"), run=runs["bm25"], qrels=qrels,
            inputs=inputs("bm25"),
        ),
        "ab": two_lists.brief(Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B), inputs=inputs()),
    }  # fmt: skip
    folder = tmp_path_factory.mktemp("briefs")
    paths = {}
    for kind, made_brief in made.items():
        paths[kind] = folder / f"{kind}-{made_brief.file_name}"
        paths[kind].write_text(html_page.render(made_brief), encoding="utf-8")
    return paths


@contextlib.contextmanager
def offline_page(browser, viewport=None):
    """A page in a new offline context whose every request but the file's own is aborted and recorded."""
    context = browser.new_context(viewport=viewport or {"width": 1440, "height": 900}, offline=True)
    page = context.new_page()
    requests, errors = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    try:
        yield page, requests, errors
    finally:
        context.close()


def opened(page, path: Path, hash_: str = "") -> None:
    page.goto(path.as_uri() + hash_)
    page.wait_for_function(CHARTS_DRAWN, timeout=15_000)


def left_the_file(requests: list[str]) -> list[str]:
    return [address for address in requests if not address.startswith(("file:", "data:"))]


@pytest.mark.parametrize("kind", ["pair", "leaderboard", "tools", "ab"])
def test_the_brief_draws_offline_prints_on_one_page_and_axe_finds_no_violation(browser, briefs, kind):
    """In its page layout and in its slide layout: charts drawn, one printed page, no axe violation."""
    with offline_page(browser) as (page, requests, errors):
        opened(page, briefs[kind])
        assert page.locator(".chart").count() >= 2
        assert axe_violations(page) == []
        for paper in ("A4", "Letter"):
            assert page_count(page.pdf(format=paper, print_background=True)) == 1, paper
        # in the printed layout every chart is drawn at its box's size, inside the sheet, none cut off
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('.chart')].map((box) => {
                 const b = box.getBoundingClientRect(), s = box.querySelector('svg').getBoundingClientRect();
                 return [b.width, b.height, s.width, s.height];
               })"""
        )
        assert boxes and all(sw <= bw + 1 and sh <= bh + 1 and sw > 50 for bw, bh, sw, sh in boxes), boxes
        page.evaluate("window.dispatchEvent(new Event('afterprint'))")
        opened(page, briefs[kind], "#slide")
        assert page.evaluate("document.documentElement.classList.contains('slide')")
        assert axe_violations(page) == []
        assert page_count(page.pdf(print_background=True, **SLIDE)) == 1
        assert left_the_file(requests) == [] and errors == []


def test_the_brief_reads_on_a_phone(browser, briefs):
    with offline_page(browser, {"width": 390, "height": 844}) as (page, _, errors):
        for path in briefs.values():
            opened(page, path)
            assert page.evaluate("document.scrollingElement.scrollWidth") <= 390  # nothing runs off the side
            widths = page.evaluate("[...document.querySelectorAll('.chart svg')].map((s) => s.clientWidth)")
            assert all(300 <= width <= 390 for width in widths), widths
        assert errors == []


def test_its_numbers_are_ir_metrics_compares(browser, briefs):
    expected = cli("bm25", "dense")
    means = {row["run"]: row["means"] for row in expected["runs"]}
    (ndcg,) = [p for p in expected["pairs"] if p["measure"] == "NDCG@10"]
    p_value = "p < 0.0001" if ndcg["p_value"] < 1e-4 else f"p = {ndcg['p_value']:.4f}"
    with offline_page(browser) as (page, _, _):
        opened(page, briefs["pair"])
        numbers = page.locator(".numbers").inner_text()
        assert f"bm25 {means['bm25']['NDCG@10']:.4f} → dense {means['dense']['NDCG@10']:.4f}" in numbers
        assert f"paired t-test {p_value}" in numbers
    board = cli("bm25", "dense", "rrf")
    letter = {row["run"]: row["letter"] for row in board["runs"]}
    with offline_page(browser) as (page, _, _):
        opened(page, briefs["leaderboard"])
        rows = page.locator("table tbody tr")
        assert rows.count() == len(board["runs"])
        for i, row in enumerate(board["runs"]):
            cells = rows.nth(i).locator("td").all_inner_texts()
            assert cells[:2] == [row["letter"], row["run"]]
            for j, measure in enumerate(board["measures"]):  # the mean, then a superscript letter per run it beats
                beaten = "".join(boards.SUPERSCRIPT[letter[run]] for run in row["beats"][measure])
                assert cells[2 + j] == f"{row['means'][measure]:.4f}{beaten}"


HOSTILE = {
    "run": '<img src=x onerror="alert(1)">',
    "other": "**bold** $x$ & [a](javascript:alert(2)) </script>",
    "qrels": "<b>qrels</b>.txt",
}


def test_hostile_file_names_and_run_tags_stay_literal(browser, samples, tmp_path):
    qrels, runs, evaluations = samples
    names = {HOSTILE["run"]: "bm25", HOSTILE["other"]: "dense"}
    renamed = {name: evaluations[r] for name, r in names.items()}
    made = many_runs.brief(
        boards.from_evaluations(renamed),
        runs={name: runs[r] for name, r in names.items()},
        qrels=qrels,
        inputs=model.Inputs(HOSTILE["qrels"], {name: f"{name}.run" for name in names}, DAY),
    )
    path = tmp_path / "hostile.html"
    text = html_page.render(made)
    path.write_text(text, encoding="utf-8")
    assert "<img src=x" not in text and "</script>\u0020" not in text  # escaped, in the page and in the figures
    with offline_page(browser) as (page, requests, errors):
        opened(page, path)
        assert page.locator("table tbody tr td:nth-child(2)").all_inner_texts() == list(names)
        assert page.locator("img").count() == 0 and page.locator("main a[href^=javascript]").count() == 0
        made_text = page.locator(".made").inner_text()
        assert HOSTILE["qrels"] in made_text and f"{HOSTILE['other']}.run" in made_text
        assert HOSTILE["run"] in page.locator("h1 + .headline").inner_text() + page.locator(".numbers").inner_text()
        legend = page.locator(".chart svg text").all_text_contents()
        assert any(HOSTILE["run"] in entry for entry in legend)  # the chart shows it as text, not as an element
        assert left_the_file(requests) == [] and errors == []
    assert html.escape(HOSTILE["other"]) in text


def axe_violations(page) -> list[dict]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
    return [{"id": v["id"], "nodes": [n["target"] for n in v["nodes"]]} for v in results.response["violations"]]


def test_axe_finds_a_low_contrast_brief(browser, briefs, tmp_path, monkeypatch):
    """The audit can fail: the same brief with its captions in light grey (#AAAAAA on white, 2.3 to 1) has a
    color-contrast violation."""
    monkeypatch.setattr(html_page, "MUTED", "#AAAAAA")
    made = two_lists.brief(Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B), inputs=inputs())
    path = tmp_path / "low-contrast.html"
    path.write_text(html_page.render(made), encoding="utf-8")
    with offline_page(browser) as (page, _, _):
        opened(page, path)
        assert "color-contrast" in {v["id"] for v in axe_violations(page)}


def test_the_app_downloads_the_brief_of_a_pair(app, browser, tmp_path):
    """Compare runs on the samples (runs bm25, dense, rrf; the pair view's A = bm25, B = dense, on NDCG@10): the
    pair view's "Download the brief" gives a file that opens offline and says the CLI's numbers, and "Download as
    PDF" a one-page PDF that says them too."""
    app.goto("compare")
    app.wait_rendered()
    button = app.page.locator(".st-key-cmp_brief_pair").get_by_role("button", name="Download the brief").first
    saved = tmp_path / "downloaded.html"
    download(app.page, button).save_as(saved)
    expected = cli("bm25", "dense")  # the pair view compares the two runs over the queries both were evaluated on
    means = {row["run"]: row["means"]["NDCG@10"] for row in expected["runs"]}
    (pair,) = [p for p in expected["pairs"] if p["measure"] == "NDCG@10"]
    p = pair["p_value"]
    with offline_page(browser) as (page, requests, errors):
        opened(page, saved)
        numbers = page.locator(".numbers").inner_text()
        assert numbers.startswith(f"NDCG@10: bm25 {means['bm25']:.4f} → dense {means['dense']:.4f}")
        assert ("p < 0.0001" if p < 1e-4 else f"p = {p:.4f}") in numbers
        assert page.locator("a", has_text="Open Compare runs").get_attribute("href") == app.base_url + "/compare"
        assert left_the_file(requests) == [] and errors == []
    # the same page as a PDF, from the button beside it
    pdf_button = app.page.locator(".st-key-cmp_brief_pair_pdf").get_by_role("button", name="Download as PDF")
    pdf = tmp_path / "downloaded.pdf"
    download(app.page, pdf_button).save_as(pdf)
    reader = PdfReader(pdf)
    text = " ".join(reader.pages[0].extract_text().split())
    assert len(reader.pages) == 1 and f"bm25 {means['bm25']:.4f} → dense {means['dense']:.4f}" in text
    assert not app.errors

"""Open as notebook: each page's download, taken from the page's own download button and run top to bottom in another
folder, prints every number the page shows; a hostile scenario runs no code of its own and its
text shows literally.

Expected values are the page's own (AppTest reads them), which tests/test_app_*.py check against trec_eval and
hand arithmetic.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from unittest import mock

import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.core import family_display
from ir_metrics_lab.core.exports import notebooks
from ir_metrics_lab.core.exports.notebook_cells import MIME, to_text
from ir_metrics_lab.core.exports.teaching_notebooks import TEACHING, teaching
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.parts.notebook_button import LABEL
from metrics.core.conventions import Conventions
from tests.page_scripts import page_script, page_scripts

ROOT = Path(__file__).parents[1]
APP = str(ROOT / "app.py")
TEXT_TYPES = ("stream", "text/plain", "text/html", "text/latex", "text/markdown")


@contextlib.contextmanager
def recorded_downloads():
    """The media stores AppTest creates, so a download button's file can be read back as the browser would get it."""
    stores: list[MemoryMediaFileStorage] = []

    class Recording(MemoryMediaFileStorage):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            stores.append(self)

    with mock.patch("streamlit.testing.v1.app_test.MemoryMediaFileStorage", Recording):
        yield stores


def downloaded_notebook(at: AppTest, stores: list[MemoryMediaFileStorage]) -> bytes:
    (button,) = [b.proto for b in at.get("download_button") if b.proto.label == LABEL]
    file = stores[-1].get_file(button.url.rsplit("/", 1)[-1])
    assert file.filename.endswith(".ipynb") and file.mimetype == MIME
    return file.content


@pytest.fixture(scope="module", autouse=True)
def shared_kernel():
    """One kernel for the module's downloads: starting one (and importing pandas and plotly in it) costs about as
    much as running a notebook. Each run starts in its own folder with an empty namespace (``execute``), so a
    notebook still cannot use another's names. The committed notebooks run in it too: a fresh kernel for each cost
    2-3 CPU-seconds per notebook, and the emptied namespace still fails a cell that needs a name no earlier cell
    made."""
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel()
    _SHARED["kernel"] = manager
    yield
    del _SHARED["kernel"]
    manager.shutdown_kernel(now=True)


_SHARED: dict[str, KernelManager] = {}


def execute(text: str | bytes, folder: Path, extra: str | None = None) -> nbformat.NotebookNode:
    """Save the download in ``folder`` and run it top to bottom there, in the module's shared kernel moved to
    ``folder`` with its namespace emptied first."""
    path = folder / "downloaded.ipynb"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    if extra:
        nb.cells.append(nbformat.v4.new_code_cell(extra))
    # Run before the notebook, then dropped: its outputs and names are not the notebook's.
    nb.cells.insert(0, nbformat.v4.new_code_cell(f"__import__('os').chdir({str(folder)!r})\n%reset -f"))
    NotebookClient(nb, km=_SHARED["kernel"], timeout=120).execute()
    nb.cells.pop(0)
    return nb


def outputs(nb: nbformat.NotebookNode, kinds: tuple[str, ...] = TEXT_TYPES) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "stream" and "stream" in kinds:
                parts.append(out.text)
            for kind in kinds:
                if kind in out.get("data", {}):
                    parts.append(out.data[kind])
    return "\n".join(parts)


def shows_row(text: str, *cells: str) -> bool:
    """A DataFrame's text/plain holds a row with these cells, in order."""
    return re.search(r"\s+".join(re.escape(c) for c in cells), text) is not None


# --- each page's notebook holds the page's numbers -------------------------------------------------------------------


def test_playground_notebook_prints_every_card_and_formula(tmp_path):
    with recorded_downloads() as stores:
        at = AppTest.from_file(APP, default_timeout=30)
        at.session_state["pg_share_export"] = True  # the notebook button is in "Share, export, present", opened
        for key, value in {"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "missing": "d9:3", "k": "4"}.items():
            at.query_params[key] = value
        at.query_params["gain"] = "exp"
        at.run()
        assert not at.exception
        text = downloaded_notebook(at, stores)
    cards = {m.label: m.value for m in at.metric}
    assert len(cards) >= 10 and "NDCG_exp@4" in cards  # the link's k and gain reached the page
    nb = execute(text, tmp_path)
    printed = outputs(nb, ("stream", "text/plain"))
    for label, value in cards.items():
        assert shows_row(printed, label, value), label
    page_formulas = [e.value.removeprefix("$$").removesuffix("$$").strip() for e in at.latex]  # st.latex adds $$
    assert page_formulas  # the open tab's worked formulas
    notebook_latex = outputs(nb, ("text/latex",))
    for formula in page_formulas:
        assert f"$$\n{formula}\n$$" in notebook_latex
    figures = [
        o for c in nb.cells for o in c.get("outputs", []) if "application/vnd.plotly.v1+json" in o.get("data", {})
    ]
    assert len(figures) >= 5  # per-rank bars, the ideal ordering, the curves and the PR curve


def test_ab_notebook_prints_the_side_by_side_table_and_the_verdict(tmp_path):
    with recorded_downloads() as stores:
        at = AppTest.from_file(APP, default_timeout=30).run()
        at.switch_page("app_pages/play/ab.py").run()
        assert not at.exception
        text = downloaded_notebook(at, stores)
    from tests.markdown_text import markdown_table

    rows = markdown_table(at.markdown, "metric")
    assert len(rows) >= 5
    nb = execute(text, tmp_path)
    printed = outputs(nb, ("stream", "text/plain"))
    for metric, (a, b, verdict) in rows.items():
        shown = "equal" if "equal" in verdict else ("B higher" if "B higher" in verdict else "A higher")
        assert shows_row(printed, metric, a, b, shown), metric
    (verdict,) = [e.value for e in (*at.success, *at.info) if e.value.startswith("**")]
    assert verdict.strip("*") in printed


def test_multi_query_notebook_prints_every_mean_and_per_query_value(tmp_path):
    with recorded_downloads() as stores:
        at = AppTest.from_file(str(ROOT / "app_pages" / "play" / "multi_query.py"), default_timeout=30).run()
        at.toggle(key="multi_query_demo_unjudged").set_value(True).run()
        at.toggle(key="multi_query_complete").set_value(True).run()
        assert not at.exception
        text = downloaded_notebook(at, stores)
    means = {m.label: m.value for m in at.metric}
    (table,) = [frame for frame in at.dataframe if "why" in frame.value.columns]  # the others edit grades
    nb = execute(text, tmp_path)
    printed = outputs(nb, ("stream", "text/plain"))
    for label, value in means.items():
        assert shows_row(printed, label, value), label
    frame = table.value
    value_column = frame.columns[-1]
    assert len(frame) >= 4
    for _, row in frame.iterrows():
        value = "NaN" if row[value_column] != row[value_column] else f"{row[value_column]:.4f}"  # NaN: not counted
        line = re.escape(row["query"]) + r"\s+" + str(row["counts"]) + r"\s+" + re.escape(row["why"]) + r"\s+"
        assert re.search(line + re.escape(value), printed), row["query"]


# --- a hostile scenario stays data ------------------------------------------------------------------------------------

HOSTILE = (
    "\"); import os; os.system('touch PWNED') #",
    "'''; __import__('os').system('touch PWNED'); '''",
    "<script>document.title='PWNED'</script><img src=x onerror=alert(1)>",
    "$\\alpha$ and $$\\beta$$ \\(x\\)",
    "```python\nimport os; os.system('touch PWNED')\n```",
    "line one\nline two\r\n# heading\n- item",
    "x" * 10_000,
)


def hostile_scenario() -> Scenario:
    ranking = HOSTILE[:5]
    shelf = HOSTILE[5:]
    grades = {doc: i % 4 for i, doc in enumerate(HOSTILE)}
    titles = {doc: HOSTILE[(i + 1) % len(HOSTILE)] for i, doc in enumerate(HOSTILE)}
    return Scenario(ranking, shelf, grades, titles, k=3, conventions=Conventions(gain="exp"), scale=3)


LESSON_NOTEBOOK = "04-dcg-and-ndcg"
ROUND_TRIP = """\
import json
print("ROUND-TRIP", json.dumps(DATA))"""


@pytest.mark.parametrize("page", ["playground", "ab", "multi_query", "swap_heatmap", "lesson"])
def test_a_hostile_scenario_runs_no_code_and_shows_literally(tmp_path, page):
    scn = hostile_scenario()
    if page == "playground":
        nb = notebooks.playground(scn, preset=HOSTILE[2] + HOSTILE[3])
        data = "DATA = [list(SCENARIO.ranking), list(SCENARIO.shelf), dict(SCENARIO.titles)]"
        expected = [list(scn.ranking), list(scn.shelf), dict(scn.titles)]
    elif page in ("swap_heatmap", "lesson"):
        first = family_display.listed("swap_heatmap")[0]
        nb = notebooks.swap_heatmap(scn, first, 3) if page == "swap_heatmap" else teaching(LESSON_NOTEBOOK, scn)
        data = "DATA = [list(SCENARIO.ranking), list(SCENARIO.shelf), dict(SCENARIO.titles)]"
        expected = [list(scn.ranking), list(scn.shelf), dict(scn.titles)]
    elif page == "ab":
        nb = notebooks.ab(scn, scn.reordered(reversed(scn.ranking)))
        data = "DATA = [list(A.ranking), list(B.ranking), dict(B.titles)]"
        expected = [list(scn.ranking), list(reversed(scn.ranking)), dict(scn.titles)]
    else:
        run = {HOSTILE[0]: list(scn.ranking), HOSTILE[6]: list(scn.shelf)}
        qrels = {HOSTILE[0]: dict(scn.qrels), HOSTILE[6]: {HOSTILE[1]: 1}}
        nb = notebooks.multi_query({HOSTILE[0]: scn}, run, qrels, 3)
        data = "DATA = [RUN, QRELS, TITLES]"
        expected = [run, qrels, {d: t for d, t in scn.titles.items() if t}]
    executed = execute(to_text(nb), tmp_path, f"{data}\n{ROUND_TRIP}")
    assert not list(tmp_path.glob("PWNED*")) and not (Path.cwd() / "PWNED").exists()
    errors = [o for c in executed.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    (line,) = [line for line in outputs(executed).splitlines() if line.startswith("ROUND-TRIP ")]
    assert json.loads(line.removeprefix("ROUND-TRIP ")) == expected  # every id and title came back unchanged
    # Markdown cells hold user text only as ir_metrics_lab.core.markdown.plain writes it.
    markdown = "\n".join(c.source for c in executed.cells if c.cell_type == "markdown")
    for text in HOSTILE:
        assert text not in markdown
    if page == "playground":
        assert plain(HOSTILE[2] + HOSTILE[3], one_line=True) in markdown
    # HTML outputs hold user text escaped.
    shown_html = outputs(executed, ("text/html",))
    assert "<script>" not in shown_html and "&lt;script&gt;" in shown_html


def test_every_notebook_is_valid_nbformat():
    scn = hostile_scenario()
    for nb in (notebooks.playground(scn), notebooks.ab(scn, scn), notebooks.multi_query({"q": scn}, {}, {}, 2)):
        nbformat.validate(nbformat.reads(to_text(nb), as_version=4))


# --- the committed teaching notebooks ------------------------------------------------------------------------------

NOTEBOOKS = ROOT / "docs" / "notebooks"


def test_the_committed_notebooks_are_up_to_date_and_cleared():
    """docs/notebooks/ is what scripts/write_notebooks.py writes from lab_core (rerun it after editing a lesson)."""
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(TEACHING)
    for name in TEACHING:
        text = (NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8")
        assert text == to_text(teaching(name)), f"run scripts/write_notebooks.py ({name})"
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
        assert all(not c.get("outputs") and c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")


def test_a_lesson_notebook_says_what_its_page_says():
    from ir_metrics_lab.core.lessons.lesson_text import LESSONS

    for name, key in TEACHING.items():
        if key in LESSONS:
            markdown = "\n".join(c["source"] for c in teaching(name)["cells"] if c["cell_type"] == "markdown")
            lesson = LESSONS[key]
            assert lesson.title in markdown and lesson.intro in markdown and lesson.naming in markdown
            assert all(trap in markdown for trap in lesson.traps)


def test_the_committed_notebooks_run_clean_in_another_folder(tmp_path):
    for name in TEACHING:
        folder = tmp_path / name
        folder.mkdir()
        executed = execute((NOTEBOOKS / f"{name}.ipynb").read_bytes(), folder)
        errors = [o for c in executed.cells for o in c.get("outputs", []) if o.output_type == "error"]
        assert errors == [], name
        assert any(c.get("outputs") for c in executed.cells), name


LESSON_PAGES = sorted({path for path in page_scripts() if path.stem.startswith("lesson_")})


def shown_breakdowns(nb: nbformat.NotebookNode) -> set[tuple[str, str]]:
    """(label, value) of every Breakdown the notebook displayed (the head of its HTML repr)."""
    head = re.compile(r'<p><b><span class="[^"]*">([^<]*)</span> = <span class="[^"]*">([^<]*)</span></b></p>')
    return set(head.findall(outputs(nb, ("text/html",))))


def test_each_lesson_pages_notebook_runs_on_the_pages_list(tmp_path):
    """Each lesson page downloads its teaching notebook worked on the Playground's list (here a link's: k = 4,
    exponential gain, a missed document); run, it shows the page's cards on that list with the page's values."""
    assert len(LESSON_PAGES) == 8
    for page in LESSON_PAGES:
        with recorded_downloads() as stores:
            at = AppTest.from_file(APP, default_timeout=30)
            for key, value in {"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "missing": "d9:3", "k": "4"}.items():
                at.query_params[key] = value
            at.run()
            at.switch_page(str(page.relative_to(ROOT))).run()
            assert not at.exception, page.name
            text = downloaded_notebook(at, stores)
        folder = tmp_path / page.stem
        folder.mkdir()
        nb = execute(text, folder)
        assert not [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"], page.name
        cards = {(m.label, m.value) for m in at.metric}
        assert cards & shown_breakdowns(nb), page.name  # the page's numbers on the list, in the notebook
        if page.stem == "lesson_precision_recall":  # step 2's five cards at the list's k
            assert {("P@4", "0.7500"), ("R@4", "0.6000"), ("HitRate@4", "1.0000")} <= cards & shown_breakdowns(nb)


def test_the_diversity_notebook_reproduces_its_pages_numbers(tmp_path):
    """The committed diversity notebook, run, shows the numbers its lesson page shows a new visitor (the page's own
    example), and the drag the page's browser test makes: alpha-nDCG@5 up, NDCG@5 down."""
    at = AppTest.from_file(str(page_script("lesson_diversity.py")), default_timeout=30).run()
    assert not at.exception
    cards = {(m.label, m.value) for m in at.metric}
    nb = execute((NOTEBOOKS / "10-diversity-and-novelty.ipynb").read_bytes(), tmp_path)
    assert cards == {("NDCG@5", "1.0000"), ("alpha_nDCG@5", "0.6216"), ("ERR_IA@5", "0.3333")}
    assert cards <= shown_breakdowns(nb)
    printed = outputs(nb, ("stream",))
    assert "NDCG        before 1.0000  after 0.8513" in printed and "alpha-nDCG  before 0.6216  after 0.7700" in printed


def test_swap_heatmap_notebook_prints_the_metric_and_the_best_swap(tmp_path):
    with recorded_downloads() as stores:
        at = AppTest.from_file(APP, default_timeout=30).run()
        at.switch_page("app_pages/play/swap_heatmap.py").run()
        assert not at.exception
        text = downloaded_notebook(at, stores)
    nb = execute(text, tmp_path)
    (card,) = at.metric
    assert (card.label, card.value) in shown_breakdowns(nb)
    (advice,) = [e.value for e in (*at.info, *at.success) if "swap" in e.value]
    assert advice in outputs(nb, ("stream",))


def test_why_tools_differ_notebook_prints_both_means_and_the_difference(tmp_path):
    with recorded_downloads() as stores:
        at = AppTest.from_file(APP, default_timeout=60).run()
        at.switch_page("app_pages/your_data/tool_difference.py").run()
        assert not at.exception
        text = downloaded_notebook(at, stores)
    cards = {m.label: m.value for m in at.metric}
    assert len(cards) == 3
    nb = execute(text, tmp_path)
    printed = outputs(nb, ("stream", "text/plain"))
    for label, value in cards.items():
        assert shows_row(printed, label, value), label
    (sentence,) = [e.value for e in at.markdown if e.value.startswith("**") and "gives" in e.value]
    assert sentence.strip("*").replace("\\", "") in printed  # the page writes it through plain()


def test_an_uploaded_files_name_stays_data(tmp_path):
    """Uploaded files are read from the notebook's folder under their names, written as literals: a hostile name runs
    nothing (here the files are missing: the notebook says where to put them) and shows escaped in Markdown."""
    nb = notebooks.why_tools_differ(("upload", HOSTILE[0]), ("upload", HOSTILE[2]), "NDCG@10", "trec_eval", "ranx")
    with pytest.raises(Exception, match="FileNotFoundError"):
        execute(to_text(nb), tmp_path)
    assert not list(tmp_path.glob("PWNED*"))
    markdown = "\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")
    assert plain(HOSTILE[2], one_line=True) in markdown and HOSTILE[2] not in markdown


def test_evaluate_a_run_notebook_prints_every_mean(tmp_path):
    with recorded_downloads() as stores:
        at = AppTest.from_file(APP, default_timeout=60).run()
        at.switch_page("app_pages/your_data/your_data.py").run()
        at.run()  # the tables follow the first paint
        assert not at.exception
        text = downloaded_notebook(at, stores)
    (summary,) = [frame.value for frame in at.dataframe if "over queries" in frame.value.columns]
    assert len(summary) >= 3
    nb = execute(text, tmp_path)
    printed = outputs(nb, ("stream", "text/plain"))
    for row in summary.itertuples(index=False):
        assert shows_row(printed, row.measure, f"{row.mean:.4f}"), row.measure
    plotly = "application/vnd.plotly.v1+json"
    assert sum(plotly in o.get("data", {}) for c in nb.cells for o in c.get("outputs", [])) == len(summary)


def test_compare_runs_notebook_prints_every_cell_of_the_leaderboard(tmp_path):
    with recorded_downloads() as stores:
        at = AppTest.from_file(APP, default_timeout=90).run()
        at.switch_page("app_pages/your_data/compare_runs.py").run()
        assert not at.exception
        text = downloaded_notebook(at, stores)
    from tests.markdown_text import table_rows

    (rows,) = [rows for e in at.markdown if (rows := table_rows(e.value)) and rows[0][0] == "run"]  # the leaderboard
    nb = execute(text, tmp_path)
    printed = outputs(nb, ("stream",))
    cells = [cell for row in rows[1:] for cell in row[1:]]  # as shown: the page's bold and shading mark the best
    assert len(cells) >= 6
    for cell in cells:  # the text marks the best with a star
        assert cell in printed, cell
    # the pair view: its cards' numbers are on the notebook's line for the metric looked at
    cards = {re.sub(r"\\(.)", r"\1", m.label): m.value for m in at.metric}  # labels are escaped Markdown
    (looked_at,) = [label.split(" · ")[0] for label in cards if " · A (" in label]
    (line,) = [line for line in printed.splitlines() if line.startswith(f"{looked_at}: A ")]
    mean_a = next(value for label, value in cards.items() if label.startswith(f"{looked_at} · A ("))
    mean_b = next(value for label, value in cards.items() if label.startswith(f"{looked_at} · B ("))
    assert f"A {mean_a}, B {mean_b}" in line, (line, cards)
    assert f"wins / ties / losses {cards['B wins / ties / losses']}" in line, (line, cards)
    assert f"p (randomization) {cards['p (t-test) · p (randomization)']}" in line, (line, cards)
    charts_shown = sum(
        "application/vnd.plotly.v1+json" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", [])
    )
    assert charts_shown == 3  # the heatmap, the pair's waterfall and its randomization histogram


def test_each_answered_quiz_exercise_opens_as_a_notebook_with_its_solution(tmp_path):
    """Seed 5 holds every kind of exercise (predict, reorder, which MRR is higher, which move raises alpha-nDCG).
    Each answered exercise's worked solution has a notebook button; run, each notebook prints the numbers the solution
    shows."""
    from ir_metrics_lab.core.lessons import quiz

    exercises = quiz.generate(5)
    assert {ex.kind for ex in exercises} == {"predict", "reorder", "mrr", "aspect_move"}
    with recorded_downloads() as stores:
        at = AppTest.from_file(str(ROOT / "app_pages" / "play" / "quiz.py"), default_timeout=60)
        at.query_params["seed"] = "5"
        at.run()
        for index, ex in enumerate(exercises):  # a real attempt each: the solution shows after one
            if ex.kind in ("mrr", "aspect_move"):
                at.radio(key=f"quiz_s5_{index}_choice").set_value("A" if ex.kind == "mrr" else "1").run()
            elif ex.kind == "predict":
                at.number_input(key=f"quiz_s5_{index}").set_value(0.5).run()
            at.button(key=f"quiz_s5_{index}_check").click().run()
        assert not at.exception
        buttons = [b.proto for b in at.get("download_button") if b.proto.label == LABEL]
        assert len(buttons) == len(exercises)
        files = [stores[-1].get_file(b.url.rsplit("/", 1)[-1]).content for b in buttons]
    for index, (ex, text) in enumerate(zip(exercises, files, strict=True)):
        shown = outputs(execute(text, tmp_path), ("stream",))
        if ex.kind == "predict":  # the page's worked solution ends on this value
            assert f"The list: {ex.label} = {ex.answer:.4f}" in shown, (index, shown)
        elif ex.kind == "reorder":
            solution = f"One order that works: NDCG@{ex.k} = {ex.ndcg(ex.solution).value:.4f}"
            start = f"Your order: NDCG@{ex.k} = {ex.ndcg(ex.ranking).value:.4f}"  # not moved yet
            assert solution in shown and start in shown, (index, shown)
        elif ex.kind == "mrr":
            for side in ("A", "B"):
                assert f"System {side}: RR = {ex.mrr(side):.4f} (the mean over 3 queries)" in shown, (index, shown)
        else:  # the diversity lesson's notebook on the exercise's list (before any move)
            start = ex.scenario
            assert "alpha-nDCG  before " + f"{quiz.diversity.diversity(start).alpha_ndcg.value:.4f}" in shown


def test_an_embedded_upload_travels_inside_the_notebook(tmp_path):
    """An upload small enough goes inside the notebook: run in an empty folder, it writes the files there (under the
    last part of their names only) and prints what the same files read from the app's samples give."""
    samples = ROOT / "data" / "samples"
    run_bytes, qrels_bytes = (samples / "bm25.run.gz").read_bytes(), (samples / "qrels.txt.gz").read_bytes()
    measures = ["P@10", "nDCG@10"]
    by_name = notebooks.evaluate_run(("sample", "bm25.run.gz"), ("sample", "qrels.txt.gz"), measures, complete=False)
    carried = notebooks.evaluate_run(
        ("embedded", "../../PWNED my run.gz", run_bytes), ("embedded", "qrels.txt.gz", qrels_bytes), measures,
        complete=False,
    )  # fmt: skip
    folder = tmp_path / "empty"
    folder.mkdir()
    from_samples = outputs(execute(to_text(by_name), tmp_path), ("text/plain",))
    from_inside = outputs(execute(to_text(carried), folder), ("text/plain",))
    assert (folder / "PWNED my run.gz").read_bytes() == run_bytes and (
        folder / "qrels.txt.gz"
    ).read_bytes() == qrels_bytes
    assert not list(tmp_path.glob("PWNED*")) and not list(tmp_path.parent.glob("PWNED*"))
    assert all(m in from_samples for m in measures) and from_inside == from_samples  # every table, the means first


def _embed_choice() -> None:
    from types import SimpleNamespace

    from ir_metrics_lab.parts import notebook_button

    uploaded = SimpleNamespace(name="mine.run", embeddable=b"q1 Q0 d1 1 1.0 r\n")
    sample = SimpleNamespace(name="qrels.txt.gz", embeddable=None)
    import streamlit as st

    st.session_state["sources"] = notebook_button.file_sources([("upload", uploaded), ("sample", sample)], "embed")


def test_the_embed_box_carries_only_uploads_and_only_when_ticked():
    at = AppTest.from_function(_embed_choice, default_timeout=30).run()
    assert at.session_state["sources"] == [("upload", "mine.run"), ("sample", "qrels.txt.gz")]
    at.checkbox(key="embed").check().run()
    assert at.session_state["sources"] == [("embedded", "mine.run", b"q1 Q0 d1 1 1.0 r\n"), ("sample", "qrels.txt.gz")]


@pytest.mark.parametrize(
    ("page", "slider"), [("lesson_precision_recall", "lesson_pr_k"), ("lesson_ndcg", "lesson_ndcg_k")]
)
def test_a_lesson_notebook_follows_the_lessons_own_cutoff(tmp_path, page, slider):
    """The lesson's k slider moved to 2: its notebook works the list at k = 2 too (the page's cards at k = 2)."""
    with recorded_downloads() as stores:
        at = AppTest.from_file(str(page_script(page)), default_timeout=30).run()
        at.slider(key=slider).set_value(2).run()
        assert not at.exception
        text = downloaded_notebook(at, stores)
    cards = {(m.label, m.value) for m in at.metric if m.label.endswith("@2")}
    assert cards and cards <= shown_breakdowns(execute(text, tmp_path)), cards

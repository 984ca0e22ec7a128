"""The documentation site builds with ``mkdocs build --strict`` (a broken link, a missing API object or any warning
fails it), and what it is generated from is all there: a page per registered measure family, the command-line
reference, the API with ``evaluate``, a page per teaching notebook, a page per error code. Its pages' doctests run
too."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from metrics.catalog.registry import FAMILIES
from metrics.core.error_codes import CODES
from scripts.docs_site import ERRORS, MEASURES, slug
from scripts.execute_notebooks import LINK_CELL

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
NOTEBOOKS = sorted((DOCS / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    built = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(built)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return built


def test_every_registered_family_has_its_measure_page(site):
    pages = {path.parent.name for path in (site / MEASURES).glob("*/index.html")}
    assert pages == {slug(family) for family in FAMILIES}
    ndcg = (site / MEASURES / "ndcg" / "index.html").read_text(encoding="utf-8")
    assert "ndcg_cut" in ndcg and "Worked example" in ndcg  # its trec_eval name, its example


def test_every_error_code_has_its_page_and_a_row_in_the_index(site):
    pages = {path.parent.name for path in (site / ERRORS).glob("*/index.html")}
    assert pages == set(CODES)  # (the index itself is errors/index.html, not a folder)
    index = (site / ERRORS / "index.html").read_text(encoding="utf-8")
    for code, entry in CODES.items():
        assert f'href="{code}/"' in index
        page = (site / ERRORS / code / "index.html").read_text(encoding="utf-8")
        assert "How to fix it" in page and entry.title.split("`")[0].split("(")[0].strip() in page


def test_the_command_line_reference_has_every_installed_command(site):
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("ir-metrics", "ir-metrics-compare", "ir-metrics-lab"):
        assert f"<code>{command}</code>" in page
    assert "--format" in page and "--qrels" in page  # their options, from the parsers


def test_the_api_reference_documents_evaluate(site):
    pages = "".join(path.read_text(encoding="utf-8") for path in (site / "reference" / "api").rglob("index.html"))
    assert 'id="metrics.evaluation.engine.evaluate"' in pages or 'id="metrics.evaluate"' in pages


def test_every_teaching_notebook_has_a_page_with_its_outputs(site):
    assert len(NOTEBOOKS) >= 9
    for notebook in NOTEBOOKS:
        page = site / "tutorials" / notebook.stem / "index.html"
        assert page.is_file(), notebook.name
        assert (site / "notebooks" / notebook.name).is_file()  # the download its page links to


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_each_tutorial_is_its_notebook_executed(notebook):
    """docs/tutorials/ holds the notebooks run by scripts/execute_notebooks.py: the same cells, each code cell run
    without an error, and a link to the app's page first. Rerun the script after scripts/write_notebooks.py."""
    source = nbformat.read(notebook, as_version=4)
    executed = nbformat.read(DOCS / "tutorials" / notebook.name, as_version=4)
    own = [cell for cell in executed.cells if cell.get("id") != LINK_CELL]
    assert [(c.cell_type, c.source) for c in own] == [(c.cell_type, c.source) for c in source.cells], (
        "stale: run python -m scripts.execute_notebooks"
    )
    code = [cell for cell in own if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code)
    assert not [output for cell in code for output in cell.outputs if output.output_type == "error"]


def test_the_site_loads_nothing_from_another_host(site):
    """Offline: no CDN font, script or style (links to other sites are fine: they are not loaded)."""
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "cdn" not in text.split("<body", 1)[0].lower(), page


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda path: str(path.relative_to(DOCS)))
def test_the_pages_examples_run(page, monkeypatch):
    monkeypatch.chdir(REPO)
    failed, _ = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert failed == 0

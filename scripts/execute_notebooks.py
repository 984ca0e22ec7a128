"""Execute the teaching notebooks (docs/notebooks/, outputs cleared) into docs/tutorials/, where the documentation site
renders them with their outputs; each copy opens with a link to the app's page it belongs to.

    .venv/bin/python -m scripts.execute_notebooks

Executed here, once, rather than at every site build: the nine take over a minute of kernel time, which the test
command (it builds the site) cannot spare. tests/test_docs.py checks each copy's cells are its notebook's. Plotly
charts keep their figure and get plotly's own HTML for a page that loads plotly.js itself (the site serves the copy
the installed plotly ships: scripts/docs_site.py), so the rendered page needs no network.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]

SOURCE = REPO / "docs" / "notebooks"
TARGET = REPO / "docs" / "tutorials"
APP = "http://localhost:8501"  # the app's address when started with ir-metrics-lab (or streamlit run app.py)
PLOTLY = "application/vnd.plotly.v1+json"
# The two notebooks that are guides, not lessons, and the page each belongs to (a lesson's page names its lesson).
GUIDE_PAGES = {
    "evaluate_your_run": "app_pages/your_data/your_data.py",
    "why_tools_differ": "app_pages/your_data/tool_difference.py",
}
LINK_CELL = "tutorial-app-link"  # the id of the cell this script adds, so a test can tell it from the notebook's own


def app_pages() -> dict[str, tuple[str, str]]:
    """Page script -> (title, address) of every page in app.py's navigation, read from its source."""
    tree = ast.parse((REPO / "app.py").read_text(encoding="utf-8"))
    pages = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page" and node.args:
            keywords = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
            if keywords.get("visibility") != "hidden":
                address = "/" if keywords.get("default") else f"/{keywords['url_path']}"
                pages[node.args[0].value] = (keywords["title"], address)
    return pages


def page_of(name: str) -> tuple[str, str]:
    """The app page (title, address) the teaching notebook ``name`` belongs to: the lesson page that reads its lesson
    (``LESSONS["ap"]``), or the guide's page."""
    from ir_metrics_lab.core.exports.teaching_notebooks import TEACHING

    key = TEACHING[name]
    pages = app_pages()
    if key in GUIDE_PAGES:
        return pages[GUIDE_PAGES[key]]
    for script, page in pages.items():
        if f'LESSONS["{key}"]' in (REPO / script).read_text(encoding="utf-8"):
            return page
    raise SystemExit(f"no page of app.py reads the lesson {key!r} of {name}.ipynb")


def link_cell(name: str) -> nbformat.NotebookNode:
    title, address = page_of(name)
    text = (
        f"**In the app:** [{title}]({APP}{address}), where you drag the list and watch every number follow "
        "(start the app with `ir-metrics-lab`). This page is the notebook run top to bottom; download it from "
        f"[docs/notebooks/{name}.ipynb](../../notebooks/{name}.ipynb) and run it yourself."
    )
    cell = nbformat.v4.new_markdown_cell(text)
    cell.id = LINK_CELL
    return cell


def offline_charts(nb: nbformat.NotebookNode) -> None:
    """Each plotly output's HTML as plotly writes it for a page that has loaded plotly.js (no CDN, no require.js)."""
    import plotly.io as pio

    for cell in nb.cells:
        for output in cell.get("outputs", []):
            figure = output.get("data", {}).get(PLOTLY)
            if figure is not None:
                html = pio.to_html(pio.from_json(json.dumps(figure)), include_plotlyjs=False, full_html=False)
                output["data"] = {PLOTLY: figure, "text/html": html}


def execute(name: str) -> nbformat.NotebookNode:
    nb = nbformat.read(SOURCE / f"{name}.ipynb", as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(SOURCE)}}).execute()
    offline_charts(nb)
    nb.cells.insert(1, link_cell(name))
    return nb


def main() -> None:
    from ir_metrics_lab.core.exports.teaching_notebooks import TEACHING

    TARGET.mkdir(parents=True, exist_ok=True)
    for name in TEACHING:
        nbformat.write(execute(name), TARGET / f"{name}.ipynb")
        print(f"wrote docs/tutorials/{name}.ipynb")


if __name__ == "__main__":
    main()

"""The README's page table against app.py's navigation, and the architecture page's module map and project layout
against the repository: the map and the package tree are written from the file tree and the docstrings when the site
is built (scripts/docs_site.py), and the layout names every top-level folder."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

from scripts.docs_site import MODULE_MAP, PACKAGE_TREE, modules, package_tree, summary

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (REPO / "docs/explanation/architecture.md").read_text(encoding="utf-8")


def test_the_module_map_is_the_file_trees():
    assert MODULE_MAP in ARCHITECTURE  # where the site's build writes the map
    listed = {name for name, _ in modules()}
    tracked = subprocess.run(["git", "ls-files", "*.py"], cwd=REPO, capture_output=True, text=True, check=True)
    project = {path for path in tracked.stdout.split() if not path.startswith(("tests/", "."))}
    assert project - listed == set()  # every module a clone has (new ones too, once added)


def test_a_modules_summary_is_its_docstrings_first_sentence():
    assert summary("Means over queries (MRR, MAP) and which queries count. More.\n\nDetails.") == (
        "Means over queries (MRR, MAP) and which queries count."
    )
    assert summary("Reads .gz files, e.g. runs.gz, and CSV files. Then parses.") == (
        "Reads .gz files, e.g. runs.gz, and CSV files."
    )
    assert summary("Lesson: RR. Its mean over\n    queries, MRR, and its cutoff. More.") == (
        "Lesson: RR. Its mean over queries, MRR, and its cutoff."
    )


def _navigation() -> list[tuple[str, str]]:
    """(section, title) of every page in app.py's st.navigation, in order, read from the source (no app run)."""
    tree = ast.parse((REPO / "app.py").read_text(encoding="utf-8"))
    pages = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "PAGES" for t in node.targets)
    )
    return [
        (section.value, keyword.value.value)
        for section, listed in zip(pages.keys, pages.values, strict=True)
        for call in listed.elts
        if isinstance(call, ast.Call)  # a page built above (the hidden /playground alias) is not a table row
        for keyword in call.keywords
        if keyword.arg == "title"
    ]


def _page_table() -> list[tuple[str, str]]:
    """(section, title) of every page the README's "What is in the app" table names, in order."""
    section = README.split("## What is in the app\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "**" in line]
    return [
        (cells[0], title)
        for cells in ([c.strip() for c in row.strip("|").split(" | ")] for row in rows)
        for title in re.fullmatch(r"\*\*(.+?)\*\*( \(default\))?", cells[1]).group(1).split(", ")
    ]


def test_the_page_table_names_every_page_of_the_navigation_in_its_section_and_order():
    navigation = _navigation()
    assert len(navigation) >= 15  # the parse found the pages
    assert _page_table() == navigation


def test_the_project_layout_draws_every_package_and_names_every_top_level_folder():
    assert PACKAGE_TREE in ARCHITECTURE  # where the site's build draws the tree
    drawn = package_tree()
    packages = {path.parent for path in REPO.glob("*/**/__init__.py") if path.parts[len(REPO.parts)] != "tests"}
    product = {folder for folder in packages if folder.relative_to(REPO).parts[0] in {"ir_metrics_lab", "metrics"}}
    assert len(product) > 15  # the packages were found
    assert [str(p.relative_to(REPO)) for p in product if f"{p.name}/" not in drawn] == []
    sections = {path.parent.name for path in (REPO / "app_pages").glob("*/*.py")}
    assert [name for name in sections if f"{name}/" not in drawn] == []
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    folders = {path.split("/")[0] for path in tracked if "/" in path and not path.startswith(".")}
    assert [
        folder for folder in sorted(folders) if f"`{folder}/" not in ARCHITECTURE and f"{folder}/" not in drawn
    ] == []

"""The page scripts app.py's navigation runs, read from its source (for the tests that go over every page)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def page_scripts() -> list[Path]:
    """The scripts of app.py's ``st.Page("<path>.py", ...)`` calls: the pages, wherever they live."""
    tree = ast.parse((REPO / "app.py").read_text(encoding="utf-8"))
    scripts = [
        REPO / node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", None) == "Page"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert len(scripts) >= 15 and all(path.is_file() for path in scripts)  # the parse found every page
    return scripts


def page_script(name: str) -> Path:
    """The script of the page ``name`` ("playground" or "playground.py"), in whichever section's folder it is."""
    (path,) = {path for path in page_scripts() if path.stem == name.removesuffix(".py")}
    return path

"""Rules about how the project's files depend on each other, checked on the source (no app run)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (REPO / folder).rglob("*.py"))


def _imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
    return modules


def test_the_app_and_its_libraries_never_import_the_launcher_package():
    """ir_metrics_lab (the ``ir-metrics-lab`` command) imports ui; where the app's files are is ui.paths' fact, so
    nothing below the launcher reaches back into it."""
    offenders = {
        str(path.relative_to(REPO)): sorted(m for m in _imported_modules(path) if m.split(".")[0] == "ir_metrics_lab")
        for path in [*_python_files("ui", "metrics", "pages"), REPO / "app.py"]
    }
    assert {path: modules for path, modules in offenders.items() if modules} == {}


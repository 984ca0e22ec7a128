"""Write the teaching notebooks (docs/notebooks/*.ipynb, outputs cleared) from
ir_metrics_lab.core.exports.teaching_notebooks and the lessons' words in ir_metrics_lab.core.lessons.lesson_text;
tests/test_notebooks.py checks they are up to date and run clean.

    .venv/bin/python -m scripts.write_notebooks
"""

from __future__ import annotations

from pathlib import Path

from ir_metrics_lab.core.exports import notebook_cells, teaching_notebooks

FOLDER = Path(__file__).resolve().parents[1] / "docs" / "notebooks"


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in teaching_notebooks.TEACHING:
        text = notebook_cells.to_text(teaching_notebooks.teaching(name))
        (FOLDER / f"{name}.ipynb").write_text(text, encoding="utf-8")
        print(f"wrote docs/notebooks/{name}.ipynb")


if __name__ == "__main__":
    main()

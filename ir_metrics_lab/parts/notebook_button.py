"""The "Open as notebook" download: a page's scenario as an .ipynb (ir_metrics_lab.core.exports.notebooks builds it)
that rebuilds what the page shows by calling the library, run top to bottom in Jupyter, Colab or Binder; a lesson's
teaching notebook (ir_metrics_lab.core.exports.teaching_notebooks) on the page's list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from ir_metrics_lab.core.exports import notebook_cells, notebook_files, teaching_notebooks
from ir_metrics_lab.core.scenario import Scenario

LABEL = "Open as notebook (.ipynb)"
HELP = (
    "A Jupyter notebook that rebuilds what this page shows (the lists, grades, k, every convention) and computes the "
    "same numbers, worked formulas, per-rank tables and charts with the library. Its first cell installs the library "
    "when the kernel lacks it."
)


def button(nb: Mapping, file_name: str, key: str, where: object = st, *, width: str = "content") -> None:
    """A download button for ``nb`` (a notebook from ir_metrics_lab.core.exports.notebooks) named ``file_name``
    (.ipynb); ``width`` "stretch" fills a column of buttons (the Playground's export row)."""
    where.download_button(
        LABEL,
        notebook_cells.to_text(nb),
        file_name=file_name,
        mime=notebook_cells.MIME,
        key=key,
        icon=":material/code:",
        on_click="ignore",
        width=width,
        help=HELP,
    )


def lesson(key: str, scn: Scenario) -> None:
    """A lesson page's button: its teaching notebook (docs/notebooks/) worked on the page's list ``scn``."""
    name = teaching_notebooks.lesson_file(key)
    button(teaching_notebooks.teaching(name, scn), f"{name}.ipynb", f"lesson_{key}_notebook")


EMBED_LABEL = "Carry the uploaded files inside the notebook"


def file_sources(files: Sequence[tuple[str, object]], key: str) -> list[tuple]:
    """The notebook's file sources for ``files`` ((kind, a ir_metrics_lab.session.datasets.Loaded) with kind "sample" or
    "upload"): a sample by name; an upload by name, or with its bytes when the reader ticks the box this draws (shown
    when an upload is small enough to travel inside the notebook:
    ir_metrics_lab.core.exports.notebook_files.EMBED_BYTES)."""
    can_embed = any(kind == "upload" and loaded.embeddable is not None for kind, loaded in files)
    embed = can_embed and st.checkbox(
        EMBED_LABEL,
        key=key,
        help=f"Each uploaded file up to {notebook_files.EMBED_BYTES >> 20} MB goes inside the .ipynb "
        "(gzip-compressed), and the notebook writes it beside itself: nothing to copy. Larger files are read from the "
        "notebook's folder.",
    )
    return [
        ("embedded", loaded.name, loaded.embeddable)
        if embed and kind == "upload" and loaded.embeddable is not None
        else (kind, loaded.name)
        for kind, loaded in files
    ]

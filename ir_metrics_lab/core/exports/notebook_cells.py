"""The pieces every notebook is built from, as plain dicts (nbformat 4.5 JSON: the app needs no Jupyter package):
Markdown and code cells, Python literals written by ``repr`` (``literal``), a Scenario as source, the setup cells
every notebook opens with, and the .ipynb text. Pure (no Streamlit).

Safe by construction: user text reaches a code cell only inside a literal, which cannot run code however it is
spelled (the page notebooks, ir_metrics_lab.core.exports.notebooks, and the teaching notebooks,
ir_metrics_lab.core.exports.teaching_notebooks, build on this).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence

from ir_metrics_lab.core.scenario import Scenario

NBFORMAT, NBFORMAT_MINOR = 4, 5
MIME = "application/x-ipynb+json"
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}
# The package is not on the package index: a kernel without it installs the clone it runs in, or what
# IR_METRICS_LAB_SOURCE names, and otherwise says so.
INSTALL = """\
# Installs the IR Metrics Lab if this kernel lacks it (Colab, Binder, a fresh environment); otherwise does nothing.
# From a clone of the repository it installs that clone; else IR_METRICS_LAB_SOURCE (a path, wheel or git URL of
# the repository: on Colab, run `%env IR_METRICS_LAB_SOURCE=...` first).
import importlib
import importlib.util
import os
import pathlib
import subprocess
import sys

if importlib.util.find_spec("ir_metrics_lab") is None:
    here = pathlib.Path.cwd()
    clones = (p for p in (here, *here.parents) if (p / "app.py").is_file() and (p / "ir_metrics_lab").is_dir())
    clone = next(clones, None)
    source = os.environ.get("IR_METRICS_LAB_SOURCE") or (str(clone) if clone else None)
    if source is None:
        raise ModuleNotFoundError(
            "The IR Metrics Lab is not installed in this kernel. Open the notebook from a clone of its repository, "
            "or set IR_METRICS_LAB_SOURCE to a path, wheel or git URL of it (%env IR_METRICS_LAB_SOURCE=...) and "
            "run this cell again."
        )
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", source])
    importlib.invalidate_caches()"""

# Tables of user text stay literal: pandas marks its HTML so MathJax leaves a "$x$" in a doc id alone.
IMPORTS = """\
import pandas as pd

from ir_metrics_lab.core import numbers
from ir_metrics_lab.core.figures import comparison_charts, curve_charts, heatmaps, query_charts, rank_charts
from ir_metrics_lab.core.scenario import Scenario
from metrics.core.conventions import Conventions

pd.set_option("display.html.use_mathjax", False)
pd.set_option("display.max_colwidth", None)
pd.set_option("display.width", 10_000)  # each row on one line in plain text too"""


# --- cells ---


WIDTH = 100  # a literal longer than this is written one item per line


def literal(value: object, indent: int = 0) -> str:
    """``value`` (str, int, float, bool, None, and tuples, lists, dicts and frozensets of them) as Python source that
    evaluates to it, laid out for reading (``indent``: the column it starts at). Every atom is written by ``repr``,
    so no text in a string can end the literal or run."""
    flat = _flat(value)
    if len(flat) + indent <= WIDTH or not isinstance(value, tuple | list | dict | frozenset) or not value:
        return flat
    pad, end = " " * (indent + 4), " " * indent
    if isinstance(value, dict):
        items = [f"{pad}{_flat(k)}: {literal(v, indent + 4)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + f"\n{end}}}"
    items = [f"{pad}{literal(v, indent + 4)}," for v in _ordered(value)]
    opening, closing = {tuple: ("(", ")"), list: ("[", "]"), frozenset: ("frozenset({", "})")}[type(value)]
    return opening + "\n" + "\n".join(items) + f"\n{end}{closing}"


def _ordered(value: object) -> list:
    return sorted(value, key=repr) if isinstance(value, frozenset) else list(value)  # a set: the same file each time


def _flat(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flat(k)}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(map(_flat, _ordered(value))) + "})" if value else "frozenset()"
    if isinstance(value, list):
        return "[" + ", ".join(map(_flat, value)) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(_flat, value)) + ("," if len(value) == 1 else "") + ")"
    if value is None or isinstance(value, bool | int | float | str):
        return repr(value)
    raise TypeError(f"not a plain literal: {type(value).__name__}")


def markdown_cell(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code_cell(source: str) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


def notebook(cells: Sequence[dict]) -> dict:
    """The cells as an nbformat 4.5 notebook, outputs empty, with stable cell ids (the same page gives the same
    file)."""
    numbered = [{"id": f"cell-{i}", **cell} for i, cell in enumerate(cells, start=1)]
    metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"}}
    return {"cells": numbered, "metadata": metadata, "nbformat": NBFORMAT, "nbformat_minor": NBFORMAT_MINOR}


def dumps(nb: Mapping) -> str:
    """The notebook as the .ipynb text Jupyter writes (one-space indent)."""
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _source(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def to_text(nb: Mapping) -> str:
    """The notebook as the .ipynb file, cells' sources split into lines as Jupyter saves them."""
    cells = [{**cell, "source": _source(cell["source"])} for cell in nb["cells"]]
    return dumps({**nb, "cells": cells})


def scenario_source(name: str, scn: Scenario) -> str:
    """``NAME = Scenario(...)``: every field the metrics read, each a literal, and every convention spelled out."""
    fields = {
        "ranking": tuple(scn.ranking),
        "shelf": tuple(scn.shelf),
        "grades": dict(scn.grades),
        "titles": dict(scn.titles),
        "k": scn.k,
        "scale": scn.scale,
        "tail": tuple(scn.tail),
        "unjudged": frozenset(scn.unjudged),
    }
    if scn.aspects:  # only a list with aspects: every other notebook's cell reads as before
        fields["aspects"] = {doc: tuple(names) for doc, names in scn.aspects.items()}
    lines = [f"{name} = Scenario("]
    lines += [f"    {field}={literal(value, 4)}," for field, value in fields.items()]
    conventions = [f"{f.name}={literal(getattr(scn.conventions, f.name))}" for f in dataclasses.fields(scn.conventions)]
    lines += [f"    conventions=Conventions({', '.join(conventions)}),", ")"]
    return "\n".join(lines)


def setup() -> list[dict]:
    """The cells every notebook runs first: install the library if the kernel lacks it, then the imports."""
    return [code_cell(INSTALL), code_cell(IMPORTS)]

"""Breakdown -> LaTeX with the user's numbers substituted. Pure (no Streamlit)."""

from __future__ import annotations

from metrics.conventions import Conventions
from metrics.types import Breakdown


def definition(family: str, conventions: Conventions) -> str:
    return rf"\mathrm{{{family}}}"


def latex(b: Breakdown) -> str:
    return rf"\mathrm{{{b.metric}}} = {b.value:.4f}"

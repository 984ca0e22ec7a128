"""Streamlit-side helpers shared by the pages. Only ui/state.py and ui/widgets*.py import streamlit;
the rest (scenario, formulas, charts, tables, narrative) are pure and unit-tested without a server."""

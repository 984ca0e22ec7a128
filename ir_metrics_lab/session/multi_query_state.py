"""The Many queries page's query set in the session: each query's list and grades, and its text."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import streamlit as st

from ir_metrics_lab.core.scenario import Scenario
from metrics.core.errors import InputError
from metrics.teaching.examples import CAT_DOG_PARROT

_QUERIES = "multi_queries"  # {query id: Scenario}
_QUERY_TEXTS = "multi_query_texts"  # {query id: text}


def _queries() -> dict[str, Scenario]:
    if _QUERIES not in st.session_state:
        reset_queries()
    return st.session_state[_QUERIES]


def _query_texts() -> dict[str, str]:
    _queries()
    return st.session_state[_QUERY_TEXTS]


def queries() -> Mapping[str, Scenario]:
    """The multi-query page's queries, each with its own list and grades (read-only: change them with set_query,
    add_query and remove_query)."""
    return MappingProxyType(_queries())


def query_texts() -> Mapping[str, str]:
    return MappingProxyType(_query_texts())


def set_query(query_id: str, new: Scenario) -> None:
    _queries()[query_id] = new


def add_query(query_id: str, new: Scenario, text: str = "") -> None:
    """Add a query (or replace the one with that id) with its list and its text."""
    if not query_id:
        raise InputError("id-empty", "a query needs an id")
    _queries()[query_id] = new
    _query_texts()[query_id] = text


def remove_query(query_id: str) -> None:
    _queries().pop(query_id, None)
    _query_texts().pop(query_id, None)


def set_query_text(query_id: str, text: str) -> None:
    if query_id not in _queries():
        raise ValueError(f"no query {query_id!r}")
    _query_texts()[query_id] = text


def reset_queries() -> None:
    example = CAT_DOG_PARROT
    st.session_state[_QUERIES] = {q: Scenario.from_example(example, q) for q in example.queries}
    st.session_state[_QUERY_TEXTS] = {q: query.text for q, query in example.queries.items()}

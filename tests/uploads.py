"""The Evaluate page opened on its upload source, and files uploaded to it (AppTest), for the tests of bad and
hostile uploads. Caches are cleared on both sides: no test sees another's files."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

YOUR_DATA = str(Path(__file__).parents[1] / "app_pages" / "your_data" / "your_data.py")


def opened(monkeypatch) -> Iterator[AppTest]:
    """A fixture's body: the page with "Upload files" chosen and no command-line files."""
    st.cache_resource.clear()
    st.cache_data.clear()
    monkeypatch.setattr(sys, "argv", ["your_data.py"])
    at = AppTest.from_file(YOUR_DATA, default_timeout=60).run()
    at.radio(key="yd_source").set_value("upload").run()
    yield at
    st.cache_resource.clear()
    st.cache_data.clear()


def upload(at: AppTest, run: tuple[str, bytes], qrels: tuple[str, bytes]) -> AppTest:
    """Put (name, bytes) into the run and qrels uploaders and rerun the page."""
    at.file_uploader(key="yd_run_upload").set_value((*run, "application/octet-stream"))
    at.file_uploader(key="yd_qrels_upload").set_value((*qrels, "application/octet-stream"))
    return at.run()

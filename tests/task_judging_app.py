"""A test-only app for the shared task's judging views in a browser, in app.py's frame (wide layout, presenter mode
from ``?presenter=1``, the first-paint watcher, the app's CSS and accessibility script) until the task's pages exist:
``?view=phone&code=C&student=S`` or ``?view=board&code=C&teacher=T``. Served by
tests/browser/test_task_judging_browser.py (``streamlit run tests/task_judging_app.py``) and for screenshots."""

import streamlit as st

from ir_metrics_lab.classroom.task_board import judging_board
from ir_metrics_lab.classroom.task_judging import judging_panel
from ir_metrics_lab.shell import a11y, first_paint, layout, presenter

st.set_page_config(page_title="IR Metrics Lab", layout="wide")
params = st.query_params
board = params.get("view") == "board"
title = "Judging board" if board else "Judge documents"
exit_row = presenter.apply(lambda: None)
with exit_row if exit_row is not None else st.sidebar:
    first_paint.watch()
with first_paint.page_run():
    st.title(title)
    if board:
        judging_board(params.get("code", ""), params.get("teacher"))
    else:
        judging_panel(params.get("code", ""), params.get("student", ""))
layout.apply()
a11y.apply(title)
first_paint.end_run()

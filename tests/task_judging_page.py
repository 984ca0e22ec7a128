"""A test-only page for the shared task's judging views on their own: ``?view=phone&code=C&student=S`` draws
ir_metrics_lab.classroom.task_judging.judging_panel, ``?view=board&code=C&teacher=T`` task_board.judging_board (AppTest
in tests/test_app_task_judging.py; the browser tests judge on the task's real pages,
tests/browser/test_shared_task_browser.py)."""

import streamlit as st

from ir_metrics_lab.classroom.task_board import judging_board
from ir_metrics_lab.classroom.task_judging import judging_panel

params = st.query_params
if params.get("view") == "board":
    st.title("Judging board")
    judging_board(params.get("code", ""), params.get("teacher"))
else:
    st.title("Judge documents")
    judging_panel(params.get("code", ""), params.get("student", ""))

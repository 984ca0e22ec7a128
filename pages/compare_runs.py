"""Compare two runs: per-query differences, wins/ties/losses, a bootstrap CI and paired significance tests.

Work in progress (issue "Your own data", part 2): loading is local until ui.datasets lands.
"""

from __future__ import annotations

import streamlit as st

from metrics.engine import evaluate
from metrics.io import InputError, read_qrels, read_run

PAGE = "cmp"

st.title("Compare two runs")
st.caption("Upload two TREC runs and their qrels: every query's difference, and whether it is more than chance.")

run_a_file = st.file_uploader("Run A", key=f"{PAGE}_run_a")
run_b_file = st.file_uploader("Run B", key=f"{PAGE}_run_b")
qrels_file = st.file_uploader("Qrels", key=f"{PAGE}_qrels")
if not (run_a_file and run_b_file and qrels_file):
    st.info("Upload two runs and the qrels to compare them.")
    st.stop()
try:
    run_a = read_run(run_a_file.getvalue(), run_a_file.name)
    run_b = read_run(run_b_file.getvalue(), run_b_file.name)
    qrels = read_qrels(qrels_file.getvalue(), qrels_file.name)
except InputError as error:
    st.error(str(error))
    st.stop()
measures = ["NDCG@10", "AP", "RR@10"]
a = evaluate(run_a, qrels, measures)
b = evaluate(run_b, qrels, measures)
st.dataframe({m: {"A": a.means[m], "B": b.means[m]} for m in measures})

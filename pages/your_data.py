"""Your data: upload a run and qrels (or pick the bundled samples) and evaluate them with trec_eval's numbers."""

import streamlit as st

st.title("Your data")
st.caption("Upload a run and its qrels, or pick the bundled sample data. (Work in progress.)")

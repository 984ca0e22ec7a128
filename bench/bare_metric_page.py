"""The baseline for bench/first_visit.py: a bare Streamlit page with one st.metric, nothing else."""

import streamlit as st

st.metric("NDCG@5", "0.9724")

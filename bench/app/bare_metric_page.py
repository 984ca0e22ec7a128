"""The baseline for bench/app/first_visit.py: a bare Streamlit page with one st.metric, nothing else.

bench/app/layout_shift_floor.py runs it with ``-- wide`` (the app's layout) and ``-- wide sidebar`` (and two sidebar
links, as the app's navigation) to measure the layout shift Streamlit's frontend itself causes before a number."""

import sys

import streamlit as st

if "wide" in sys.argv[1:]:
    st.set_page_config(layout="wide")
if "sidebar" in sys.argv[1:]:
    with st.sidebar:
        st.page_link("https://example.org/one", label="Link one")
        st.page_link("https://example.org/two", label="Link two")
st.metric("NDCG@5", "0.9724")

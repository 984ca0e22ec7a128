"""Swap heatmap: being built (classroom features)."""

import streamlit as st

st.title("Swap heatmap")
st.info("This page is being built.")

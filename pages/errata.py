"""Errata in popular posts: being built (classroom features)."""

import streamlit as st

st.title("Errata in popular posts")
st.info("This page is being built.")

"""Conventions explorer: being built (classroom features)."""

import streamlit as st

st.title("Conventions explorer")
st.info("This page is being built.")

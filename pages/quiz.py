"""Quiz: being built (classroom features)."""

import streamlit as st

st.title("Quiz")
st.info("This page is being built.")

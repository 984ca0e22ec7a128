"""IR Metrics Lab: the Streamlit entrypoint. It routes to the pages; it computes nothing."""

import streamlit as st

st.set_page_config(page_title="IR Metrics Lab", page_icon=":material/leaderboard:", layout="wide")
st.title("IR Metrics Lab")
st.write("Learn how search and RAG retrievers are scored. The interactive pages are on their way.")

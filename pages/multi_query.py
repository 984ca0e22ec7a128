import streamlit as st

st.title("Many queries: MRR, MAP, mean NDCG")
st.write("This lesson is being written.")

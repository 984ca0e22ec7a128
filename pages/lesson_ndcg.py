import streamlit as st

st.title("DCG, IDCG and NDCG")
st.write("This lesson is being written.")

import streamlit as st

st.title("Reciprocal rank (RR / MRR)")
st.write("This lesson is being written.")

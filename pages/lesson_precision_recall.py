import streamlit as st

st.title("Precision, recall, hit rate, F1")
st.write("This lesson is being written.")

import streamlit as st

st.title("Average precision (AP / MAP)")
st.write("This lesson is being written.")

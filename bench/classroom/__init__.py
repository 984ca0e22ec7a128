"""A class on one server: browser sessions per server, a live poll's answers and reveal, a lecture hall of phones as
Streamlit sessions without a browser (streamlit_phones, which tests/test_live_balancer.py uses too)."""

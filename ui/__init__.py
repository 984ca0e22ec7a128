"""Streamlit-side helpers shared by the pages; scenario, charts, tables, narrative, url, words and quiz are pure and
unit-tested without a server. Importing the package imports nothing: ``ir-metrics-lab --help`` reads ui.cli_args
without loading Streamlit."""

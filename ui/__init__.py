"""Streamlit-side helpers shared by the pages; charts, tables, narrative, url, words and quiz are pure and unit-tested
without a server (the playground's Scenario and the literal-text helper are lab_core's, below ui). Importing the
package imports nothing: ``ir-metrics-lab --help`` reads ui.cli_args without loading Streamlit."""

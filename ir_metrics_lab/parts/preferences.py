"""The app's words on trec_eval's measures of other judgments: preferences (-R prefs) and judgment groups
(-R qrels_jg), and yaap. The text and numbers come from metrics.preferences.preference_example and
metrics.teaching.worked_example; this module only renders them."""

from __future__ import annotations

import streamlit as st

from ir_metrics_lab.core.markdown import plain
from metrics.catalog import registry
from metrics.preferences.preference_example import preference_example
from metrics.teaching.worked_example import WorkedExample, yaap_example

# what the playground's list is, read by a measure of other judgments (TrecEval.reads)
READ_AS = {
    "prefs": "Here the playground's grades are read as one user's preferences (trec_eval -R qrels_prefs): a higher "
    "grade is preferred to a lower one. The Conventions explorer says what preference measures are for.",
    "qrels_jg": "Here the playground's grades are one judgment group (one user), so the average over groups is the "
    "measure itself; with trec_eval -R qrels_jg each query's groups are averaged.",
}


def note(family_key: str, where=st) -> None:
    """A caption under a measure that reads other judgments than qrels: how the playground's list is read."""
    reads = registry.family(family_key).trec_eval.reads
    for judgments, text in READ_AS.items():
        if judgments in reads and "qrels" not in reads:
            where.caption(text)


def worked(example: WorkedExample) -> None:
    with st.container(border=True):
        st.subheader(example.title, anchor=False)
        st.markdown(plain(example.purpose))
        st.markdown(f"**Worked example.** {plain(example.setup)}")
        st.markdown("\n".join(f"- {plain(step)}" for step in example.steps))


def section() -> None:
    """The conventions explorer's section: preference measures and yaap, what for, with a worked example each."""
    st.subheader("Beyond graded qrels: preferences, and yaap", anchor=False)
    worked(preference_example())
    worked(yaap_example())

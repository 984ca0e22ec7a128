"""Errata in popular posts: what each post printed, the correct value (computed live by metrics), and why.

Renders ir_metrics_lab.core.lessons.errata.errata(); computes nothing itself.
"""

import streamlit as st

from ir_metrics_lab.core.lessons.errata import Erratum, errata
from ir_metrics_lab.core.paths import PLAYGROUND_PAGE
from ir_metrics_lab.session import playground_state
from ir_metrics_lab.shell.streamlit_internals import StreamlitAPIException
from metrics.teaching.blog_posts import SOURCES

PAGE = "errata"

st.title("Errata in popular posts")
st.markdown(
    "The worked examples of four popular blog posts on retrieval metrics, recomputed. Each row shows what the post "
    "printed, the value trec_eval's conventions give (computed live by this app's metrics), and the one-line "
    "reason. **Open in playground** loads the example so you can drag it and watch every number."
)


def open_in_playground(erratum: Erratum) -> None:
    playground_state.load(erratum.scenario, f"The example of “{SOURCES[erratum.seed].short}”, from the errata")
    try:
        st.switch_page(PLAYGROUND_PAGE)
    except StreamlitAPIException:  # this page runs on its own, without the app's navigation
        st.success("Loaded into the Playground. Open the Playground page to work with it.")


def row(e: Erratum) -> None:
    with st.container(border=True):
        st.markdown(f"**{e.claim}**")
        printed, correct = st.columns(2)
        printed.markdown(f":red[**The post:**] {e.printed}")
        correct.markdown(f":green[**Correct:**] {e.correct}")
        st.caption(e.reason)
        if e.scenario is not None:
            if st.button("Open in playground", key=f"{PAGE}_open_{e.key}", icon=":material/open_in_new:"):
                open_in_playground(e)
            if e.open_note:
                st.caption(e.open_note)
        elif e.open_note:
            st.caption(e.open_note)


entries = errata()
for key, source in SOURCES.items():
    st.subheader(source.title, anchor=False, help=source.teaches)
    for e in entries:
        if e.seed == key:
            row(e)

st.caption(
    "The posts' math images were not available as text, so only claims made in the text are checked. The float "
    "scores of *Metrics for Information Retrieval* are mapped to grades explicitly: relevant if score ≥ 0.5, or "
    "round(10 × score) for NDCG. The **Sources** page says what each post teaches."
)

"""Sources: the blog posts the examples and errata come from, by name; what each teaches, and where the errata page
corrects it. Renders metrics.teaching.blog_posts and ir_metrics_lab.core.lessons.errata.errata(); computes nothing
itself."""

import streamlit as st

from ir_metrics_lab.core.lessons.errata import errata
from ir_metrics_lab.core.paths import ERRATA_PAGE
from ir_metrics_lab.shell.streamlit_internals import StreamlitAPIException
from metrics.teaching.blog_posts import SOURCES
from metrics.teaching.examples import EXAMPLES

st.title("Sources")
st.markdown(
    "The worked examples in this app come from four popular blog posts on retrieval metrics. Each is named here by "
    "its title, with what it teaches, the examples taken from it, and what the **Errata** page corrects. Every "
    "number the app shows is recomputed with trec_eval's conventions, never copied from a post."
)

corrections = errata()
for key, source in SOURCES.items():
    with st.container(border=True):
        st.subheader(source.title, anchor=False)
        st.caption(f"Called *{source.short}* in the lessons.")
        st.markdown(source.teaches)
        examples = [e.title for e in EXAMPLES.values() if e.source == source.title]
        if examples:
            st.markdown("**Examples in the playground:** " + "; ".join(examples) + ".")
        fixed = [e.claim for e in corrections if e.seed == key]
        count = f"{len(fixed)} correction" + ("" if len(fixed) == 1 else "s")
        st.markdown(f"**On the Errata page ({count}):**" + "".join(f"\n- {claim}" for claim in fixed))

try:
    st.page_link(ERRATA_PAGE, label="Open the errata", icon=":material/fact_check:")
except StreamlitAPIException:  # this page runs on its own, without the app's navigation
    st.caption("Open the Errata page from the app's navigation.")

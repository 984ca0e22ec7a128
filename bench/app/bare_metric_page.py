"""The baseline for bench/app/first_visit.py: a bare Streamlit page with one st.metric, nothing else.

bench/app/layout_shift_floor.py runs it with ``-- wide`` (the app's layout) and ``-- wide sidebar`` (and two sidebar
links, as the app's navigation) to measure the layout shift Streamlit's frontend itself causes before a number.
bench/app/first_visit_floor.py adds, one by one, what every page of the app sends besides its own content, to time
what each costs a bare page's first number: ``links`` (the sidebar's 20 page links and its text, as
ir_metrics_lab/shell/navigation.py), and after the number ``css`` (a style block as Markdown HTML, as
ir_metrics_lab/shell/css.py), ``component`` (a custom component's script, as ir_metrics_lab/shell/a11y.py) and
``latex`` (one formula, as ir_metrics_lab/shell/first_paint.py's preload of KaTeX). bench/app/code_box_cost.py adds
``code``: a closed expander holding a code box, as a lesson's "Show the code" was drawn before
ir_metrics_lab/parts/lazy_expander.py."""

import sys

import streamlit as st

options = sys.argv[1:]
if "wide" in options:
    st.set_page_config(layout="wide")
if "sidebar" in options:
    with st.sidebar:
        st.page_link("https://example.org/one", label="Link one")
        st.page_link("https://example.org/two", label="Link two")
if "links" in options:
    with st.sidebar:
        for section in range(5):
            st.markdown(f"**Section {section + 1}**")
            for link in range(4):
                st.page_link(f"https://example.org/{section}/{link}", label=f"Page {section + 1}.{link + 1}")
        st.divider()
        st.markdown("**A bare page**")
        st.caption("One number, and the frame every page of the app has.")
st.metric("NDCG@5", "0.9724")
if "css" in options:
    rules = "".join(f".bare-{i} {{ margin: {i}px; padding: {i}px; }}\n" for i in range(150))  # about the app's 5 kB
    st.markdown(f'<style>{rules}</style><span class="bare-css"></span>', unsafe_allow_html=True)
if "component" in options:
    script = "export default function (component) { component.parentElement.dataset.mounted = 'yes'; }"
    st.components.v2.component("bare_component", js=script)(key="bare_component")
if "latex" in options:
    st.latex(r"\mathrm{NDCG}")
if "code" in options:
    with st.expander("Show the code"):
        st.code("def ndcg(ranking, qrels, k):\n    return dcg(ranking, qrels, k) / idcg(qrels, k)\n", language="python")

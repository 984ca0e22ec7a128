"""IR Metrics Lab: the Streamlit entrypoint. It routes to the pages and draws the shared frame; it computes nothing."""

from pathlib import Path

import streamlit as st

from ui import deeplink, layout, presenter

legacy_router_ran = deeplink.legacy_router_ran()  # before st.navigation, which switches the legacy router off

ICON = Path(__file__).parent / "assets" / "icon.png"  # local: a :material: favicon is fetched from the internet
st.set_page_config(page_title="IR Metrics Lab", page_icon=str(ICON), layout="wide")

DEFAULT_PATH = "playground"  # the default page is served at "/" and at /playground
PAGES = {
    "Play": [
        st.Page(
            "pages/playground.py",
            title="Playground",
            icon=":material/drag_indicator:",
            url_path=DEFAULT_PATH,
            default=True,
        ),
        st.Page("pages/ab.py", title="Retriever A vs B", icon=":material/compare_arrows:", url_path="a-vs-b"),
        st.Page("pages/multi_query.py", title="Multi-query", icon=":material/stacks:", url_path="multi-query"),
        st.Page("pages/swap_heatmap.py", title="Swap heatmap", icon=":material/grid_on:", url_path="swap-heatmap"),
        st.Page("pages/quiz.py", title="Quiz", icon=":material/quiz:", url_path="quiz"),
    ],
    "Learn": [
        st.Page(
            "pages/lesson_precision_recall.py",
            title="Precision & recall",
            icon=":material/filter_alt:",
            url_path="precision-recall",
        ),
        st.Page("pages/lesson_rr.py", title="Reciprocal rank", icon=":material/looks_one:", url_path="reciprocal-rank"),
        st.Page(
            "pages/lesson_ap.py", title="Average precision", icon=":material/stairs:", url_path="average-precision"
        ),
        st.Page("pages/lesson_ndcg.py", title="DCG & NDCG", icon=":material/signal_cellular_alt:", url_path="ndcg"),
        st.Page(
            "pages/lesson_pr_curve.py",
            title="R-precision & PR curve",
            icon=":material/show_chart:",
            url_path="pr-curve",
        ),
        st.Page(
            "pages/lesson_unjudged.py", title="Unjudged documents", icon=":material/help_center:", url_path="unjudged"
        ),
        st.Page(
            "pages/lesson_user_models.py",
            title="User models: RBP & ERR",
            icon=":material/person_search:",
            url_path="user-models",
        ),
    ],
    "Your data": [
        st.Page("pages/your_data.py", title="Evaluate a run", icon=":material/upload_file:", url_path="your-data"),
        st.Page("pages/compare_runs.py", title="Compare runs", icon=":material/difference:", url_path="compare"),
    ],
    "Live class": [
        st.Page("pages/ask_class.py", title="Ask the class", icon=":material/campaign:", url_path="ask-the-class"),
        st.Page("pages/join_class.py", title="Join a class", icon=":material/phone_iphone:", url_path="join"),
    ],
    "Reference": [
        st.Page("pages/conventions.py", title="Conventions explorer", icon=":material/rule:", url_path="conventions"),
        st.Page("pages/errata.py", title="Errata in popular posts", icon=":material/fact_check:", url_path="errata"),
        st.Page("pages/sources.py", title="Sources", icon=":material/menu_book:", url_path="sources"),
    ],
}

st.logo(":material/leaderboard:", size="large")
page = st.navigation(PAGES, expanded=True)  # every page visible: no "View more" fold
deeplink.dismiss_if_spurious(
    [p.url_path or DEFAULT_PATH for pages in PAGES.values() for p in pages], legacy_router_ran
)
layout.apply()
presenter.apply()  # before the page, so its exit button sits at the top
with st.sidebar:
    st.markdown("**IR Metrics Lab**")
    st.caption("Rank documents, grade them, and see how every retrieval metric responds.")
    st.divider()
presenter.sidebar_toggle()
page.run()

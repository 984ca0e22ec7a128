"""IR Metrics Lab: the Streamlit entrypoint. It routes to the pages and draws the shared frame; it computes nothing."""

from pathlib import Path

import streamlit as st

from ir_metrics_lab.shell import a11y, compressed_static, first_paint, layout, navigation, presenter

# Streamlit's JavaScript gzipped from now on (`ir-metrics-lab` does it before its server starts).
compressed_static.install()

ICON = Path(__file__).parent / "assets" / "icon.png"  # local: a :material: favicon is fetched from the internet
st.set_page_config(page_title="IR Metrics Lab", page_icon=str(ICON), layout="wide")

# Streamlit serves the default page at "/" only (its url_path just names it), so the address people type and share,
# /playground, is a second, hidden page running the same script. The pages live in app_pages/, not pages/: a pages/
# folder beside app.py sends a fresh server's first session through Streamlit's legacy router, which reports every
# st.navigation path as "Page not found" (streamlit/streamlit#9624, #9992).
PLAYGROUND_ALIAS = st.Page(
    "app_pages/play/playground.py", title="Playground", url_path="playground", visibility="hidden"
)
PAGES = {
    "Play": [
        st.Page(
            "app_pages/play/playground.py",
            title="Playground",
            icon=":material/drag_indicator:",
            url_path="playground-home",  # never in an address: the default page is served at "/"
            default=True,
        ),
        PLAYGROUND_ALIAS,
        st.Page("app_pages/play/ab.py", title="Retriever A vs B", icon=":material/compare_arrows:", url_path="a-vs-b"),
        st.Page("app_pages/play/multi_query.py", title="Multi-query", icon=":material/stacks:", url_path="multi-query"),
        st.Page(
            "app_pages/play/swap_heatmap.py", title="Swap heatmap", icon=":material/grid_on:", url_path="swap-heatmap"
        ),
        st.Page("app_pages/play/quiz.py", title="Quiz", icon=":material/quiz:", url_path="quiz"),
    ],
    "Learn": [
        st.Page(
            "app_pages/learn/lesson_precision_recall.py",
            title="Precision & recall",
            icon=":material/filter_alt:",
            url_path="precision-recall",
        ),
        st.Page(
            "app_pages/learn/lesson_rr.py",
            title="Reciprocal rank",
            icon=":material/looks_one:",
            url_path="reciprocal-rank",
        ),
        st.Page(
            "app_pages/learn/lesson_ap.py",
            title="Average precision",
            icon=":material/stairs:",
            url_path="average-precision",
        ),
        st.Page(
            "app_pages/learn/lesson_ndcg.py", title="DCG & NDCG", icon=":material/signal_cellular_alt:", url_path="ndcg"
        ),
        st.Page(
            "app_pages/learn/lesson_pr_curve.py",
            title="R-precision & PR curve",
            icon=":material/show_chart:",
            url_path="pr-curve",
        ),
        st.Page(
            "app_pages/learn/lesson_unjudged.py",
            title="Unjudged documents",
            icon=":material/help_center:",
            url_path="unjudged",
        ),
        st.Page(
            "app_pages/learn/lesson_user_models.py",
            title="User models: RBP & ERR",
            icon=":material/person_search:",
            url_path="user-models",
        ),
        st.Page(
            "app_pages/learn/lesson_diversity.py",
            title="Diversity and novelty",
            icon=":material/diversity_3:",
            url_path="diversity",
        ),
    ],
    "Your data": [
        st.Page(
            "app_pages/your_data/your_data.py",
            title="Evaluate a run",
            icon=":material/upload_file:",
            url_path="your-data",
        ),
        st.Page(
            "app_pages/your_data/compare_runs.py",
            title="Compare runs",
            icon=":material/difference:",
            url_path="compare",
        ),
        st.Page(
            "app_pages/your_data/tool_difference.py",
            title="Why tools differ",
            icon=":material/balance:",
            url_path="why-tools-differ",
        ),
    ],
    "Live class": [
        st.Page(
            "app_pages/live_class/ask_class.py",
            title="Ask the class",
            icon=":material/campaign:",
            url_path="ask-the-class",
        ),
        st.Page(
            "app_pages/live_class/join_class.py", title="Join a class", icon=":material/phone_iphone:", url_path="join"
        ),
        st.Page(
            "app_pages/live_class/shared_task.py",
            title="Shared task",
            icon=":material/emoji_events:",
            url_path="shared-task",
        ),
        st.Page(
            "app_pages/live_class/join_task.py",
            title="Join a shared task",
            icon=":material/group_add:",
            url_path="task",
        ),
    ],
    "Reference": [
        st.Page(
            "app_pages/reference/conventions.py",
            title="Conventions explorer",
            icon=":material/rule:",
            url_path="conventions",
        ),
        st.Page(
            "app_pages/reference/errata.py",
            title="Errata in popular posts",
            icon=":material/fact_check:",
            url_path="errata",
        ),
        st.Page("app_pages/reference/sources.py", title="Sources", icon=":material/menu_book:", url_path="sources"),
    ],
}

# Streamlit's own sidebar menu is hidden: its markup fails WCAG (ir_metrics_lab/shell/navigation.py draws the links
# instead).
page = st.navigation(PAGES, position="hidden")
# A phone joining a class gets its page alone: no logo and no sidebar, whose icons (and the sidebar's button) would
# fetch the 375 kB icon font, and whose links, text and toggle three more kinds of element's code
# (docs/performance.md, A phone's first visit); a link at the foot leads to the rest of the app.
PHONE_PAGE = page.url_path == compressed_static.PHONE_PAGE
if not PHONE_PAGE:
    st.logo(":material/leaderboard:", size="large")


def pages_menu() -> None:
    """Presenter mode's menu of pages, beside its Exit button: after the first paint, in a room of its height."""
    first_paint.later("presenter_menu", lambda: navigation.menu(PAGES, page.url_path), first_paint.BUTTON)


# Presenter mode draws no sidebar (a projector shows the page alone), so nothing pushes the page aside as it loads.
exit_row = presenter.apply(pages_menu)  # before the page: its CSS in the first paint
if exit_row is None and PHONE_PAGE:
    first_paint.watch()
elif exit_row is None:
    navigation.sidebar(PAGES)
    with st.sidebar:
        st.divider()
        st.markdown("**IR Metrics Lab**")
        st.caption("Rank documents, grade them, and see how every retrieval metric responds.")
        st.divider()
        first_paint.watch()  # charts after the first screen has painted (ir_metrics_lab/shell/first_paint.py)
    first_paint.later("presenter_toggle", presenter.sidebar_toggle)  # last in the sidebar but the settings (later)
else:
    with exit_row:
        first_paint.watch()
with first_paint.page_run():  # a new visitor's first run may end after the numbers
    page.run()
if PHONE_PAGE and exit_row is None:
    st.page_link(PLAYGROUND_ALIAS, label="All of IR Metrics Lab")  # the alias: no icon, whose font it would fetch
first_paint.preload()  # KaTeX's code, fetched once the numbers are on screen (ir_metrics_lab/shell/first_paint.py)
# The CSS last: its element is a line tall until its style applies (a few hundred ms into a new visitor's first
# paint), and at the top it would move the page when it went.
layout.apply()
a11y.apply(page.title)
first_paint.end_run()

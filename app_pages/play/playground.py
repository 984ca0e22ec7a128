"""Playground: drag documents, grade them, and watch every metric, formula and chart follow. Renders only: the numbers
come from metrics/ (via ir_metrics_lab.core.numbers.breakdowns), the formulas from metrics.teaching.formulas, the
charts from ir_metrics_lab.core.figures."""

import streamlit as st

from ir_metrics_lab.core import family_display, numbers, url, words
from ir_metrics_lab.core.drilldown import tail_note
from ir_metrics_lab.core.exports import export, notebooks
from ir_metrics_lab.core.figures import curve_charts, rank_charts
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import (
    cards,
    lazy_expander,
    list_editor,
    list_settings,
    notebook_button,
    preferences,
    scenario_numbers,
    sortable,
    teaching,
)
from ir_metrics_lab.session import drilldown, playground_state
from ir_metrics_lab.shell import a11y, first_paint, presenter
from metrics.teaching import formulas

LIST_KEY = "pg_list"
FORMULAS_ROOM = 760  # px: the open NDCG tab (two formulas, two charts) at 1440 px

sortable.consume(
    LIST_KEY, playground_state.scenario, playground_state.update
)  # a drop is applied before anything is drawn


def settings_controls() -> None:
    list_settings.k_control("pg", playground_state.scenario, playground_state.update)
    list_settings.convention_controls("pg", playground_state.scenario, playground_state.update)


def settings() -> None:
    st.subheader("Settings")
    settings_controls()


def settings_expander() -> None:
    """Presenter mode's settings: it draws no sidebar (app.py), so they open under the share expander."""
    with st.expander("Settings: k and conventions", icon=":material/tune:"):
        settings_controls()


if not presenter.is_on():
    with (
        st.sidebar
    ):  # the end of the sidebar: nothing moves when the settings arrive (ir_metrics_lab.shell.first_paint.later)
        first_paint.later("pg_settings", settings)

st.title("Playground")
st.caption(
    "Drag the cards (or use ▲ ▼, Alt+↑/↓, or *Move … to rank*), click a grade, and every number follows. "
    "The small number under each value is the change since your last edit."
)
# Shown on the run that stays on screen: a new visitor's first run is followed by a second
# (ir_metrics_lab.shell.first_paint).
link_warnings = playground_state.pop_link_warnings() if first_paint.charts_now() else playground_state.link_warnings()
if link_warnings:
    st.warning(
        "**This link had problems.** The rest of it was loaded; each bad part fell back to its default:\n"
        + "\n".join(f"- {plain(w)}" for w in link_warnings),
        icon=":material/link_off:",
    )
drilldown.show_opened_message()  # once, after a query was opened from a run (ir_metrics_lab.session.drilldown)
list_editor.preset_picker("pg")

scn = playground_state.scenario()  # every edit has been applied by now (callbacks run first; drops by consume above)
now = numbers.breakdowns(scn)
link_problem = playground_state.write_link()  # the address bar is always a link to what is on screen

# A new visitor's first run leaves the heavy parts (the data grid, formulas and charts) for the run
# after the numbers and the list have painted (ir_metrics_lab.shell.first_paint).
heavy_now = first_paint.charts_now()


def share_export() -> None:
    if link_problem:
        st.warning(plain(link_problem[:1].upper() + link_problem[1:]) + ".", icon=":material/link_off:")
    else:
        st.code(url.full_link(st.context.url, scn), language=None, wrap_lines=True)
        if scn.tail:
            st.caption(
                f"This link carries the {words.count(len(scn.ranking), 'document')} on the list, not the "
                f"{len(scn.tail)} hidden {'one' if len(scn.tail) == 1 else 'ones'} "
                "after them, so numbers over the whole list (AP, RR) can differ when it is opened."
            )
        else:
            st.caption(
                "Opening this link (in any browser) reproduces this list, its grades, titles, k and conventions, so "
                "the same numbers. The address bar always holds it too; the button at the right of the box copies it."
            )
    ordered = {family: now[family] for family in (*cards.ORDER_AWARE, *cards.SET_BASED)}
    md_col, csv_col, notebook_col, presenter_col = st.columns(4, vertical_alignment="center")
    md_col.download_button(
        "Worked solution (.md)",
        export.markdown(scn, ordered, url.app_address(st.context.url, st.context.headers)),
        file_name="ir-metrics-scenario.md",
        mime="text/markdown",
        key="pg_export_md",
        icon=":material/description:",
        on_click="ignore",
        width="stretch",
        help="The ranked list, the conventions and every formula with your numbers (Markdown with LaTeX).",
    )
    csv_col.download_button(
        "Numbers (.csv)",
        export.csv(scn, ordered),
        file_name="ir-metrics-scenario.csv",
        mime="text/csv",
        key="pg_export_csv",
        icon=":material/table:",
        on_click="ignore",
        width="stretch",
        help="One row per metric: value, k and conventions.",
    )
    notebook_button.button(
        notebooks.playground(scn), "ir-metrics-playground.ipynb", "pg_notebook", notebook_col, width="stretch"
    )
    with presenter_col:
        presenter.toggle("pg_presenter")


# Its link box, downloads and notebook are built and drawn once it is opened (ir_metrics_lab.parts.lazy_expander).
if share_box := lazy_expander.opened("Share, export, present", key="pg_share_export", icon=":material/ios_share:"):
    with share_box:
        share_export()
if presenter.is_on():
    first_paint.later("pg_presenter_settings", settings_expander, first_paint.CLOSED_EXPANDER)
before = numbers.breakdowns(playground_state.previous()) if playground_state.previous() is not None else None
a11y.announce(a11y.numbers_changed(now, before, [*cards.ORDER_AWARE, *cards.SET_BASED]))  # screen readers
cards.sticky_summary(now)  # phones: the key numbers stay in view while the list is edited


def card_rows() -> None:
    """The metric cards, order-aware first, then order-unaware."""
    st.markdown("**Order-aware** · reward putting relevant documents first")
    cards.metric_cards(now, before, cards.ORDER_AWARE)
    st.markdown("**Order-unaware** · count only what made it into the top k")
    cards.metric_cards(now, before, cards.SET_BASED)


def ranked_list() -> None:
    st.subheader("Ranked list", anchor=False)
    sortable.ranked_list(
        LIST_KEY, playground_state.scenario, playground_state.update, label="Retrieved documents, best first"
    )
    if note := tail_note(playground_state.scenario()):
        st.caption(note)
    if unjudged := [doc for doc in playground_state.scenario().ranking if doc in playground_state.scenario().unjudged]:
        st.caption(
            f"Unjudged, no qrels line (shown as grade 0): {plain(', '.join(unjudged))}. Mark or unmark documents, "
            "and see what it changes, in the *Unjudged documents* lesson."
        )
    list_editor.list_controls("pg", playground_state.scenario, playground_state.update, playground_state.reset)


def judged_not_retrieved() -> None:
    st.subheader(
        "Judged but not retrieved",
        anchor=False,
        help="Relevant documents the retriever missed still count in R (recall, AP) and in the ideal ordering (IDCG).",
    )
    list_editor.shelf("pg", playground_state.scenario, playground_state.update)
    cards.judgment_summary(now)
    with st.expander("Add, rename or remove documents", icon=":material/edit_note:"):
        if heavy_now:  # a data grid
            list_editor.document_editor("pg", playground_state.scenario, playground_state.update)


if presenter.is_on():  # a projector: the list and the numbers it drives side by side, in the first screen
    list_col, numbers_col = st.columns([4, 6], gap="large")
    with list_col:
        ranked_list()
    with numbers_col:
        card_rows()
        judged_not_retrieved()
else:
    card_rows()
    list_col, shelf_col = st.columns([6, 5], gap="large")
    with list_col:
        ranked_list()
    with shelf_col:
        judged_not_retrieved()


def formula_beside_bars(family: str) -> None:
    """The worked formula of one uncut metric beside its per-rank bars (clipped to the ranks on screen)."""
    formula_col, chart_col = st.columns(2)
    formula_col.latex(formulas.latex(now[family]))
    teaching.chart(
        drilldown.clip_to_shown(rank_charts.contributions(now[family], titles=scn.titles), scn),
        f"pg_{family.lower()}_bars",
        chart_col,
    )


def worked_formulas() -> None:
    """The tabs of formulas and charts (a new visitor's first run reserves their room:
    ir_metrics_lab.shell.first_paint)."""
    if not heavy_now:
        st.container(height=FORMULAS_ROOM, border=False, key="pg_formulas_first_paint")
        first_paint.formulas_follow()
        return
    own_tabs = family_display.playground_tabs()  # NDCG, AP, RR: a tab each
    *family_tabs, pr_tab, curves_tab, any_tab = st.tabs(
        [*own_tabs, "Precision & recall", "Metric@k curves", "Any measure"], key="pg_tab", on_change="rerun"
    )
    # Only the open tab is built: one drag then redraws at most two charts.
    for family, tab in zip(own_tabs, family_tabs, strict=True):
        with tab:
            if tab.open:
                family_formulas(family)
    with pr_tab:
        if pr_tab.open:
            set_based_formulas()
    with curves_tab:
        if curves_tab.open:
            metric_curves()
    with any_tab:
        if any_tab.open:
            any_measure()


def family_formulas(family: str) -> None:
    """A family's own tab: its worked formula and per-rank bars (NDCG: IDCG's formula under its own, the ideal
    ordering beside its bars)."""
    shown = family_display.display(family)
    if shown.beside or shown.versus:
        st.latex(formulas.latex(now[family]))
        for other in shown.beside:
            st.latex(formulas.latex(now[other]))
        left, right = st.columns(2)
        bars = rank_charts.contributions(now[family], titles=scn.titles)
        teaching.chart(bars, f"pg_{family.lower()}_bars", left)
        if shown.versus:
            actual, ideal = shown.versus
            teaching.chart(rank_charts.ideal_vs_actual(now[actual], now[ideal]), "pg_ideal", right)
    else:
        formula_beside_bars(family)


def set_based_formulas() -> None:
    """The Precision & recall tab: the order-unaware cards' formulas, and the bars of those that have them."""
    left, right = st.columns(2)
    for index, family in enumerate(cards.SET_BASED):
        (left if index % 2 == 0 else right).latex(formulas.latex(now[family]))
    for family in cards.SET_BASED:
        if family_display.display(family).bars:
            bars = rank_charts.contributions(now[family], titles=scn.titles)
            teaching.chart(bars, f"pg_{family.lower()}_bars", right)


def metric_curves() -> None:
    """The Metric@k curves tab: each metric at every cutoff, and the precision-recall curve."""
    series = scenario_numbers.curves(scn)
    teaching.chart(curve_charts.curves(series, scn.k, "Each metric at every cutoff"), "pg_curves")
    if note := curve_charts.coincide_note(series):
        st.caption(note)
    st.caption("The marked line is the current k. P@k falls once relevant documents run out; R@k can only grow.")
    teaching.chart(scenario_numbers.precision_recall_chart(scn), "pg_pr_curve")
    st.caption(
        "The precision-recall curve: one point per rank (blue) and trec_eval's interpolated precision at 11 "
        "recall levels (orange). The *R-precision & PR curve* lesson walks through it."
    )


def any_measure() -> None:
    """The Any measure tab: a catalog measure picked by name, its definition, worked formula and bars."""
    choices = scenario_numbers.catalog_choices(scn.k)
    picked = st.selectbox(
        "Measure",
        choices,
        key="pg_any_measure",
        help="Every measure in the catalog, at the playground's k. The Evaluate page takes all of them too.",
    )
    chosen = scenario_numbers.measure_breakdown(scn, picked or choices[0])
    formula_col, chart_col = st.columns(2)
    formula_col.latex(formulas.definition(chosen.family, chosen.conventions))
    formula_col.latex(formulas.latex(chosen))
    preferences.note(chosen.family, formula_col)  # a measure of preferences or judgment groups
    if chosen.text is None:
        teaching.chart(
            drilldown.clip_to_shown(rank_charts.contributions(chosen, titles=scn.titles), scn),
            "pg_any_bars",
            chart_col,
        )
    else:  # relstring: characters, not numbers that add up
        chart_col.caption(
            "No bars: this measure's value is a string, one character per rank, not a sum of contributions."
        )


st.subheader("How each number is computed", anchor=False)
worked_formulas()

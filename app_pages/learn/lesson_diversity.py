"""Lesson: diversity and novelty. alpha-nDCG beside NDCG, rank by rank, the greedy ideal ordering and ERR-IA as the
mean of each aspect's ERR, on the Playground's list, whose documents cover aspects. Renders
ir_metrics_lab.core.lessons.diversity (metrics.families.alpha_ndcg, err_ia, ndcg); computes nothing."""

import streamlit as st

from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.figures import rank_charts
from ir_metrics_lab.core.lessons import diversity as dv
from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.paths import ASK_THE_CLASS_PAGE
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, MAX_ASPECTS, Scenario
from ir_metrics_lab.parts import cards, notebook_button, sortable, teaching
from ir_metrics_lab.session import live_state, playground_state, widget_state
from ir_metrics_lab.shell import first_paint
from ir_metrics_lab.shell.streamlit_internals import StreamlitAPIException
from metrics import alpha_ndcg, err_ia
from metrics.catalog import registry
from metrics.diversity.ideal import ideal_ranking
from metrics.teaching.examples import EXAMPLES

LESSON = LESSONS["diversity"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_diversity"
ALPHA = registry.family("alpha_nDCG").param("alpha")
ORIGIN = "The diversity lesson's example"
# The aspect editor's height once drawn (two labelled widgets, one above the other; first_paint.later)
ASPECT_EDITOR = first_paint.Room(wide=152, phone=152, presenter=200)

title_col, ask_col = st.columns([4, 1], vertical_alignment="bottom")
title_col.title(LESSON.title)
st.markdown(LESSON.intro)

# A Playground list nobody has touched yet (the default preset, no edits) has no aspects: start from the example.
if not playground_state.can_undo() and playground_state.scenario() == Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE]):
    playground_state.load(dv.repeated_aspect(), f"{ORIGIN}: {dv.REPEATED.lower()}")


def load_example(name: str) -> None:
    playground_state.load(dv.EXAMPLES[name](), f"{ORIGIN}: {name.lower()}")


def edit_aspects() -> None:
    current = playground_state.scenario()
    doc = widget_state.widget_value(f"{PAGE}_doc")
    try:
        playground_state.update(current.with_aspects(doc, widget_state.widget_value(f"{PAGE}_aspects") or ()))
    except ValueError as error:
        widget_state.set_message(PAGE, "error", str(error))


scn = playground_state.scenario()


def ask_the_class() -> None:
    """Hand the list (its aspects and this α) to Ask the class: which move raises alpha-nDCG most, or, when no single
    move raises it, what alpha-nDCG is; and go there."""
    now = playground_state.scenario()
    alpha = float(widget_state.widget_value(f"{PAGE}_alpha", float(ALPHA.default)))
    try:
        try:
            question = questions.best_move(now, "alpha_nDCG", alpha=alpha)
        except ValueError:
            question = questions.predict(now, "alpha_nDCG", alpha=alpha)
    except ValueError as error:
        widget_state.set_message(f"{PAGE}_ask", "error", str(error)[:1].upper() + str(error)[1:] + ".")
        return
    live_state.set_live_from_quiz({**question, "source": "lesson"})
    try:
        st.switch_page(ASK_THE_CLASS_PAGE)
    except StreamlitAPIException:  # the page runs on its own, without the app's navigation
        widget_state.set_message(
            f"{PAGE}_ask", "success", "The question is ready on the Ask the class page: open it to start the poll."
        )


if ask_col.button(
    "Ask the class", key=f"{PAGE}_ask", icon=":material/campaign:", width="stretch",
    help="Open a live poll on this list, its aspects and α: which move raises alpha-nDCG most.",
):  # fmt: skip
    ask_the_class()
if message := widget_state.pop_message(f"{PAGE}_ask"):
    getattr(st, message[0])(plain(message[1]))

with teaching.step(
    1,
    "Documents that cover aspects",
    "Each card shows the aspects its document covers. Drag and grade as on the Playground: this is its list, and "
    "its share link carries the aspects. NDCG sees the grades only; alpha-nDCG gives each aspect a document covers "
    "a gain of (1 − α)^n, n the documents above it that covered the aspect already.",
):
    list_col, numbers_col = st.columns([5, 4], gap="large")
    alpha = float(widget_state.widget_value(f"{PAGE}_alpha", float(ALPHA.default)))  # (the slider's, once drawn)
    with list_col:
        # a phone stacks the numbers under the list: their line sticks to the top while the list is dragged
        summary = st.container()
        with st.container(horizontal=True):
            for name in dv.EXAMPLES:
                st.button(name, key=f"{PAGE}_example_{name}", on_click=load_example, args=(name,))
        sortable.ranked_list(
            f"{PAGE}_list", playground_state.scenario, playground_state.update, label="Retrieved documents, best first"
        )
        scn = playground_state.scenario()  # after the list's own edit, if any
        st.caption(
            f"A document covers its aspects when its grade is at least {scn.conventions.threshold} (ndeval: a "
            "judgment above 0)."
        )

        def aspect_editor() -> None:
            if not scn.docs:
                return
            doc = st.selectbox(
                "Document", list(scn.docs), key=f"{PAGE}_doc", format_func=lambda d: f"{d}: {scn.title(d)}"[:60]
            )
            covered = widget_state.sync_widget(f"{PAGE}_aspects", list(scn.aspects_of(doc)))
            st.multiselect(
                "Aspects it covers",
                list(dict.fromkeys((*scn.aspect_names, *covered))),
                default=covered,
                key=f"{PAGE}_aspects",
                on_change=edit_aspects,
                accept_new_options=True,
                max_selections=MAX_ASPECTS,
                placeholder="Covers no aspect: type a name to add one",
                help="Type a new name and press Enter to add an aspect. Changes the Playground's list (undo is there).",
            )
            if message := widget_state.pop_message(PAGE):
                st.error(plain(message[1]))

        first_paint.later(f"{PAGE}_aspect_editor", aspect_editor, ASPECT_EDITOR)

    with numbers_col:

        def alpha_slider() -> None:
            st.slider("Redundancy intolerance α", 0.0, 1.0, float(ALPHA.default), step=0.05, key=f"{PAGE}_alpha",
                      help=ALPHA.help)  # fmt: skip

        first_paint.later(f"{PAGE}_alpha_slider", alpha_slider, first_paint.LABELLED_WIDGET)
        d = dv.diversity(scn, alpha)
        with st.container(horizontal=True, gap="small"):  # side by side where they fit, else one under another
            for b, family in ((d.ndcg, "NDCG"), (d.alpha_ndcg, "alpha_nDCG"), (d.err_ia, "ERR_IA")):
                st.metric(b.metric, teaching.fmt(b.value), help=registry.family(family).help, border=True,
                          width="stretch")  # fmt: skip
        st.caption(plain(dv.coverage(d)))
    with summary:
        cards.sticky_line([d.ndcg, d.alpha_ndcg, d.err_ia])
    first_paint.rest_next_run()  # the rest comes with the next run (ir_metrics_lab.shell.first_paint)

with teaching.step(
    2,
    "Rank by rank: new aspects and repeats",
    f"At α = {alpha:g} a repeated aspect is worth {1 - alpha:g} of what it was worth the time before. The discount "
    "is NDCG's, 1 / log₂(rank + 1).",
):
    teaching.definition("alpha_nDCG", d.alpha_ndcg)
    st.dataframe(
        [
            {
                "rank": row.rank,
                "doc": row.doc,
                "grade": row.grade,
                "new aspects": ", ".join(row.new),
                "repeats (covered above)": dv.repeated_text(row),
                "gain": dv.gain_text(row, alpha),
                "discount": row.discount,
                "gain × discount": row.contribution,
                "alpha-DCG so far": row.running,
            }
            for row in d.rows
        ],
        hide_index=True,
        width="stretch",
        column_config={
            column: st.column_config.NumberColumn(format="%.4f")
            for column in ("discount", "gain × discount", "alpha-DCG so far")
        },
    )

with teaching.step(
    3,
    "The greedy ideal ordering",
    "alpha-nDCG divides by the alpha-DCG of an ideal ordering of every judged document. The best one is "
    "NP-complete to find, so ndeval builds it greedily: each rank takes the document that adds the most gain now "
    "(ties to the id last in byte order).",
):
    teaching.chart(
        rank_charts.ideal_vs_actual(d.alpha_ndcg, d.ideal_ndcg, "alpha-DCG", "greedy ideal alpha-DCG"),
        key=f"{PAGE}_ideal",
    )
    st.dataframe(
        [
            {
                "rank": row.rank,
                "doc": row.doc,
                "title": scn.title(row.doc),
                "new aspects": ", ".join(row.new),
                "repeats (covered above)": dv.repeated_text(row),
                "gain": dv.gain_text(row, alpha),
                "gain × discount": row.contribution,
            }
            for row in d.ideal_rows
        ],
        hide_index=True,
        width="stretch",
        column_config={"gain × discount": st.column_config.NumberColumn(format="%.4f")},
    )
    st.caption(plain(dv.ideal_caption(d)))

with teaching.step(
    4,
    "ERR-IA: the mean of each aspect's ERR",
    "Score the list once per aspect, as if that aspect were the whole question, then average: each aspect weighs "
    "the same, however many documents cover it.",
):
    teaching.definition("ERR_IA", d.err_ia)
    st.dataframe(
        [{"aspect": name, f"ERR@{d.k} of this aspect alone": b.value} for name, b in d.per_aspect_err.items()],
        hide_index=True,
        width="stretch",
        column_config={f"ERR@{d.k} of this aspect alone": st.column_config.NumberColumn(format="%.4f")},
    )
    st.caption(plain(dv.err_caption(d)))

notebook_button.lesson(LESSON.key, scn)  # this lesson's teaching notebook, on this list
teaching.traps(LESSON.traps)
teaching.naming(
    f"Naming: ndeval prints `alpha-nDCG@5`, `alpha-nDCG@10`, `alpha-nDCG@20` and `ERR-IA@…` (α = 0.5); ir_measures "
    f"writes `{registry.family('alpha_nDCG').names.ir_measures}@10` and `{registry.family('ERR_IA').names.ir_measures}"
    "@10` (computed by pyndeval), with `alpha=` for α. Here: alpha_nDCG@k and ERR_IA@k; every ndeval measure of a "
    "run with `python -m metrics.ndeval QRELS RUN`."
)
teaching.show_source(alpha_ndcg)
teaching.show_source(err_ia)
teaching.show_source(ideal_ranking)

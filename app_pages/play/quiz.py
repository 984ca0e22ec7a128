"""Quiz: generated exercises from a seed, instant feedback, then the worked solution.

Exercises come from ir_metrics_lab.core.lessons.quiz (pure, deterministic from the seed) and are checked by metrics;
this page renders."""

import pandas as pd
import streamlit as st

from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.exports import notebooks, teaching_notebooks
from ir_metrics_lab.core.lessons import diversity as dv
from ir_metrics_lab.core.lessons import quiz
from ir_metrics_lab.core.paths import ASK_THE_CLASS_PAGE
from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.parts import notebook_button, sortable
from ir_metrics_lab.parts.cards import fmt
from ir_metrics_lab.session import live_state, quiz_state, widget_state
from ir_metrics_lab.shell import first_paint
from ir_metrics_lab.shell.streamlit_internals import StreamlitAPIException
from metrics.teaching import formulas

PAGE = "quiz"
DEFAULT_SEED = 1


def initial_seed() -> int:
    """``?seed=N`` in the URL wins on the first render, so a teacher can hand out one link."""
    raw = st.query_params.get("seed", "")
    return int(raw) if raw.isdigit() else DEFAULT_SEED


quiz_state.start_quiz_seed(initial_seed)
attempts = quiz_state.quiz_attempts()  # {(seed, exercise): first attempt correct}; survives page switches

st.title("Quiz")
st.markdown(
    "Six generated exercises: predict a metric, reorder a list to hit a target, compare two systems, and find the "
    "move that raises alpha-nDCG most. "
    "Answer, press **Check**, and the worked solution appears. Your score counts the **first** attempt at each."
)

seed_col, next_col, score_col = st.columns([2, 2, 2], vertical_alignment="bottom")
# the score paints first: the seed box and the button wait in rooms of their height (ir_metrics_lab.shell.first_paint)
with seed_col:
    first_paint.later(
        f"{PAGE}_seed_box",
        lambda: st.number_input(
            "Exercise set (seed)",
            min_value=0,
            max_value=10**6,
            step=1,
            key=quiz_state.QUIZ_SEED,
            help="Same seed, same set.",
        ),
        first_paint.LABELLED_WIDGET,
    )
seed = int(
    widget_state.widget_value(quiz_state.QUIZ_SEED)
)  # the box's value, set before it is drawn (quiz_state.start_quiz_seed)
with next_col:
    first_paint.later(
        f"{PAGE}_next_set",
        lambda: st.button(
            "New set", key=f"{PAGE}_next", icon=":material/casino:", on_click=quiz_state.next_quiz_seed, width="stretch"
        ),
        first_paint.BUTTON,
    )
with score_col:
    correct, attempted = quiz.tally(attempts)
    st.metric("Score this session", f"{correct} / {attempted}", border=True, help="Correct first attempts / attempted.")
st.caption(
    f"For a class: tell everyone to use seed **{seed}**, or share this page's link ending in `?seed={seed}`: "
    "everyone gets the same exercises."
)
first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)

exercises = quiz.generate(seed)


def key(index: int, name: str = "") -> str:
    """Widget keys carry the seed, so a new set starts with empty answers."""
    return f"{PAGE}_s{seed}_{index}{'_' + name if name else ''}"


def record(index: int, result: quiz.Feedback, *, attempt: bool = True) -> None:
    """Keep the feedback; count it in the score only if it was a real answer (not an empty or unreadable one)."""
    if attempt:
        quiz_state.record_quiz_attempt(seed, index, result.correct)
    quiz_state.set_quiz_feedback(seed, index, result)


def show_feedback(index: int) -> None:
    result = quiz_state.quiz_feedback(seed, index)
    if result is not None:
        (st.success if result.correct else st.error)(result.message)


def list_table(ranking, qrels) -> pd.DataFrame:
    return pd.DataFrame(
        {"rank": range(1, len(ranking) + 1), "doc": list(ranking), "grade": [qrels.get(d, 0) for d in ranking]}
    )


def notebook(index: int, ex: quiz.Exercise) -> None:
    """The answered exercise as a notebook: its lists, judgments and measures, worked
    (ir_metrics_lab.core.exports.notebooks)."""
    if ex.kind == "aspect_move":  # aspects are no run's: the diversity lesson's notebook, on the exercise's list
        name = teaching_notebooks.lesson_file("diversity")
        nb = teaching_notebooks.teaching(name, ex.scenario)
        notebook_button.button(nb, f"ir-metrics-quiz-{seed}-{index + 1}.ipynb", key(index, "notebook"))
        return
    if ex.kind == "mrr":
        runs, qrels, measures = {f"System {side}": ex.runs[side] for side in ("A", "B")}, ex.qrels, ["RR"]
        question = "Two systems answer the same three queries. Which has the higher MRR (the mean of RR)?"
    elif ex.kind == "reorder":
        order = quiz_state.quiz_order(seed, index, ex.ranking)
        runs = {"Your order": {"q": order}, "One order that works": {"q": ex.solution}}
        qrels, measures = {"q": ex.qrels}, [f"NDCG@{ex.k}", f"P@{ex.p_at}"]
        question = f"Reorder the list so that NDCG@{ex.k} ≥ {fmt(ex.target)} without changing P@{ex.p_at}."
    else:
        runs, qrels, measures = {"The list": {"q": ex.ranking}}, {"q": ex.qrels}, [ex.label]
        question = f"Predict the {ex.named} of this list (trec_eval's conventions)."
    nb = notebooks.quiz_exercise(ex.title, question, runs, qrels, measures)
    notebook_button.button(nb, f"ir-metrics-quiz-{seed}-{index + 1}.ipynb", key(index, "notebook"))


def predict(index: int, ex: quiz.Predict) -> None:
    st.markdown(f"Predict the **{ex.named}** of this list (trec_eval's conventions, 4 decimals, ±{quiz.TOLERANCE}).")
    st.table(list_table(ex.ranking, ex.qrels), hide_index=True, width="content")  # HTML: scales in presenter mode
    if ex.missed:
        missed = ", ".join(f"{d} (grade {ex.qrels[d]})" for d in ex.missed)
        st.caption(f"Judged relevant but **not retrieved**: {missed}.")
    elif not ex.ideal_first:  # the ideal ranking of the worked solution lists every judged document
        st.caption("Every relevant document is in the list.")
    st.number_input(
        f"Your {ex.label}",
        min_value=0.0,
        max_value=1.0,
        value=None,
        step=0.0001,
        format="%.4f",
        key=key(index),
        width=260,
    )

    def check() -> None:
        guess = widget_state.widget_value(key(index))
        record(index, quiz.check_number(ex, guess), attempt=guess is not None)

    st.button("Check", key=key(index, "check"), icon=":material/check:", on_click=check)
    show_feedback(index)
    if (seed, index) in attempts:  # the solution only after a real answer
        with st.expander("Worked solution", expanded=True, icon=":material/school:"):
            if ex.ideal_first:
                ideal = ", ".join(
                    f"{doc} (grade {grade}{', not retrieved' if doc in ex.missed else ''})"
                    for doc, grade in ex.ideal_order
                )
                st.markdown(
                    f"**1. IDCG@{ex.k}**: the best possible order of every judged document, including any the list "
                    f"missed: {ideal}."
                )
                st.latex(formulas.latex(ex.ideal))
                st.markdown(f"**2. DCG@{ex.k}** of the list as retrieved, divided by IDCG@{ex.k}:")
            st.latex(formulas.latex(ex.breakdown))
            notebook(index, ex)


def reorder(index: int, ex: quiz.Reorder) -> None:
    start_ndcg, start_p = ex.ndcg(ex.ranking).value, ex.precision(ex.ranking).value
    st.markdown(
        f"Reorder the list so that **NDCG@{ex.k} ≥ {fmt(ex.target)}** "
        f"without changing **P@{ex.p_at} = {fmt(start_p)}**. "
        f"At the start, NDCG@{ex.k} = {fmt(start_ndcg)}. Relevant means grade ≥ 1."
    )

    def current() -> Scenario:
        titles = {doc: f"grade {grade}" for doc, grade in ex.qrels.items()}
        return Scenario(
            quiz_state.quiz_order(seed, index, ex.ranking),
            grades=dict(ex.qrels),
            titles=titles,
            k=ex.k,
            scale=quiz.REORDER_SCALE,
        )

    def reordered(new: Scenario) -> None:
        quiz_state.set_quiz_order(seed, index, new.ranking)  # only the order: the grades are the exercise's

    sortable.ranked_list(
        key(index, "list"),
        current,
        reordered,
        label="Your order, best first: drag the cards",
        shelve=False,
        grade_edit=False,
    )

    def check() -> None:
        record(index, quiz.check_reorder(ex, list(quiz_state.quiz_order(seed, index, ex.ranking))))

    st.button("Check", key=key(index, "check"), icon=":material/check:", on_click=check)
    show_feedback(index)
    if (seed, index) in attempts:  # the solution only after a real answer
        with st.expander("Worked solution", expanded=True, icon=":material/school:"):
            st.markdown(f"One order that works: **{', '.join(ex.solution)}**.")
            st.latex(formulas.latex(ex.ndcg(ex.solution)))
            st.latex(formulas.latex(ex.precision(ex.solution)))
            st.caption(
                f"P@{ex.p_at} counts only how many relevant documents are in the top {ex.p_at}, so any reshuffle "
                f"inside the top {ex.p_at} keeps it; NDCG@{ex.k} wants the highest grades first."
            )
            notebook(index, ex)


def mrr_pair(index: int, ex: quiz.MrrPair) -> None:
    st.markdown("Two systems answer the same three queries. **Which has the higher MRR?** ✓ marks a relevant document.")
    columns = st.columns(2)
    for column, side in zip(columns, ("A", "B"), strict=True):
        rows = {
            q: [f"{d} ✓" if ex.qrels[q].get(d, 0) >= 1 else d for d in ranking] for q, ranking in ex.runs[side].items()
        }
        frame = pd.DataFrame(rows, index=range(1, 5)).rename_axis("rank").reset_index()
        column.markdown(f"**System {side}**")
        column.table(frame, hide_index=True)  # HTML: a real table for screen readers, one Tab stop at most
    st.radio("Higher MRR", ["A", "B"], index=None, horizontal=True, key=key(index, "choice"))

    def check() -> None:
        choice = widget_state.widget_value(key(index, "choice"))
        record(index, quiz.check_choice(ex, choice), attempt=choice is not None)

    st.button("Check", key=key(index, "check"), icon=":material/check:", on_click=check)
    show_feedback(index)
    if (seed, index) in attempts:  # the solution only after a real answer
        with st.expander("Worked solution", expanded=True, icon=":material/school:"):
            for side in ("A", "B"):
                per_query = ex.per_query(side)
                terms = " + ".join(fmt(b.value) for b in per_query.values())
                st.latex(rf"\mathrm{{MRR}}_{side} = \frac{{{terms}}}{{{len(per_query)}}} = {fmt(ex.mrr(side))}")
            st.caption("Each query's RR is 1 / rank of its first relevant document; later ones do not count.")
            notebook(index, ex)


def aspect_move(index: int, ex: quiz.AspectMove) -> None:
    st.markdown(
        f"Each document covers the aspects listed. **Which move raises alpha-nDCG@{ex.k} most?** (α = 0.5; a "
        "document covers its aspects when its grade is at least 1.)"
    )
    st.table(
        pd.DataFrame(
            {
                "rank": range(1, len(ex.ranking) + 1),
                "doc": list(ex.ranking),
                "grade": [ex.grades[d] for d in ex.ranking],
                "aspects": [", ".join(ex.aspects[d]) for d in ex.ranking],
            }
        ),
        hide_index=True,
        width="content",
    )
    st.radio("Move", list(ex.keys), index=None, format_func=ex.option_text, key=key(index, "choice"))

    def check() -> None:
        choice = widget_state.widget_value(key(index, "choice"))
        record(index, quiz.check_move(ex, choice), attempt=choice is not None)

    st.button("Check", key=key(index, "check"), icon=":material/check:", on_click=check)
    show_feedback(index)
    if (seed, index) in attempts:  # the solution only after a real answer
        with st.expander("Worked solution", expanded=True, icon=":material/school:"):
            st.table(
                pd.DataFrame(
                    {
                        "move": [ex.option_text(k) for k in ex.keys],
                        f"alpha-nDCG@{ex.k} after": [fmt(ex.after(k).alpha_ndcg.value) for k in ex.keys],
                        f"NDCG@{ex.k} after": [fmt(ex.after(k).ndcg.value) for k in ex.keys],
                    }
                ),
                hide_index=True,
            )
            best = ex.after(ex.answer)
            st.caption(dv.coverage(best, f"After the best move, {ex.option_text(ex.answer)}, the"))
            st.latex(formulas.latex(best.alpha_ndcg))
            notebook(index, ex)


RENDER = {"predict": predict, "reorder": reorder, "mrr": mrr_pair, "aspect_move": aspect_move}
ASK_HELP = {"reorder": ": which move raises NDCG most.", "aspect_move": ": these moves, its aspects and alpha-nDCG."}


def ask_the_class(ex: quiz.Exercise) -> None:
    """Hand the exercise's list to Ask the class as a poll question (ir_metrics_lab.session.live_state), and go
    there."""
    live_state.set_live_from_quiz(questions.from_quiz(ex))
    try:
        st.switch_page(ASK_THE_CLASS_PAGE)
    except StreamlitAPIException:  # the page runs on its own, without the app's navigation
        st.success("The question is ready on the Ask the class page: open it to start the poll.")


for index, ex in enumerate(exercises):
    title_col, ask_col = st.columns([4, 1], vertical_alignment="bottom")
    title_col.subheader(f"{index + 1}. {ex.title}", anchor=False)
    # MRR is over three queries: a poll asks about one list
    if ex.kind != "mrr" and ask_col.button(
        "Ask the class",
        key=key(index, "ask"),
        icon=":material/campaign:",
        width="stretch",
        help="Open a live poll on this exercise's list" + ASK_HELP.get(ex.kind, ", answered on phones."),
    ):
        ask_the_class(ex)
    with st.container(border=True):
        RENDER[ex.kind](index, ex)

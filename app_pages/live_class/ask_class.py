"""Ask the class (the teacher, on the projector): a question about the Playground's list, a join code and QR code, a
live answer count, and the reveal with the class's mistakes diagnosed. Renders only: questions and their scoring come
from ir_metrics_lab.core.classroom.questions (metrics underneath), polls from ir_metrics_lab.core.classroom.store."""

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ir_metrics_lab.classroom import live_class as live
from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.classroom.store import PollError, shown_code
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import cards, teaching
from ir_metrics_lab.session import ab_state, live_state, playground_state
from ir_metrics_lab.shell import css, first_paint
from metrics.teaching import formulas

NAMES_SHOWN = 30  # nicknames of right answers on the projector; only those who gave one

KINDS = {
    "predict": "Predict a value (a number)",
    "choice": "Which scores higher: the list, or the list with one document moved?",
    "move": "Which move of one document raises the measure most? (four candidate moves)",
    "ab": "Which scores higher: retriever A or B (the A vs B page's lists)?",
}

# A teacher link (?poll=CODE&teacher=TOKEN) makes this session the poll's teacher; the token then leaves the
# address bar, which a projector shows to the whole room.
link_code, link_token = st.query_params.get("poll"), st.query_params.get("teacher")
if link_code:
    if link_token and live.read(lambda: live.store().is_teacher(link_code, link_token), default=False):
        live_state.set_live_teacher(live.typed_code(link_code), link_token)
    else:
        live_state.set_live_message(
            "error", "This link does not carry the poll's teacher token: it cannot run the poll."
        )
    for key in ("poll", "teacher"):
        st.query_params.pop(key, None)
live.restore_teacher()  # a restarted server (or a new replica): back to the poll the browser's cookie names

st.title("Ask the class")
if message := live_state.pop_live_message(keep=not first_paint.charts_now()):
    getattr(st, message[0])(plain(message[1]))

teaching_poll = live_state.live_teacher()
poll = live.read(lambda: live.store().poll(teaching_poll[0]), default=False) if teaching_poll else None
base = live.app_base()


def act(action, *args) -> None:
    """A teacher action (reveal, reset, re-ask, close) with this session's token; refusals become a message."""
    code, token = live_state.live_teacher()
    try:
        action(code, token, *args)
    except (PollError, ValueError) as error:
        live_state.set_live_message("error", str(error)[:1].upper() + str(error)[1:] + ".")
    except SQLAlchemyError:
        live_state.set_live_message("warning", BUSY_ACTION)


BUSY_ACTION = "The class server is busy: nothing changed; try again in a moment."


def open_poll(question: dict) -> None:
    """A new poll on the question, within the page's limit (ir_metrics_lab.core.classroom.limits) and the store's."""
    if not live.poll_limit().allow(("connection", live.connection())):
        live_state.set_live_message("warning", "A poll was opened just now: wait a little before opening another.")
        return
    try:
        created = live.store().create_poll(question)
    except PollError as error:
        live_state.set_live_message("error", str(error)[:1].upper() + str(error)[1:] + ".")
        return
    except SQLAlchemyError:
        live_state.set_live_message("warning", BUSY_ACTION)
        return
    live_state.set_live_from_quiz(None)
    live_state.set_live_teacher(created.poll.code, created.teacher_token)


def build_question(kind: str, measure: str, doc: str | None, rank: int | None, alpha: float | None = None) -> dict:
    """A question about the Playground's list as it is now (or the A vs B page's two lists); ``alpha`` for
    alpha-nDCG (None: ndeval's)."""
    if kind == "ab":
        return {**questions.compare(ab_state.ab()["A"], ab_state.ab()["B"], measure, alpha=alpha), "source": "ab"}
    scn = playground_state.scenario()
    if kind == "move":
        return questions.best_move(scn, measure, alpha=alpha)
    if kind == "predict":
        return questions.predict(scn, measure, alpha=alpha)
    return questions.pick_better(scn, doc, rank, measure, alpha=alpha)


def end_poll() -> None:
    act(live.store().close)
    live_state.set_live_teacher(None)


def choose_question(teaching_poll) -> None:
    """No poll running: the question to ask, about the Playground's list (or a quiz exercise), and its button."""
    if teaching_poll:
        st.info("Your last poll has expired or was closed. Open a new one.", icon=":material/timer_off:")
        live_state.set_live_teacher(None)
    if from_quiz := live_state.live_from_quiz():
        quiz_question(from_quiz)
    else:
        playground_question()


HANDED = {
    "quiz": "A question from the **Quiz** (the exercise's own list).",
    "lesson": "A question from the **Diversity and novelty** lesson (the Playground's list and its aspects).",
}


def quiz_question(from_quiz: dict) -> None:
    """The question a quiz exercise (or a lesson) handed over, with its own list: open it as a poll, or drop it."""
    st.caption(
        HANDED.get(from_quiz.get("source"), HANDED["quiz"]) + " Open the poll, or ask about the Playground's list "
        "instead."
    )
    st.subheader(questions.prompt(from_quiz), anchor=False)
    live.question_lists(from_quiz)
    st.caption(live.conventions_note(from_quiz))
    open_col, drop_col, _ = st.columns(3)
    open_col.button(
        "Open the poll", type="primary", icon=":material/campaign:", on_click=open_poll, args=(from_quiz,),
        width="stretch",
    )  # fmt: skip
    drop_col.button(
        "Use the Playground's list", icon=":material/close:", on_click=live_state.set_live_from_quiz,
        args=(None,), key="live_drop_quiz", width="stretch",
    )  # fmt: skip


def playground_question() -> None:
    """A question about the Playground's list (or A vs B's two lists): its kind, measure and move, and its button."""
    scn = playground_state.scenario()
    st.caption(
        "The class is asked about the **Playground**'s current list, grades and conventions (change them there), or "
        "about the two lists of **Retriever A vs B**. Students open the join link or type the code on their phones; "
        "you reveal when the answers are in."
    )
    kind = st.radio("Question", list(KINDS), format_func=KINDS.get, key="live_kind", horizontal=True)
    measure_col, move_col, rank_col = st.columns([2, 2, 1])
    measure = measure_col.selectbox(
        "Measure",
        questions.MEASURES,
        index=questions.MEASURES.index(questions.FIRST_MEASURE),
        key="live_measure",
        format_func=lambda m: questions.label({"measure": m, "k": questions.measure_k(m, scn.k)}),
        help="At the Playground's k; AP and RR over the whole list, as their cards (and trec_eval's map) do.",
    )
    doc = rank = None
    if kind == "choice" and len(scn.ranking) >= 2:
        doc = move_col.selectbox(
            "List B: move", scn.ranking, key="live_move_doc", format_func=lambda d: plain(d, one_line=True)
        )
        rank = rank_col.number_input("to rank", 1, len(scn.ranking), 1, key="live_move_rank")
    try:
        question = build_question(kind, measure, doc, rank)
    except (ValueError, TypeError) as error:
        st.warning(plain(str(error)[:1].upper() + str(error)[1:] + "."), icon=":material/block:")
        question = None
    if question:
        # The button beside the question, above its lists: on a projector the lists of a two-list question
        # would push it below the screen.
        prompt_col, open_col = st.columns([4, 1], vertical_alignment="center")
        prompt_col.subheader(questions.prompt(question), anchor=False)
        open_col.button(
            "Open the poll", type="primary", icon=":material/campaign:", width="stretch", on_click=open_poll,
            args=(question,),
        )  # fmt: skip
        live.question_lists(question)
        st.caption(live.conventions_note(question))


def run_poll(poll) -> None:
    """A poll running: the join code and live count, then the reveal, and the teacher's controls."""
    question = poll.question
    revealed = poll.state == "revealed"
    if revealed:
        answers = live.read(lambda: live.store().answers(poll.code, poll.round), default=[])
        outcome = questions.result(question, [a.value for a in answers])
    st.subheader(f"Round {poll.round}: {questions.prompt(question)}", anchor=False)
    list_col, side_col = st.columns([3, 2], gap="large")
    with list_col:
        poll_lists(question, revealed)
    with side_col:
        if revealed:
            reveal(poll, outcome, answers)
        else:
            join_panel(poll)
    if revealed:
        mistakes(outcome)
    teacher_controls(poll, revealed)
    if revealed:
        round_details(poll, outcome, answers)
    live.rerun_on_reconnect()
    live.teacher_link_box(
        live.teacher_link(base, poll.code, live_state.live_teacher()[1]),
        "It runs this poll from any browser (another window, a restarted laptop).",
        key="poll_teacher_link",
    )


def poll_lists(question: dict, revealed: bool) -> None:
    """The question's lists and conventions; once revealed, the worked formula under them (both in the projector's
    first screen)."""
    live.question_lists(question)
    st.caption(live.conventions_note(question))
    if revealed:
        for side in questions.worked_sides(question):
            b = questions.breakdown(question, side)
            if question["kind"] == "choice":
                st.markdown(f"**List {side}**: {questions.label(question)} = {cards.fmt(b.value)}")
            elif question["kind"] == "move":
                best = questions.choice_label(question, side)
                st.markdown(f"**The best move, {best}**: {questions.label(question)} = {cards.fmt(b.value)}")
            st.latex(formulas.latex(b))
        if questions.uses_aspects(question):  # what the list covers, in numbers (core.lessons.diversity)
            st.caption(plain(questions.coverage(question)))


def reveal(poll, outcome, answers) -> None:
    """Beside the lists once revealed: the right answer, how the class answered, and who was right."""
    question = poll.question
    right = outcome.right if question["kind"] == "predict" else questions.choice_label(question, outcome.right)
    st.subheader(f"The answer: {right} · {outcome.correct} of {outcome.total} right", anchor=False)
    teaching.chart(live.distribution(question, outcome), "live_distribution")
    st.caption(f"Join code {shown_code(poll.code)} · green: right, orange: a diagnosed mistake, grey: other.")
    if question["kind"] == "move":
        st.markdown(live.options_table(question, outcome.counts))
        if ties := question["also_best"]:
            st.caption("These moves reach the best value too: " + "; ".join(map(questions.move_text, ties)) + ".")
    if named := questions.right_nicknames(question, answers):
        more = f" and {len(named) - NAMES_SHOWN} more" if len(named) > NAMES_SHOWN else ""
        # each name on its own (plain isolates a right-to-left one): one cannot reorder the others
        st.markdown("**Right:** " + ", ".join(plain(name, one_line=True) for name in named[:NAMES_SHOWN]) + more)


def join_panel(poll) -> None:
    """Beside the lists until the reveal: the join address, code and QR code, and the live answer count."""
    join = live.join_link(base, poll.code)
    live.join_box(base, live.JOIN_PATH, poll.code, join, key="live_join_code")
    answer_count(poll.code, poll.round)
    st.caption("Students can change their answer until you reveal.")


@st.fragment(run_every=live.REFRESH_S)
def answer_count(code: str, round_: int) -> None:
    """The count updates by itself (a fragment rerun every REFRESH_S), without reloading the page."""
    with st.container(key="live_count"):
        try:
            st.metric("Answers", live.store().count(code, round_))
        except SQLAlchemyError:  # the next tick tries again
            st.metric("Answers", "…", help=live.BUSY_READ)


def mistakes(outcome) -> None:
    """Under the lists once revealed: what the wrong answers did, and how many match no known mistake."""
    if outcome.mistakes:
        st.markdown("**What the wrong answers did**")
        st.table(
            {
                "answer": [m.answer for m in outcome.mistakes],
                "mistake": [m.mistake for m in outcome.mistakes],
                "students": [m.count for m in outcome.mistakes],
            }
        )
    if outcome.unexplained:
        st.caption(f"{outcome.unexplained} wrong answer(s) match no other convention or cutoff.")


def reasked(question: dict) -> dict | None:
    """The question to ask again in a new round: a quiz's as it is, else rebuilt from the lists as they are now
    (None when it no longer can be)."""
    try:
        return (
            question
            if question.get("source") == "quiz"
            else build_question(
                "ab" if question.get("source") == "ab" else question["kind"],
                question["measure"],
                question.get("moved", {}).get("doc"),
                question.get("moved", {}).get("to"),
                question.get("alpha"),
            )
        )
    except ValueError:
        return None


def teacher_controls(poll, revealed: bool) -> None:
    """Reveal, reset the answers, re-ask and close, in a row."""
    question = poll.question
    controls = st.columns(4)
    controls[0].button(
        "Revealed" if revealed else "Reveal", type="primary", icon=":material/visibility:", width="stretch",
        on_click=act, args=(live.store().reveal,), key="live_reveal", disabled=poll.state != "open",
    )  # fmt: skip
    controls[1].button(
        "Reset answers", icon=":material/restart_alt:", width="stretch", on_click=act, args=(live.store().reset,),
        key="live_reset", help="Delete this round's answers and open it again.",
    )  # fmt: skip
    reask = reasked(question)
    controls[2].button(
        {"ab": "Re-ask with the lists as they are now", "quiz": "Ask again (a new round)"}.get(
            question.get("source"), "Re-ask with the Playground's list"
        ),
        icon=":material/replay:",
        width="stretch",
        disabled=reask is None,
        on_click=act,
        args=(live.store().reask, reask),
        key="live_reask",
        help="A new round: the same question about the list as it is now (move a document there first).",
    )
    controls[3].button("Close the poll", icon=":material/close:", width="stretch", on_click=end_poll, key="live_close")


def round_details(poll, outcome, answers) -> None:
    """At the bottom once revealed: what each common mistake would answer, and the round's downloads."""
    question = poll.question
    if table := questions.variants_table(question):
        with st.expander("What each common mistake would answer"):
            st.table({"answer": [v for v, _ in table], "mistake": [m for _, m in table]})
    csv_col, md_col, _ = st.columns([1, 1, 2])
    csv_col.download_button(
        "Answers (.csv)",
        questions.csv(question, poll.round, [(a.value, a.answered_ms) for a in answers]),
        file_name=f"live-class-round-{poll.round}.csv",
        mime="text/csv",
        icon=":material/table:",
        on_click="ignore",
        key="live_export_csv",
        help="One row per answer: no nicknames, no student ids.",
    )
    md_col.download_button(
        "Summary (.md)",
        questions.markdown(question, poll.round, outcome),
        file_name=f"live-class-round-{poll.round}.md",
        mime="text/markdown",
        icon=":material/description:",
        on_click="ignore",
        key="live_export_md",
    )


if poll is False:  # the database is out: live.read said so, and redraws the page when it is back
    pass
elif poll is None:  # not st.stop(): app.py's CSS and first-paint bookkeeping come after the page
    choose_question(teaching_poll)
else:
    run_poll(poll)
live.keep_teacher_cookie()
css.apply(live.CHOICE_CSS)  # last, as app.py sends its CSS (ir_metrics_lab.shell.css)

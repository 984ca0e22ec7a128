"""Join a class (students, on phones): the teacher's list and question, an answer that can change until the reveal, then
the right answer and what a wrong one got wrong. No account: the server issues each phone a student id, kept in a
signed cookie (ir_metrics_lab.classroom.live_class.student_id): one answer per phone, across reloads, tabs and scans of
the QR code. Renders only (ir_metrics_lab.core.classroom.questions,
ir_metrics_lab.core.classroom.store)."""

import streamlit as st

from ir_metrics_lab.classroom import live_class as live
from ir_metrics_lab.classroom import reveal_stream
from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.classroom.store import NICKNAME_MAX, shown_code
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.session import live_state, widget_state
from ir_metrics_lab.shell import css
from metrics.teaching import diagnosis, formulas

student = live.read(live.student_id)
code = live.typed_code(st.query_params.get("code", ""))


def join(raw: str) -> None:
    st.query_params["code"] = live.typed_code(raw)


joining = bool(student and code) and live.join_allowed(code)
poll = live.read(lambda: live.store().poll(code), default=False) if joining else None  # False: not read


def join_form(code: str) -> None:
    """No poll under this code (or none typed yet): the code box."""
    st.title("Join a class")
    if code and not joining:
        st.warning("Too many codes tried from this page: wait a few seconds, then join again.")
    elif code:
        st.error(
            f"No open poll has the code {plain(shown_code(code) if len(code) == 8 else code)}: check it, or it may "
            "have expired.",
            icon=":material/search_off:",
        )
    with st.form("live_join", border=False):
        typed = st.text_input("Join code", placeholder="ABCD-EFGH", max_chars=12, key="live_code_typed")
        if st.form_submit_button("Join", type="primary", width="stretch"):
            join(typed)
            st.rerun()


def answer_page(poll) -> None:
    """The poll's question, then this phone's answer and after the reveal the right one (poll_state)."""
    question = poll.question
    st.subheader(questions.prompt(question), anchor=False)
    live.question_lists(question, options=False)
    poll_state(poll.code, poll.round)
    live.rerun_on_reconnect()  # a restarted server's, or another replica's, watcher


@st.fragment
def poll_state(code: str, round_: int) -> None:
    """What changes within a round: the answer controls, then the reveal. The process's watcher reruns only this
    fragment on a reveal or a reset (live.watch_poll), and a tap reruns only it: the question above stays."""
    poll = live.read(lambda: live.store().poll(code), default=False)
    if poll is False:  # the database is out: live.read said so, and redraws the page when it is back
        return
    if poll is None or poll.round != round_:  # gone, or the teacher asked anew: another question, the whole page
        st.rerun(scope="app")
    question = poll.question
    if poll.state != "open":  # while it is open the answers come first, so a phone shows them on its first screen
        st.caption(live.conventions_note(question))
    mine = live.read(lambda: live.store().my_answer(poll.code, poll.round, student))
    if poll.state == "open":
        live.follow_reveal(poll, student)  # the reveal, sent without a rerun: shown here, above the answers
        answer_form(poll, mine)
    elif poll.state == "revealed":
        revealed_answer(poll, mine)
    else:
        st.info("The teacher has closed this poll.")
    live.watch_poll(poll, student, mine is not None)  # the reveal, a reset or a new round redraws this
    if live_state.live_pending():  # an answer the database has not taken yet: sent again until it is
        live.retry_fragment(student)


# How a verdict's sentence is shown (ir_metrics_lab.core.classroom.reveal.KINDS)
VERDICT_SHOWN = {
    "success": (st.success, ":material/check_circle:"),
    "warning": (st.warning, None),
    "error": (st.error, ":material/cancel:"),
    "info": (st.info, None),
}


def answer_form(poll, mine) -> None:
    """While the poll is open: a nickname, the answer (a number, or a button per choice) and what was sent."""
    question = poll.question

    def send(value: object) -> None:
        try:
            answer = questions.parse_answer(question, value)
        except ValueError as error:
            live_state.set_live_message("error", str(error)[:1].upper() + str(error)[1:] + ".")
        else:
            live.send_answer(poll.code, poll.round, student, answer, widget_state.widget_value("live_nickname"))

    st.text_input(
        "Nickname (optional)",
        max_chars=NICKNAME_MAX,
        key="live_nickname",
        help="If your answer is right, the projector may show it after the reveal; exports never contain it.",
    )
    if question["kind"] == "predict":
        with st.form("live_answer", border=False):
            typed = st.number_input(
                f"Your answer ({question['decimals']} decimal places)",
                value=float(mine.value) if mine else None,
                step=10.0 ** -question["decimals"],
                format=f"%.{question['decimals']}f",
                key=f"live_number_{poll.round}",
            )
            if st.form_submit_button("Send answer", type="primary", width="stretch", key="live_send"):
                if typed is None:
                    live_state.set_live_message("error", "Type a number first.")
                else:
                    send(typed)
                st.rerun()
    else:
        for choice in questions.choices(question):
            chosen = mine is not None and mine.value == choice
            st.button(
                questions.choice_label(question, choice) + (" ✓" if chosen else ""),
                key=f"live_choice_{choice}",
                type="primary" if chosen else "secondary",
                width="stretch",
                on_click=send,
                args=(choice,),
            )
    message = live_state.pop_live_message()
    if live_state.live_pending():
        st.warning(live.BUSY, icon=":material/hourglass_top:")
    elif message:
        getattr(st, message[0])(plain(message[1]))
    elif mine:
        shown = questions.shown(question, mine.value)
        st.success(f"Your answer: {plain(shown)}. You can change it until the teacher reveals.")
    st.caption(live.conventions_note(question))


def revealed_answer(poll, mine) -> None:
    """After the reveal: the right answer, whether this phone's was right (or which mistake it made), and the worked
    formula."""
    question = poll.question
    said = live.phone_verdict(poll, mine.value if mine else None)
    st.markdown(f"### {said.heading}")
    show, icon = VERDICT_SHOWN[said.kind]
    show(said.sentence, icon=icon)
    if question["kind"] == "move":
        st.markdown(live.options_table(question))
    for side in questions.worked_sides(question):
        st.latex(formulas.latex(questions.breakdown(question, side)))
    if question["kind"] == "predict":
        st.caption(f"Right within ±{diagnosis.tolerance(question['decimals'])} (the rounding of the answer).")


if student is None or poll is False:  # the database is out: live.read said so, and redraws the page when it is back
    pass
elif poll is None:  # not st.stop(): app.py's CSS and first-paint bookkeeping come after the page
    join_form(code)
else:
    answer_page(poll)
if student and not poll and live_state.live_pending():  # on the answer page poll_state sends it again
    live.retry_fragment(student)
css.apply(live.CHOICE_CSS + reveal_stream.css())  # last, as app.py sends its CSS (ir_metrics_lab.shell.css)

"""The live-class pages in AppTest: a teacher opens a poll on the playground's list, students answer (and change
their answer), the teacher reveals; a student with a forged teacher link cannot. The store is SQLite in a temporary
folder (IR_METRICS_LAB_DATA_DIR)."""

from __future__ import annotations

import json
from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.classroom import live_class
from ir_metrics_lab.core.classroom import identity
from tests.page_scripts import page_script

# The default playground list: grades 3, 2, 3, 0, 1 at k = 5 (no shelf). NDCG@5 by hand, linear and 2^g - 1 gain:
DCG = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6)
IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
EXP = (7 + 3 / log2(3) + 7 / 2 + 1 / log2(6)) / (7 + 7 / log2(3) + 3 / 2 + 1 / log2(5))


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("IR_METRICS_LAB_DATA_DIR", str(tmp_path))
    for cached in (live_class.store, live_class.answer_limit, live_class.join_limit, live_class.poll_limit):
        cached.clear()
    yield
    live_class.store.clear()


def teacher() -> AppTest:
    at = AppTest.from_file(str(page_script("ask_class.py")), default_timeout=30).run()
    assert not at.exception
    return at


def student(code: str) -> AppTest:
    """A phone opening the join link: a new session, so a new student (its id issued by the server)."""
    at = AppTest.from_file(str(page_script("join_class.py")), default_timeout=30)
    at.query_params["code"] = code
    return at.run()


def student_of(phone: AppTest) -> str:
    return phone.session_state["live_student"]


def answer(at: AppTest, value: float) -> None:
    at.number_input[0].set_value(value)
    at.button(key="live_send").click().run()
    assert not at.exception


def test_a_round_from_open_to_reveal_with_a_diagnosed_mistake():
    assert f"{DCG / IDCG:.2f}" == "0.97" and f"{EXP:.2f}" == "0.96"
    at = teacher()
    at.button[0].click().run()  # Open the poll (NDCG@5 of the playground's list)
    code, token = at.session_state["live_teacher"]
    assert token not in "".join(m.value for m in at.markdown)
    phones = [student(code.lower()) for _ in range(3)]
    assert len({student_of(phone) for phone in phones}) == 3
    phones[0].text_input(key="live_nickname").set_value("**Ann** <b>x</b> $y$").run()
    answer(phones[0], 0.97)
    answer(phones[1], 0.5)
    answer(phones[1], 0.96)  # changed: still one answer
    answer(phones[2], 0.96)
    at.run()
    assert [m.value for m in at.metric] == ["3"]
    at.button(key="live_reveal").click().run()
    assert at.subheader[-1].value == "The answer: 0.97 · 1 of 3 right"
    right = [m.value for m in at.markdown if m.value.startswith("**Right:**")]
    assert right == ["**Right:** \\*\\*Ann\\*\\* \\<b\\>x\\<\\/b\\> \\$y\\$"]
    mistakes = at.table[0].value
    assert mistakes.to_dict("records") == [
        {"answer": "0.96", "mistake": "exponential gain 2^g − 1 instead of the grade", "students": 2}
    ]
    phones[1].run()
    assert "exponential gain" in phones[1].warning[0].value
    answer(phones[0], 0.5)  # a page still showing the question, after the reveal: not taken, the reveal is shown
    assert live_class.store().my_answer(code, 1, student_of(phones[0])).value == "0.97"
    assert "### The answer: 0.97" in [m.value for m in phones[0].markdown]
    assert "is right" in phones[0].success[0].value


def test_a_forged_teacher_link_cannot_reveal():
    at = teacher()
    at.button[0].click().run()
    code, _ = at.session_state["live_teacher"]
    forged = AppTest.from_file(str(page_script("ask_class.py")), default_timeout=30)
    forged.query_params["poll"] = code
    forged.query_params["teacher"] = "guessed-token"
    forged.run()
    assert "teacher token" in forged.error[0].value
    assert "live_teacher" not in forged.session_state or forged.session_state["live_teacher"] is None
    assert not [b for b in forged.button if b.key == "live_reveal"]
    joined = student(code)
    assert not [b for b in joined.button if b.key == "live_reveal"]
    assert live_class.store().poll(code).state == "open"


def test_a_choice_question_and_an_unknown_code():
    at = teacher()
    at.radio(key="live_kind").set_value("choice").run()
    at.selectbox(key="live_move_doc").set_value("d4").run()
    at.button[0].click().run()  # A: the playground's list; B: d4 (grade 0) moved to rank 1
    code, _ = at.session_state["live_teacher"]
    phone = student(code)
    phone.button(key="live_choice_B").click().run()
    assert phone.button(key="live_choice_B").label == "List B ✓"
    phone.button(key="live_choice_A").click().run()  # changed
    at.run()
    assert [m.value for m in at.metric] == ["1"]
    assert "No open poll" in student("ZZZZZZZZ").error[0].value


def test_a_vs_b_question():
    at = teacher()
    at.radio(key="live_kind").set_value("ab").run()
    assert at.subheader[0].value == "Which list has the higher NDCG@5?"
    at.button[0].click().run()
    code, _ = at.session_state["live_teacher"]
    phone = student(code)
    assert "**List B**" in [m.value for m in phone.markdown]
    phone.button(key="live_choice_B").click().run()
    at.button(key="live_reveal").click().run()
    assert at.subheader[-1].value == "The answer: List B · 1 of 1 right"


def test_which_move_raises_ndcg_most():
    # The default list, grades 3, 2, 3, 0, 1 at k = 5: the best move is d2 (grade 2) down to rank 3, the same list as
    # d3 up to rank 2: 3 + 3/log2(3) + 2/2 + 0 + 1/log2(6) over IDCG; d3 to rank 1 ties with it and is named.
    best = (3 + 3 / log2(3) + 2 / 2 + 1 / log2(6)) / IDCG
    at = teacher()
    at.radio(key="live_kind").set_value("move").run()
    assert at.subheader[0].value == "Which move raises NDCG@5 most?"
    at.button[0].click().run()
    code, _ = at.session_state["live_teacher"]
    question = live_class.store().poll(code).question
    options = {o["key"]: (o["doc"], o["from"], o["to"]) for o in question["options"]}
    right = next(key for key, move in options.items() if move == ("d2", 2, 3))
    # d4 (grade 0) down to rank 5 lets d5 (grade 1) into the top 4: at k = 4 it is the best move, DCG@4
    # 3 + 2/log2(3) + 3/2 + 1/log2(5) = 6.19 against 3 + 3/log2(3) + 2/2 + 0 = 5.89: the off-by-one cut
    wrong = next(key for key, move in options.items() if move == ("d4", 4, 5))
    assert 3 + 2 / log2(3) + 3 / 2 + 1 / log2(5) > 3 + 3 / log2(3) + 2 / 2
    phones = [student(code) for _ in range(3)]
    assert [b.label for b in phones[0].button] == [f"{k} · {d}: rank {f} → {t}" for k, (d, f, t) in options.items()]
    phones[0].button(key=f"live_choice_{right}").click().run()
    phones[1].button(key=f"live_choice_{wrong}").click().run()
    phones[2].button(key=f"live_choice_{right}").click().run()
    assert phones[0].button(key=f"live_choice_{right}").label.endswith("✓")
    at.button(key="live_reveal").click().run()
    assert at.subheader[-1].value == f"The answer: {right} · d2: rank 2 → 3 · 2 of 3 right"
    table = next(m.value for m in at.markdown if m.value.startswith("| option |"))
    assert f"| **{right}** ✓ | d2: rank 2 → 3 | {best:.3f} | {best - DCG / IDCG:+.3f} | 2 |" in table
    assert "These moves reach the best value too: d3: rank 3 → 1." in [c.value for c in at.caption]
    phones[1].run()
    assert phones[1].warning[0].value == (
        f"Your answer {wrong} · d4: rank 4 → 5 is what you get with cut at 4 instead of 5 (off by one)."
    )
    assert any(f"| **{right}** ✓ |" in m.value for m in phones[1].markdown)


def test_the_quiz_hands_an_exercise_to_ask_the_class():
    quiz_page = AppTest.from_file(str(page_script("quiz.py")), default_timeout=30).run()
    quiz_page.button(key="quiz_s1_0_ask").click().run()
    assert not quiz_page.exception
    handed = quiz_page.session_state["live_from_quiz"]
    assert handed["source"] == "quiz" and handed["kind"] == "predict" and handed["measure"] == "AP"
    assert not [b for b in quiz_page.button if b.key == "quiz_s1_4_ask"]  # the MRR exercise: three queries

    at = AppTest.from_file(str(page_script("ask_class.py")), default_timeout=30)
    at.session_state["live_from_quiz"] = handed
    at.run()
    assert at.subheader[0].value == "What is AP of this list? Answer to 2 decimal places."
    at.button[0].click().run()  # Open the poll
    code, _ = at.session_state["live_teacher"]
    assert live_class.store().poll(code).question == handed
    assert at.session_state["live_from_quiz"] is None
    assert at.button(key="live_reask").label == "Ask again (a new round)"


def test_the_diversity_lesson_asks_the_class_which_move_raises_alpha_ndcg_most():
    from ir_metrics_lab.core.lessons import diversity as dv

    lesson = AppTest.from_file(str(page_script("lesson_diversity.py")), default_timeout=30).run()
    lesson.button(key="lesson_diversity_ask").click().run()
    assert not lesson.exception
    handed = lesson.session_state["live_from_quiz"]
    assert handed["source"] == "lesson" and handed["kind"] == "move" and handed["measure"] == "alpha_nDCG"
    assert handed["alpha"] == 0.5 and handed["scenario"]["aspects"]["d7"] == ["charging"]
    assert handed["scenario"]["aspects"] == {d: list(n) for d, n in dv.repeated_aspect().aspects.items()}

    at = AppTest.from_file(str(page_script("ask_class.py")), default_timeout=30)
    at.session_state["live_from_quiz"] = handed
    at.run()
    assert at.subheader[0].value == "Which move raises alpha-nDCG@5 (α = 0.5) most?"
    assert any("Diversity and novelty" in c.value for c in at.caption)
    at.button[0].click().run()  # Open the poll
    code, _ = at.session_state["live_teacher"]
    assert live_class.store().poll(code).question == handed
    phone = student(code)
    assert any("| aspects |" in m.value for m in phone.markdown)  # the list's aspects column
    labels = [b.label for b in phone.button if b.key and b.key.startswith("live_choice_")]
    assert any("(charging): rank 7 →" in label or "(range): rank 6 →" in label for label in labels)
    phone.button(key="live_choice_1").click().run()
    at.button(key="live_reveal").click().run()
    assert not at.exception
    assert any("the top 5 covers" in c.value for c in at.caption)  # the reveal's coverage, in numbers


def test_alpha_ndcg_of_a_playground_list_without_aspects_is_refused_in_words():
    at = teacher()
    at.selectbox(key="live_measure").set_value("alpha_nDCG").run()
    assert not at.exception
    assert any("judged relevant document covers an aspect" in w.value for w in at.warning)
    assert not [b for b in at.button if b.label == "Open the poll"]


def test_the_quiz_s_aspect_exercise_asks_the_class_with_its_aspects():
    quiz_page = AppTest.from_file(str(page_script("quiz.py")), default_timeout=30).run()
    quiz_page.button(key="quiz_s1_5_ask").click().run()
    assert not quiz_page.exception
    handed = quiz_page.session_state["live_from_quiz"]
    assert handed["source"] == "quiz" and handed["kind"] == "move" and handed["measure"] == "alpha_nDCG"
    assert handed["scenario"]["aspects"] and len(handed["options"]) == 3


def test_the_list_has_a_title_column_only_when_a_document_has_a_title():
    from ir_metrics_lab.classroom.live_class import list_markdown
    from ir_metrics_lab.core.scenario import Scenario

    untitled = Scenario(("d3", "d1"), grades={"d3": 1})
    assert list_markdown(untitled, untitled.ranking).splitlines()[0] == "| # | document | grade |"
    titled = Scenario(("d3", "d1"), grades={"d3": 1}, titles={"d1": "*Cats*"})
    assert list_markdown(titled, titled.ranking).splitlines() == [
        "| # | document | title | grade |",
        "|---:|---|---|---:|",
        "| 1 | d3 | – | **1** |",
        "| 2 | d1 | \\*Cats\\* | **0** |",
    ]


def test_a_list_whose_documents_cover_aspects_shows_them_instead_of_titles():
    from ir_metrics_lab.classroom.live_class import list_markdown
    from ir_metrics_lab.core.scenario import Scenario

    covered = Scenario(("d3", "d1"), grades={"d3": 1}, titles={"d1": "Cats"}, aspects={"d3": ("*x*", "y")})
    assert list_markdown(covered, covered.ranking).splitlines() == [
        "| # | document | aspects | grade |",
        "|---:|---|---|---:|",
        "| 1 | d3 | \\*x\\*, y | **1** |",
        "| 2 | d1 | – | **0** |",
    ]


# --- issue #47: one phone, one student; fair under abuse; errors in words -------------------------------------


def choice_poll() -> tuple[AppTest, str]:
    at = teacher()
    at.radio(key="live_kind").set_value("choice").run()
    at.selectbox(key="live_move_doc").set_value("d4").run()
    at.button[0].click().run()
    return at, at.session_state["live_teacher"][0]


def test_the_address_cannot_choose_or_change_the_student():
    """A phone's id was whatever ?s= said on each run: one websocket minted a student per tap. The id is now the
    server's, kept by the session: an edited address changes nothing."""
    _, code = choice_poll()
    phone = AppTest.from_file(str(page_script("join_class.py")), default_timeout=30)
    phone.query_params["code"] = code
    phone.query_params["s"] = "chosen-by-the-page"
    phone.run()
    assert student_of(phone) != "chosen-by-the-page"
    for n, choice in enumerate("ABAB"):
        phone.query_params["s"] = f"forged-student-{n}"
        phone.button(key=f"live_choice_{choice}").click().run()
    assert live_class.store().count(code, 1) == 1
    assert live_class.store().my_answer(code, 1, student_of(phone)).value == "B"


class FrozenClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_one_phone_flood_is_throttled_beside_normal_phones(monkeypatch):
    """One phone tapping as fast as it can: past its burst its taps are dropped quietly (no write), while the other
    phones' answers go in at once. The limiter's clock stands still, so the counts are exact."""
    from ir_metrics_lab.core.classroom import limits
    from ir_metrics_lab.core.classroom.store import Store

    clock = FrozenClock()
    limit = limits.Limit(limits.ANSWERS_PER_SECOND, limits.ANSWERS_BURST, clock=clock)
    monkeypatch.setattr(live_class, "answer_limit", lambda: limit)
    writes: dict[str, int] = {}
    real_answer = Store.answer

    def counted(self, code, round_, student, *args, **kwargs):
        writes[student] = writes.get(student, 0) + 1
        return real_answer(self, code, round_, student, *args, **kwargs)

    monkeypatch.setattr(Store, "answer", counted)
    _, code = choice_poll()
    flooder, *others = [student(code) for _ in range(3)]
    for n in range(20):
        flooder.button(key=f"live_choice_{'AB'[n % 2]}").click().run()
        if n == 10:  # the others answer in the middle of the flood
            for phone in others:
                phone.button(key="live_choice_A").click().run()
                assert phone.success[0].value.startswith("Answer sent")
    assert writes[student_of(flooder)] == limits.ANSWERS_BURST
    assert [writes[student_of(phone)] for phone in others] == [1, 1]
    assert not flooder.exception and not flooder.error  # refused quietly
    clock.now += 1.0  # a second later: ANSWERS_PER_SECOND more taps
    for n in range(10):
        flooder.button(key=f"live_choice_{'AB'[n % 2]}").click().run()
    assert writes[student_of(flooder)] == limits.ANSWERS_BURST + int(limits.ANSWERS_PER_SECOND)
    assert live_class.store().count(code, 1) == 3


def test_a_database_outage_keeps_the_tap_and_says_so_in_words(monkeypatch):
    """A database error became a traceback on the phone. Now: a short message, no SQL, path or stack; the tap is kept
    in the session and sent again once the database answers."""
    from sqlalchemy.exc import OperationalError

    from ir_metrics_lab.core.classroom.store import Store

    _, code = choice_poll()
    phone = student(code)
    real_answer = Store.answer

    def down(*_args, **_kwargs):
        raise OperationalError(
            "INSERT INTO live_answers (poll_code) VALUES (%(poll_code)s)",
            {},
            Exception('connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed'),
        )

    monkeypatch.setattr(Store, "answer", down)
    phone.button(key="live_choice_B").click().run()
    assert not phone.exception
    assert [w.value for w in phone.warning] == [live_class.BUSY]
    shown = " ".join(str(e.value) for e in [*phone.markdown, *phone.warning, *phone.error, *phone.caption])
    for leak in ("INSERT", "live_answers", "/var/run", "Traceback", "sqlalchemy", "OperationalError"):
        assert leak not in shown
    assert live_class.store().count(code, 1) == 0
    phone.run()  # still down: still kept, still said
    assert [w.value for w in phone.warning] == [live_class.BUSY]
    monkeypatch.setattr(Store, "answer", real_answer)
    phone.run()  # the database is back: the retry (live_class.retry_fragment) sends it
    assert live_class.store().my_answer(code, 1, student_of(phone)).value == "B"
    phone.run()
    assert not phone.warning and phone.button(key="live_choice_B").label == "List B ✓"


def test_a_nickname_of_invisible_characters_is_refused_on_the_phone():
    _, code = choice_poll()
    phone = student(code)
    phone.text_input(key="live_nickname").set_value("\u200b\u200b\u200b").run()
    phone.button(key="live_choice_A").click().run()
    assert "visible" in phone.error[0].value
    assert live_class.store().count(code, 1) == 0


def test_opening_polls_in_a_loop_is_bounded(monkeypatch):
    from ir_metrics_lab.core.classroom import limits

    limit = limits.Limit(limits.POLLS_PER_SECOND, limits.POLLS_BURST, clock=FrozenClock())
    monkeypatch.setattr(live_class, "poll_limit", lambda: limit)
    at = teacher()
    opened = set()
    for _ in range(limits.POLLS_BURST + 2):
        at.button[0].click().run()  # Open the poll
        if at.session_state["live_teacher"]:
            opened.add(at.session_state["live_teacher"][0])
            at.button(key="live_close").click().run()
    assert len(opened) == limits.POLLS_BURST
    assert "wait a little" in at.warning[0].value


def test_error_details_are_not_shown_to_users():
    """Streamlit 1.67 reads client.showErrorDetails as "full", "stacktrace", "type" or "none" (false is the old
    spelling of "none"): an unexpected error shows no message, type or stack trace to a browser."""
    import tomllib

    from tests.page_scripts import REPO

    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorDetails"] == "none"


def test_a_database_outage_on_opening_the_join_link_says_so_in_words(monkeypatch):
    from sqlalchemy.exc import OperationalError

    from ir_metrics_lab.core.classroom.store import Store

    _, code = choice_poll()
    real_poll = Store.poll

    def down(*_args, **_kwargs):
        raise OperationalError("SELECT live_polls.code FROM live_polls", {}, Exception("/var/run/postgresql"))

    monkeypatch.setattr(Store, "poll", down)
    phone = student(code)
    assert not phone.exception
    assert [w.value for w in phone.warning] == [live_class.BUSY_READ]
    assert not phone.error and not [b for b in phone.button if b.key and b.key.startswith("live_choice_")]
    monkeypatch.setattr(Store, "poll", real_poll)  # the database is back
    phone.run()
    assert not phone.warning and phone.button(key="live_choice_A")


def test_a_page_trying_codes_is_slowed_down(monkeypatch):
    """Join codes are looked up within a limit per connection: a guesser's page gets a few tries, then waits."""
    from ir_metrics_lab.core.classroom import limits

    limit = limits.Limit(limits.JOINS_PER_SECOND, limits.JOINS_BURST, clock=FrozenClock())
    monkeypatch.setattr(live_class, "join_limit", lambda: limit)
    _, code = choice_poll()
    phone = AppTest.from_file(str(page_script("join_class.py")), default_timeout=30)
    for n in range(limits.JOINS_BURST):
        phone.query_params["code"] = f"WRNG{n:04d}"
        phone.run()
        assert "No open poll" in phone.error[0].value
    phone.query_params["code"] = code  # even the right one, now: wait
    phone.run()
    assert "Too many codes" in phone.warning[0].value
    assert not [b for b in phone.button if b.key and b.key.startswith("live_choice_")]


def teacher_cookie_written(at: AppTest) -> str | None:
    """The value the page has the browser keep in its teacher cookie ("" deletes it), or None if it writes none."""
    for element in at.get("bidi_component"):
        data = json.loads(element.proto.json)
        if data.get("name") == identity.TEACHER_COOKIE:
            return data["value"]
    return None


def teaching(at: AppTest) -> tuple[str, str] | None:
    """The poll (code, token) the session runs, if any."""
    return at.session_state.get("live_teacher")


def test_a_new_session_comes_back_to_the_poll_its_teacher_cookie_names(monkeypatch):
    """A restarted server (or another replica) knows no session: the projector's new session runs the poll its
    browser's cookie names, with its controls, while the poll is open or revealed; not a closed poll, not with a
    wrong token; the token never in the page."""
    from sqlalchemy.exc import OperationalError

    from ir_metrics_lab.core.classroom.store import Store

    first = teacher()
    assert teacher_cookie_written(first) == ""  # no poll: none kept
    first.button[0].click().run()  # Open the poll
    code, token = first.session_state["live_teacher"]
    assert teacher_cookie_written(first) == identity.teacher_cookie(code, token)

    held = {"value": identity.teacher_cookie(code, token)}
    monkeypatch.setattr(live_class, "held_teacher_cookie", lambda: held["value"])
    real_poll = Store.poll

    def down(self, *args):
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(Store, "poll", down)  # the database is busy on the first run: looked at again on the next
    restarted = teacher()
    assert teaching(restarted) is None and teacher_cookie_written(restarted) is None
    monkeypatch.setattr(Store, "poll", real_poll)
    restarted.run()
    assert teaching(restarted) == (code, token)
    assert not restarted.button(key="live_reveal").disabled and [m.value for m in restarted.metric] == ["0"]
    assert token not in "".join(m.value for m in restarted.markdown)
    restarted.button(key="live_reveal").click().run()
    assert restarted.subheader[-1].value.startswith("The answer: 0.97")
    assert teaching(teacher()) == (code, token)  # revealed: still its poll

    held["value"] = identity.teacher_cookie(code, "not-the-token")
    assert teaching(teacher()) is None
    held["value"] = "garbage"
    assert teaching(teacher()) is None

    held["value"] = identity.teacher_cookie(code, token)
    again = teacher()
    again.button(key="live_close").click().run()
    assert teacher_cookie_written(again) == ""  # closed: the browser forgets it
    assert teaching(teacher()) is None  # and a closed poll is not brought back

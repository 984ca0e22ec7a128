"""The live-class pages in AppTest: a teacher opens a poll on the playground's list, students answer (and change
their answer), the teacher reveals; a student with a forged teacher link cannot. The store is SQLite in a temporary
folder (IR_METRICS_LAB_DATA_DIR)."""

from __future__ import annotations

from math import log2
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui import live_class

PAGES = Path(__file__).parents[1] / "app_pages"
# The default playground list: grades 3, 2, 3, 0, 1 at k = 5 (no shelf). NDCG@5 by hand, linear and 2^g - 1 gain:
DCG = 3 + 2 / log2(3) + 3 / 2 + 0 + 1 / log2(6)
IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)
EXP = (7 + 3 / log2(3) + 7 / 2 + 1 / log2(6)) / (7 + 7 / log2(3) + 3 / 2 + 1 / log2(5))


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    monkeypatch.setenv("IR_METRICS_LAB_DATA_DIR", str(tmp_path))
    live_class.store.clear()
    yield
    live_class.store.clear()


def teacher() -> AppTest:
    at = AppTest.from_file(str(PAGES / "ask_class.py"), default_timeout=30).run()
    assert not at.exception
    return at


def student(code: str, student_id: str) -> AppTest:
    at = AppTest.from_file(str(PAGES / "join_class.py"), default_timeout=30)
    at.query_params["code"] = code
    at.query_params["s"] = student_id
    return at.run()


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
    phones = [student(code.lower(), f"student-{n:04d}") for n in range(3)]
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
    assert live_class.store().my_answer(code, 1, "student-0000").value == "0.97"
    assert "### The answer: 0.97" in [m.value for m in phones[0].markdown]
    assert "is right" in phones[0].success[0].value


def test_a_forged_teacher_link_cannot_reveal():
    at = teacher()
    at.button[0].click().run()
    code, _ = at.session_state["live_teacher"]
    forged = AppTest.from_file(str(PAGES / "ask_class.py"), default_timeout=30)
    forged.query_params["poll"] = code
    forged.query_params["teacher"] = "guessed-token"
    forged.run()
    assert "teacher token" in forged.error[0].value
    assert "live_teacher" not in forged.session_state or forged.session_state["live_teacher"] is None
    assert not [b for b in forged.button if b.key == "live_reveal"]
    joined = student(code, "student-0001")
    assert not [b for b in joined.button if b.key == "live_reveal"]
    assert live_class.store().poll(code).state == "open"


def test_a_choice_question_and_an_unknown_code():
    at = teacher()
    at.radio(key="live_kind").set_value("choice").run()
    at.selectbox(key="live_move_doc").set_value("d4").run()
    at.button[0].click().run()  # A: the playground's list; B: d4 (grade 0) moved to rank 1
    code, _ = at.session_state["live_teacher"]
    phone = student(code, "student-0002")
    phone.button(key="live_choice_B").click().run()
    assert phone.button(key="live_choice_B").label == "List B ✓"
    phone.button(key="live_choice_A").click().run()  # changed
    at.run()
    assert [m.value for m in at.metric] == ["1"]
    assert "No open poll" in student("ZZZZZZZZ", "student-0003").error[0].value


def test_a_vs_b_question():
    at = teacher()
    at.radio(key="live_kind").set_value("ab").run()
    assert at.subheader[0].value == "Which list has the higher NDCG@5?"
    at.button[0].click().run()
    code, _ = at.session_state["live_teacher"]
    phone = student(code, "student-0004")
    assert "**List B**" in [m.value for m in phone.markdown]
    phone.button(key="live_choice_B").click().run()
    at.button(key="live_reveal").click().run()
    assert at.subheader[-1].value == "The answer: List B · 1 of 1 right"

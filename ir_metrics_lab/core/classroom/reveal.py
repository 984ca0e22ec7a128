"""What a phone says at the reveal: the right answer, and its own answer's verdict. One wording for the phone's page
(Markdown: app_pages/live_class/join_class.py) and for the reveal pushed to it without a rerun (plain text:
ir_metrics_lab.classroom.reveal_stream).

>>> from ir_metrics_lab.core.scenario import Scenario
>>> # P@1: d1 (grade 0) first in list A, d2 (grade 1) moved to the top in list B
>>> question = questions.pick_better(Scenario(("d1", "d2"), grades={"d1": 0, "d2": 1}, k=1), "d2", 1, "P")
>>> verdict(question, None, None)
Verdict(heading='The answer: List B', kind='info', sentence='You did not answer this round.')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ir_metrics_lab.core.classroom import questions

KINDS = ("success", "warning", "error", "info")  # how a page shows the sentence: st.success, st.warning, ...


@dataclass(frozen=True, slots=True)
class Verdict:
    heading: str  # "The answer: List A"
    kind: str  # one of KINDS
    sentence: str  # "Your answer B is not it."


def verdict(
    question: Mapping[str, Any],
    value: str | None,
    outcome: questions.Result | None,
    literal: questions.Escape = questions.markdown_literal,
) -> Verdict:
    """The reveal for a phone that answered ``value`` (None: it did not), whose ``outcome`` is
    ``questions.result(question, [value])``; user text (a move's document id) shown by ``literal``, Markdown unless
    told (ir_metrics_lab.core.markdown.text for a DOM node)."""
    right = questions.right_answer(question) if outcome is None else outcome.right
    shown_right = right if question["kind"] == "predict" else questions.choice_label(question, right, literal)
    heading = f"The answer: {shown_right}"
    if value is None or outcome is None:
        return Verdict(heading, "info", "You did not answer this round.")
    if question["kind"] == "move":
        yours = questions.choice_label(question, value, literal)
    else:
        yours = literal(questions.shown(question, value))
    if outcome.correct:
        return Verdict(heading, "success", f"Your answer {yours} is right.")
    if outcome.mistakes:
        return Verdict(heading, "warning", f"Your answer {yours} is what you get with {outcome.mistakes[0].mistake}.")
    return Verdict(heading, "error", f"Your answer {yours} is not it.")

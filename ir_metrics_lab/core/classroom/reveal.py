"""What a phone says at the reveal: the right answer, and its own answer's verdict. One wording for the phone's page
(Markdown: app_pages/live_class/join_class.py) and for the reveal pushed to it without a rerun (plain text:
ir_metrics_lab.classroom.reveal_stream).

>>> question = {"kind": "choice", "measure": "P", "k": 2}
>>> verdict(question, None, None, right="A")
Verdict(heading='The answer: List A', kind='info', sentence='You did not answer this round.')
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
    right: str | None = None,
) -> Verdict:
    """The reveal for a phone that answered ``value`` (None: it did not), whose ``outcome`` is
    ``questions.result(question, [value])``; user text (a move's document id) shown by ``literal``, Markdown unless
    told (ir_metrics_lab.core.markdown.text for a DOM node). ``right`` spares computing the right answer again."""
    right = questions.right_answer(question) if right is None else right
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

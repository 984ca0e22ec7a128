r"""How a Breakdown and a QuerySetResult show in Jupyter: a Breakdown as its worked formula (the very LaTeX the app's
pages draw) above its per-rank table, a QuerySetResult as its per-query table with the mean. ``install()`` (run by
``import metrics``) attaches them as ``_repr_html_`` / ``_repr_markdown_`` / ``_repr_latex_``: metrics.core.types
cannot import the formulas, which import it. (Evaluation, Leaderboard and Explanation carry their own reprs.)

>>> from metrics import precision
>>> precision(["a", "b"], {"a": 1}, k=2)._repr_latex_().splitlines()[-3]
'\\mathrm{P@2} &= \\frac{1}{2} = 0.5000'
"""

from __future__ import annotations

import html
from collections.abc import Callable

from metrics.core.tables import html_table, html_text, markdown_table, markdown_text, number
from metrics.core.types import Breakdown
from metrics.evaluation.aggregate import QuerySetResult
from metrics.teaching import formulas

STEP_COLUMNS = ("rank", "doc", "grade", "relevant", "contribution", "running")
RESULT_COLUMNS = ("query", "value")


def step_rows(b: Breakdown) -> list[list[object]]:
    """One row per rank: what the per-rank chart draws, as numbers."""
    return [
        [s.rank, s.doc_id, s.grade, "yes" if s.relevant else "no", number(s.contribution), number(s.running)]
        for s in b.steps
    ]


def value_text(b: Breakdown) -> str:
    return b.text if b.text is not None else number(b.value)


def breakdown_latex(b: Breakdown) -> str:
    return f"$$\n{formulas.latex(b)}\n$$"


def breakdown_markdown(b: Breakdown) -> str:
    head = f"**{markdown_text(b.metric)} = {markdown_text(value_text(b))}**"
    return "\n\n".join([head, breakdown_latex(b), markdown_table(STEP_COLUMNS, step_rows(b))])


def breakdown_html(b: Breakdown) -> str:
    head = f"<p><b>{html_text(b.metric)} = {html_text(value_text(b))}</b></p>"
    formula = f"<div>{html.escape(breakdown_latex(b))}</div>"  # no user text: the notebook's MathJax typesets it
    return head + formula + html_table(STEP_COLUMNS, step_rows(b))


def result_rows(result: QuerySetResult) -> list[list[str]]:
    return [*([query, number(value)] for query, value in result.per_query.items()), ["mean", number(result.mean)]]


def left_out(result: QuerySetResult) -> str:
    parts = []
    if result.run_only:
        parts.append(f"{len(result.run_only)} quer{'y' if len(result.run_only) == 1 else 'ies'} in the run only")
    if result.qrels_only:
        n = len(result.qrels_only)
        parts.append(f"{n} judged quer{'y' if n == 1 else 'ies'} not in the run")
    return "Not in the mean: " + "; ".join(parts) + "." if parts else ""


def result_html(result: QuerySetResult) -> str:
    note = left_out(result)
    return html_table(RESULT_COLUMNS, result_rows(result)) + (f"<p>{html.escape(note)}</p>" if note else "")


def result_markdown(result: QuerySetResult) -> str:
    note = left_out(result)
    return markdown_table(RESULT_COLUMNS, result_rows(result)) + (f"\n\n{markdown_text(note)}" if note else "")


def install() -> None:
    """Attach the reprs to the classes (idempotent)."""
    reprs: dict[type, dict[str, Callable[..., str]]] = {
        Breakdown: {
            "_repr_html_": breakdown_html,
            "_repr_markdown_": breakdown_markdown,
            "_repr_latex_": breakdown_latex,
        },
        QuerySetResult: {"_repr_html_": result_html, "_repr_markdown_": result_markdown},
    }
    for cls, methods in reprs.items():
        for name, method in methods.items():
            setattr(cls, name, method)  # cls.name = method, which a type checker refuses: cls declares no such name

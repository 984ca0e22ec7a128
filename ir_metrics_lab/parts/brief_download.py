"""The "Download the brief" buttons of each comparison page, the HTML file and the same page as a PDF: the brief
(ir_metrics_lab.core.brief) is built and written (ir_metrics_lab.core.brief.html_page) only when a button is clicked,
on Streamlit's download thread, so a page's reruns never pay for it. The HTML file is a few hundred kilobytes at most
(charts as inline SVG) and opens with no network. Each page makes one call here with what it already has."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from ir_metrics_lab.core import url
from ir_metrics_lab.core.brief import html_page, many_runs, model, shared_task, two_lists, two_runs, two_tools
from ir_metrics_lab.core.classroom.task_store import Snapshot
from ir_metrics_lab.core.scenario import Scenario
from ir_metrics_lab.session.datasets import Loaded, RunSource
from metrics.compare.leaderboard import Leaderboard
from metrics.evaluation.engine import Evaluation
from metrics.tools.explain import Explanation

HELP = (
    "One HTML file for people who will not open the app: the verdict in plain words, the numbers with their "
    "uncertainty, charts and caveats. It opens from disk or an e-mail with no network, reads on a phone, and prints "
    "on one page (its slide layout: one 16:9 page)."
)


PDF_HELP = (
    "The brief's printed page as a one-page PDF (A4), for readers who want a PDF or a printer. Takes a few seconds."
)


def _inputs(kind: str, qrels: str = "", runs: dict[str, str] | None = None) -> model.Inputs:
    """The brief's inputs on this page: file names as given, today, and the app's address for the links back."""
    page = url.app_address(st.context.url, st.context.headers)
    return model.Inputs(qrels=qrels, runs=runs or {}, app_url=model.app_url(page, kind))


def _button(kind: str, make: Callable[[], model.Brief], key: str) -> None:
    """The HTML brief's button, and the PDF's beside it (or, where WeasyPrint cannot run, why there is none)."""
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.download_button(
            "Download the brief",
            lambda: html_page.render(make()).encode("utf-8"),
            file_name=model.file_name(kind),
            mime="text/html",
            icon=":material/description:",
            on_click="ignore",
            key=key,
            help=HELP,
        )
        problem = html_page.pdf_problem()
        if problem:
            st.caption(f"No PDF here: {problem}.")
            return
        st.download_button(
            "Download as PDF",
            lambda: html_page.pdf(make()),
            file_name=model.file_name(kind, "pdf"),
            mime="application/pdf",
            icon=":material/picture_as_pdf:",
            on_click="ignore",
            key=f"{key}_pdf",
            help=PDF_HELP,
        )


def pair(
    eval_a: Evaluation, eval_b: Evaluation, run_a: RunSource, run_b: RunSource, qrels: Loaded, names, primary, *, key
) -> None:
    """Compare runs' pair view: run B (``names[1]``) against run A, looking closer at ``primary``."""
    files = _inputs("pair", qrels.name, {names[0]: run_a.file_name, names[1]: run_b.file_name})
    runs = [run_a.run_input, run_b.run_input]
    _button(
        "pair",
        lambda: two_runs.brief(eval_a, eval_b, *names, primary=primary, runs=runs, qrels=qrels.value, inputs=files),
        key,
    )


def leaderboard(board: Leaderboard, sources: Sequence[RunSource], qrels: Loaded, *, key: str) -> None:
    """Compare runs' leaderboard of the runs read (``sources``)."""
    files = _inputs("leaderboard", qrels.name, {source.name: source.file_name for source in sources})
    runs = {source.name: source.run_input for source in sources}
    _button("leaderboard", lambda: many_runs.brief(board, runs=runs, qrels=qrels.value, inputs=files), key)


def tools(found: Explanation, run: Loaded, qrels: Loaded, *, key: str) -> None:
    """Why tools differ: two tools' numbers on one run."""
    files = _inputs("tools", qrels.name, {"run": run.name})
    _button("tools", lambda: two_tools.brief(found, run=run.value, qrels=qrels.value, inputs=files), key)


def ab(a: Scenario, b: Scenario, origin: tuple[str, str, str] | None, *, key: str) -> None:
    """Retriever A vs B's two lists; ``origin`` is (query, run A, run B) when they are two runs' rankings."""
    source = f"query {origin[0]} of the runs {origin[1]} (A) and {origin[2]} (B)" if origin else ""
    files = _inputs("ab")
    _button("ab", lambda: two_lists.brief(a, b, source=source, inputs=files), key)


def task(snapshot: Snapshot, *, key: str) -> None:
    """A shared task's results (ir_metrics_lab.classroom.task_results): call only when it has a leaderboard."""

    def make() -> model.Brief:
        made = shared_task.brief(snapshot, _inputs("task"))
        if made is None:  # the page offers the button only with a leaderboard
            raise ValueError("the task has no leaderboard yet")
        return made

    _button("task", make, key)

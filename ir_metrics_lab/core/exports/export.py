"""The current scenario's worked solution as Markdown (with LaTeX) or as CSV numbers. Pure (no Streamlit).

Every number comes from the Breakdowns the page already computed (``ir_metrics_lab.core.numbers.breakdowns``); the
LaTeX is
``metrics.teaching.formulas.latex``, which never contains user text. Doc ids and titles go into the
Markdown table through ir_metrics_lab.core.markdown.plain, one line each.
"""

from __future__ import annotations

import csv as _csv
import io
from collections.abc import Mapping

from ir_metrics_lab.core import url, words
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import SCALES, Scenario
from metrics.catalog import registry
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Breakdown
from metrics.teaching import formulas

CSV_COLUMNS = ("metric", "family", "value", "k", "threshold", "gain", "idcg", "ap_denominator", "retrieved")


def _cell(text: str) -> str:
    return plain(text, one_line=True)  # a line break would end the table row


def _fmt(x: float) -> str:
    return f"{x:.4f}"


def convention_lines(c: Conventions) -> list[str]:
    """One line per convention: the choice, and which tools make the same choice."""
    threshold = (
        f"Relevant if grade ≥ {c.threshold} "
        + ("(trec_eval's default, `-l 1`)" if c.threshold == TREC_EVAL.threshold else f"(trec_eval `-l {c.threshold}`)")
        + "; NDCG uses every positive grade."
    )
    gain = (
        f"Gain: linear, gain = grade ({registry.tools('gain', 'linear')})."
        if c.gain == "linear"
        else f"Gain: exponential, 2^grade − 1 ({registry.tools('gain', 'exp')})."
    )
    idcg = (
        f"Ideal ordering (IDCG) from all judged documents, retrieved or not ({registry.tools('idcg', 'all')})."
        if c.idcg == "all"
        else f"Ideal ordering (IDCG) from the retrieved list only ({registry.tools('idcg', 'retrieved')})."
    )
    ap = (
        f"AP divides by R, every relevant judged document ({registry.tools('ap_denominator', 'all')})."
        if c.ap_denominator == "all"
        else f"AP divides by the relevant documents retrieved ({registry.tools('ap_denominator', 'retrieved')})."
    )
    return [threshold, gain, idcg, ap]


def matches(c: Conventions) -> str:
    """Which tool the numbers as a whole agree with."""
    if c == TREC_EVAL:
        return (
            "These are trec_eval's defaults (10.0): every number matches trec_eval (and ir_measures, ranx, except "
            "interpolated precision at a few recall levels, which ir_measures and pytrec_eval round as trec_eval 9)."
        )
    if c == Conventions(threshold=c.threshold, recall_rounding="plus_0.9"):
        return "trec_eval 9's recall-level rounding: the numbers match pytrec_eval and ir_measures."
    if c == Conventions(threshold=c.threshold):
        return f"trec_eval's conventions with `-l {c.threshold}`: the numbers match `trec_eval -l {c.threshold}`."
    return "Not trec_eval's defaults: see each convention above for the tools that make the same choice."


def _table(scn: Scenario) -> list[str]:
    grades = scn.qrels
    rows = ["| Rank | Doc id | Title | Grade |", "|---:|---|---|---:|"]
    for rank, doc in enumerate(scn.ranking, start=1):
        cut = " (beyond k)" if rank > scn.k else ""
        rows.append(f"| {rank}{cut} | {_cell(doc)} | {_cell(scn.title(doc))} | {grades.get(doc, 'unjudged')} |")
    for doc in scn.shelf:
        rows.append(f"| not retrieved | {_cell(doc)} | {_cell(scn.title(doc))} | {grades[doc]} |")
    return rows


def tail_line(scn: Scenario) -> str | None:
    """Why the numbers count more documents than the table lists: a query opened from a run keeps the rest of its
    ranking as a hidden tail (Scenario.tail), and every metric scores it. None without a tail."""
    if not scn.tail:
        return None
    n = len(scn.tail)
    first, last = len(scn.ranking) + 1, len(scn.ranking) + n
    relevant = sum(scn.grades.get(d, 0) >= scn.conventions.threshold for d in scn.tail)
    more = "1 more retrieved document is" if n == 1 else f"{n:,} more retrieved documents are"
    ranks = f"rank {first}" if n == 1 else f"ranks {first}–{last}"
    return (
        f"\\+ {more} counted ({ranks}, {relevant} of them relevant): every metric below scores the full ranking "
        f"of {words.count(last, 'document')}, not only the {len(scn.ranking)} listed."
    )


def markdown(scn: Scenario, breakdowns: Mapping[str, Breakdown], app_url: str | None = None) -> str:
    """The worked solution: ranked list, conventions, the numbers, and each metric's formula with its numbers.

    ``app_url`` is the app's address (``url.app_address``): with it the scenario link is absolute, so it works when
    the file is read anywhere; without it the link is relative and says so."""
    lines = ["# IR Metrics Lab: worked solution", ""]
    try:
        link = url.full_link(app_url, scn)
        if app_url:
            lines += [f"Open this scenario in the app: <{link}>", ""]
        else:
            hint = "put its address in front, e.g. http://localhost:8501"
            lines += [f"Open this scenario in the app ({hint}): `{link}`", ""]
    except ValueError as error:
        lines += [f"No link: {plain(error, one_line=True)}.", ""]
    else:
        if scn.tail:
            n = len(scn.ranking)
            lines += [f"The link carries the {n} listed documents only, not the hidden ones after them.", ""]
    lines += [
        "## Ranked list",
        "",
        f"Cut-off k = {scn.k}; rating scale {SCALES[scn.scale]}. "
        "Judged documents that were not retrieved still count in R and in the ideal ordering.",
        "",
        *_table(scn),
        "",
        *([tail_line(scn), ""] if scn.tail else []),
        "## Conventions",
        "",
        *[f"- {line}" for line in convention_lines(scn.conventions)],
        "",
        matches(scn.conventions),
        "",
        "## Results",
        "",
        "| Metric | Value |",
        "|---|---:|",
        *[f"| {b.metric} | {_fmt(b.value)} |" for b in breakdowns.values()],
        "",
        "## Worked formulas",
        "",
    ]
    for b in breakdowns.values():
        lines += [f"### {b.metric}", "", "$$", formulas.latex(b), "$$", ""]
    return "\n".join(lines)


def csv(scn: Scenario, breakdowns: Mapping[str, Breakdown]) -> str:
    """One row per metric: its label, family, full-precision value, cutoff (empty = whole list) and conventions.
    ``retrieved`` is how many retrieved documents were scored: the listed ones plus a hidden tail, if any."""
    out = io.StringIO()
    writer = _csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for b in breakdowns.values():
        c = b.conventions
        writer.writerow(
            [b.metric, b.family, repr(b.value), "" if b.k is None else b.k, c.threshold, c.gain, c.idcg,
             c.ap_denominator, len(scn.full_ranking)]
        )  # fmt: skip
    return out.getvalue()

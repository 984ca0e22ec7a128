"""LaTeX building blocks of the worked formulas: a Breakdown's numbers written out (metrics.teaching.formulas shows any
Breakdown's formula; each family's definition and worked formula use these). Pure (no Streamlit).

Every number shown comes from the Breakdown (its steps, terms and value); nothing is recomputed here except
the display fractions (e.g. ``P@i = hits/i``), which are read off the steps' relevant flags.
User text never enters LaTeX: documents are named by rank only, never by id or title.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.core.types import Breakdown, RankStep, Term

MAX_TERMS = 10  # more than this and KaTeX wraps badly: show the first ones, then a count
PER_LINE = 5  # terms per row of the aligned block


def decimal(x: float) -> str:
    return f"{x:.4f}"


def whole(x: float) -> str:
    return str(round(x))


def at_cut(k: int | None) -> str:
    """The cutoff as it reads in a symbol: ``@5``, or ``@k`` in a definition, or nothing for the whole list."""
    return "" if k is None else f"@{k}"


def measure_symbol(family: str, k: int | None, *, symbolic: bool = False, subscript: str | None = None) -> str:
    """``\\mathrm{NDCG@5}``; with a subscript (LaTeX, braced if longer than one character) the family's name and
    its subscript, ``\\mathrm{R}_{\\mathrm{cap}}\\mathrm{@5}``; ``symbolic`` writes ``@k``."""
    cut = "@k" if symbolic else at_cut(k)
    if subscript is not None:
        return rf"\mathrm{{{family}}}_{subscript}\mathrm{{{cut}}}"
    return rf"\mathrm{{{family}{cut}}}"


def aligned_block(lines: Sequence[str]) -> str:
    """First line carries the symbol ``X &= ...``; the rest continue with ``&= ...``."""
    # A zero-width strut on the first row: without it Streamlit clips the top of a fraction there.
    return "\\begin{aligned}\n\\rule{0pt}{1.6em}" + " \\\\\n".join(lines) + "\n\\end{aligned}"


def elided_sum(terms: Sequence[str], values: Sequence[float]) -> str:
    """Join terms with +, PER_LINE to a row of the aligned block; beyond MAX_TERMS, one summary for the rest."""
    if not terms:
        return "0"
    shown = terms[:MAX_TERMS]
    rows = [" + ".join(shown[i : i + PER_LINE]) for i in range(0, len(shown), PER_LINE)]
    text = " \\\\\n&\\qquad + ".join(rows)
    hidden = len(terms) - MAX_TERMS
    if hidden > 0:
        word = "term" if hidden == 1 else "terms"
        rest = values[MAX_TERMS:]
        summary = "of 0" if all(v == 0 for v in rest) else f"summing to {decimal(sum(rest))}"
        text += rf" + \cdots \ (\text{{{hidden} more {word} {summary}}})"
    return text


# --- definitions: the symbolic formula of each family (the registry names one per family) ---


def defined(family: str, *, subscript: str | None = None) -> str:
    """The symbol as a definition writes it: ``\\mathrm{P@k}``."""
    return measure_symbol(family, None, symbolic=True, subscript=subscript)


# --- worked formulas ---


def indicators(steps: Sequence[RankStep]) -> list[str]:
    return ["1" if s.relevant else "0" for s in steps]


def hits_sum(b: Breakdown) -> str:
    """hits@k written out as 1 + 0 + 1 ...; relevant ranks listed so the learner can check them."""
    values = [1.0 if s.relevant else 0.0 for s in b.steps]
    return elided_sum(indicators(b.steps), values)


def padding_note(b: Breakdown) -> str:
    if b.k is not None and len(b.steps) < b.k:
        missing = b.k - len(b.steps)
        empty = f"{missing} empty rank counts" if missing == 1 else f"{missing} empty ranks count"
        # rows of their own, under the sum: beside it, a narrow column cut the sentence off
        return rf" \\ & \quad \text{{(only {len(b.steps)} retrieved:}} \\ & \quad \text{{{empty} as non-relevant)}}"
    return ""


def hits_line(b: Breakdown) -> str:
    cut = at_cut(b.k) or ""
    written = f"{hits_sum(b)} = " if len(b.steps) > 1 else ""
    return rf"\mathrm{{hits{cut}}} &= {written}{whole(b.terms[Term.HITS])}{padding_note(b)}"


def zero_R_line(s: str) -> str:
    return rf"{s} &= 0 \quad \text{{(no judged relevant document: }} R = 0 \text{{, so 0, not NaN)}}"


# --- trec_eval's counts, set measures, R-precision, interpolated precision ---


# --- trec_eval's catalog beyond the ten cards: incomplete judgments, user models, gain walks, set utility ---


def plain(name: str, k: int | None = None, symbolic: bool = False) -> str:
    """A measure's symbol with underscores escaped: \\mathrm{ndcg\\_rel}, \\mathrm{unj@5}."""
    cut = "@k" if symbolic else at_cut(k)
    return rf"\mathrm{{{name.replace('_', chr(92) + '_')}{cut}}}"


def share_line(symbol: str, numerator: str, denominator: str, value: float, zero_why: str | None) -> str:
    if zero_why is not None:
        return rf"{symbol} &= 0 \quad \text{{({zero_why})}}"
    return rf"{symbol} &= \frac{{{numerator}}}{{{denominator}}} = {decimal(value)}"


def compact(x: float) -> str:
    return f"{x:g}"

"""LaTeX building blocks of the worked formulas: a Breakdown's numbers written out (metrics.formulas shows any
Breakdown's formula; each family's definition and worked formula use these). Pure (no Streamlit).

Every number shown comes from the Breakdown (its steps, terms and value); nothing is recomputed here except
the display fractions (e.g. ``P@i = hits/i``), which are read off the steps' relevant flags.
User text never enters LaTeX: documents are named by rank only, never by id or title.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics.conventions import Conventions
from metrics.types import Breakdown, RankStep, Term

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


def bpref_definition(c: Conventions) -> str:
    return (
        r"\mathrm{bpref} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(1 - "
        r"\frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    )


def gm_bpref_definition(c: Conventions) -> str:
    return r"\mathrm{gm\_bpref} = \exp\Bigl(\frac{1}{Q} \sum_q \log \max(\mathrm{bpref}_q,\ 10^{-5})\Bigr)"


def bpref_worked(b: Breakdown) -> str:
    R, N = whole(b.terms[Term.R]), whole(b.terms[Term.NONRELEVANT])
    s = plain("bpref")
    share = r"\left(1 - \frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    lines = [rf"{s} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} {share}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return aligned_block(lines)
    shares = [s_.contribution * b.terms[Term.R] for s_ in b.steps if s_.relevant]
    lines.append(rf"&\quad (R = {R},\ N = {N}\ \text{{judged non-relevant; unjudged documents skipped}})")
    written = elided_sum([decimal(v) for v in shares], shares) if shares else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr) = {decimal(b.value)}")
    if b.family == "gm_bpref":
        lines.append(r"&\quad \text{(this query's bpref; the summary is the geometric mean over queries)}")
    return aligned_block(lines)


def infap_definition(c: Conventions) -> str:
    return (
        r"\mathrm{infAP} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(\frac{1}{i} + \frac{i-1}{i} \cdot "
        r"\frac{r + n + u}{i-1} \cdot \frac{r + \varepsilon}{r + n + 2\varepsilon}\right)"
    )


def infap_worked(b: Breakdown) -> str:
    R = whole(b.terms[Term.R])
    lines = [rf"{plain('infAP')} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} \widehat{{\mathrm{{P@}}i}}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return aligned_block(lines)
    estimates = [(st.rank, st.contribution * b.terms[Term.R]) for st in b.steps if st.relevant]
    terms = [rf"\underbrace{{{decimal(v)}}}_{{{rank}}}" for rank, v in estimates]
    written = elided_sum(terms, [v for _, v in estimates]) if terms else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr)")
    lines.append(rf"&= \frac{{{decimal(b.terms[Term.ESTIMATE_SUM])}}}{{{R}}} = {decimal(b.value)}")
    return aligned_block(lines)


def judged_definition(c: Conventions) -> str:
    return r"\mathrm{Judged@}k = \frac{\#\{i \leq k : d_i \text{ judged}\}}{\min(k,\ n)}"


def judged_worked(b: Breakdown) -> str:
    s, count, divisor = plain("Judged", b.k), whole(b.terms[Term.JUDGED]), whole(b.terms[Term.DENOMINATOR])
    zero = "nothing retrieved" if not b.terms[Term.DENOMINATOR] else None
    return aligned_block(
        [
            rf"{s} &= \frac{{\#\,\text{{judged in the top {'k' if b.k else 'n'}}}}}{{\min(k,\ n)}}",
            share_line(s, count, divisor, b.value, zero),
        ]
    )


def unjudged_definition(c: Conventions) -> str:
    return r"\mathrm{unj@}k = \frac{\#\{i \leq k : d_i \text{ unjudged}\}}{k}"


def unjudged_worked(b: Breakdown) -> str:
    s, count, divisor = plain("unj", b.k), whole(b.terms[Term.UNJUDGED]), whole(b.terms[Term.CUTOFF])
    zero = "nothing retrieved" if not b.terms[Term.CUTOFF] else None
    return aligned_block(
        [
            rf"{s} &= \frac{{\#\,\text{{unjudged in the top k}}}}{{k}}"
            r" \quad \text{(no qrels line, or a grade below 0)}",
            share_line(s, count, divisor, b.value, zero),
        ]
    )


def rbp_definition(c: Conventions) -> str:
    return r"\mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}"


def rbp_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    lines = [rf"\mathrm{{RBP}} &= (1 - p) \sum_i g_i \, p^{{\,i-1}} \quad (p = {compact(p)})"]
    gained = [st for st in b.steps if st.contribution]
    terms = [rf"{decimal(st.contribution / (1 - p))}" for st in gained] if p != 1 else []
    if terms:
        written = elided_sum(terms, [st.contribution for st in gained])
        lines.append(rf"&= {compact(1 - p)} \cdot \Bigl( {written} \Bigr)")
    lines.append(rf"&= {compact(1 - p)} \cdot {decimal(b.terms[Term.DISCOUNTED_SUM])} = {decimal(b.value)}")
    return aligned_block(lines)


def rbp_resid_definition(c: Conventions) -> str:
    return r"\mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \leq n,\ d_i \text{ unjudged}} p^{\,i-1}"


def rbp_resid_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    unjudged_sum = r"\sum_{d_i \text{ unjudged}} p^{\,i-1}"
    lines = [rf"\mathrm{{RBP_{{resid}}}} &= p^{{\,n}} + (1 - p) {unjudged_sum} \quad (p = {compact(p)})"]
    if not b.terms[Term.UNJUDGED]:
        lines.append(r"&= 0 \quad \text{(no unjudged document in the list: trec\_eval reports 0)}")
        return aligned_block(lines)
    unjudged = sum(st.contribution for st in b.steps) - b.terms[Term.TAIL]  # the last rank's step carries the tail
    lines.append(rf"&= {decimal(b.terms[Term.TAIL])} + {decimal(unjudged)} = {decimal(b.value)}")
    return aligned_block(lines)


def err_definition(c: Conventions) -> str:
    return (
        r"\mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j<i} (1 - R_j), \quad "
        r"R_i = \frac{2^{g_i} - 1}{2^4}"
    )


def err_worked(b: Breakdown) -> str:
    s = plain("ERR", b.k)
    lines = [rf"{s} &= \sum_i \frac{{R_i}}{{i}} \prod_{{j<i}} (1 - R_j), \quad R_i = \frac{{2^{{g_i}} - 1}}{{16}}"]
    stops = [st for st in b.steps if st.contribution]
    if stops:
        lines.append(rf"&= {elided_sum([decimal(st.contribution) for st in stops], [st.contribution for st in stops])}")
    past = decimal(b.terms[Term.STILL_READING])
    lines.append(rf"&= {decimal(b.value)} \quad \text{{(reads past the end with probability {past})}}")
    return aligned_block(lines)


def utility_definition(c: Conventions) -> str:
    return r"\mathrm{U} = a \cdot r + b \cdot (n - r) + c \cdot (R - r) + d \cdot (N + r - n - R)"


def utility_worked(b: Breakdown) -> str:
    r, n, R = whole(b.terms[Term.HITS]), whole(b.terms[Term.RETRIEVED]), whole(b.terms[Term.R])
    return aligned_block(
        [
            r"U &= a \cdot r + b \cdot (n - r) + c \cdot (R - r) + d \cdot (N + r - n - R)",
            rf"&\quad (r = {r} \text{{ relevant retrieved}},\ n = {n} \text{{ retrieved}},\ "
            rf"R = {R} \text{{ relevant}})",
            rf"U &= {decimal(b.value)}",
        ]
    )


def relstring_definition(c: Conventions) -> str:
    return r"\mathrm{relstring} = \text{one character per rank: the grade, - not judged, . in the pool unjudged}"


def relstring_worked(b: Breakdown) -> str:
    shown = "".join(_RELSTRING_SAFE.get(ch, "?") for ch in (b.text or ""))
    return aligned_block([rf"\mathrm{{relstring}} &= \texttt{{'{shown}'}}"])


_RELSTRING_SAFE = {
    **{str(d): str(d) for d in range(10)},
    "-": "-",
    ".": ".",
    ">": r"\textgreater{}",
    "<": r"\textless{}",
}


def compact(x: float) -> str:
    return f"{x:g}"

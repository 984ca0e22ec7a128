r"""Breakdown -> LaTeX: the metric's formula with the user's own numbers substituted. Pure (no Streamlit).

Every number shown comes from the Breakdown (its steps, terms and value); nothing is recomputed here except
the display fractions (e.g. ``P@i = hits/i``), which are read off the steps' relevant flags.
User text never enters LaTeX: documents are named by rank only, never by id or title.

>>> from metrics import dcg
>>> print(latex(dcg(["d1", "d2"], {"d1": 3, "d2": 2}, k=2)))  # doctest: +NORMALIZE_WHITESPACE
\begin{aligned}
\rule{0pt}{1.6em}\mathrm{DCG@2} &= \sum_{i=1}^{2} \frac{g_i}{\log_2(i+1)} \\
&= \frac{3}{\log_2 2} + \frac{2}{\log_2 3} \\
&= 4.2619
\end{aligned}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from metrics.conventions import Conventions
from metrics.types import Breakdown, RankStep, Term

MAX_TERMS = 10  # more than this and KaTeX wraps badly: show the first ones, then a count
PER_LINE = 5  # terms per row of the aligned block


def _num(x: float) -> str:
    return f"{x:.4f}"


def _int(x: float) -> str:
    return str(round(x))


def _cut(k: int | None) -> str:
    """The cutoff as it reads in a symbol: ``@5``, or ``@k`` in a definition, or nothing for the whole list."""
    return "" if k is None else f"@{k}"


def _symbol(family: str, k: int | None, gain: str = "linear", *, symbolic: bool = False) -> str:
    """``\\mathrm{NDCG@5}``, ``\\mathrm{R}_{\\mathrm{cap}}\\mathrm{@5}``; ``symbolic`` writes ``@k``."""
    cut = "@k" if symbolic else _cut(k)
    if family == "R_cap":
        return rf"\mathrm{{R}}_{{\mathrm{{cap}}}}\mathrm{{{cut}}}"
    if family in ("DCG", "IDCG", "NDCG") and gain == "exp":
        return rf"\mathrm{{{family}}}_{{\exp}}\mathrm{{{cut}}}"
    if family == "F1":
        return rf"\mathrm{{F}}_1\mathrm{{{cut}}}"
    return rf"\mathrm{{{family}{cut}}}"


def _aligned(lines: Sequence[str]) -> str:
    """First line carries the symbol ``X &= ...``; the rest continue with ``&= ...``."""
    # A zero-width strut on the first row: without it Streamlit clips the top of a fraction there.
    return "\\begin{aligned}\n\\rule{0pt}{1.6em}" + " \\\\\n".join(lines) + "\n\\end{aligned}"


def _elided_sum(terms: Sequence[str], values: Sequence[float]) -> str:
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
        summary = "of 0" if all(v == 0 for v in rest) else f"summing to {_num(sum(rest))}"
        text += rf" + \cdots \ (\text{{{hidden} more {word} {summary}}})"
    return text


# --- definitions: the symbolic formula of each family (the registry names one per family) ---


def definition(family: str, conventions: Conventions) -> str:
    """The symbolic formula of a metric family under the given conventions (no numbers).

    >>> from metrics import TREC_EVAL
    >>> definition("P", TREC_EVAL)
    '\\\\mathrm{P@k} = \\\\frac{\\\\mathrm{hits@}k}{k}'
    """
    from metrics.registry import family as declared  # the registry imports this module

    return declared(family).definition(conventions)


def _defined(family: str, conventions: Conventions) -> str:
    return _symbol(family, None, conventions.gain, symbolic=True)


def precision_definition(c: Conventions) -> str:
    return rf"{_defined('P', c)} = \frac{{\mathrm{{hits@}}k}}{{k}}"


def recall_definition(c: Conventions) -> str:
    return rf"{_defined('R', c)} = \frac{{\mathrm{{hits@}}k}}{{R}}"


def capped_recall_definition(c: Conventions) -> str:
    return rf"{_defined('R_cap', c)} = \frac{{\mathrm{{hits@}}k}}{{\min(R,\ k)}}"


def hit_rate_definition(c: Conventions) -> str:
    return (
        rf"{_defined('HitRate', c)} = \begin{{cases}} 1 & \text{{if }} \mathrm{{hits@}}k \geq 1 \\ 0 & "
        r"\text{otherwise} \end{cases}"
    )


def f1_definition(c: Conventions) -> str:
    p_k, r_k = r"\mathrm{P@}k", r"\mathrm{R@}k"
    return rf"{_defined('F1', c)} = \frac{{2 \cdot {p_k} \cdot {r_k}}}{{{p_k} + {r_k}}}"


def reciprocal_rank_definition(c: Conventions) -> str:
    return (
        rf"{_defined('RR', c)} = \frac{{1}}{{\mathrm{{rank}}_1}} \quad "
        r"(0 \text{ if no relevant document in the top } k)"
    )


def average_precision_definition(c: Conventions) -> str:
    denominator = "R" if c.ap_denominator == "all" else r"\mathrm{hits@}k"
    relevant_ranks = r"i \leq k,\ d_i \text{ relevant}"
    return rf"{_defined('AP', c)} = \frac{{1}}{{{denominator}}} \sum_{{{relevant_ranks}}} \mathrm{{P@}}i"


def _gain_symbol(grade: str, c: Conventions) -> str:
    return grade if c.gain == "linear" else rf"\left(2^{{{grade}}} - 1\right)"


def dcg_definition(c: Conventions) -> str:
    return rf"{_defined('DCG', c)} = \sum_{{i=1}}^{{k}} \frac{{{_gain_symbol('g_i', c)}}}{{\log_2(i+1)}}"


def idcg_definition(c: Conventions) -> str:
    return rf"{_defined('IDCG', c)} = \sum_{{i=1}}^{{k}} \frac{{{_gain_symbol('g^*_i', c)}}}{{\log_2(i+1)}}"


def ndcg_definition(c: Conventions) -> str:
    return rf"{_defined('NDCG', c)} = \frac{{{_defined('DCG', c)}}}{{{_defined('IDCG', c)}}}"


# --- worked formulas ---


def latex(b: Breakdown) -> str:
    """The worked formula of any Breakdown: definition, the user's numbers substituted, the result."""
    from metrics.registry import family  # the registry imports this module

    return family(b.family).worked(b)


def _indicators(steps: Sequence[RankStep]) -> list[str]:
    return ["1" if s.relevant else "0" for s in steps]


def _hits_sum(b: Breakdown) -> str:
    """hits@k written out as 1 + 0 + 1 ...; relevant ranks listed so the learner can check them."""
    values = [1.0 if s.relevant else 0.0 for s in b.steps]
    return _elided_sum(_indicators(b.steps), values)


def _padding_note(b: Breakdown) -> str:
    if b.k is not None and len(b.steps) < b.k:
        missing = b.k - len(b.steps)
        empty = f"{missing} empty rank counts" if missing == 1 else f"{missing} empty ranks count"
        # rows of their own, under the sum: beside it, a narrow column cut the sentence off
        return rf" \\ & \quad \text{{(only {len(b.steps)} retrieved:}} \\ & \quad \text{{{empty} as non-relevant)}}"
    return ""


def _hits_line(b: Breakdown) -> str:
    cut = _cut(b.k) or ""
    written = f"{_hits_sum(b)} = " if len(b.steps) > 1 else ""
    return rf"\mathrm{{hits{cut}}} &= {written}{_int(b.terms[Term.HITS])}{_padding_note(b)}"


def precision_worked(b: Breakdown) -> str:
    s, divisor = _symbol("P", b.k), _int(b.terms[Term.CUTOFF])
    return _aligned(
        [
            rf"{s} &= \frac{{\mathrm{{hits{_cut(b.k)}}}}}{{{'k' if b.k is not None else 'n'}}}",
            _hits_line(b),
            rf"{s} &= \frac{{{_int(b.terms[Term.HITS])}}}{{{divisor}}} = {_num(b.value)}",
        ]
    )


def _zero_R_line(s: str) -> str:
    return rf"{s} &= 0 \quad \text{{(no judged relevant document: }} R = 0 \text{{, so 0, not NaN)}}"


def recall_worked(b: Breakdown) -> str:
    s, R, hits = _symbol("R", b.k), _int(b.terms[Term.R]), _int(b.terms[Term.HITS])
    last = _zero_R_line(s) if not b.terms[Term.R] else rf"{s} &= \frac{{{hits}}}{{{R}}} = {_num(b.value)}"
    return _aligned([rf"{s} &= \frac{{\mathrm{{hits{_cut(b.k)}}}}}{{R}}", _hits_line(b), last])


def capped_recall_worked(b: Breakdown) -> str:
    s, R, cap, hits = _symbol("R_cap", b.k), _int(b.terms[Term.R]), _int(b.terms[Term.CAP]), _int(b.terms[Term.HITS])
    k_shown = str(b.k) if b.k is not None else str(len(b.steps))
    if not b.terms[Term.R]:
        last = _zero_R_line(s)
    else:
        last = (
            rf"{s} &= \frac{{{hits}}}{{\min({R},\ {k_shown})}} = \frac{{{hits}}}"
            rf"{{{cap}}} = {_num(b.value)}"
        )
    return _aligned([rf"{s} &= \frac{{\mathrm{{hits{_cut(b.k)}}}}}{{\min(R,\ k)}}", _hits_line(b), last])


def hit_rate_worked(b: Breakdown) -> str:
    s = _symbol("HitRate", b.k)
    hits = _int(b.terms[Term.HITS])
    first = next((st.rank for st in b.steps if st.relevant), None)
    where = rf"\quad \text{{(first relevant at rank {first})}}" if first is not None else ""
    return _aligned(
        [
            rf"{s} &= [\,\mathrm{{hits{_cut(b.k)}}} \geq 1\,]",
            rf"&= [\,{hits} \geq 1\,] = {_int(b.value)}{where}",
        ]
    )


def f1_worked(b: Breakdown) -> str:
    s = _symbol("F1", b.k)
    p, r = b.terms[Term.PRECISION], b.terms[Term.RECALL]
    cut = _cut(b.k)
    lines = [
        rf"{s} &= \frac{{2 \cdot \mathrm{{P{cut}}} \cdot \mathrm{{R{cut}}}}}{{\mathrm{{P{cut}}} + \mathrm{{R{cut}}}}}",
    ]
    if p + r == 0:
        lines.append(rf"&= 0 \quad \text{{(}}\mathrm{{P{cut}}} + \mathrm{{R{cut}}} = 0\text{{)}}")
    else:
        lines.append(rf"&= \frac{{2 \cdot {_num(p)} \cdot {_num(r)}}}{{{_num(p)} + {_num(r)}}} = {_num(b.value)}")
    return _aligned(lines)


def reciprocal_rank_worked(b: Breakdown) -> str:
    s = _symbol("RR", b.k)
    first = b.terms.get(Term.FIRST_RELEVANT_RANK)
    if first is None:
        where = f"top {b.k}" if b.k is not None else "list"
        return _aligned(
            [
                rf"{s} &= \frac{{1}}{{\mathrm{{rank}}_1}}",
                rf"&= 0 \quad \text{{(no relevant document in the {where})}}",
            ]
        )
    return _aligned([rf"{s} &= \frac{{1}}{{\mathrm{{rank}}_1}}", rf"&= \frac{{1}}{{{_int(first)}}} = {_num(b.value)}"])


def average_precision_worked(b: Breakdown) -> str:
    s = _symbol("AP", b.k)
    by_R = b.conventions.ap_denominator == "all"
    denominator_symbol = "R" if by_R else rf"\mathrm{{hits{_cut(b.k)}}}"
    lines = [rf"{s} &= \frac{{1}}{{{denominator_symbol}}} \sum_{{d_i \text{{ relevant}}}} \mathrm{{P@}}i"]
    fractions, values, hits = [], [], 0
    for step in b.steps:
        if step.relevant:
            hits += 1
            fractions.append(rf"\frac{{{hits}}}{{{step.rank}}}")
            values.append(hits / step.rank)
    denominator = _int(b.terms[Term.DENOMINATOR])
    if not b.terms[Term.DENOMINATOR]:
        why = r"(no judged relevant document: } R = 0\text{)" if by_R else r"(no relevant document in the top k)"
        lines.append(rf"&= 0 \quad \text{{{why}}}")
        return _aligned(lines)
    total = _num(b.terms[Term.PRECISION_SUM])
    if fractions:
        lines.append(rf"&= \frac{{1}}{{{denominator}}} \Bigl( {_elided_sum(fractions, values)} \Bigr)")
    else:
        lines.append(rf"&= \frac{{1}}{{{denominator}}} \cdot 0 \quad \text{{(no relevant document in the top {b.k})}}")
    lines.append(rf"&= \frac{{{total}}}{{{denominator}}} = {_num(b.value)}")
    if by_R and b.terms[Term.R] > b.terms[Term.HITS]:
        missed = _int(b.terms[Term.R] - b.terms[Term.HITS])
        lines.append(rf"&\quad \text{{({missed} relevant not retrieved: each adds 0)}}")
    return _aligned(lines)


def _gain_term(grade: int, gain: str) -> str:
    if gain == "exp":
        return f"2^{{{grade}}} - 1" if grade > 0 else "0"
    return str(max(grade, 0))


def _dcg_terms(b: Breakdown) -> str:
    if b.gains:  # a gain map (trec_eval ndcg.1=3,2=9): a level not listed gains its own number, unjudged 0
        mapped = dict(b.gains)
        numerators = [_shown(mapped.get(s.grade, float(s.grade))) if s.contribution else "0" for s in b.steps]
    else:
        numerators = [_gain_term(s.grade, b.conventions.gain) for s in b.steps]
    terms = [rf"\frac{{{g}}}{{\log_2 {s.rank + 1}}}" for g, s in zip(numerators, b.steps, strict=True)]
    return _elided_sum(terms, [s.contribution for s in b.steps])


def dcg_worked(b: Breakdown) -> str:
    s = _symbol(b.family, b.k, b.conventions.gain)
    upper = b.k if b.k is not None else "n"
    g = "g^*_i" if b.family == "IDCG" else "g_i"
    gain = g if b.conventions.gain == "linear" else rf"\left(2^{{{g}}} - 1\right)"
    lines = [rf"{s} &= \sum_{{i=1}}^{{{upper}}} \frac{{{gain}}}{{\log_2(i+1)}}"]
    if b.family == "IDCG":
        source = "all judged grades" if b.conventions.idcg == "all" else "retrieved grades only"
        lines[0] += rf" \quad (g^* = \text{{{source}, best first}})"
    if b.steps:
        lines.append(rf"&= {_dcg_terms(b)}")
    else:
        lines.append(r"&= 0 \quad \text{(nothing to sum)}")
    lines.append(rf"&= {_num(b.value)}")
    return _aligned(lines)


def ndcg_worked(b: Breakdown) -> str:
    gain = b.conventions.gain
    s = _symbol("NDCG", b.k, gain)
    dcg_s, idcg_s = _symbol("DCG", b.k, gain), _symbol("IDCG", b.k, gain)
    dcg_v, idcg_v = b.terms[Term.DCG], b.terms[Term.IDCG]
    lines = [rf"{s} &= \frac{{{dcg_s}}}{{{idcg_s}}}"]
    if b.gains:
        listed = r",\ ".join(rf"g({level}) = {_shown(gain)}" for level, gain in b.gains)
        lines[0] += rf" \quad \text{{(gain map: }} {listed} \text{{; other levels gain their number)}}"
    if b.steps:
        lines.append(rf"{dcg_s} &= {_dcg_terms(b)} = {_num(dcg_v)}")
    if not idcg_v:
        lines.append(rf"{s} &= 0 \quad \text{{(}}{idcg_s} = 0\text{{: no judged document has a positive grade)}}")
    else:
        lines.append(rf"{s} &= \frac{{{_num(dcg_v)}}}{{{_num(idcg_v)}}} = {_num(b.value)}")
    return _aligned(lines)


# --- trec_eval's counts, set measures, R-precision, interpolated precision ---

_COUNT_LABELS = {
    "NumRet": (r"\mathrm{num\_ret}", r"\text{documents retrieved}"),
    "NumRel": (r"\mathrm{num\_rel}", r"R = \text{judged relevant, retrieved or not}"),
    "NumRelRet": (r"\mathrm{num\_rel\_ret}", r"\text{relevant documents retrieved}"),
    "NumNonRelJudgedRet": (r"\mathrm{num\_nonrel\_judged\_ret}", r"\text{judged non-relevant documents retrieved}"),
    "NumQ": (r"\mathrm{num\_q}", r"\text{1 per evaluated query, summed}"),
}


def count_definition(family: str) -> Callable[[Conventions], str]:
    """The definition of one of trec_eval's counts (the same shape for all: a number of documents)."""
    symbol, meaning = _COUNT_LABELS[family]
    return lambda c: rf"{symbol} = {meaning}"


def count_worked(b: Breakdown) -> str:
    symbol, meaning = _COUNT_LABELS[b.family]
    counted = [s for s in b.steps if s.contribution]
    if b.family in ("NumRel", "NumQ") or not counted:
        return _aligned([rf"{symbol} &= {_int(b.value)} \quad ({meaning})"])
    ranks = ", ".join(str(s.rank) for s in counted[:MAX_TERMS]) + (r", \ldots" if len(counted) > MAX_TERMS else "")
    return _aligned([rf"{symbol} &= {_int(b.value)} \quad (\text{{ranks }} {ranks})"])


_SET_P, _SET_RECALL = r"\mathrm{set\_P}", r"\mathrm{set\_recall}"
_SET_F, _SET_MAP = r"\mathrm{set\_F}", r"\mathrm{set\_map}"


def set_precision_definition(c: Conventions) -> str:
    return rf"{_SET_P} = \frac{{\mathrm{{hits}}}}{{\mathrm{{retrieved}}}}"


def set_precision_worked(b: Breakdown) -> str:
    s, hits, retrieved = _SET_P, _int(b.terms[Term.HITS]), _int(b.terms[Term.RETRIEVED])
    if not b.terms[Term.RETRIEVED]:
        return _aligned([rf"{s} &= 0 \quad \text{{(nothing retrieved)}}"])
    fraction = r"\frac{\mathrm{hits}}{\mathrm{retrieved}}"
    return _aligned([rf"{s} &= {fraction} = \frac{{{hits}}}{{{retrieved}}} = {_num(b.value)}"])


def set_recall_definition(c: Conventions) -> str:
    return rf"{_SET_RECALL} = \frac{{\mathrm{{hits}}}}{{R}}"


def set_recall_worked(b: Breakdown) -> str:
    s = _SET_RECALL
    if not b.terms[Term.R]:
        return _aligned([_zero_R_line(s)])
    hits, R = _int(b.terms[Term.HITS]), _int(b.terms[Term.R])
    return _aligned([rf"{s} &= \frac{{\mathrm{{hits}}}}{{R}} = \frac{{{hits}}}{{{R}}} = {_num(b.value)}"])


def set_f_definition(c: Conventions) -> str:
    return rf"{_SET_F} = \frac{{(\beta + 1)\, P\, R}}{{\beta P + R}}"


def set_f_worked(b: Breakdown) -> str:
    s = _SET_F
    beta, p, r = b.terms[Term.BETA], b.terms[Term.SET_PRECISION], b.terms[Term.SET_RECALL]
    lines = [rf"{s} &= \frac{{(\beta + 1)\, P\, R}}{{\beta P + R}} \quad (\beta = {beta:g})"]
    if not b.value:
        lines.append(r"&= 0 \quad \text{(nothing relevant retrieved)}")
    else:
        lines.append(
            rf"&= \frac{{{beta + 1:g} \cdot {_num(p)} \cdot {_num(r)}}}{{{beta:g} \cdot {_num(p)} + {_num(r)}}}"
            rf" = {_num(b.value)}"
        )
    return _aligned(lines)


def set_average_precision_definition(c: Conventions) -> str:
    return rf"{_SET_MAP} = \mathrm{{set\_P}} \cdot \mathrm{{set\_recall}}"


def set_average_precision_worked(b: Breakdown) -> str:
    s, p, r = _SET_MAP, b.terms[Term.SET_PRECISION], b.terms[Term.SET_RECALL]
    return _aligned([rf"{s} &= {_SET_P} \cdot {_SET_RECALL} = {_num(p)} \cdot {_num(r)} = {_num(b.value)}"])


def r_precision_definition(c: Conventions) -> str:
    return r"\mathrm{Rprec} = \frac{\mathrm{hits@}R}{R}"


def r_precision_worked(b: Breakdown) -> str:
    s = r"\mathrm{Rprec}"
    if not b.terms[Term.R]:
        return _aligned([_zero_R_line(s)])
    R, hits = _int(b.terms[Term.R]), _int(b.terms[Term.HITS])
    at_R = rf"\frac{{\mathrm{{hits@}}{R}}}{{{R}}}"
    return _aligned([rf"{s} &= \frac{{\mathrm{{hits@}}R}}{{R}} = {at_R} = \frac{{{hits}}}{{{R}}} = {_num(b.value)}"])


def r_precision_multiple_definition(c: Conventions) -> str:
    return r"\mathrm{Rprec\_mult}_x = \frac{\mathrm{hits@}c}{c}, \quad c = \lfloor x R + 0.9 \rfloor"


def r_precision_multiple_worked(b: Breakdown) -> str:
    s, cut, hits = r"\mathrm{Rprec\_mult}", _int(b.terms[Term.RANK_CUTOFF]), _int(b.terms[Term.HITS])
    R = _int(b.terms[Term.R])
    lines = [rf"{s} &= \frac{{\mathrm{{hits@}}c}}{{c}}, \quad c = \lfloor x \cdot {R} + 0.9 \rfloor = {cut}"]
    if not b.terms[Term.RANK_CUTOFF]:
        lines.append(r"&= 0 \quad \text{(}c = 0\text{)}")
    else:
        lines.append(rf"&= \frac{{{hits}}}{{{cut}}} = {_num(b.value)}")
    return _aligned(lines)


def interpolated_precision_definition(c: Conventions) -> str:
    return r"\mathrm{iP}(\ell) = \max_{i:\ \mathrm{R@}i\ \geq\ \ell} \mathrm{P@}i"


def interpolated_precision_worked(b: Breakdown) -> str:
    level, needed, hits = b.terms[Term.RECALL_LEVEL], _int(b.terms[Term.RELEVANT_NEEDED]), _int(b.terms[Term.HITS])
    s = rf"\mathrm{{iP}}({level:.2f})"
    product = rf"{level:.2f} \cdot {_int(b.terms[Term.R])}"
    nine = b.conventions.recall_rounding == "plus_0.9"  # trec_eval 9's rounding
    rounded = rf"\lfloor {product} + 0.9 \rfloor" if nine else rf"\mathrm{{round}}({product})"
    lines = [
        rf"{s} &= \max_{{i:\ \mathrm{{R@}}i\ \geq\ {level:.2f}}} \mathrm{{P@}}i"
        rf" \quad (\text{{needs }} {rounded} = {needed}"
        r"\text{ relevant})"
    ]
    if b.terms[Term.RELEVANT_NEEDED] > b.terms[Term.HITS]:
        lines.append(rf"&= 0 \quad \text{{(only {hits} relevant retrieved)}}")
        return _aligned(lines)
    winner = next((st for st in b.steps if st.contribution), None)
    where = rf" \quad \text{{(}}\mathrm{{P@}}{winner.rank}\text{{)}}" if winner else ""
    lines.append(rf"&= {_num(b.value)}{where}")
    return _aligned(lines)


def eleven_point_average_definition(c: Conventions) -> str:
    return r"\mathrm{11pt\_avg} = \frac{1}{11} \sum_{\ell \in \{0, 0.1, \ldots, 1\}} \mathrm{iP}(\ell)"


def eleven_point_average_worked(b: Breakdown) -> str:
    count = b.terms[Term.RECALL_LEVEL]
    levels = _int(count)
    return _aligned(
        [
            rf"\mathrm{{11pt\_avg}} &= \frac{{1}}{{{levels}}} \sum_{{\ell}} \mathrm{{iP}}(\ell)",
            rf"&= \frac{{{_num(b.value * count)}}}{{{levels}}} = {_num(b.value)}",
        ]
    )


def geometric_mean_ap_definition(c: Conventions) -> str:
    return r"\mathrm{gm\_map} = \exp\Bigl(\frac{1}{|Q|} \sum_{q} \log \max(\mathrm{AP}_q,\ 0.00001)\Bigr)"


def geometric_mean_ap_worked(b: Breakdown) -> str:
    return _aligned(
        [
            rf"\mathrm{{AP}} &= {_num(b.value)} \quad \text{{(this query)}}",
            rf"\log \max(\mathrm{{AP}},\ 0.00001) &= {_num(math.log(max(b.value, 0.00001)))}",
        ]
    )


# --- trec_eval's catalog beyond the ten cards: incomplete judgments, user models, gain walks, set utility ---


def _plain(name: str, k: int | None = None, symbolic: bool = False) -> str:
    """A measure's symbol with underscores escaped: \\mathrm{ndcg\\_rel}, \\mathrm{unj@5}."""
    cut = "@k" if symbolic else _cut(k)
    return rf"\mathrm{{{name.replace('_', chr(92) + '_')}{cut}}}"


def _share_line(symbol: str, numerator: str, denominator: str, value: float, zero_why: str | None) -> str:
    if zero_why is not None:
        return rf"{symbol} &= 0 \quad \text{{({zero_why})}}"
    return rf"{symbol} &= \frac{{{numerator}}}{{{denominator}}} = {_num(value)}"


def bpref_definition(c: Conventions) -> str:
    return (
        r"\mathrm{bpref} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(1 - "
        r"\frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    )


def gm_bpref_definition(c: Conventions) -> str:
    return r"\mathrm{gm\_bpref} = \exp\Bigl(\frac{1}{Q} \sum_q \log \max(\mathrm{bpref}_q,\ 10^{-5})\Bigr)"


def bpref_worked(b: Breakdown) -> str:
    R, N = _int(b.terms[Term.R]), _int(b.terms[Term.NONRELEVANT])
    s = _plain("bpref")
    share = r"\left(1 - \frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    lines = [rf"{s} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} {share}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return _aligned(lines)
    shares = [s_.contribution * b.terms[Term.R] for s_ in b.steps if s_.relevant]
    lines.append(rf"&\quad (R = {R},\ N = {N}\ \text{{judged non-relevant; unjudged documents skipped}})")
    written = _elided_sum([_num(v) for v in shares], shares) if shares else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr) = {_num(b.value)}")
    if b.family == "gm_bpref":
        lines.append(r"&\quad \text{(this query's bpref; the summary is the geometric mean over queries)}")
    return _aligned(lines)


def infap_definition(c: Conventions) -> str:
    return (
        r"\mathrm{infAP} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(\frac{1}{i} + \frac{i-1}{i} \cdot "
        r"\frac{r + n + u}{i-1} \cdot \frac{r + \varepsilon}{r + n + 2\varepsilon}\right)"
    )


def infap_worked(b: Breakdown) -> str:
    R = _int(b.terms[Term.R])
    lines = [rf"{_plain('infAP')} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} \widehat{{\mathrm{{P@}}i}}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return _aligned(lines)
    estimates = [(st.rank, st.contribution * b.terms[Term.R]) for st in b.steps if st.relevant]
    terms = [rf"\underbrace{{{_num(v)}}}_{{{rank}}}" for rank, v in estimates]
    written = _elided_sum(terms, [v for _, v in estimates]) if terms else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr)")
    lines.append(rf"&= \frac{{{_num(b.terms[Term.ESTIMATE_SUM])}}}{{{R}}} = {_num(b.value)}")
    return _aligned(lines)


def judged_definition(c: Conventions) -> str:
    return r"\mathrm{Judged@}k = \frac{\#\{i \leq k : d_i \text{ judged}\}}{\min(k,\ n)}"


def judged_worked(b: Breakdown) -> str:
    s, count, divisor = _plain("Judged", b.k), _int(b.terms[Term.JUDGED]), _int(b.terms[Term.DENOMINATOR])
    zero = "nothing retrieved" if not b.terms[Term.DENOMINATOR] else None
    return _aligned(
        [
            rf"{s} &= \frac{{\#\,\text{{judged in the top {'k' if b.k else 'n'}}}}}{{\min(k,\ n)}}",
            _share_line(s, count, divisor, b.value, zero),
        ]
    )


def unjudged_definition(c: Conventions) -> str:
    return r"\mathrm{unj@}k = \frac{\#\{i \leq k : d_i \text{ unjudged}\}}{k}"


def unjudged_worked(b: Breakdown) -> str:
    s, count, divisor = _plain("unj", b.k), _int(b.terms[Term.UNJUDGED]), _int(b.terms[Term.CUTOFF])
    zero = "nothing retrieved" if not b.terms[Term.CUTOFF] else None
    return _aligned(
        [
            rf"{s} &= \frac{{\#\,\text{{unjudged in the top k}}}}{{k}}"
            r" \quad \text{(no qrels line, or a grade below 0)}",
            _share_line(s, count, divisor, b.value, zero),
        ]
    )


def rbp_definition(c: Conventions) -> str:
    return r"\mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}"


def rbp_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    lines = [rf"\mathrm{{RBP}} &= (1 - p) \sum_i g_i \, p^{{\,i-1}} \quad (p = {_shown(p)})"]
    gained = [st for st in b.steps if st.contribution]
    terms = [rf"{_num(st.contribution / (1 - p))}" for st in gained] if p != 1 else []
    if terms:
        written = _elided_sum(terms, [st.contribution for st in gained])
        lines.append(rf"&= {_shown(1 - p)} \cdot \Bigl( {written} \Bigr)")
    lines.append(rf"&= {_shown(1 - p)} \cdot {_num(b.terms[Term.DISCOUNTED_SUM])} = {_num(b.value)}")
    return _aligned(lines)


def rbp_resid_definition(c: Conventions) -> str:
    return r"\mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \leq n,\ d_i \text{ unjudged}} p^{\,i-1}"


def rbp_resid_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    unjudged_sum = r"\sum_{d_i \text{ unjudged}} p^{\,i-1}"
    lines = [rf"\mathrm{{RBP_{{resid}}}} &= p^{{\,n}} + (1 - p) {unjudged_sum} \quad (p = {_shown(p)})"]
    if not b.terms[Term.UNJUDGED]:
        lines.append(r"&= 0 \quad \text{(no unjudged document in the list: trec\_eval reports 0)}")
        return _aligned(lines)
    unjudged = sum(st.contribution for st in b.steps) - b.terms[Term.TAIL]  # the last rank's step carries the tail
    lines.append(rf"&= {_num(b.terms[Term.TAIL])} + {_num(unjudged)} = {_num(b.value)}")
    return _aligned(lines)


def err_definition(c: Conventions) -> str:
    return (
        r"\mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j<i} (1 - R_j), \quad "
        r"R_i = \frac{2^{g_i} - 1}{2^4}"
    )


def err_worked(b: Breakdown) -> str:
    s = _plain("ERR", b.k)
    lines = [rf"{s} &= \sum_i \frac{{R_i}}{{i}} \prod_{{j<i}} (1 - R_j), \quad R_i = \frac{{2^{{g_i}} - 1}}{{16}}"]
    stops = [st for st in b.steps if st.contribution]
    if stops:
        lines.append(rf"&= {_elided_sum([_num(st.contribution) for st in stops], [st.contribution for st in stops])}")
    past = _num(b.terms[Term.STILL_READING])
    lines.append(rf"&= {_num(b.value)} \quad \text{{(reads past the end with probability {past})}}")
    return _aligned(lines)


def bing_definition(c: Conventions) -> str:
    return r"\mathrm{binG} = \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}"


def bing_worked(b: Breakdown) -> str:
    R = _int(b.terms[Term.R])
    lines = [r"\mathrm{binG} &= \frac{1}{R} \sum_{d_i \text{ relevant}} \frac{1}{\log_2(2 + n_i)}"]
    if not b.terms[Term.HITS]:
        lines.append(r"&= 0 \quad \text{(no relevant document retrieved)}")
        return _aligned(lines)
    hits, terms, values = 0, [], []
    for st in b.steps:
        if st.relevant:
            hits += 1
            terms.append(rf"\frac{{1}}{{\log_2 {2 + st.rank - hits}}}")
            values.append(st.contribution)
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {_elided_sum(terms, values)} \Bigr) = {_num(b.value)}")
    return _aligned(lines)


def g_definition(c: Conventions) -> str:
    return (
        r"\mathrm{G} = \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2\bigl(2 + \sum_{j \leq i} \max(g^*_j, 1) - "
        r"\sum_{j \leq i} g_j\bigr)}"
    )


def g_worked(b: Breakdown) -> str:
    lines = [r"\mathrm{G} &= \frac{1}{\sum_i g^*_i} \sum_i \frac{g_i}{\log_2(2 + \mathrm{cost}_i - \mathrm{gain}_i)}"]
    best = b.terms[Term.IDEAL_GAIN]
    if not best:
        lines.append(r"&= 0 \quad \text{(no judged document with a positive gain)}")
        return _aligned(lines)
    lines.append(rf"&= \frac{{{_num(b.terms[Term.SUM])}}}{{{_num(best)}}} = {_num(b.value)}")
    return _aligned(lines)


def rndcg_definition(c: Conventions) -> str:
    return (
        r"\mathrm{Rndcg} = \frac{1}{m} \sum_{j=1}^{m} \mathrm{NDCG@}r_j \quad "
        r"(r_j\text{: where the ideal gain drops})"
    )


def _averaged_worked(symbol: str, b: Breakdown, what: str) -> str:
    points = _int(b.terms[Term.POINTS])
    lines = [rf"{symbol} &= \frac{{1}}{{m}} \sum_{{j=1}}^{{m}} \mathrm{{NDCG}}_j \quad \text{{({what})}}"]
    if not b.terms[Term.POINTS] or not b.value:
        lines.append(r"&= 0")
        return _aligned(lines)
    lines.append(rf"&= \frac{{{_num(b.terms[Term.SUM])}}}{{{points}}} = {_num(b.value)}")
    return _aligned(lines)


def rndcg_worked(b: Breakdown) -> str:
    return _averaged_worked(r"\mathrm{Rndcg}", b, "NDCG where the ideal gain changes level, and at the list's end")


def ndcg_rel_definition(c: Conventions) -> str:
    return r"\mathrm{ndcg\_rel} = \frac{1}{R_g} \sum_{d \text{ with gain} > 0} \mathrm{NDCG@rank}(d)"


def ndcg_rel_worked(b: Breakdown) -> str:
    return _averaged_worked(r"\mathrm{ndcg\_rel}", b, "NDCG at each document with a positive gain")


def utility_definition(c: Conventions) -> str:
    return r"\mathrm{U} = a \cdot r + b \cdot (n - r) + c \cdot (R - r) + d \cdot (N + r - n - R)"


def utility_worked(b: Breakdown) -> str:
    r, n, R = _int(b.terms[Term.HITS]), _int(b.terms[Term.RETRIEVED]), _int(b.terms[Term.R])
    return _aligned(
        [
            r"U &= a \cdot r + b \cdot (n - r) + c \cdot (R - r) + d \cdot (N + r - n - R)",
            rf"&\quad (r = {r} \text{{ relevant retrieved}},\ n = {n} \text{{ retrieved}},\ "
            rf"R = {R} \text{{ relevant}})",
            rf"U &= {_num(b.value)}",
        ]
    )


def relstring_definition(c: Conventions) -> str:
    return r"\mathrm{relstring} = \text{one character per rank: the grade, - not judged, . in the pool unjudged}"


def relstring_worked(b: Breakdown) -> str:
    shown = "".join(_RELSTRING_SAFE.get(ch, "?") for ch in (b.text or ""))
    return _aligned([rf"\mathrm{{relstring}} &= \texttt{{'{shown}'}}"])


_RELSTRING_SAFE = {
    **{str(d): str(d) for d in range(10)},
    "-": "-",
    ".": ".",
    ">": r"\textgreater{}",
    "<": r"\textless{}",
}


def _shown(x: float) -> str:
    return f"{x:g}"

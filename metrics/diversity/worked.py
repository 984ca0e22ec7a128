"""The LaTeX the diversity families' formulas share (metrics.teaching.latex's blocks): the novelty gain and each
family's worked line, every number read off the Breakdown."""

from __future__ import annotations

from metrics.core.types import Breakdown, Term
from metrics.diversity.readable import IDEAL
from metrics.teaching.latex import aligned_block, decimal, elided_sum, plain

GAIN = r"g_i = \sum_{s \in S(d_i)} (1 - \alpha)^{c_s(i)}"  # c_s(i): documents above rank i that cover s
GAIN_WHERE = r"\quad S(d): \text{subtopics } d \text{ covers}, \ c_s(i): \text{how many above } i \text{ cover } s"


def summed(symbol: str, b: Breakdown, divisor: str | None, formula: str) -> str:
    """``symbol = formula = c_1 + c_2 + ... [/ divisor] = value``, the contributions read off the steps."""
    lines = [rf"{symbol} &= {formula}"]
    parts = [st for st in b.steps if st.contribution]
    if parts:
        total = elided_sum([decimal(st.contribution) for st in parts], [st.contribution for st in parts])
        lines.append(rf"&= \frac{{{total}}}{{{divisor}}}" if divisor else rf"&= {total}")
    lines.append(rf"&= {decimal(b.value)}")
    return aligned_block(lines)


def ratio_worked(name: str, b: Breakdown, run_term: Term) -> str:
    """``nX@k = X@k / the ideal ranking's X@k = value``."""
    run, ideal = decimal(b.terms[run_term]), decimal(b.terms[IDEAL])
    return aligned_block([rf"{plain(name, b.k)} &= \frac{{{run}}}{{{ideal}}} = {decimal(b.value)}"])

"""The LaTeX of the preference measures (trec_eval -R prefs): each kind's definition, and its worked formula with the
counts of a Breakdown substituted (metrics.preferences.readable_preferences builds the Breakdowns)."""

from __future__ import annotations

from metrics.core.types import Breakdown, Term
from metrics.teaching.latex import aligned_block, decimal, plain, whole

# what each variant counts: "" all preferences, "ret" both documents retrieved, "imp" at least one retrieved
COUNTED = {
    "": r"\text{all preferences (neither retrieved counts as not fulfilled)}",
    "ret": r"\text{preferences between two retrieved documents}",
    "imp": r"\text{preferences with a retrieved document}",
}


def ratio_definition(name: str, kind: str) -> str:
    return rf"{plain(name)} = \frac{{\#\ \text{{fulfilled}}}}{{\#\ \text{{possible}}}} \quad {COUNTED[kind]}"


def ratio_worked(name: str, b: Breakdown) -> str:
    fulfilled, possible = whole(b.terms[Term.FULFILLED]), whole(b.terms[Term.POSSIBLE])
    lines = [rf"{plain(name)} &= \frac{{\#\ \text{{fulfilled}}}}{{\#\ \text{{possible}}}}"]
    if b.terms[Term.POSSIBLE]:
        lines.append(rf"&= \frac{{{fulfilled}}}{{{possible}}} = {decimal(b.value)}")
    else:
        lines.append(r"&= 0 \quad \text{(no preference to fulfil)}")
    return aligned_block(lines)


def count_definition(name: str, what: str) -> str:
    return rf"{plain(name)} = \#\ \text{{{what}}}"


def count_worked(name: str, what: str, b: Breakdown) -> str:
    return aligned_block([rf"{plain(name)} &= \#\ \text{{{what}}} = {whole(b.value)}"])


GROUP_MEAN = (
    r"\frac{1}{m} \sum_{j=1}^{m} \frac{\#\ \text{fulfilled}_j}{\#\ \text{possible}_j}"  # over m judgment groups
)


def group_definition(name: str, each: str) -> str:
    return rf"{plain(name)} = {GROUP_MEAN} \quad \text{{({each})}}"


def group_worked(name: str, b: Breakdown) -> str:
    groups = whole(b.terms[Term.GROUPS])
    lines = [rf"{plain(name)} &= {GROUP_MEAN} \quad (m = {groups})"]
    if b.value:
        lines.append(rf"&= \frac{{{decimal(b.terms[Term.SUM])}}}{{{groups}}} = {decimal(b.value)}")
    else:
        lines.append(r"&= 0 \quad \text{(nothing fulfilled, or a group with nothing to count)}")
    return aligned_block(lines)


def pair_definition(name: str, kind: str) -> str:
    return (
        rf"{plain(name)} = \frac{{1}}{{\#\ \text{{pairs}}}} \sum_{{\text{{pairs }} (A, B)}} "
        rf"\frac{{\#\ \text{{groups preferring the better-ranked}}}}{{\#\ \text{{groups with a preference}}}} "
        rf"\quad {COUNTED[kind]}"
    )


def pair_worked(name: str, b: Breakdown) -> str:
    pairs = whole(b.terms[Term.PAIRS])
    lines = [rf"{plain(name)} &= \frac{{1}}{{\#\ \text{{pairs}}}} \sum \text{{share preferring the better-ranked}}"]
    if b.terms[Term.PAIRS]:
        lines.append(rf"&= \frac{{{decimal(b.terms[Term.SUM])}}}{{{pairs}}} = {decimal(b.value)}")
    else:
        lines.append(r"&= 0 \quad \text{(no pair with a preference)}")
    return aligned_block(lines)

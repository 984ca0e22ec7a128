"""Judgment groups (trec_eval's -R qrels_jg): several sets of judgments of one query, e.g. one per user, and a measure
averaged over them (P_avgjg, map_avgjg, Rprec_mult_avgjg, in m_P_avgjg.c, m_map_avgjg.c, m_Rprec_mult_avgjg.c).

A qrels_jg file is a qrels file whose second field names the group (``qid group docno grade``). Each group scores
the ranking as plain qrels would (P, AP, Rprec_mult on its own judgments); the query's value is their mean: the
groups' values added in trec_eval's group order (ids in byte order), divided by their number when there are several.

A readable function takes one query's groups as a mapping {group: {doc: grade}}; plain judgments {doc: grade} are one
group, whose average is the measure itself. The kernels score one group per slot of the prepared run: the engine's slots
are queries (one group each), and metrics.preferences.runs.judgment_group_runs prepares one slot per (query, group) and
averages each query's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from metrics.core.conventions import Conventions
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, decimal, whole

JudgmentGroups = Mapping[str, Judgments]


def groups_of(qrels: Judgments | JudgmentGroups) -> list[tuple[str, Judgments]]:
    """One query's judgment groups, (group, judgments), in trec_eval's order: the groups of a mapping {group: {doc:
    grade}} by id, or plain judgments {doc: grade} as one group.

    >>> groups_of({"u2": {"a": 1}, "u1": {"b": 0}})
    [('u1', {'b': 0}), ('u2', {'a': 1})]
    >>> groups_of({"a": 1})
    [('', {'a': 1})]
    """
    if qrels and all(isinstance(judgments, Mapping) for judgments in qrels.values()):
        return sorted(cast(JudgmentGroups, qrels).items())  # every value a mapping: groups, as just checked
    return [("", cast(Judgments, qrels))]


def averaged(values: Sequence[float]) -> float:
    """The groups' mean as trec_eval forms it: added in order from 0, divided only when there are several.

    >>> averaged([0.5, 0.25]), averaged([0.3])
    (0.375, 0.3)
    """
    total = 0.0
    for value in values:
        total += value
    return total / len(values) if len(values) > 1 else total


def averaged_breakdown(
    key: str,
    measure: Callable[..., Breakdown],
    ranking: Ranking,
    qrels: Judgments | JudgmentGroups,
    k: int | None,
    conventions: Conventions,
    **params,
) -> Breakdown:
    """``measure`` on each group's judgments, averaged: the value, and each rank's contribution averaged over the
    groups (a rank's grade is its highest over the groups, relevant if it is relevant to one of them)."""
    groups = groups_of(qrels)
    per_group = [measure(ranking, judgments, k, conventions=conventions, **params) for _, judgments in groups]
    count = len(per_group)
    by_rank: dict[int, list[RankStep]] = {}
    for breakdown in per_group:
        for step in breakdown.steps:
            by_rank.setdefault(step.rank, []).append(step)
    steps, running = [], 0.0
    for rank in sorted(by_rank):
        seen = by_rank[rank]
        contribution = sum(step.contribution for step in seen) / count
        running += contribution
        grade = max(step.grade for step in seen)
        steps.append(RankStep(rank, seen[0].doc_id, grade, any(s.relevant for s in seen), contribution, running))
    total = 0.0
    for breakdown in per_group:
        total += breakdown.value
    terms = {Term.SUM: total, Term.GROUPS: count}
    return Breakdown(key, k, averaged([b.value for b in per_group]), tuple(steps), terms, conventions)


def averaged_definition(symbol: str, each: str, subscript: str = "j") -> str:
    """The definition: the mean over the m groups of ``each`` (a LaTeX symbol, e.g. ``\\mathrm{P@}k``), written with
    ``subscript`` (``x,j`` where the symbol has a subscript of its own: KaTeX refuses a double subscript)."""
    return rf"{symbol} = \frac{{1}}{{m}} \sum_{{j=1}}^{{m}} {each}_{{{subscript}}}"


def averaged_worked(symbol: str, each: str, b: Breakdown, subscript: str = "j") -> str:
    groups = whole(b.terms[Term.GROUPS])
    mean = rf"{symbol} &= \frac{{1}}{{m}} \sum_{{j=1}}^{{m}} {each}_{{{subscript}}}"
    lines = [rf"{mean} \quad \text{{(m = {groups} judgment groups)}}"]
    lines.append(rf"&= \frac{{{decimal(b.terms[Term.SUM])}}}{{{groups}}} = {decimal(b.value)}")
    return aligned_block(lines)

"""One query of a real run as a playground scenario: its top N on the list, the rest kept as a hidden tail (so every
metric, uncut AP and RR included, equals the run's per-query row), its judged-but-not-retrieved docs on the shelf.

Pure (tested against metrics.evaluation.engine); ir_metrics_lab.session.drilldown opens the result in the
Playground or on A vs B.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

from ir_metrics_lab.core.scenario import MAX_DOCS, SCALES, Scenario
from metrics.core.conventions import TREC_EVAL, Conventions

TOP_N = 20
AB_TOP_N = 10  # two lists side by side: ten cards each fit beside each other
DEFAULT_K = 10


def grade_mapping(max_grade: int) -> tuple[int, int | None]:
    """(playground scale, the top grade to map from, or None when grades are kept as they are).

    Grades up to 4 are kept and the scale is the smallest playground scale that holds them (0-1, 0-3 or 0-4).
    Above 4 (some qrels grade 0-10), grade g > 0 becomes ceil(4 g / top): order is kept and every positive grade
    stays positive, so binary metrics (P, R, AP, RR, HitRate, F1 at threshold 1) are unchanged; gains, hence
    DCG and NDCG, are not, and the playground says so.
    """
    if max_grade <= max(SCALES):
        return min(s for s in SCALES if s >= max(max_grade, 1)), None
    return max(SCALES), max_grade


def _mapped(grade: int, top: int | None) -> int:
    grade = max(grade, 0)  # negative grades (TREC's -1, -2) count as 0 in every measure, as in trec_eval
    return grade if top is None or grade == 0 else math.ceil(max(SCALES) * grade / top)


def scenario_for_query(
    rankings: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    query_id: str,
    top_n: int = TOP_N,
    *,
    k: int = DEFAULT_K,
    conventions: Conventions = TREC_EVAL,
) -> Scenario:
    """The playground scenario of one query: the run's top ``top_n`` to drag, the rest as ``tail``, and the docs
    judged relevant (grade > 0) that the run never retrieved on the shelf. Retrieved docs with no qrels line are
    unjudged. Judged non-relevant docs that were not retrieved are left out: they change no metric but bpref, whose
    N counts them. The scale covers the collection's top grade (see grade_mapping).
    """
    if not 1 <= top_n <= MAX_DOCS:
        raise ValueError(f"top N must be between 1 and {MAX_DOCS}, got {top_n}")
    ranking = list(rankings.get(query_id, ()))
    judged = qrels.get(query_id, {})
    top_grade = max((g for q in qrels.values() for g in q.values()), default=0)
    scale, mapped_from = grade_mapping(top_grade)
    retrieved = set(ranking)
    shelf = sorted((d for d, g in judged.items() if g > 0 and d not in retrieved), key=lambda d: (-judged[d], d))
    shown, tail = ranking[:top_n], ranking[top_n:]
    grades = {d: _mapped(judged.get(d, 0), mapped_from) for d in (*shown, *shelf)}
    grades.update({d: _mapped(judged[d], mapped_from) for d in tail if judged.get(d, 0) > 0})
    threshold = min(conventions.threshold, scale)
    conventions = dataclasses.replace(conventions, threshold=threshold)  # the threshold widget offers 1..scale
    scn = Scenario(tuple(shown), tuple(shelf), grades, {}, k=k, conventions=conventions, scale=scale, tail=tuple(tail))
    return scn.with_unjudged(d for d in ranking if d not in judged)  # no qrels line: Judged@k, infAP tell them apart


def tail_note(scn: Scenario) -> str | None:
    """One line of Markdown for under the playground's list (st.caption) when a hidden tail is kept, else None."""
    if not scn.tail:
        return None
    first, last = len(scn.ranking) + 1, len(scn.ranking) + len(scn.tail)
    relevant = sum(scn.grades.get(d, 0) >= scn.conventions.threshold for d in scn.tail)
    more = "1 more retrieved document" if len(scn.tail) == 1 else f"{len(scn.tail):,} more retrieved documents"
    ranks = f"rank {first}" if first == last else f"ranks {first}–{last}"
    return (
        f"\\+ {more} ({ranks}) {'is' if len(scn.tail) == 1 else 'are'} kept for the metric values; "
        f"{relevant} of them {'is' if relevant == 1 else 'are'} relevant. They cannot be dragged."
    )


def mapping_note(top_grade: int) -> str | None:
    scale, mapped_from = grade_mapping(top_grade)
    if mapped_from is None:
        return None
    return (
        f"Grades in these qrels go up to {mapped_from}; the playground's scale stops at {scale}, so each grade g > 0 "
        f"is shown as ⌈{scale}·g/{mapped_from}⌉. Relevant stays relevant (P, R, AP, RR match the table), but DCG and "
        "NDCG use the mapped gains and differ from it."
    )


def ab_scenarios(
    run_a, run_b, qrels, query_id: str, top_n: int = AB_TOP_N, *, k: int = DEFAULT_K
) -> tuple[Scenario, Scenario]:
    """One query of two runs (metrics.io Runs) as the A vs B page's two lists: each run's real top ``top_n`` with
    its hidden tail, so each side's metrics equal that run's per-query row (k <= top_n; uncut AP and RR too)."""
    qrels_dict = qrels.to_dict()
    scenarios = []
    for run in (run_a, run_b):
        ranking = {query_id: run.ranking_of(query_id)}
        scenarios.append(scenario_for_query(ranking, qrels_dict, query_id, top_n, k=min(k, top_n)))
    return scenarios[0], scenarios[1]

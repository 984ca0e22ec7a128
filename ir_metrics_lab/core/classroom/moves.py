""" "Which document, moved where, raises NDCG most?": every single move of a list scored by the registry's measure, and
the few candidate moves a class chooses from. Pure (no Streamlit).

A move takes the document at rank i and puts it at rank j, the documents between shifting by one, as a drag on the
Playground does (ir_metrics_lab.core.scenario.Scenario.moved). Only the shown list moves; the judged-but-missed
documents and a run's hidden tail stay where they are (they still count).

alpha-nDCG (:data:`ASPECT_MEASURES`) is scored with the aspects each document covers (Scenario.subtopic_qrels) at a
given alpha, by metrics' own function; every other measure with the grades (Scenario.qrels).

Ties: the options never tie. Every option's value differs from every other option's by at least :data:`MIN_GAP`, so
exactly one option is right and the reveal's values (to :data:`DECIMALS` places) all differ. When several moves reach
the best value, one stands for them (the shortest move, then the one nearer the top) and the others are returned as
``also_best``, which the reveal names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog import registry
from metrics.core.types import Breakdown
from metrics.diversity.readable import ALPHA
from metrics.teaching.diagnosis import SAME

OPTIONS = 4
MIN_GAP = 0.005  # options at least this far apart: one right answer, and different to 3 places
DECIMALS = 3
ASPECT_MEASURES = ("alpha_nDCG",)  # the asked measures that read the aspects a document covers, not its grade
DEFAULT_ALPHA = float(ALPHA.default)  # ndeval's 0.5


@dataclass(frozen=True, slots=True)
class Move:
    doc: str
    from_rank: int
    to_rank: int
    value: float  # the measure of the list after the move

    @property
    def distance(self) -> int:
        return abs(self.to_rank - self.from_rank)


def breakdown(scn: Scenario, measure: str, k: int | None, alpha: float | None = None) -> Breakdown:
    """The registry's ``measure`` of the scenario's list: with the aspect judgments at ``alpha`` (None: ndeval's) for
    :data:`ASPECT_MEASURES`, with the grades for the others."""
    function = registry.family(measure).function
    ranking, c = list(scn.full_ranking), scn.conventions
    if measure in ASPECT_MEASURES:
        return function(ranking, scn.subtopic_qrels, k, alpha=DEFAULT_ALPHA if alpha is None else alpha, conventions=c)
    return function(ranking, scn.qrels, k, conventions=c)


def value(scn: Scenario, measure: str, k: int | None, alpha: float | None = None) -> float:
    return breakdown(scn, measure, k, alpha).value


def all_moves(scn: Scenario, measure: str, k: int | None, alpha: float | None = None) -> list[Move]:
    """Every move of one document of the shown list to another rank, with the measure after it. Two moves that give
    the same list (neighbours trading places) are both kept: they are two ways to say one change."""
    return [
        Move(doc, i, j, value(scn.moved(doc, j), measure, k, alpha))
        for i, doc in enumerate(scn.ranking, 1)
        for j in range(1, len(scn.ranking) + 1)
        if j != i
    ]


def _shortest(moves: Sequence[Move]) -> Move:
    return min(moves, key=lambda m: (m.distance, m.from_rank, m.to_rank))


def options(
    scn: Scenario, measure: str, k: int | None, count: int = OPTIONS, alpha: float | None = None
) -> tuple[list[Move], list[Move]]:
    """(the options in list order, the other moves that tie with the best one). The options are, as far as the list
    allows while keeping :data:`MIN_GAP` between any two:

    1. the best move (the highest value; the shortest of those that tie);
    2. the tempting one: the highest-graded document below rank 1 moved to rank 1;
    3. a relevant document moved down one rank (it can help when a better one is just below it);
    4. the runner-up: the best move left;
    then the next best moves until there are ``count``.

    Raises ValueError when no move raises the measure, or fewer than two moves have values far enough apart."""
    if len(scn.ranking) < 2:
        raise ValueError("the list needs at least two documents to move one")
    now = value(scn, measure, k, alpha)
    moves = all_moves(scn, measure, k, alpha)
    top = max(m.value for m in moves)
    if top <= now + SAME:
        raise ValueError(f"no single move raises {measure} above its {now:.3f}: move a document down first")
    best = _shortest([m for m in moves if abs(m.value - top) <= SAME])
    best_list = scn.moved(best.doc, best.to_rank).ranking
    also_best = [
        m
        for m in moves
        if abs(m.value - top) <= SAME and m != best and scn.moved(m.doc, m.to_rank).ranking != best_list
    ]
    picked = [best]

    def take(candidates: Sequence[Move]) -> None:
        for move in candidates:
            if len(picked) < count and all(abs(move.value - p.value) >= MIN_GAP for p in picked):
                picked.append(move)
                return

    grades = scn.grades
    below_top = sorted(scn.ranking[1:], key=lambda d: (-grades.get(d, 0), scn.ranking.index(d)))
    take([m for d in below_top[:1] for m in moves if m.doc == d and m.to_rank == 1])
    relevant = [d for d in scn.ranking if d in scn.qrels and scn.qrels[d] >= max(scn.conventions.threshold, 1)]
    take([m for d in relevant for m in moves if m.doc == d and m.to_rank == m.from_rank + 1])
    by_value = sorted(moves, key=lambda m: (-m.value, m.distance, m.from_rank, m.to_rank))
    while len(picked) < count:
        before = len(picked)
        take(by_value)
        if len(picked) == before:
            break
    if len(picked) < 2:
        raise ValueError(f"fewer than two moves change {measure} by {MIN_GAP} or more: there is nothing to choose")
    return sorted(picked, key=lambda m: (m.from_rank, m.to_rank)), also_best

"""Judges assigned to the pool: each item to ``per_item`` judges, never to a judge of the team whose runs alone found
it when enough other judges are there, the work balanced, the same answer for the same input (no randomness: a
second server, or a restart, assigns alike).

Greedy, item by item: first the items one team alone found (fewer judges may take them), then the others, each group
in the pool's order; each item goes to the allowed judges with the fewest items so far; among equals, to the one a
hash of (seed, item, judge) puts first, so that ties do not always pair the same judges (which would leave Cohen's
kappa to two people). The free items come last and even out the load the constrained ones left.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence, Set

from ir_metrics_lab.core.shared_task.pooling import Item


def _tiebreak(seed: str, item: Item, judge: str) -> bytes:
    return hashlib.sha256("\x1f".join((seed, *item, judge)).encode()).digest()


def assign(
    items: Sequence[Item],
    judges: Sequence[str],
    per_item: int,
    *,
    team_of_judge: Mapping[str, str] | None = None,
    found_only_by: Mapping[Item, str] | None = None,
    seed: str = "",
) -> dict[Item, tuple[str, ...]]:
    """Item -> its judges (``per_item`` of them, or every judge when there are fewer), in slot order.

    Parameters
    ----------
    items : sequence of (topic, doc)
        The pool's items, in the order they are assigned.
    judges : sequence of str
        The students who judge (each once per item).
    per_item : int
        How many judges each item gets.
    team_of_judge : mapping, optional
        Judge -> the team the judge submitted with; a judge in no team is in none.
    found_only_by : mapping, optional
        Item -> the team whose runs alone found it (Pool.found_only_by_team): that team's judges are taken only
        when the others are too few.
    seed : str
        Varies the tie-breaks between tasks (the task's code).
    """
    if per_item < 1:
        raise ValueError(f"each document needs at least one judge, got {per_item}")
    teams = team_of_judge or {}
    finders = found_only_by or {}
    load = dict.fromkeys(sorted(set(judges)), 0)
    assigned: dict[Item, tuple[str, ...]] = {}
    for item in sorted(items, key=lambda item: item not in finders):  # stable: the pool's order within each group
        finder = finders.get(item)

        def order(judge: str, item: Item = item, finder: str | None = finder) -> tuple:
            # Outsiders first, then the least loaded, then the hash.
            return (finder is not None and teams.get(judge) == finder, load[judge], _tiebreak(seed, item, judge))

        chosen = tuple(sorted(load, key=order)[:per_item])
        for judge in chosen:
            load[judge] += 1
        assigned[item] = chosen
    return {item: assigned[item] for item in items}


def deal_in(
    assigned: Mapping[Item, Sequence[str]],
    judged: Set[tuple[Item, str]],
    judges: Sequence[str],
    *,
    team_of_judge: Mapping[str, str] | None = None,
    found_only_by: Mapping[Item, str] | None = None,
    seed: str = "",
) -> dict[Item, tuple[str, ...]]:
    """The assignment with its load spread again over ``judges`` (students who joined after the draw among them):
    slots not yet judged move, one at a time, from the most loaded judge to the least loaded, until no two loads
    differ by more than one or nothing more can move. A judged slot stays; a slot moves only to a judge not already
    on its item and not of the team whose runs alone found it; it keeps its place (Cohen's kappa reads slots).
    Deterministic, as :func:`assign`.
    """
    teams, finders = team_of_judge or {}, found_only_by or {}
    slots = {item: list(js) for item, js in assigned.items()}
    load = dict.fromkeys(sorted(set(judges)), 0)
    for js in slots.values():
        for judge in js:
            load[judge] = load.get(judge, 0) + 1

    def movable(giver: str, taker: str) -> Item | None:
        for item in sorted(slots, reverse=True):  # the giver's last items, which it reaches last
            js = slots[item]
            free = giver in js and (item, giver) not in judged and taker not in js
            if free and (finders.get(item) is None or teams.get(taker) != finders[item]):
                return item
        return None

    while True:
        move = None
        for taker in sorted(load, key=lambda j: (load[j], _tiebreak(seed, ("", ""), j))):
            for giver in sorted(load, key=lambda j: (-load[j], _tiebreak(seed, ("", ""), j))):
                if load[giver] - load[taker] < 2:
                    break
                if (item := movable(giver, taker)) is not None:
                    move = (item, giver, taker)
                    break
            if move:
                break
        if move is None:
            return {item: tuple(js) for item, js in slots.items()}
        item, giver, taker = move
        slots[item][slots[item].index(giver)] = taker
        load[giver] -= 1
        load[taker] += 1

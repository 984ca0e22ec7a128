"""Which mistake gives this wrong answer? The asked measure recomputed under the library's other conventions
(metrics.core.conventions: gain, IDCG source, AP denominator, relevance threshold) and at nearby cutoffs; a wrong answer
that equals one of those values (within the answer's rounding) is labelled with that mistake.

Nothing here is a hand-written rule about answers: every candidate value is the registry's measure function run with
a changed Conventions or k. A change that leaves the value unchanged for this list (gain on binary grades, IDCG source
with no relevant document missed) is no candidate: it cannot explain a different answer.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import get_args

from metrics.catalog.registry import family as registry_family
from metrics.core import conventions as conv
from metrics.core.conventions import Conventions

# What each convention switch means when a student uses it instead of the asked one: field -> value -> the mistake.
# The alternatives themselves come from the Conventions types (get_args), so a new choice there shows up here.
_MEANING = {
    "gain": {"exp": "exponential gain 2^g − 1 instead of the grade", "linear": "the grade as gain instead of 2^g − 1"},
    "idcg": {
        "retrieved": "IDCG from the retrieved list only (relevant documents it missed left out)",
        "all": "IDCG from every judged document instead of the retrieved list only",
    },
    "ap_denominator": {
        "retrieved": "AP divided by the relevant documents retrieved, not by all relevant ones (R)",
        "all": "AP divided by all relevant documents (R) instead of the relevant retrieved",
    },
}
_CHOICES = {
    "gain": get_args(conv.Gain),
    "idcg": get_args(conv.IdcgSource),
    "ap_denominator": get_args(conv.ApDenominator),
}
SAME = 1e-9  # two values closer than this are the same number


@dataclass(frozen=True, slots=True)
class Variant:
    mistake: str  # e.g. "exponential gain 2^g − 1 instead of the grade"
    k: int | None
    conventions: Conventions
    value: float


def tolerance(decimals: int) -> float:
    """How far an answer given to ``decimals`` places may be from a value and still be that value (half a unit).

    >>> tolerance(2), tolerance(3)
    (0.005, 0.0005)
    """
    return 0.5 * 10.0**-decimals


def _convention_changes(asked: Conventions, top_grade: int) -> Iterator[tuple[str, Conventions]]:
    """Every other choice of one or two convention switches, with what it means."""
    single = [
        (meaning, {field: value})
        for field, values in _CHOICES.items()
        for value in values
        if value != getattr(asked, field) and (meaning := _MEANING[field].get(value))
    ]
    single += [
        (f"only grades ≥ {t} counted as relevant (the threshold is {asked.threshold})", {"threshold": t})
        for t in range(1, top_grade + 1)
        if t != asked.threshold
    ]
    for size in (1, 2):
        for combo in itertools.combinations(single, size):
            changes = [change for _, change in combo]
            if len({field for change in changes for field in change}) < size:
                continue  # two values of one switch
            merged = {field: value for change in changes for field, value in change.items()}
            yield " and ".join(meaning for meaning, _ in combo), dataclasses.replace(asked, **merged)


def cutoff_changes(k: int | None, length: int) -> Iterator[tuple[str, int | None]]:
    """(mistake, cutoff): k - 1, k + 1 and the whole list, as a student might misread ``k``."""
    if k is None:
        return
    for other in (k - 1, k + 1):
        if other >= 1:
            yield f"cut at {other} instead of {k} (off by one)", other
    if length > k:
        yield f"the whole list, no cutoff at {k}", None


def variants(
    measure: str,
    ranking: Sequence[str],
    qrels: Mapping[str, int],
    k: int | None,
    conventions: Conventions = conv.TREC_EVAL,
) -> tuple[Variant, ...]:
    """The measure ``measure`` (a registry family, e.g. "NDCG") of this list under every other convention choice (one
    or two switches changed) and at k - 1, k + 1 and without cutoff. Only values that differ from the asked value are
    kept; variants giving the same value are merged (their mistakes joined with "or"), the simplest first."""
    function = registry_family(measure).function
    asked = function(list(ranking), qrels, k, conventions=conventions).value
    found: list[Variant] = []
    for mistake, cut, changed in _changes(conventions, qrels, k, len(ranking)):
        value = function(list(ranking), qrels, cut, conventions=changed).value
        if abs(value - asked) <= SAME:
            continue
        same = next((i for i, v in enumerate(found) if abs(v.value - value) <= SAME), None)
        if same is None:
            found.append(Variant(mistake, cut, changed, value))
        elif " and " not in mistake:  # a single switch: it replaces a combination, or joins another single one
            kept = found[same]
            joined = mistake if " and " in kept.mistake else f"{kept.mistake}, or {mistake}"
            found[same] = dataclasses.replace(kept, mistake=joined)
    return tuple(found)


def diagnose(answer: float, asked: float, candidates: Sequence[Variant], decimals: int) -> Variant | None:
    """The variant that explains a wrong ``answer``: the nearest one within the answer's rounding; None when the
    answer is right (within the rounding of the asked value) or no variant explains it."""
    tol = tolerance(decimals)
    if abs(answer - asked) <= tol:
        return None
    near = [v for v in candidates if abs(answer - v.value) <= tol]
    return min(near, key=lambda v: abs(answer - v.value), default=None)


def better_choice(a: float, b: float) -> str:
    """ "A", "B" or "tie" for two values of one measure (a tie at the library's SAME)."""
    return "tie" if abs(a - b) <= SAME else "A" if a > b else "B"


def _changes(
    conventions: Conventions, qrels: Mapping[str, int], k: int | None, length: int
) -> list[tuple[str, int | None, Conventions]]:
    """(mistake, cutoff, conventions) for every other convention choice and nearby cutoff."""
    top_grade = max((g for g in qrels.values()), default=0)
    candidates = [(m, k, c) for m, c in _convention_changes(conventions, top_grade)]
    return candidates + [(m, other, conventions) for m, other in cutoff_changes(k, length)]


def _simplest(explained: dict) -> dict:
    """Per answer, only its single-switch mistakes when it has any: a combination adds a switch that changes nothing
    (AP's denominator, asked about NDCG)."""
    return {answer: [m for m in mistakes if " and " not in m] or mistakes for answer, mistakes in explained.items()}


def choice_variants(
    measure: str,
    ranking_a: Sequence[str],
    ranking_b: Sequence[str],
    qrels: Mapping[str, int],
    k: int | None,
    conventions: Conventions = conv.TREC_EVAL,
) -> dict[str, list[str]]:
    """For "which ranking scores higher?": each answer ("A", "B", "tie") that some other convention or cutoff makes
    right, with those mistakes (only the single-switch ones when there are any). The asked answer is not a key."""
    function = registry_family(measure).function

    def winner(cut: int | None, changed: Conventions) -> str:
        return better_choice(
            function(list(ranking_a), qrels, cut, conventions=changed).value,
            function(list(ranking_b), qrels, cut, conventions=changed).value,
        )

    right = winner(k, conventions)
    explained: dict[str, list[str]] = {}
    for mistake, cut, changed in _changes(conventions, qrels, k, max(len(ranking_a), len(ranking_b))):
        choice = winner(cut, changed)
        if choice != right:
            explained.setdefault(choice, []).append(mistake)
    return _simplest(explained)


def best_option_variants(
    measure: str,
    rankings: Sequence[Sequence[str]],
    qrels: Mapping[str, int],
    k: int | None,
    conventions: Conventions = conv.TREC_EVAL,
) -> dict[int, list[str]]:
    """For "which of these lists scores highest?": each list (by index) that some other convention or cutoff makes
    the single best one, with those mistakes (only the single-switch ones when there are any). The asked best is not
    a key; a convention under which two lists tie for the top explains neither."""
    function = registry_family(measure).function

    def best(cut: int | None, changed: Conventions) -> int | None:
        values = [function(list(r), qrels, cut, conventions=changed).value for r in rankings]
        top = max(values)
        winners = [i for i, v in enumerate(values) if abs(v - top) <= SAME]
        return winners[0] if len(winners) == 1 else None

    right = best(k, conventions)
    explained: dict[int, list[str]] = {}
    for mistake, cut, changed in _changes(conventions, qrels, k, max(map(len, rankings), default=0)):
        choice = best(cut, changed)
        if choice is not None and choice != right:
            explained.setdefault(choice, []).append(mistake)
    return _simplest(explained)

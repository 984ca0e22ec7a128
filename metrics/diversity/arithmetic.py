"""ndeval 4.5's arithmetic, operation for operation, so values agree to the last bit: the novelty walk (each
subtopic's gain starts at 1 and is multiplied by 1 - alpha each time a document covers it; a rank's score sums its
subtopics' gains in ascending subtopic order), the cumulative curves to a depth with ndeval's "ideal ideal"
normalisation (which leaves the first rank undivided), NRBP, MAP-IA, P-IA and subtopic recall.

A curve holds the value at each depth 1 .. D (ndeval's arrays, D = 20 there); index k - 1 is the value at k.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Covers = Sequence[tuple[int, ...]]  # per rank: the subtopics (ascending) the document there covers

_DISCOUNTS: list[float] = [1.0]  # ndeval's discount(i) for the 0-based rank i: 1, then log(2) / log(i + 2)


def discount(index: int) -> float:
    """ndeval's rank discount for the 0-based rank ``index`` (its ``discount``, cached the same way)."""
    while len(_DISCOUNTS) <= index:
        _DISCOUNTS.append(math.log(2.0) / math.log(len(_DISCOUNTS) + 2.0))
    return _DISCOUNTS[index]


def divide(numerator: float, denominator: float) -> float:
    """IEEE division as C does it: x / 0 is +-inf, 0 / 0 NaN."""
    if denominator == 0.0:
        if numerator == 0.0 or math.isnan(numerator):
            return math.nan
        return math.copysign(math.inf, numerator) * math.copysign(1.0, denominator)
    return numerator / denominator


@dataclass(frozen=True, slots=True)
class NoveltyStep:
    """One rank of the novelty walk: the subtopics the document covers, how often each was covered above it, the
    gain of each ((1 - alpha)^seen, as repeated products) and their sum."""

    covers: tuple[int, ...]
    seen: tuple[int, ...]
    gains: tuple[float, ...]
    score: float


def novelty_walk(covers: Covers, alpha: float) -> list[NoveltyStep]:
    """The walk down a ranking (ndeval's loop in computeDCG, computeERR and computeNRBP)."""
    decay = 1.0 - alpha
    gain: dict[int, float] = {}
    seen: dict[int, int] = {}
    steps = []
    for subtopics in covers:
        score, gains = 0.0, []
        for s in subtopics:
            g = gain.get(s, 1.0)
            gains.append(g)
            score += g
            gain[s] = g * decay
        steps.append(NoveltyStep(subtopics, tuple(seen.get(s, 0) for s in subtopics), tuple(gains), score))
        for s in subtopics:
            seen[s] = seen.get(s, 0) + 1
    return steps


def scores(covers: Covers, alpha: float) -> list[float]:
    """Only the walk's per-rank scores (the same arithmetic as novelty_walk, without the records)."""
    decay = 1.0 - alpha
    gain: dict[int, float] = {}
    out = []
    for subtopics in covers:
        score = 0.0
        for s in subtopics:
            g = gain.get(s, 1.0)
            score += g
            gain[s] = g * decay
        out.append(score)
    return out


def _curve(per_rank: list[float], ideal_ideal: list[float], depth: int) -> list[float]:
    """Cumulative sums of both to ``depth``, the first divided by the second from rank 2 on (ndeval's loop)."""
    values = per_rank[:depth] + [0.0] * (depth - len(per_rank[:depth]))
    ideal = list(ideal_ideal)
    for i in range(1, depth):
        values[i] += values[i - 1]
        ideal[i] += ideal[i - 1]
    for i in range(1, depth):
        values[i] /= ideal[i]
    return values


def dcg_curve(rank_scores: Sequence[float], subtopics: int, alpha: float, depth: int) -> list[float]:
    """alpha-DCG at 1 .. depth, divided by the "ideal ideal" (every subtopic covered at every rank); ndeval's
    computeDCG. All 0 when no subtopic counts."""
    if subtopics == 0:
        return [0.0] * depth
    per_rank = [rank_scores[i] * discount(i) for i in range(min(depth, len(rank_scores)))]
    ideal_ideal, gain = [], float(subtopics)
    for i in range(depth):
        ideal_ideal.append(gain * discount(i))
        gain *= 1.0 - alpha
    return _curve(per_rank, ideal_ideal, depth)


def err_curve(rank_scores: Sequence[float], subtopics: int, alpha: float, depth: int) -> list[float]:
    """ERR-IA at 1 .. depth, divided by the "ideal ideal"; ndeval's computeERR."""
    if subtopics == 0:
        return [0.0] * depth
    per_rank = [rank_scores[i] / float(i + 1) for i in range(min(depth, len(rank_scores)))]
    ideal_ideal, gain = [], float(subtopics)
    for i in range(depth):
        ideal_ideal.append(gain / float(i + 1))
        gain *= 1.0 - alpha
    return _curve(per_rank, ideal_ideal, depth)


def normalised(run: list[float], ideal: list[float], guard: list[float]) -> list[float]:
    """ndeval's renormalize: run / ideal at each depth where ``guard`` (the run's alpha-DCG) is not 0, else 0."""
    return [divide(r, i) if g != 0.0 else 0.0 for r, i, g in zip(run, ideal, guard, strict=True)]


def nrbp(rank_scores: Sequence[float], subtopics: int, alpha: float, beta: float) -> float:
    """NRBP over the whole ranking; ndeval's computeNRBP."""
    if subtopics == 0:
        return 0.0
    total, decay = 0.0, 1.0
    for score in rank_scores:
        total += score * decay
        decay *= beta
    return total * ((1 - (1 - alpha) * beta) / subtopics)


_BETA_POWERS: dict[float, list[float]] = {}  # beta -> beta^i as NRBP's loop makes them (repeated products)


def nrbp_at(scored: Iterable[tuple[int, float]], subtopics: int, alpha: float, beta: float) -> float:
    """nrbp from (0-based rank, score) pairs in rank order: ranks scoring 0 may be left out (adding 0 to the sum
    leaves it as it was, and each rank's discount is the same product of betas)."""
    if subtopics == 0:
        return 0.0
    powers = _BETA_POWERS.setdefault(beta, [1.0])
    total = 0.0
    for i, score in scored:
        while len(powers) <= i:
            powers.append(powers[-1] * beta)
        total += score * powers[i]
    return total * ((1 - (1 - alpha) * beta) / subtopics)


def precision_curve(covers: Covers, subtopics: int, depth: int) -> list[float]:
    """P-IA at 1 .. depth: covered (subtopic, document) pairs over rank x subtopics; ndeval's computePrecision."""
    if subtopics == 0:
        return [0.0] * depth
    count, out = 0, []
    for i in range(depth):
        if i < len(covers):
            count += len(covers[i])
        out.append(count / ((i + 1) * subtopics))
    return out


def strec_curve(covers: Covers, subtopics: int, depth: int) -> list[float]:
    """Subtopic recall at 1 .. depth: distinct subtopics covered over the subtopics; ndeval's computeSTRecall."""
    if subtopics == 0:
        return [0.0] * depth
    seen: set[int] = set()
    out = []
    for i in range(depth):
        if i < len(covers):
            seen.update(covers[i])
        out.append(len(seen) / subtopics)
    return out


def map_ia_terms(covers: Covers) -> dict[int, float]:
    """Per subtopic the sum of precision at each rank that covers it (ndeval's subtopicTotal)."""
    return map_ia_terms_at(enumerate(covers))


def map_ia_terms_at(covered: Iterable[tuple[int, tuple[int, ...]]]) -> dict[int, float]:
    """map_ia_terms from (0-based rank, subtopics) pairs in rank order; ranks covering nothing may be left out."""
    count: dict[int, int] = {}
    total: dict[int, float] = {}
    for i, subtopics in covered:
        for s in subtopics:
            count[s] = count.get(s, 0) + 1
            total[s] = total.get(s, 0.0) + count[s] / float(i + 1)
    return total


def map_ia(covers: Covers, relevant: Mapping[int, int], subtopics: int) -> float:
    """MAP-IA: the mean over subtopics of each one's average precision; ndeval's computeMAP."""
    return map_ia_of(map_ia_terms(covers), relevant, subtopics)


def map_ia_of(totals: Mapping[int, float], relevant: Mapping[int, int], subtopics: int) -> float:
    """MAP-IA from map_ia_terms' totals."""
    if subtopics == 0:
        return 0.0
    value = 0.0
    for s in sorted(relevant):
        if relevant[s]:
            value += totals.get(s, 0.0) / relevant[s]
    return value / subtopics


def ideal_ideal(subtopics: int, alpha: float, depth: int, discounted: bool) -> float:
    """What ERR-IA (``discounted`` False: 1 / rank) or alpha-DCG (True: ndeval's discount) at ``depth`` divides by:
    every subtopic covered at every rank (the curves' divisor, summed in the same order)."""
    total, gain = 0.0, float(subtopics)
    for i in range(depth):
        total += gain * discount(i) if discounted else gain / float(i + 1)
        gain *= 1.0 - alpha
    return total


def last(curve: list[float]) -> float:
    """A curve's value at its depth (its last entry); 0 for a depth of 0 (an empty list scored whole)."""
    return curve[-1] if curve else 0.0

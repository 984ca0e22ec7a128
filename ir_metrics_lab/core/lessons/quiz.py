"""Quiz exercises: generated from a seed, checked by ``metrics``. Pure (no Streamlit).

The same seed gives the same exercises (``random.Random(seed)`` and nothing else), so a class can share a seed.
Every exercise is well-posed by construction: the predicted value is computed by the readable metric, the reorder
task is solvable and not already solved, and the two MRR sets never tie.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from ir_metrics_lab.core.lessons import diversity
from ir_metrics_lab.core.scenario import Scenario
from metrics import Breakdown, idcg, mean_over_queries, ndcg, precision, reciprocal_rank
from metrics.catalog import registry

TOLERANCE = 0.005  # a predicted value within ±0.005 counts as right
REORDER_K, REORDER_P_AT, REORDER_TARGET = 3, 5, 0.9
REORDER_SCALE = 3  # reorder grades are drawn from 0-3
MRR_MIN_GAP = 0.05  # the two MRR sets differ by at least this much
ASPECT_K, ASPECT_NAMES, MOVE_GAP = 5, ("price", "range", "charging", "safety"), 0.005
_MAX_TRIES = 500


@dataclass(frozen=True, slots=True)
class Feedback:
    correct: bool
    message: str


@dataclass(frozen=True, slots=True)
class Predict:
    """Predict one metric of one ranked list."""

    family: str  # "AP", "RR" or "NDCG"
    k: int | None
    ranking: tuple[str, ...]
    qrels: Mapping[str, int]  # every judgment, including relevant docs never retrieved
    ideal_first: bool = False  # the worked solution builds the ideal ranking first (NDCG: IDCG, then DCG / IDCG)
    kind: str = "predict"

    @property
    def title(self) -> str:
        return f"Predict {self.label}"

    @property
    def named(self) -> str:
        """The measure in words: "average precision (AP)"; a cut one by its label alone ("NDCG@3")."""
        return self.label if self.k is not None else f"{registry.family(self.family).title.lower()} ({self.label})"

    @property
    def missed(self) -> tuple[str, ...]:
        """Judged docs with a positive grade that the list did not retrieve."""
        return tuple(d for d, g in self.qrels.items() if d not in self.ranking and g > 0)

    @property
    def breakdown(self) -> Breakdown:
        return registry.family(self.family).function(list(self.ranking), self.qrels, self.k)

    @property
    def answer(self) -> float:
        return self.breakdown.value

    @property
    def label(self) -> str:
        return self.breakdown.metric

    @property
    def ideal(self) -> Breakdown:
        """IDCG@k (NDCG exercises): the best order of **every** judged document, the missed ones included."""
        return idcg(list(self.ranking), self.qrels, self.k)

    @property
    def ideal_order(self) -> tuple[tuple[str, int], ...]:
        """(doc, grade) of the ideal top k, read off the IDCG breakdown's steps (missed documents included)."""
        return tuple((s.doc_id, s.grade) for s in self.ideal.steps)


@dataclass(frozen=True, slots=True)
class Reorder:
    """Reorder the list so NDCG@3 reaches the target while P@5 stays what it is."""

    ranking: tuple[str, ...]
    qrels: Mapping[str, int]
    solution: tuple[str, ...]  # one order that meets the goal (found by search, shown after an attempt)
    k: int = REORDER_K
    p_at: int = REORDER_P_AT
    target: float = REORDER_TARGET
    kind: str = "reorder"
    family: str = "NDCG"  # the measure the reorder raises (a live class asks which move raises it most)
    title: str = "Reorder"

    def ndcg(self, order: Sequence[str]) -> Breakdown:
        return ndcg(list(order), self.qrels, self.k)

    def precision(self, order: Sequence[str]) -> Breakdown:
        return precision(list(order), self.qrels, self.p_at)

    def solves(self, order: Sequence[str]) -> bool:
        return (
            sorted(order) == sorted(self.ranking)
            and self.ndcg(order).value >= self.target
            and abs(self.precision(order).value - self.precision(self.ranking).value) < 1e-12
        )


@dataclass(frozen=True, slots=True)
class MrrPair:
    """Two systems run the same queries; which has the higher MRR?"""

    qrels: Mapping[str, Mapping[str, int]]  # query -> judgments, shared by A and B
    runs: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)  # "A"/"B" -> query -> ranking
    kind: str = "mrr"
    title: str = "Which MRR is higher?"

    def per_query(self, side: str) -> dict[str, Breakdown]:
        return {q: reciprocal_rank(list(ranking), self.qrels[q]) for q, ranking in self.runs[side].items()}

    def mrr(self, side: str) -> float:
        run = {q: list(r) for q, r in self.runs[side].items()}
        return mean_over_queries(partial(reciprocal_rank), run, self.qrels).mean

    @property
    def answer(self) -> str:
        return "A" if self.mrr("A") > self.mrr("B") else "B"


@dataclass(frozen=True, slots=True)
class AspectMove:
    """Documents cover aspects; which of a few moves of one document raises alpha-nDCG@k (alpha 0.5) most? The
    options' values differ by at least MOVE_GAP, so exactly one is right."""

    ranking: tuple[str, ...]
    grades: Mapping[str, int]
    aspects: Mapping[str, tuple[str, ...]]
    options: tuple[tuple[str, int], ...]  # (doc, to rank), in list order; keys "1", "2", ...
    k: int = ASPECT_K
    kind: str = "aspect_move"
    family: str = "alpha_nDCG"
    title: str = "Which move raises alpha-nDCG most?"

    @property
    def scenario(self) -> Scenario:
        return Scenario(self.ranking, grades=dict(self.grades), k=self.k, scale=3, aspects=dict(self.aspects))

    def after(self, key: str) -> diversity.Diversity:
        """The lesson's numbers for the list after option ``key``."""
        doc, to_rank = self.options[int(key) - 1]
        return diversity.diversity(self.scenario.moved(doc, to_rank))

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(str(n) for n in range(1, len(self.options) + 1))

    @property
    def answer(self) -> str:
        return max(self.keys, key=lambda key: self.after(key).alpha_ndcg.value)

    def option_text(self, key: str) -> str:
        doc, to_rank = self.options[int(key) - 1]
        return f"{doc}: rank {self.ranking.index(doc) + 1} → {to_rank}"


Exercise = Predict | Reorder | MrrPair | AspectMove


# --- generation ---


def _doc_ids(rng: random.Random, n: int) -> list[str]:
    """n distinct short ids in a random order, so the list is not d1, d2, d3... already."""
    return [f"d{i}" for i in rng.sample(range(1, 30), n)]


def _predict_ap(rng: random.Random) -> Predict:
    n = rng.randint(5, 7)
    ranking = _doc_ids(rng, n)
    hits = set(rng.sample(range(n), rng.randint(2, 3)))
    qrels = {doc: int(i in hits) for i, doc in enumerate(ranking)}
    if rng.random() < 0.6:  # a relevant doc the retriever missed: R counts it
        qrels["d30"] = 1
    return Predict("AP", None, tuple(ranking), qrels)


def _predict_rr(rng: random.Random) -> Predict:
    n = rng.randint(5, 7)
    ranking = _doc_ids(rng, n)
    first = rng.randint(2, n)  # rank 1 would be too easy
    later = [i for i in range(first, n) if rng.random() < 0.3]  # more relevant docs below it change nothing
    qrels = {doc: int(i == first - 1 or i in later) for i, doc in enumerate(ranking)}
    return Predict("RR", None, tuple(ranking), qrels)


def _predict_ndcg(rng: random.Random) -> Predict:
    for _ in range(_MAX_TRIES):
        ranking = _doc_ids(rng, 5)
        qrels = {doc: rng.choice((0, 0, 1, 2, 3)) for doc in ranking}
        if rng.random() < 0.4:
            qrels["d30"] = rng.randint(1, 3)
        exercise = Predict("NDCG", 3, tuple(ranking), qrels, ideal_first=True)
        if 0.05 < exercise.answer < 0.999:  # neither trivial 0 nor already ideal
            return exercise
    raise RuntimeError("could not generate an NDCG exercise")  # pragma: no cover - never reached in practice


def _reorder(rng: random.Random) -> Reorder:
    for _ in range(_MAX_TRIES):
        ranking = tuple(_doc_ids(rng, 6))
        qrels = {doc: rng.choice((0, 0, 1, 1, 2, 3)) for doc in ranking}
        exercise = Reorder(ranking, qrels, ranking)
        if exercise.ndcg(ranking).value >= REORDER_TARGET or not any(g >= 2 for g in qrels.values()):
            continue
        # Search every order for one that works; 720 orders of 6 docs, each checked by the readable metrics.
        solution = next((order for order in itertools.permutations(ranking) if exercise.solves(order)), None)
        if solution is not None:
            return Reorder(ranking, qrels, tuple(solution))
    raise RuntimeError("could not generate a reorder exercise")  # pragma: no cover


def _mrr_pair(rng: random.Random) -> MrrPair:
    for _ in range(_MAX_TRIES):
        qrels: dict[str, dict[str, int]] = {}
        runs: dict[str, dict[str, tuple[str, ...]]] = {"A": {}, "B": {}}
        for q in ("q1", "q2", "q3"):
            docs = _doc_ids(rng, 4)
            relevant = set(rng.sample(docs, rng.randint(1, 2)))
            qrels[q] = {d: int(d in relevant) for d in docs}
            for side in runs:
                runs[side][q] = tuple(rng.sample(docs, len(docs)))
        pair = MrrPair(qrels, runs)
        if abs(pair.mrr("A") - pair.mrr("B")) >= MRR_MIN_GAP:
            return pair
    raise RuntimeError("could not generate an MRR pair")  # pragma: no cover


def _aspect_move(rng: random.Random) -> AspectMove:
    """Six documents, one or two aspects each, one aspect repeated in the top 5; three options: the best move, the
    move NDCG likes best (when it is another) and one more, their alpha-nDCG@5 at least MOVE_GAP apart."""
    for _ in range(_MAX_TRIES):
        ranking = tuple(_doc_ids(rng, 6))
        grades = {doc: rng.randint(1, 3) for doc in ranking}
        aspects = {doc: tuple(sorted(rng.sample(ASPECT_NAMES, rng.choice((1, 1, 1, 2))))) for doc in ranking}
        probe = AspectMove(ranking, grades, aspects, ())
        top = [name for doc in ranking[:ASPECT_K] for name in aspects[doc]]
        if len(set(top)) == len(top):  # nothing repeats: no novelty to find
            continue
        moves = diversity.move_values(probe.scenario)
        now = diversity.diversity(probe.scenario).alpha_ndcg.value
        by_alpha = sorted(moves, key=lambda m: (-m.alpha_ndcg, abs(m.to_rank - m.from_rank), m.from_rank, m.to_rank))
        best = by_alpha[0]
        if best.alpha_ndcg < now + MOVE_GAP:
            continue
        picked = [best]
        for move in (max(moves, key=lambda m: m.ndcg), *rng.sample(moves, len(moves))):
            if len(picked) < 3 and all(abs(move.alpha_ndcg - p.alpha_ndcg) >= MOVE_GAP for p in picked):
                picked.append(move)
        if len(picked) == 3:
            options = tuple((m.doc, m.to_rank) for m in sorted(picked, key=lambda m: (m.from_rank, m.to_rank)))
            return AspectMove(ranking, grades, aspects, options)
    raise RuntimeError("could not generate an aspect move")  # pragma: no cover


def generate(seed: int) -> tuple[Exercise, ...]:
    """The exercise set of a seed: predict AP, predict RR, predict NDCG@3, reorder, the MRR pair, and which move
    raises alpha-nDCG@5 most.

    >>> generate(7) == generate(7)
    True
    """
    rng = random.Random(seed)
    return (_predict_ap(rng), _predict_rr(rng), _predict_ndcg(rng), _reorder(rng), _mrr_pair(rng), _aspect_move(rng))


# --- checking ---


def check_number(exercise: Predict, guess: float | None) -> Feedback:
    if guess is None:
        return Feedback(False, "Enter a number between 0 and 1 first.")
    answer = exercise.answer
    if abs(guess - answer) <= TOLERANCE + 1e-12:
        return Feedback(True, f"Right: {exercise.label} = {answer:.4f} (you said {guess:.4f}).")
    return Feedback(False, f"Not quite: you said {guess:.4f}, but {exercise.label} = {answer:.4f}.")


def parse_order(text: str, docs: Sequence[str]) -> list[str]:
    """Read "d3, d1, ..." into a list of doc ids; every doc exactly once. Raises ValueError with a readable message."""
    order = [part for part in re.split(r"[\s,;]+", text.strip()) if part]
    unknown = [d for d in order if d not in docs]
    if unknown:
        raise ValueError(f"unknown document {unknown[0]!r}; use the ids {', '.join(docs)}")
    repeated = sorted({d for d in order if order.count(d) > 1})
    if repeated:
        raise ValueError(f"{repeated[0]!r} appears more than once")
    missing = [d for d in docs if d not in order]
    if missing:
        raise ValueError(f"every document must appear once; missing: {', '.join(missing)}")
    return order


def check_reorder(exercise: Reorder, order: Sequence[str]) -> Feedback:
    n, p = exercise.ndcg(order), exercise.precision(order)
    p_before = exercise.precision(exercise.ranking).value
    facts = f"NDCG@{exercise.k} = {n.value:.4f} (goal ≥ {exercise.target:.4f}), P@{exercise.p_at} = {p.value:.4f}"
    if exercise.solves(order):
        return Feedback(True, f"Solved: {facts}, unchanged.")
    if abs(p.value - p_before) >= 1e-12:
        return Feedback(
            False,
            f"{facts}, but P@{exercise.p_at} was {p_before:.4f}: keep the same number of "
            f"relevant documents in the top {exercise.p_at}.",
        )
    return Feedback(False, f"Not yet: {facts}. Put the highest grades in the top {exercise.k}.")


def check_choice(exercise: MrrPair, choice: str | None) -> Feedback:
    if choice not in ("A", "B"):
        return Feedback(False, "Pick A or B first.")
    a, b = exercise.mrr("A"), exercise.mrr("B")
    facts = f"MRR of A = {a:.4f}, MRR of B = {b:.4f}"
    if choice == exercise.answer:
        return Feedback(True, f"Right: {facts}.")
    return Feedback(False, f"Not this time: {facts}.")


def check_move(exercise: AspectMove, choice: str | None) -> Feedback:
    if choice not in exercise.keys:
        return Feedback(False, "Pick a move first.")
    chosen, right = exercise.after(choice), exercise.after(exercise.answer)
    facts = (
        f"{exercise.option_text(choice)} gives alpha-nDCG@{exercise.k} = {chosen.alpha_ndcg.value:.4f}; the best of "
        f"these, {exercise.option_text(exercise.answer)}, gives {right.alpha_ndcg.value:.4f}"
    )
    if choice == exercise.answer:
        return Feedback(True, f"Right: {facts}.")
    return Feedback(False, f"Not this one: {facts}.")


# --- the session score: first attempt per exercise ---


def record(attempts: dict, key: tuple[int, int], correct: bool) -> None:
    """Count only the first attempt at an exercise, so retrying until right does not inflate the score."""
    attempts.setdefault(key, correct)


def tally(attempts: Mapping) -> tuple[int, int]:
    """(correct, attempted)."""
    return sum(bool(v) for v in attempts.values()), len(attempts)

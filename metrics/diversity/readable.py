"""What the nine diversity families (ERR-IA, nERR-IA, alpha-DCG, alpha-nDCG, NRBP, nNRBP, AP-IA, P-IA, StRecall)
share: their parameters, the per-rank step (``AspectStep``: the subtopics a document covers, how often each was
covered above it, their gains), the walk a readable function breaks down, and the per-query loop their kernels run.

A readable function takes ``{subtopic: {doc: grade}}`` (ndeval's judgments of one topic) or plain qrels
``{doc: grade}`` (one subtopic); a grade of at least the conventions' threshold (ndeval: 1) covers the subtopic. A
kernel reads the engine's prepared run of plain qrels, one subtopic per query, and computes with the same arithmetic
(metrics.diversity.arithmetic), so the two agree bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from metrics.catalog.family import Param
from metrics.core.checks import check_k, check_ranking
from metrics.core.conventions import Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking, RankStep, Term
from metrics.diversity import arithmetic as a
from metrics.diversity.aspects import Aspects, aspects_of
from metrics.diversity.ideal import ideal_ranking

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

ALPHA = Param(
    "alpha", 0.5, 0.0, 1.0, "Redundancy intolerance: a subtopic's gain is multiplied by 1 - alpha each time a "
    "document covers it again (ndeval: 0.5)."
)  # fmt: skip
BETA = Param("beta", 0.5, 0.0, 1.0, "NRBP's patience: the chance the user reads on to the next rank (ndeval: 0.5).")

SUBTOPICS = Term("subtopics")  # how many subtopics some document is relevant to (ndeval's actualSubtopics)
IDEAL = Term("ideal")  # the ideal ranking's value (ndeval's greedy ideal), the normaliser of the n- measures
IDEAL_IDEAL = Term("ideal ideal")  # every subtopic covered at every rank: what ERR-IA and alpha-DCG divide by

SubtopicJudgments = Mapping[str, Mapping[str, int]] | Mapping[str, int]


@dataclass(frozen=True, slots=True)
class AspectStep(RankStep):
    """A rank of a diversity measure: besides RankStep's, the subtopics the document covers (``covers``, by name),
    how many documents above covered each (``seen``), each one's gain (1 - alpha)^seen (``gains``), their sum
    (``gain``) and the rank's discount."""

    covers: tuple[str, ...] = ()
    seen: tuple[int, ...] = ()
    gains: tuple[float, ...] = ()
    gain: float = 0.0
    discount: float = 1.0


@dataclass(frozen=True, slots=True)
class Walked:
    """A ranking (cut at k) walked against one topic's subtopics."""

    aspects: Aspects
    ranking: Ranking
    steps: list[a.NoveltyStep]

    @property
    def covers(self) -> list[tuple[int, ...]]:
        return [s.covers for s in self.steps]

    @property
    def scores(self) -> list[float]:
        return [s.score for s in self.steps]

    def ideal_covers(self, alpha: float) -> list[tuple[int, ...]]:
        return [self.aspects.of(doc) for doc in ideal_ranking(self.aspects, alpha)]


def walk(ranking: Ranking, qrels: SubtopicJudgments, k: int | None, alpha: float, c: Conventions) -> Walked:
    """Check the inputs and walk the top k of the ranking (the novelty walk's gains at alpha)."""
    check_k(k)
    check_ranking(ranking)
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be from 0 to 1, got {alpha!r}")
    aspects = aspects_of(qrels, rel=c.threshold)
    top = ranking if k is None else ranking[:k]
    return Walked(aspects, top, a.novelty_walk([aspects.of(doc) for doc in top], alpha))


def steps_of(w: Walked, contributions: list[float], discount: Callable[[int], float] | None = None) -> tuple:
    """One AspectStep per rank, with the rank's contribution to the value and their running sum."""
    out, running = [], 0.0
    for i, (doc, step, contribution) in enumerate(zip(w.ranking, w.steps, contributions, strict=True)):
        running += contribution
        names = tuple(w.aspects.labels[s] for s in step.covers)
        grade = w.aspects.grades.get(doc, 0)
        weight = discount(i) if discount else 1.0
        out.append(
            AspectStep(i + 1, doc, grade, bool(step.covers), contribution, running, names, step.seen, step.gains,
                       step.score, weight)
        )  # fmt: skip
    return tuple(out)


def breakdown(key: str, k: int | None, value: float, steps: tuple, terms: dict, c: Conventions) -> Breakdown:
    return Breakdown(key, k, value, steps, terms, c)


COVERS_KEY = ("diversity covers",)  # where a Prepared keeps its topics (Prepared.shared); runs.py seeds it


@dataclass(eq=False)
class Topic:
    """One query as a kernel reads it: the covers at each rank, and its subtopics (None: plain qrels, one subtopic
    that ``relevant`` documents cover)."""

    covers: list[tuple[int, ...]]
    relevant: int = 0
    aspects: Aspects | None = None
    _ideal: dict = field(default_factory=dict)

    def ideal(self, alpha: float) -> list[tuple[int, ...]]:
        """The ideal ranking's covers (ndeval's greedy ideal at this alpha)."""
        if self.aspects is None:
            return [(0,)] * self.relevant
        if alpha not in self._ideal:
            self._ideal[alpha] = [self.aspects.of(doc) for doc in ideal_ranking(self.aspects, alpha)]
        return self._ideal[alpha]

    @property
    def judged(self) -> int | tuple[int, Mapping[int, int]]:
        """What :func:`one_topic` reads: the relevant documents (plain qrels), or (subtopics, relevant per one)."""
        return self.relevant if self.aspects is None else (self.aspects.subtopics, self.aspects.relevant)


def per_query(data: Prepared, compute: Callable[[list, list, Any], float], alpha: float | None = None) -> np.ndarray:
    """A kernel's loop: ``compute(covers, ideal_covers, judged)`` for each query (``ideal_covers`` at ``alpha``, [] when
    None; ``judged`` for :func:`one_topic`). The topics: seeded by metrics.diversity.runs from subtopic judgments, else
    plain qrels (one subtopic: a judged document with grade >= the threshold covers it)."""

    def tables() -> list[Topic]:
        threshold = data.conventions.threshold
        found = [Topic([() for _ in range(int(data.n[slot]))], int(data.R[slot])) for slot in range(data.size)]
        rows = np.flatnonzero(data.grade >= threshold)
        for slot, rank in zip(data.slot[rows].tolist(), data.rank[rows].tolist(), strict=True):
            found[slot].covers[rank - 1] = (0,)
        return found

    topics = data.shared(COVERS_KEY, tables)
    ideal = (lambda t: t.ideal(alpha)) if alpha is not None else (lambda t: [])
    return np.array([compute(t.covers, ideal(t), t.judged) for t in topics], dtype=np.float64)


def one_topic(judged: int | tuple[int, Mapping[int, int]]) -> tuple[int, Mapping[int, int]]:
    """(subtopics, relevant documents per subtopic) of a kernel's topic (Topic.judged)."""
    if isinstance(judged, int):
        return (1 if judged else 0), {0: judged}
    return judged


def param(measure: Measure, name: str) -> float:
    return measure.number(name)

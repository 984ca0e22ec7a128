"""Every ndeval measure of one topic: a ranking scored against the topic's Aspects, normalised by ndeval's greedy
ideal ranking (metrics.diversity.ideal), to a depth (ndeval's DEPTH, 20: the value at k is a curve's index k - 1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from metrics.diversity import arithmetic as a
from metrics.diversity.aspects import Aspects
from metrics.diversity.ideal import ideal_ranking

NDEVAL_DEPTH = 20  # ndeval's DEPTH: its measures at 5, 10 and 20 read curves this long


@dataclass(frozen=True, slots=True)
class Ideal:
    """What normalises a run: the ideal ranking's alpha-DCG and ERR-IA curves and its NRBP."""

    ranking: tuple[str, ...]
    dcg: list[float]
    err: list[float]
    nrbp: float


def ideal_of(aspects: Aspects, alpha: float, beta: float, depth: int) -> Ideal:
    ranking = ideal_ranking(aspects, alpha)
    walked = a.scores([aspects.of(doc) for doc in ranking], alpha)
    n = aspects.subtopics
    return Ideal(
        tuple(ranking),
        a.dcg_curve(walked, n, alpha, depth),
        a.err_curve(walked, n, alpha, depth),
        a.nrbp(walked, n, alpha, beta),
    )


@dataclass(frozen=True, slots=True)
class TopicValues:
    """One topic's values: curves (index k - 1: the value at k) and the whole-list measures."""

    err: list[float]
    nerr: list[float]
    dcg: list[float]
    ndcg: list[float]
    nrbp: float
    nnrbp: float
    map_ia: float
    precision: list[float]
    strec: list[float]


def topic_values(
    ranking: Sequence[str], aspects: Aspects, alpha: float, beta: float, depth: int = NDEVAL_DEPTH,
    ideal: Ideal | None = None,
) -> TopicValues:  # fmt: skip
    """ndeval's values for a ranking (already cut, ndeval -M) of one topic (applyQrels' sequence)."""
    ideal = ideal or ideal_of(aspects, alpha, beta, depth)
    covers = [aspects.of(doc) for doc in ranking]
    n = aspects.subtopics
    walked = a.scores(covers, alpha)
    dcg = a.dcg_curve(walked, n, alpha, depth)
    err = a.err_curve(walked, n, alpha, depth)
    run_nrbp = a.nrbp(walked, n, alpha, beta)
    return TopicValues(
        err=err,
        nerr=a.normalised(err, ideal.err, dcg),
        dcg=dcg,
        ndcg=a.normalised(dcg, ideal.dcg, dcg),
        nrbp=run_nrbp,
        nnrbp=a.divide(run_nrbp, ideal.nrbp),
        map_ia=a.map_ia(covers, aspects.relevant, n),
        precision=a.precision_curve(covers, n, depth),
        strec=a.strec_curve(covers, n, depth),
    )


def sparse_topic_values(
    length: int, covered: Sequence[tuple[int, tuple[int, ...]]], aspects: Aspects, alpha: float, beta: float,
    depth: int = NDEVAL_DEPTH,
) -> TopicValues:  # fmt: skip
    """topic_values of a ranking of ``length`` documents given only its ranks that cover a subtopic: (0-based rank,
    subtopics) in rank order. The same arithmetic: a rank covering nothing scores 0, changes no gain and adds nothing
    to NRBP or MAP-IA, so only the first ``depth`` ranks are needed whole."""
    ideal = ideal_of(aspects, alpha, beta, depth)
    n = aspects.subtopics
    walked = a.scores([subtopics for _, subtopics in covered], alpha)
    top = min(depth, length)
    covers: list[tuple[int, ...]] = [()] * top
    top_scores = [0.0] * top
    for (i, subtopics), score in zip(covered, walked, strict=True):
        if i < top:
            covers[i], top_scores[i] = subtopics, score
    dcg = a.dcg_curve(top_scores, n, alpha, depth)
    err = a.err_curve(top_scores, n, alpha, depth)
    run_nrbp = a.nrbp_at(((i, score) for (i, _), score in zip(covered, walked, strict=True)), n, alpha, beta)
    return TopicValues(
        err=err,
        nerr=a.normalised(err, ideal.err, dcg),
        dcg=dcg,
        ndcg=a.normalised(dcg, ideal.dcg, dcg),
        nrbp=run_nrbp,
        nnrbp=a.divide(run_nrbp, ideal.nrbp),
        map_ia=a.map_ia_of(a.map_ia_terms_at(covered), aspects.relevant, n),
        precision=a.precision_curve(covers, n, depth),
        strec=a.strec_curve(covers, n, depth),
    )

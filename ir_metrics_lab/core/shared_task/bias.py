"""Pooling bias, by leaving one run out (Zobel, SIGIR 1998): each run scored again on qrels built from the pool
without the documents only it contributed, as if it had not taken part; how far its score and its rank drop.

Scores are trec_eval's, through metrics' measure families (each family's readable function, which equals the engine
and trec_eval; a judged topic a run left out counts 0, as ``trec_eval -c``), averaged over the topics the full qrels
judge. A document left unjudged is
what each measure says it is: AP and infAP read it as not relevant, bpref skips it. A topic whose every judgment was
the left-out run's alone scores 0, as trec_eval scores a topic with no relevant document.

Ranks are competition ranks (1 + the runs strictly above); a run's rank without its documents is its place among the
other runs' scores on the full qrels (they keep theirs: only the left-out run is scored again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ir_metrics_lab.core.family_display import listed
from ir_metrics_lab.core.shared_task.pooling import Pool
from ir_metrics_lab.core.words import count

# AP, and the two measures built to hold up with incomplete judgments (bpref, infAP): the families' uncut measures.
MEASURES = listed("pooling_bias")
Rankings = Mapping[str, Sequence[str]]  # topic -> documents, best first
Qrels = Mapping[str, Mapping[str, int]]  # topic -> document -> grade


@dataclass(frozen=True, slots=True)
class RunBias:
    run: str
    measure: str
    score: float  # on the full qrels
    score_without: float  # on the qrels without the documents only this run contributed
    rank: int
    rank_without: int
    unique: int  # pooled documents only this run contributed
    unique_relevant: int  # of them, graded at least 1 in the full qrels

    @property
    def drop(self) -> float:
        return self.score - self.score_without

    @property
    def places_lost(self) -> int:
        return self.rank_without - self.rank


def mean_scores(rankings: Rankings, qrels: Qrels, topics: Sequence[str], measures: Sequence[str]) -> dict[str, float]:
    """Measure -> the run's mean over ``topics``: each topic scored by the family's readable function, as trec_eval
    -c scores it (a topic the run left out ranks nothing; a topic not in ``qrels`` counts 0). A class's runs are
    small: the readable functions score them faster than the engine's start-up per call."""
    from metrics import parse_measure

    parsed = {m: parse_measure(m) for m in measures}
    sums = dict.fromkeys(measures, 0.0)
    for topic in topics:
        judged = qrels.get(topic)
        if judged:
            ranking = list(rankings.get(topic, ()))
            for m, measure in parsed.items():
                sums[m] += measure.compute(ranking, judged).value
    return {m: sums[m] / len(topics) if topics else 0.0 for m in measures}


def _rank(score: float, others: Sequence[float]) -> int:
    return 1 + sum(other > score for other in others)


def leave_one_out(
    runs: Mapping[str, Rankings], pool: Pool, qrels: Qrels, measures: Sequence[str] = MEASURES
) -> list[RunBias]:
    """One RunBias per run (in ``runs``' order) and measure."""
    topics = sorted(t for t, docs in qrels.items() if docs)
    full = {run: mean_scores(rankings, qrels, topics, measures) for run, rankings in runs.items()}
    found = []
    for run, rankings in runs.items():
        unique = pool.unique(run)
        without = {t: {d: g for d, g in docs.items() if (t, d) not in unique} for t, docs in qrels.items()}
        again = mean_scores(rankings, without, topics, measures) if unique else full[run]
        relevant = sum(qrels.get(t, {}).get(d, 0) >= 1 for t, d in unique)
        for m in measures:
            others = [full[other][m] for other in runs if other != run]
            found.append(
                RunBias(
                    run,
                    m,
                    full[run][m],
                    again[m],
                    _rank(full[run][m], others),
                    _rank(again[m], others),
                    len(unique),
                    relevant,
                )
            )
    return found


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th... for a rank in a sentence.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _moves(b: RunBias) -> str:
    if b.score_without == b.score:
        return f"{b.measure} stays at {b.score:.3f}"
    verb = "falls" if b.score_without < b.score else "rises"
    return f"{b.measure} {verb} from {b.score:.3f} to {b.score_without:.3f}"


def _place(b: RunBias) -> str:
    if b.rank_without == b.rank:
        return f"it keeps its place ({ordinal(b.rank)})"
    verb = "drops" if b.rank_without > b.rank else "climbs"
    return f"it {verb} from {ordinal(b.rank)} to {ordinal(b.rank_without)}"


def sentence(biases: Sequence[RunBias]) -> str:
    """One run's leave-one-out result in plain words (``biases``: that run's RunBias, one per measure; the first
    measure's rank is told). The run's name is user text: a page shows the sentence literally."""
    first = biases[0]
    if first.unique == 0:
        return f"{first.run} found nothing another run missed: leaving it out of the pool changes none of its scores."
    told = f"{first.run} alone found {count(first.unique, 'pooled document')} ({first.unique_relevant} relevant)."
    them = "it" if first.unique == 1 else "them"
    told += f" Judged without {them}, {'; '.join(_moves(b) for b in biases)}; by {first.measure}, {_place(first)}."
    drops = sorted(abs(b.drop) for b in biases)
    if len(drops) > 1 and drops[0] < drops[1]:  # one measure moved strictly least
        told += f" {min(biases, key=lambda b: abs(b.drop)).measure} holds up best."
    return told

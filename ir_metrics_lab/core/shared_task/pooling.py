"""The pool: the union of every run's top k per topic (TREC's depth-k pooling), and what it tells: its size per topic,
the documents each run alone contributed (no other run has them in its top k), the overlap between runs.

An item is a (topic, document) pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

Item = tuple[str, str]  # (topic, document)


@dataclass(frozen=True)
class Overlap:
    """Two runs' top k, compared over every topic: the items both pooled, and that over the items either pooled."""

    shared: int
    either: int

    @property
    def jaccard(self) -> float:
        return self.shared / self.either if self.either else 0.0


@dataclass(frozen=True)
class Pool:
    """``found_by``: each pooled item -> the runs whose top ``depth`` holds it (a run named once however deep)."""

    depth: int
    found_by: Mapping[Item, frozenset[str]]
    runs: tuple[str, ...]

    def items(self) -> list[Item]:
        """Every pooled item, by topic then document id: the order judges are assigned in."""
        return sorted(self.found_by)

    def documents(self, topic: str) -> list[str]:
        return sorted(doc for t, doc in self.found_by if t == topic)

    def sizes(self) -> dict[str, int]:
        """Topic -> how many documents it pooled."""
        sizes: dict[str, int] = {}
        for topic, _ in self.found_by:
            sizes[topic] = sizes.get(topic, 0) + 1
        return dict(sorted(sizes.items()))

    def unique(self, run: str) -> frozenset[Item]:
        """The items only ``run`` contributed: leave it out of the pool and they go unjudged."""
        return frozenset(item for item, runs in self.found_by.items() if runs == {run})

    def unique_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(self.runs, 0)
        for runs in self.found_by.values():
            if len(runs) == 1:
                counts[next(iter(runs))] += 1
        return counts

    def found_only_by_team(self, team_of_run: Mapping[str, str]) -> dict[Item, str]:
        """Item -> the team whose runs alone found it, for the items one team alone found (its judges are kept off
        it when others can judge it)."""
        alone = {}
        for item, runs in self.found_by.items():
            teams = {team_of_run[run] for run in runs}
            if len(teams) == 1:
                alone[item] = teams.pop()
        return alone

    def overlaps(self) -> dict[tuple[str, str], Overlap]:
        """(run a, run b), a before b in ``runs`` -> their Overlap."""
        pooled = {run: {item for item, runs in self.found_by.items() if run in runs} for run in self.runs}
        return {
            (a, b): Overlap(len(pooled[a] & pooled[b]), len(pooled[a] | pooled[b]))
            for a, b in combinations(self.runs, 2)
        }


def build_pool(
    runs: Mapping[str, Mapping[str, Sequence[str]]], depth: int, topics: Iterable[str] | None = None
) -> Pool:
    """Pool ``runs`` (run name -> topic -> documents, best first) to ``depth``; only ``topics`` when given (the task's;
    a run's other topics were refused on arrival)."""
    if depth < 1:
        raise ValueError(f"the pool depth must be at least 1, got {depth}")
    wanted = None if topics is None else set(topics)
    found: dict[Item, set[str]] = {}
    for run, rankings in runs.items():
        for topic, docs in rankings.items():
            if wanted is None or topic in wanted:
                for doc in docs[:depth]:
                    found.setdefault((topic, doc), set()).add(run)
    return Pool(depth, {item: frozenset(r) for item, r in sorted(found.items())}, tuple(runs))

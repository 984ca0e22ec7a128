"""A playground scenario: the ranked list, the judged-but-not-retrieved shelf, grades, titles, k and conventions,
and the aspects (subtopics, by name) each document covers, which the diversity measures read.

Immutable: every edit returns a new Scenario, which is what makes undo/redo a plain stack. Pure (no Streamlit).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.errors import InputError
from metrics.teaching.examples import Example

SCALES = {1: "binary (0-1)", 3: "graded (0-3)", 4: "graded (0-4)"}
MAX_DOCS = 100  # more than a person can drag meaningfully; keeps every rerun fast
MAX_ASPECTS = 12  # distinct aspect names in a scenario: more than a lesson's chips can show legibly
MAX_ASPECT_CHARS = 40
DEFAULT_EXAMPLE = "grades-32301"  # the preset a new visitor's Playground opens with (and the teaching notebooks use)


@dataclass(frozen=True, slots=True)
class Scenario:
    ranking: tuple[str, ...]  # retrieved doc ids, best first
    shelf: tuple[str, ...] = ()  # judged docs the retriever missed: they count in R and IDCG
    grades: Mapping[str, int] = field(default_factory=dict)  # every doc on the list or the shelf
    titles: Mapping[str, str] = field(default_factory=dict)
    k: int = 5
    conventions: Conventions = TREC_EVAL
    scale: int = 3  # grades run from 0 to scale
    # Retrieved docs after the displayed ones (a query opened from a run): never shown or dragged, but they are
    # ranks len(ranking)+1.. in every metric, so uncut AP and RR match the run's. Their grades are in ``grades``.
    tail: tuple[str, ...] = ()
    # Retrieved docs (list or tail) that were never judged: no qrels line, as a pool that missed them. Their grade
    # stays 0 so every other measure reads them as non-relevant; bpref, infAP, Judged@k and rbp_resid tell them apart.
    unjudged: frozenset[str] = frozenset()
    # The grades the unjudged docs had before they were marked, so unmarking one gives its grade back. A memory of
    # this session's edits, not part of what the list is: equality and share links leave it out.
    held_grades: Mapping[str, int] = field(default_factory=dict, compare=False)
    # The aspects (subtopics, by name) each document of the list or the shelf covers, in the order given; documents
    # covering none are absent. A document covers them when its grade reaches the threshold (ndeval: above 0).
    aspects: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def qrels(self) -> dict[str, int]:
        """The judgments: the grades of the list's, the hidden tail's and the shelf's docs, except the unjudged."""
        docs = (*self.ranking, *self.tail, *self.shelf)
        return {doc: self.grades.get(doc, 0) for doc in docs if doc not in self.unjudged}

    @property
    def aspect_names(self) -> tuple[str, ...]:
        """Every aspect some document covers, in the order the list (then the shelf) first names them."""
        return tuple(dict.fromkeys(name for doc in self.docs for name in self.aspects.get(doc, ())))

    @property
    def subtopic_qrels(self) -> dict[str, dict[str, int]]:
        """The judgments as ndeval reads them, ``{aspect: {doc: grade}}``: each judged document's grade for every
        aspect it covers (a grade below the threshold covers nothing, as in ndeval's qrels)."""
        qrels = self.qrels
        out: dict[str, dict[str, int]] = {name: {} for name in self.aspect_names}
        for doc in self.docs:
            if doc in qrels:
                for name in self.aspects.get(doc, ()):
                    out[name][doc] = qrels[doc]
        return out

    def aspects_of(self, doc: str) -> tuple[str, ...]:
        return tuple(self.aspects.get(doc, ()))

    @property
    def full_ranking(self) -> tuple[str, ...]:
        """What the metrics score: the displayed list, then the hidden tail."""
        return (*self.ranking, *self.tail) if self.tail else self.ranking

    @property
    def docs(self) -> tuple[str, ...]:
        return (*self.ranking, *self.shelf)

    def title(self, doc: str) -> str:
        return self.titles.get(doc, "")

    # --- edits: each returns a new Scenario or raises ValueError with a message fit for the page ---

    def reordered(self, order: Iterable[str]) -> Scenario:
        order = tuple(order)
        if sorted(order) != sorted(self.ranking):
            raise ValueError("a reorder must keep the same documents")
        return dataclasses.replace(self, ranking=order)

    def moved(self, doc: str, to_rank: int) -> Scenario:
        """Move ``doc`` to 1-based ``to_rank`` (clamped to the list)."""
        self._require_ranked(doc)
        rest = [d for d in self.ranking if d != doc]
        index = min(max(to_rank, 1), len(self.ranking)) - 1
        rest.insert(index, doc)
        return dataclasses.replace(self, ranking=tuple(rest))

    def with_grade(self, doc: str, grade: int) -> Scenario:
        """Grade ``doc``; grading a document judges it, so an unjudged one becomes judged."""
        if doc not in self.docs:
            raise ValueError(f"no document {doc!r} in this scenario")
        if isinstance(grade, bool) or not isinstance(grade, int) or not 0 <= grade <= self.scale:
            raise InputError(
                "grade-out-of-range", f"grade for {doc!r} must be a whole number from 0 to {self.scale}, got {grade!r}"
            )
        return dataclasses.replace(
            self, grades={**self.grades, doc: grade}, unjudged=self.unjudged - {doc}, held_grades=self._held_but(doc)
        )

    def with_unjudged(self, docs: Iterable[str]) -> Scenario:
        """Exactly ``docs`` (retrieved ones) are unjudged: no qrels line. They get grade 0, which is what the
        measures that cannot tell unjudged from non-relevant (P@k, AP, NDCG, ...) read; the rest become judged, and
        a doc unmarked gets back the grade it had when it was marked."""
        docs = frozenset(docs)
        if stray := sorted(docs - set(self.full_ranking)):
            raise ValueError(f"only retrieved documents can be unjudged, not {', '.join(map(repr, stray))}")
        marked, unmarked = docs - self.unjudged, self.unjudged - docs
        held = {doc: grade for doc, grade in self.held_grades.items() if doc in docs}
        held.update({doc: self.grades.get(doc, 0) for doc in marked})
        restored = {doc: self.held_grades[doc] for doc in unmarked if doc in self.held_grades}
        grades = {**self.grades, **dict.fromkeys(marked, 0), **restored}
        return dataclasses.replace(self, grades=grades, unjudged=docs, held_grades=held)

    def _held_but(self, doc: str) -> dict[str, int]:
        return {d: g for d, g in self.held_grades.items() if d != doc}

    def shelved(self, doc: str) -> Scenario:
        """Take a retrieved doc off the list: it stays judged (it still counts in R and IDCG); an unjudged one becomes
        judged, since the shelf holds judged documents."""
        self._require_ranked(doc)
        ranking, shelf = tuple(d for d in self.ranking if d != doc), (*self.shelf, doc)
        judged = self.with_unjudged(self.unjudged - {doc})  # with the grade it had before it was marked
        return dataclasses.replace(judged, ranking=ranking, shelf=shelf)

    def retrieved(self, doc: str, rank: int | None = None) -> Scenario:
        """Put a shelved doc back on the list, at the end or at ``rank``."""
        if doc not in self.shelf:
            raise ValueError(f"{doc!r} is not on the judged-but-not-retrieved shelf")
        moved = dataclasses.replace(self, ranking=(*self.ranking, doc), shelf=tuple(d for d in self.shelf if d != doc))
        return moved if rank is None else moved.moved(doc, rank)

    def with_doc(self, doc: str, title: str = "", grade: int = 0, *, on_shelf: bool = False) -> Scenario:
        doc = doc.strip()
        if not doc:
            raise InputError("id-empty", "a document needs an id")
        if doc in self.docs:
            raise InputError("duplicate-doc", f"there is already a document {doc!r}; ids must be unique")
        if doc in self.tail:
            problem = f"{doc!r} is already retrieved further down (rank {self.full_ranking.index(doc) + 1})"
            raise InputError("duplicate-doc", problem)
        if len(self.docs) >= MAX_DOCS:
            raise ValueError(f"the playground holds at most {MAX_DOCS} documents")
        added = dataclasses.replace(
            self,
            ranking=self.ranking if on_shelf else (*self.ranking, doc),
            shelf=(*self.shelf, doc) if on_shelf else self.shelf,
            titles={**self.titles, doc: title},
            grades={**self.grades, doc: 0},
        )
        return added.with_grade(doc, grade)

    def renamed(self, doc: str, title: str) -> Scenario:
        if doc not in self.docs:
            raise ValueError(f"no document {doc!r} in this scenario")
        return dataclasses.replace(self, titles={**self.titles, doc: title})

    def with_aspects(self, doc: str, names: Iterable[str]) -> Scenario:
        """``doc`` covers exactly ``names`` (trimmed; a repeat is kept once). Raises ValueError for an empty or too
        long name, or one that would make more than MAX_ASPECTS in the scenario."""
        if doc not in self.docs:
            raise ValueError(f"no document {doc!r} in this scenario")
        cleaned = tuple(dict.fromkeys(check_aspect(name) for name in names))
        others = {name for d in self.docs if d != doc for name in self.aspects.get(d, ())}
        if len(others | set(cleaned)) > MAX_ASPECTS:
            raise ValueError(f"a list can have at most {MAX_ASPECTS} different aspects")
        aspects = {d: names for d, names in self.aspects.items() if d != doc}
        if cleaned:
            aspects[doc] = cleaned
        return dataclasses.replace(self, aspects=aspects)

    def without(self, doc: str) -> Scenario:
        if doc not in self.docs:
            raise ValueError(f"no document {doc!r} in this scenario")
        return dataclasses.replace(
            self,
            ranking=tuple(d for d in self.ranking if d != doc),
            shelf=tuple(d for d in self.shelf if d != doc),
            grades={d: g for d, g in self.grades.items() if d != doc},
            titles={d: t for d, t in self.titles.items() if d != doc},
            unjudged=self.unjudged - {doc},
            held_grades=self._held_but(doc),
            aspects={d: names for d, names in self.aspects.items() if d != doc},
        )

    def with_scale(self, scale: int) -> Scenario:
        """Change the rating scale; grades above the new top are capped to it."""
        if scale not in SCALES:
            raise ValueError(f"the scale must be one of {sorted(SCALES)}, got {scale!r}")
        return dataclasses.replace(self, scale=scale, grades={d: min(g, scale) for d, g in self.grades.items()})

    def with_settings(self, *, k: int | None = None, conventions: Conventions | None = None) -> Scenario:
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise InputError("cutoff-k", f"k must be a whole number >= 1, got {k!r}")
        return dataclasses.replace(self, k=self.k if k is None else k, conventions=conventions or self.conventions)

    def _require_ranked(self, doc: str) -> None:
        if doc not in self.ranking:
            raise ValueError(f"{doc!r} is not in the ranked list")

    @classmethod
    def from_example(cls, example: Example, query_id: str | None = None) -> Scenario:
        """A scenario from a preset: judged docs the preset did not retrieve go on the shelf."""
        query = example.queries[query_id] if query_id else example.first
        shelf = tuple(d for d in query.qrels if d not in query.ranking and query.qrels[d] >= 0)
        grades = {d: max(query.qrels.get(d, 0), 0) for d in (*query.ranking, *shelf)}
        titles = {d: example.titles.get(d, "") for d in (*query.ranking, *shelf)}
        return cls(tuple(query.ranking), shelf, grades, titles, k=example.k, scale=max(example.scale, 1))


def check_aspect(name: object) -> str:
    """An aspect's name, trimmed; ValueError when it is not text, is empty or is longer than MAX_ASPECT_CHARS."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"an aspect needs a name, got {name!r}")
    name = name.strip()
    if len(name) > MAX_ASPECT_CHARS:
        raise ValueError(f"aspect names are at most {MAX_ASPECT_CHARS} characters, got {len(name)}")
    return name

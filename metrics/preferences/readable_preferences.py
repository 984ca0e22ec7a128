"""Preference judgments (trec_eval's -R prefs and -R qrels_prefs) and what the 14 preference measures count, one query
at a time, readably: the specification the engine's kernels (metrics.preferences.preference_kernels) follow.

A user says which of two documents is better, not how good each is. trec_eval's prefs file gives, per query, judgment
groups (JGs: one user's judgments at one time) made of sub-groups (JSGs); within a JSG a document with a higher
level is preferred to one with a lower level (the levels only order the JSG; 0 means non-relevant). Within a JG
preferences are transitive (A > B in one JSG and B > C in another give A > C), and must not contradict each other;
different JGs may (two users disagree). ``-R qrels_prefs`` reads a qrels file that way: each query's judgments one
JG per value of the second field, one JSG, the grade the level.

Each preference A > B of a JG is, given the ranking (form_prefs_counts.c):

- fulfilled among the retrieved (``ful_ret``) when both are retrieved and A is ranked above B; possible among the
  retrieved (``poss_ret``) when both are retrieved, fulfilled or not;
- implied fulfilled (``ful_imp``) when A is retrieved and B is not; implied possible (``poss_imp``) when exactly one
  of them is retrieved;
- not occurring (``notoccur``) when neither is retrieved.

The measures are ratios of these counts (prefs_simp: all fulfilled / all possible), their mean over JGs
(prefs_avgjg), over document pairs (prefs_pair: where JGs disagree on a pair, the share preferring the better-ranked
one), or the counts themselves. trec_eval ranks the judged documents as it numbers them ("docid ranks"): the
retrieved ones by rank, then the others by doc id; only the judged documents count, the rest are ignored.

One query's judgments are given as ``{group: {subgroup: {doc: level}}}``, as ``{group: {doc: level}}`` (one JSG each,
as -R qrels_prefs reads them), or as plain qrels ``{doc: grade}``: one JG, one JSG, a grade below 0 (in the pool but
not judged) expressing no preference. A document is given once per JSG (the readers refuse it twice).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from metrics.core.checks import check_k, check_qrels, check_ranking
from metrics.core.conventions import Conventions
from metrics.core.errors import InputError
from metrics.core.types import Breakdown, Ranking, RankStep, Term

Levels = Mapping[str, float]  # one JSG: doc -> level
PreferenceJudgments = Mapping[str, Mapping[str, Levels]]  # one query: group -> subgroup -> doc -> level


@dataclass(frozen=True)
class GroupCounts:
    """One judgment group's preferences and trec_eval's counts of them against the ranking."""

    group: str
    preferences: tuple[tuple[str, str], ...]  # (preferred, other), transitively complete, in trec_eval's order
    ful_ret: int = 0
    poss_ret: int = 0  # fulfilled or not
    ful_imp: int = 0
    poss_imp: int = 0  # fulfilled or not
    notoccur: int = 0
    rel: int = 0  # documents the group judged relevant (level > 0)
    rel_ret: int = 0
    nonrel: int = 0  # judged non-relevant (level 0; in a single sub-group, a level below 0 too)
    nonrel_ret: int = 0
    # one sub-group (trec_eval's "equivalence classes"): the documents of each level, best level first, each class by
    # docid rank; None for several sub-groups (trec_eval's "preference array")
    classes: tuple[tuple[str, ...], ...] | None = None
    levels: Mapping[str, float] = field(default_factory=dict)  # each document's level (the last sub-group's)

    @property
    def possible(self) -> int:
        return self.poss_ret + self.poss_imp + self.notoccur

    @property
    def fulfilled(self) -> int:
        return self.ful_ret + self.ful_imp


@dataclass(frozen=True)
class QueryPreferences:
    """A ranking against one query's preference judgments: trec_eval's docid ranks and each group's counts."""

    ranking: tuple[str, ...]  # the ranking, cut at k
    judged: tuple[str, ...]  # the judged documents by docid rank: the retrieved by rank, then the others by id
    retrieved: int  # how many judged documents were retrieved (trec_eval's num_judged_ret)
    groups: tuple[GroupCounts, ...]  # in trec_eval's order (group ids in byte order)

    def docid(self, doc: str) -> int:
        return self._docids[doc]

    @property
    def _docids(self) -> dict[str, int]:
        found = self.__dict__.get("_cache")
        if found is None:
            found = {doc: i for i, doc in enumerate(self.judged)}
            object.__setattr__(self, "_cache", found)
        return found

    def is_retrieved(self, doc: str) -> bool:
        return self.docid(doc) < self.retrieved


def preference_groups(qrels) -> dict[str, dict[str, dict[str, float]]]:
    """One query's judgments as {group: {subgroup: {doc: level}}}, from any of the three forms (module docstring).

    >>> preference_groups({"a": 2, "b": 0, "c": -1})
    {'': {'': {'a': 2.0, 'b': 0.0}}}
    >>> preference_groups({"u1": {"a": 1.5}})
    {'u1': {'0': {'a': 1.5}}}
    """
    values = list(qrels.values())
    if values and all(isinstance(v, Mapping) for v in values):
        if all(all(isinstance(w, Mapping) for w in v.values()) for v in values):
            return {g: {s: {d: float(x) for d, x in ds.items()} for s, ds in subs.items()} for g, subs in qrels.items()}
        return {g: {"0": {d: float(x) for d, x in docs.items()}} for g, docs in qrels.items()}
    check_qrels(qrels)
    return {"": {"": {doc: float(grade) for doc, grade in qrels.items() if grade >= 0}}}


def query_preferences(ranking: Ranking, qrels, k: int | None = None) -> QueryPreferences:
    """The ranking (cut at k) against one query's preference judgments: docid ranks, then each group's preferences
    (transitively completed within the group) and counts. A group whose preferences contradict each other (A > B and
    B > A), or that gives one document level 0 and another level above 0, is refused, as trec_eval refuses it."""
    check_k(k)
    check_ranking(ranking)
    groups = preference_groups(qrels)
    top = tuple(ranking if k is None else ranking[:k])
    judged_docs = {doc for subs in groups.values() for docs in subs.values() for doc in docs}
    retrieved = [doc for doc in top if doc in judged_docs]
    others = sorted((doc for doc in judged_docs if doc not in set(retrieved)), key=lambda d: d.encode())
    query = QueryPreferences(top, (*retrieved, *others), len(retrieved), ())
    counted = tuple(_group_counts(query, name, groups[name]) for name in sorted(groups, key=lambda g: g.encode()))
    return QueryPreferences(top, query.judged, query.retrieved, counted)


def _group_counts(query: QueryPreferences, name: str, subgroups: Mapping[str, Levels]) -> GroupCounts:
    ordered = sorted(subgroups, key=lambda s: s.encode())
    if len(ordered) == 1:  # one sub-group: every pair of documents of different levels is a preference
        levels = subgroups[ordered[0]]
        by_level: dict[float, list[str]] = {}
        for doc, level in levels.items():
            by_level.setdefault(level, []).append(doc)
        classes = tuple(tuple(sorted(by_level[lv], key=query.docid)) for lv in sorted(by_level, reverse=True))
        preferences = tuple((a, b) for i, better in enumerate(classes) for worse in classes[i + 1 :]
                            for a in better for b in worse)  # fmt: skip
        relevant = {doc for doc, level in levels.items() if level > 0}
        nonrelevant = set(levels) - relevant
        return _counted(query, name, preferences, relevant, nonrelevant, classes, dict(levels))
    # several sub-groups: each orders its own documents; the group's preferences are their transitive closure
    level_of: dict[str, float] = {}
    direct: set[tuple[str, str]] = set()
    for subgroup in ordered:
        levels = subgroups[subgroup]
        for doc, level in sorted(levels.items(), key=lambda item: (-item[1], query.docid(item[0]))):
            earlier = level_of.get(doc)
            if earlier is not None and ((earlier > 0 and level == 0) or (earlier == 0 and level > 0)):
                raise InputError(
                    "prefs-inconsistent", f"group {name!r}: document {doc!r} has both level 0 and a level above 0"
                )
            level_of[doc] = level
        direct |= {(a, b) for a, la in levels.items() for b, lb in levels.items() if la > lb}
    preferred = _closure(direct)
    for a, b in preferred:
        if (b, a) in preferred:
            raise InputError(
                "prefs-inconsistent", f"group {name!r}: its preferences contradict each other ({a!r} > {b!r} > {a!r})"
            )
    preferences = tuple(sorted(preferred, key=lambda pair: (query.docid(pair[0]), query.docid(pair[1]))))
    relevant = {doc for doc, level in level_of.items() if level > 0}
    nonrelevant = {doc for doc, level in level_of.items() if level == 0}
    return _counted(query, name, preferences, relevant, nonrelevant, None, level_of)


def _closure(direct: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Every A > C that follows from A > B and B > C (a document is never preferred to itself)."""
    after: dict[str, set[str]] = {}
    for a, b in direct:
        after.setdefault(a, set()).add(b)
    closed = set()
    for start in after:
        seen, frontier = set(), [start]
        while frontier:
            for nxt in after.get(frontier.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        closed |= {(start, doc) for doc in seen if doc != start}
    return closed


def _counted(query, name, preferences, relevant, nonrelevant, classes, levels) -> GroupCounts:
    counts = dict.fromkeys(("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur"), 0)
    for a, b in preferences:
        counts[category(query, a, b)] += 1
    return GroupCounts(
        name,
        preferences,
        counts["ful_ret"],
        counts["ful_ret"] + counts["poss_ret"],
        counts["ful_imp"],
        counts["ful_imp"] + counts["poss_imp"],
        counts["notoccur"],
        len(relevant),
        sum(query.is_retrieved(doc) for doc in relevant),
        len(nonrelevant),
        sum(query.is_retrieved(doc) for doc in nonrelevant),
        classes,
        levels,
    )


def category(query: QueryPreferences, preferred: str, other: str) -> str:
    """Where a preference falls: "ful_ret" (both retrieved, preferred above), "poss_ret" (both retrieved, other
    above), "ful_imp" (only the preferred retrieved), "poss_imp" (only the other retrieved), "notoccur" (neither)."""
    a, b = query.is_retrieved(preferred), query.is_retrieved(other)
    if a and b:
        return "ful_ret" if query.docid(preferred) < query.docid(other) else "poss_ret"
    if a:
        return "ful_imp"
    return "poss_imp" if b else "notoccur"


# --- the measures' values, from the counts ---

SIMPLE = {  # the categories a measure counts as fulfilled, and as possible
    "": (("ful_ret", "ful_imp"), ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur")),
    "ret": (("ful_ret",), ("ful_ret", "poss_ret")),
    "imp": (("ful_ret", "ful_imp"), ("ful_ret", "poss_ret", "ful_imp", "poss_imp")),
}


def fulfilled_and_possible(group: GroupCounts, kind: str) -> tuple[int, int]:
    """A group's fulfilled and possible preferences as prefs_simp (kind ""), _ret or _imp count them."""
    fulfilled = group.ful_ret + (group.ful_imp if kind != "ret" else 0)
    possible = group.poss_ret + (group.poss_imp if kind != "ret" else 0) + (group.notoccur if kind == "" else 0)
    return fulfilled, possible


def counted_in(query: QueryPreferences, preferred: str, other: str, kind: str) -> tuple[bool, bool]:
    """Whether the preference counts as fulfilled, and as possible, for prefs_simp (kind ""), _ret or _imp."""
    where = category(query, preferred, other)
    fulfilled, possible = SIMPLE[kind]
    return where in fulfilled, where in possible


def pair_counts(query: QueryPreferences) -> dict[tuple[str, str], tuple[int, int]]:
    """Each document pair some group has a preference on, (better, worse) by docid rank: (how many groups prefer
    the better-ranked one, how many the other), in trec_eval's loop order (by docid ranks)."""
    counts: dict[tuple[str, str], list[int]] = {}
    for group in query.groups:
        for a, b in group.preferences:
            first, second = sorted((a, b), key=query.docid)
            entry = counts.setdefault((first, second), [0, 0])
            entry[0 if a == first else 1] += 1
    ordered = sorted(counts, key=lambda pair: (query.docid(pair[0]), query.docid(pair[1])))
    return {pair: (counts[pair][0], counts[pair][1]) for pair in ordered}


def pair_kind(query: QueryPreferences, better: str, worse: str) -> int:
    """trec_eval's three loops over pairs (m_prefs_pair.c): 1 both retrieved, 2 only the better, 3 neither."""
    return 1 if query.is_retrieved(worse) else 2 if query.is_retrieved(better) else 3


# the loops over pairs each pair measure counts, by which preferences it counts (Variant.counted): prefs_pair all
# three, prefs_pair_imp those with a retrieved document, prefs_pair_ret those of two
PAIR_LOOPS = {"": (1, 2, 3), "imp": (1, 2), "ret": (1,)}


def rnonrel(group: GroupCounts, query: QueryPreferences, retrieved_only: bool) -> tuple[dict[str, int], int]:
    """prefs_avgjg_Rnonrel's (and _ret's) preferences of a group, as if it had judged as many non-relevant documents
    as relevant ones (m_prefs_avgjg_Rnonrel.c): (fulfilled preferences by preferred document, possible ones). With
    N <= R non-relevant documents, R - N fulfilled preferences are added for each relevant one retrieved (and R - N
    possible ones for each relevant one); with N > R only the first R non-relevant ones count (_recalculated). R and
    N are the relevant and non-relevant documents judged (_ret: retrieved)."""
    relevant = group.rel_ret if retrieved_only else group.rel
    nonrelevant = group.nonrel_ret if retrieved_only else group.nonrel
    if relevant < nonrelevant:
        return _recalculated(group, query, retrieved_only)
    kind = "ret" if retrieved_only else ""
    credit: dict[str, int] = {}
    for a, b in group.preferences:
        if counted_in(query, a, b, kind)[0]:
            credit[a] = credit.get(a, 0) + 1
    missing = relevant - nonrelevant
    for doc, level in group.levels.items():
        if level > 0 and query.is_retrieved(doc):
            credit[doc] = credit.get(doc, 0) + missing
    return credit, fulfilled_and_possible(group, kind)[1] + group.rel * missing


def _recalculated(group: GroupCounts, query: QueryPreferences, retrieved_only: bool) -> tuple[dict[str, int], int]:
    """The recalculation of m_prefs_avgjg_Rnonrel.c when a group judged more non-relevant documents than relevant
    ones: (fulfilled preferences by preferred document, how many preferences count)."""
    credit: dict[str, int] = {}
    counted = 0

    def count(x: str, y: str) -> None:  # x preferred to y: fulfilled when x is retrieved and above y
        nonlocal counted
        counted += 1
        if query.docid(x) < query.docid(y) and query.is_retrieved(x):
            credit[x] = credit.get(x, 0) + 1

    if group.classes is not None:
        # one sub-group: the first R entries of its last class (the lowest level, taken for the non-relevant one),
        # read as trec_eval reads them (_cut_class). _ret counts retrieved documents only, R the relevant retrieved.
        keep = group.rel_ret if retrieved_only else group.rel
        classes = [[d for d in c if query.is_retrieved(d) or not retrieved_only] for c in group.classes]
        cut, unseen = _cut_class(query, group, group.classes[-1], keep, retrieved_only)
        for i, better in enumerate(classes):  # between the classes but the last
            for worse in classes[i + 1 : len(classes) - 1]:
                for x in better:
                    for y in worse:
                        count(x, y)
        for better in classes:  # every class, the last one too (as trec_eval loops), against the cut last class
            for x in better:
                for y in cut:
                    count(x, y)
                for _ in range(unseen):  # a document no run retrieved: x is above it when x is retrieved
                    counted += 1
                    if query.is_retrieved(x):
                        credit[x] = credit.get(x, 0) + 1
        return credit, counted
    # several sub-groups: the non-relevant documents after the first R, in docid order (trec_eval's
    # first_discarded_nonrel, with the group's R in both measures), leave the preferences
    scanned = query.judged[: query.retrieved] if retrieved_only else query.judged
    dropped = set([doc for doc in scanned if group.levels.get(doc) == 0.0][group.rel :])
    for a, b in group.preferences:
        where = category(query, a, b)
        if a in dropped or b in dropped or (retrieved_only and where not in ("ful_ret", "poss_ret")):
            continue
        counted += 1
        if where in ("ful_ret", "ful_imp"):
            credit[a] = credit.get(a, 0) + 1
    return credit, counted


def _cut_class(
    query: QueryPreferences, group: GroupCounts, last: tuple[str, ...], keep: int, retrieved_only: bool
) -> tuple[list[str], int]:
    """The first ``keep`` entries of a one-subgroup group's last class (``last``) as m_prefs_avgjg_Rnonrel.c reads
    them, and how many of them lie past the query's judgments. trec_eval reads ``keep`` entries of its list of the
    query's one-subgroup groups (each by level descending, then docid rank) from the class's start: when the class holds
    fewer (levels below 0 make it short), the next groups' entries, then memory past them (README, Known
    differences), taken here for documents no run retrieved. _ret reads only while the entries are retrieved."""
    later = query.groups[[g.group for g in query.groups].index(group.group) + 1 :]
    entries = [*last, *(doc for g in later if g.classes is not None for c in g.classes for doc in c)]
    cut = entries[:keep]
    if retrieved_only:
        shown = 0
        while shown < len(cut) and query.is_retrieved(cut[shown]):
            shown += 1
        return cut[:shown], 0
    return cut, keep - len(cut)


# --- breakdowns: each rank's share of the value ---


def rank_steps(
    query: QueryPreferences, qrels, credit: Mapping[str, float], conventions: Conventions, remainder: float = 0.0
):
    """One step per rank of the ranking: the credit given to its document; ``remainder`` (what no retrieved
    document earned) goes to the last rank, so the contributions add up to the value."""
    plain = preference_groups(qrels) if not _is_plain(qrels) else None
    steps, running = [], 0.0
    for rank, doc in enumerate(query.ranking, start=1):
        contribution = credit.get(doc, 0.0) + (remainder if rank == len(query.ranking) else 0.0)
        running += contribution
        grade, relevant = _shown_grade(qrels, plain, doc, conventions.threshold)
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return tuple(steps)


def _is_plain(qrels) -> bool:
    return not any(isinstance(v, Mapping) for v in qrels.values())


def _shown_grade(qrels, groups, doc: str, threshold: int) -> tuple[int, bool]:
    """A rank's grade as a step shows it: its qrels grade, or its highest level in any group (as a whole number)."""
    if groups is None:
        grade = qrels.get(doc)
        return (0, False) if grade is None else (int(grade), grade >= threshold)
    levels = [docs[doc] for subs in groups.values() for docs in subs.values() if doc in docs]
    if not levels:
        return 0, False
    top = max(levels)
    return (int(top) if math.isfinite(top) else 0), top > 0


def count_breakdown(key: str, ranking: Ranking, qrels, k, conventions: Conventions, kind: str) -> Breakdown:
    """How many preferences are possible (kind "possible": all of them) or fulfilled ("ful": ful_ret + ful_imp;
    "ful_ret"). Each is credited to the better ranked of its retrieved documents (the rest to the last rank)."""
    query = query_preferences(ranking, qrels, k)
    wanted = {"possible": SIMPLE[""][1], "ful": SIMPLE[""][0], "ful_ret": ("ful_ret",)}[kind]
    credit: dict[str, float] = {}
    total = 0
    for group in query.groups:
        for a, b in group.preferences:
            if category(query, a, b) in wanted:
                total += 1
                shown = [doc for doc in sorted((a, b), key=query.docid) if query.is_retrieved(doc)]
                if shown:
                    credit[shown[0]] = credit.get(shown[0], 0) + 1
    steps = rank_steps(query, qrels, credit, conventions, total - sum(credit.values()))
    return Breakdown(key, k, float(total), steps, {counted_term(kind): total}, conventions)


def counted_term(kind: str) -> Term:
    """The term a count's Breakdown carries: the possible preferences (kind "possible"), else the fulfilled ones."""
    return Term.POSSIBLE if kind == "possible" else Term.FULFILLED


def simple_breakdown(key: str, ranking: Ranking, qrels, k, conventions: Conventions, kind: str) -> Breakdown:
    """prefs_simp (kind ""), _ret, _imp: the fulfilled preferences of every group over the possible ones, each
    fulfilled one credited to its preferred document's rank; 0 when none is possible."""
    query = query_preferences(ranking, qrels, k)
    fulfilled = possible = 0
    credit: dict[str, float] = {}
    for group in query.groups:
        f, p = fulfilled_and_possible(group, kind)
        fulfilled, possible = fulfilled + f, possible + p
        for a, b in group.preferences:
            if counted_in(query, a, b, kind)[0]:
                credit[a] = credit.get(a, 0) + 1
    value = fulfilled / possible if possible else 0.0
    shares = {doc: n / possible for doc, n in credit.items()} if possible else {}
    terms = {Term.FULFILLED: fulfilled, Term.POSSIBLE: possible}
    return Breakdown(key, k, value, rank_steps(query, qrels, shares, conventions), terms, conventions)


def averaged_breakdown(key: str, ranking: Ranking, qrels, k, conventions: Conventions, kind: str) -> Breakdown:
    """prefs_avgjg (kind ""), _ret, _imp: each group's fulfilled over possible preferences (a group with none
    possible adds nothing), averaged over the groups; each fulfilled one credited to its preferred document's rank."""
    query = query_preferences(ranking, qrels, k)
    ratios: list[float] = []
    credit: dict[str, float] = {}
    for group in query.groups:
        f, p = fulfilled_and_possible(group, kind)
        if not p:
            continue
        ratios.append(f / p)
        for a, b in group.preferences:
            if counted_in(query, a, b, kind)[0]:
                credit[a] = credit.get(a, 0.0) + 1 / p / len(query.groups)
    total = 0.0
    for ratio in ratios:
        total += ratio
    value = total / len(query.groups) if total > 0.0 else 0.0
    steps = rank_steps(query, qrels, credit if value else {}, conventions)
    return Breakdown(key, k, value, steps, {Term.SUM: total, Term.GROUPS: len(query.groups)}, conventions)


def rnonrel_breakdown(key: str, ranking: Ranking, qrels, k, conventions: Conventions, retrieved_only: bool):
    """prefs_avgjg_Rnonrel (and _ret): each group's ratio with as many non-relevant documents as relevant ones
    (:func:`rnonrel`), averaged over the groups; 0 when a group has nothing to count (its 0 / 0 makes trec_eval's
    sum NaN)."""
    query = query_preferences(ranking, qrels, k)
    ratios: list[float] = []
    credit: dict[str, float] = {}
    for group in query.groups:
        fulfilled, possible = rnonrel(group, query, retrieved_only)
        ratios.append(sum(fulfilled.values()) / possible if possible else math.nan)
        for doc, n in fulfilled.items() if possible else ():
            credit[doc] = credit.get(doc, 0.0) + n / possible / len(query.groups)
    total = 0.0
    for ratio in ratios:
        total += ratio
    value = total / len(query.groups) if total > 0.0 else 0.0
    steps = rank_steps(query, qrels, credit if value else {}, conventions)
    return Breakdown(key, k, value, steps, {Term.SUM: total, Term.GROUPS: len(query.groups)}, conventions)


def pair_breakdown(key: str, ranking: Ranking, qrels, k, conventions: Conventions, kind: str):
    """prefs_pair (kind "": loops 1, 2, 3), _imp (1, 2), _ret (1; PAIR_LOOPS): over the document pairs some group
    has a preference on, the share of the groups preferring the better-ranked document, averaged over the pairs (pairs
    of loop 3, neither retrieved, count as 0); credited to the better document's rank."""
    loops = PAIR_LOOPS[kind]
    query = query_preferences(ranking, qrels, k)
    pairs = pair_counts(query)
    kinds = {pair: pair_kind(query, *pair) for pair in pairs}
    counted = [pair for pair in pairs if kinds[pair] in loops]
    total = 0.0
    credit: dict[str, float] = {}
    for loop in (1, 2):  # trec_eval's order: the pairs of loop 1, then those of loop 2, each by docid ranks
        for pair in counted:
            if kinds[pair] == loop:
                better, worse = pairs[pair]
                total += better / (better + worse)
                credit[pair[0]] = credit.get(pair[0], 0.0) + better / (better + worse)
    value = total / len(counted) if counted else 0.0
    shares = {doc: c / len(counted) for doc, c in credit.items()} if counted else {}
    terms = {Term.SUM: total, Term.PAIRS: len(counted)}
    return Breakdown(key, k, value, rank_steps(query, qrels, shares, conventions), terms, conventions)

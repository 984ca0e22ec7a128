"""The one table of judgments the preference measures' kernels read (metrics.preferences.preference_kernels): a
PreferenceTable holds one entry per (query, group, subgroup, document) with the document's level and docid rank
(retrieved judged documents by rank first, then the others). metrics.preferences.runs.preference_runs builds it from a
prefs file; :func:`preference_table` from the engine's prepared run (plain qrels: one group per query, one subgroup, a
grade below 0 no preference).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared


@dataclass(eq=False)
class PreferenceTable:
    """Every judgment of the evaluated queries, one entry per (query, group, subgroup, document).

    Groups are numbered by (query, group id in byte order), subgroups by (group, subgroup id). A document is known
    by its ``doc`` code within its query (the byte order of the ids: trec_eval's order of the unretrieved ones) and
    its ``rank`` in the ranking (0: not retrieved). ``docid`` is trec_eval's docid rank (the retrieved judged
    documents 0 .. retrieved - 1 by rank, then the others by id), and ``retrieved`` per query how many judged
    documents were retrieved.
    """

    size: int  # evaluated queries (slots)
    slot: np.ndarray  # per entry
    group: np.ndarray
    subgroup: np.ndarray
    level: np.ndarray  # float64
    doc: np.ndarray
    rank: np.ndarray
    group_slot: np.ndarray  # per group
    group_subgroups: np.ndarray  # per group: how many subgroups
    docid: np.ndarray = field(init=False)
    retrieved: np.ndarray = field(init=False)
    _shared: dict = field(default_factory=dict, init=False)

    def __post_init__(self):
        shown = self.rank > 0
        # one row per (slot, doc): the retrieved by rank, then the others by id
        key = np.lexsort((np.where(shown, 0, self.doc), np.where(shown, self.rank, 0), ~shown, self.slot))
        slot, doc = self.slot[key], self.doc[key]
        first = np.concatenate([[True], (slot[1:] != slot[:-1]) | (doc[1:] != doc[:-1])]) if len(key) else key > 0
        distinct = np.cumsum(first) - 1
        docid_of_distinct = _position(slot[first]) - 1
        self.docid = np.empty(len(key), dtype=np.int64)
        self.docid[key] = docid_of_distinct[distinct]
        self.retrieved = np.bincount(slot[first & shown[key]], minlength=self.size)

    def shared(self, key, compute):
        if key not in self._shared:
            self._shared[key] = compute()
        return self._shared[key]

    @property
    def groups(self) -> int:
        return len(self.group_slot)

    def cut(self, k: int | None) -> PreferenceTable:
        """The table with only the top k of each ranking retrieved (the rest as not retrieved)."""
        if k is None:
            return self
        return self.shared(("cut", k), lambda: PreferenceTable(
            self.size, self.slot, self.group, self.subgroup, self.level, self.doc,
            np.where(self.rank <= k, self.rank, 0), self.group_slot, self.group_subgroups,
        ))  # fmt: skip


def table_of(size, slot, group_code, subgroup_code, level, doc_code, rank) -> PreferenceTable:
    """The table of the judgments of ``size`` queries: each one's query ``slot``, the codes of its group and
    subgroup (any codes in their ids' byte order), its level, its document's code and rank (0: not retrieved)."""
    groups_width = int(group_code.max(initial=0)) + 1
    group_keys, group = np.unique(slot * groups_width + group_code, return_inverse=True)
    subgroups_width = int(subgroup_code.max(initial=0)) + 1
    subgroup_keys, subgroup = np.unique(group * subgroups_width + subgroup_code, return_inverse=True)
    group_slot = group_keys // groups_width
    subgroups_of = np.bincount(subgroup_keys // subgroups_width, minlength=len(group_keys))
    return PreferenceTable(size, slot, group, subgroup, level, doc_code, rank, group_slot, subgroups_of)


def preference_table(data: Prepared, k: int | None = None) -> PreferenceTable:
    """The prepared run's preferences (cut at k): the table metrics.preferences.runs.preference_runs prepared from a
    prefs file, or one built (once) from the engine's prepared run of plain qrels."""
    return data.shared(PREPARED_KEY, lambda: _from_prepared(data)).cut(k)


PREPARED_KEY = ("preference table",)  # where a Prepared keeps its PreferenceTable (Prepared.shared)


def _from_prepared(data) -> PreferenceTable:
    """Plain qrels as preferences: each query one group, one subgroup, each judged document (grade 0 or more) at
    its grade. The retrieved ones come from the judged rows, the others as counts per grade (their order among
    themselves changes no count of a one-subgroup group)."""
    judged = data.grade >= 0
    slot, grade, rank = data.slot[judged], data.grade[judged], data.rank[judged]
    top = int(max(data.ideal_grade.max(initial=0), grade.max(initial=0)))
    per_grade = np.zeros((data.size, top + 1), dtype=np.int64)
    np.add.at(per_grade, (data.ideal_slot, data.ideal_grade), 1)
    positive = np.bincount(data.ideal_slot, minlength=data.size)
    per_grade[:, 0] = data.R + data.nonrel - positive  # judged 0: those graded 0 or more, but not above 0
    np.subtract.at(per_grade, (slot, grade), 1)  # minus the retrieved ones
    missing_slot, missing_grade = np.nonzero(per_grade)
    counts = per_grade[missing_slot, missing_grade]
    missing_slot, missing_grade = np.repeat(missing_slot, counts), np.repeat(missing_grade, counts)
    all_slot = np.concatenate([slot, missing_slot])
    order = np.argsort(all_slot, kind="stable")
    all_slot = all_slot[order]
    doc = _position(all_slot)  # one document per entry: any distinct codes do
    with_judgments = distinct(all_slot)
    group_of_slot = np.full(data.size, -1, dtype=np.int64)
    group_of_slot[with_judgments] = np.arange(len(with_judgments))
    group = group_of_slot[all_slot]
    return PreferenceTable(
        data.size,
        all_slot,
        group,
        group.copy(),
        np.concatenate([grade, missing_grade]).astype(np.float64)[order],
        doc,
        np.concatenate([rank, np.zeros(len(missing_slot), dtype=np.int64)])[order],
        with_judgments.astype(np.int64),
        np.ones(len(with_judgments), dtype=np.int64),
    )


def distinct(values: np.ndarray) -> np.ndarray:
    """np.unique(values) for a 1-d array, without numpy.ma (np.unique's test for masked arrays loads it: 5 ms)."""
    ordered = np.sort(values)
    return ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])] if len(ordered) else ordered


def _position(slot: np.ndarray) -> np.ndarray:
    """1, 2, 3... within each run of equal values (sorted input)."""
    if len(slot) == 0:
        return np.zeros(0, dtype=np.int64)
    index = np.arange(len(slot))
    start = np.flatnonzero(np.concatenate([[True], slot[1:] != slot[:-1]]))
    return index - np.repeat(start, np.diff(np.append(start, len(slot)))) + 1

"""The preference measures vectorized (their specification: metrics.preferences.readable_preferences): trec_eval's
counts of every judgment group at once, from the table of judgments (metrics.preferences.preference_table).

Counting without listing pairs. A group with one subgroup ("classes": all documents of a level form a class, each
preferred to every lower class) is counted in O(n x classes): with its entries sorted by level, the pairs (a, b) with
level a > level b are, for each a, the entries after its class; the fulfilled ones among the retrieved (a ranked
above b) are counted level by level with running counts in rank order. A group with several subgroups is closed
transitively on a boolean matrix of its documents (one at a time). The pair measures of a query judged by several
groups count each pair's preferences in a matrix of the query's documents, as trec_eval does (a query judged by one
group has one preference per pair: prefs_pair is prefs_simp there, from the counts).
"""

from __future__ import annotations

from dataclasses import dataclass

from metrics.core.errors import InputError
from metrics.core.lazy_numpy import np
from metrics.preferences.preference_table import PreferenceTable, distinct
from metrics.preferences.readable_preferences import PAIR_LOOPS

COUNTS = ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur", "rel", "rel_ret", "nonrel", "nonrel_ret")


# --- trec_eval's counts per group ---


@dataclass(frozen=True, eq=False)
class ClosedGroup:
    """A several-subgroup group's preferences, closed: a bit matrix over its documents (packed: a query judged by
    many such groups keeps little), read back as (preferred docids, other docids)."""

    docs: np.ndarray  # the group's documents' docids, ascending
    bits: np.ndarray  # np.packbits of the boolean matrix preferred x other

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.docs)
        matrix = np.unpackbits(self.bits, count=n * n).reshape(n, n).astype(bool)
        preferred, other = np.nonzero(matrix)
        return self.docs[preferred], self.docs[other]


@dataclass(eq=False)
class GroupArrays:
    """Per group: trec_eval's counts (COUNTS), and for the groups of several subgroups their closed preferences."""

    counts: dict[str, np.ndarray]
    closed: dict[int, ClosedGroup]  # group -> its preferences, closed transitively
    levels: dict[int, tuple[np.ndarray, np.ndarray]]  # group -> (docids, their level: the last subgroup's)


def group_counts(table: PreferenceTable) -> GroupArrays:
    return table.shared(("group counts",), lambda: _group_counts(table))


def _group_counts(table: PreferenceTable) -> GroupArrays:
    single = table.group_subgroups[table.group] == 1
    counts = class_counts(table, single)
    closed, levels = {}, {}
    for group in np.flatnonzero(table.group_subgroups > 1).tolist():
        rows = np.flatnonzero(table.group == group)
        found = _closed_group(table, group, rows)
        for name, value in found["counts"].items():
            counts[name][group] = value
        closed[group] = found["pairs"]
        levels[group] = found["levels"]
    return GroupArrays(counts, closed, levels)


def _sorted_classes(table: PreferenceTable, mask: np.ndarray):
    """The entries of ``mask`` by (group, level descending, docid), with their class and group bounds."""
    everything = table.shared(("by class",), lambda: np.lexsort((table.docid, -table.level, table.group)))
    rows = everything[mask[everything]]  # a subset of the entries keeps the order of them all
    group, level, docid = table.group[rows], table.level[rows], table.docid[rows]
    retrieved = docid < table.retrieved[table.slot[rows]]
    n = len(rows)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return rows, group, level, docid, retrieved, empty, empty, empty
    new_group = np.concatenate([[True], group[1:] != group[:-1]])
    new_class = new_group | np.concatenate([[True], level[1:] != level[:-1]])
    group_start, class_start = np.flatnonzero(new_group), np.flatnonzero(new_class)
    group_end = np.repeat(np.append(group_start[1:], n), np.diff(np.append(group_start, n)))
    class_end = np.repeat(np.append(class_start[1:], n), np.diff(np.append(class_start, n)))
    klass = np.cumsum(new_class) - 1
    first_class = np.repeat(klass[group_start], np.diff(np.append(group_start, n)))
    return rows, group, level, docid, retrieved, group_end, class_end, klass - first_class


def class_counts(table: PreferenceTable, mask: np.ndarray) -> dict[str, np.ndarray]:
    """trec_eval's counts (add_ec_pref_to_jg) of the one-subgroup groups, from the entries of ``mask``: every pair
    of entries of a group with different levels is a preference of the higher."""
    size = table.groups
    _, group, level, docid, retrieved, group_end, class_end, klass = _sorted_classes(table, mask)
    cum = np.concatenate([[0], np.cumsum(retrieved)])
    retrieved_below = cum[group_end] - cum[class_end]  # retrieved entries of the lower classes
    unretrieved_below = (group_end - class_end) - retrieved_below

    def per_group(where, weights) -> np.ndarray:
        return np.bincount(group[where], weights=weights[where], minlength=size).astype(np.int64)

    both, retrieved_only = per_group(retrieved, retrieved_below), per_group(retrieved, unretrieved_below)
    other_only, neither = per_group(~retrieved, retrieved_below), per_group(~retrieved, unretrieved_below)
    relevant = level > 0
    ones = np.ones(len(group))
    return {
        "ful_ret": _fulfilled_among_retrieved(group[retrieved], docid[retrieved], klass[retrieved], size),
        "poss_ret": both,
        "ful_imp": retrieved_only,
        "poss_imp": retrieved_only + other_only,
        "notoccur": neither,
        "rel": per_group(relevant, ones),
        "rel_ret": per_group(relevant & retrieved, ones),
        "nonrel": per_group(~relevant, ones),
        "nonrel_ret": per_group(~relevant & retrieved, ones),
    }


def _fulfilled_among_retrieved(group: np.ndarray, docid: np.ndarray, klass: np.ndarray, size: int) -> np.ndarray:
    """Per group, the pairs of retrieved entries where the higher class is ranked above: for each class v, each
    entry of class v counts the entries of higher classes (below v) before it in rank order."""
    order = np.lexsort((docid, group))
    group, klass = group[order], klass[order]
    out = np.zeros(size, dtype=np.int64)
    if len(group) == 0:
        return out
    start = np.flatnonzero(np.concatenate([[True], group[1:] != group[:-1]]))
    lengths = np.diff(np.append(start, len(group)))
    for v in range(1, int(klass.max()) + 1):
        higher = (klass < v).astype(np.int64)
        before = np.cumsum(higher) - higher
        before -= np.repeat(before[start], lengths)
        here = klass == v
        out += np.bincount(group[here], weights=before[here], minlength=size).astype(np.int64)
    return out


def _closed_group(table: PreferenceTable, group: int, rows: np.ndarray) -> dict:
    """A group of several subgroups: its subgroups' preferences closed transitively (m_prefs form_jg_pa), checked
    as trec_eval checks them, and counted."""
    slot = int(table.slot[rows[0]])
    njr = int(table.retrieved[slot])
    subgroup, level, docid = table.subgroup[rows], table.level[rows], table.docid[rows]
    order = np.lexsort((docid, -level, subgroup))  # trec_eval's processing order
    subgroup, level, docid = subgroup[order], level[order], docid[order]
    docs, local = np.unique(docid, return_inverse=True)
    last_level = np.full(len(docs), -1.0)
    for i, lv in zip(local.tolist(), level.tolist(), strict=True):  # the checks, in trec_eval's order
        earlier = last_level[i]
        if (earlier > 0 and lv == 0) or (earlier == 0 and lv > 0):
            raise InputError(
                "prefs-inconsistent", f"a judgment group has a document at level 0 and above 0 (docid {int(docs[i])})"
            )
        last_level[i] = lv
    seen = np.zeros(len(docs), dtype=bool)
    seen[local] = True
    last_level[~seen] = -1.0
    reach = np.zeros((len(docs), len(docs)), dtype=bool)
    for sub in distinct(subgroup).tolist():
        here = subgroup == sub
        members, levels = local[here], level[here]
        reach[np.ix_(members, members)] |= levels[:, None] > levels[None, :]
    reach = _transitive(reach)
    np.fill_diagonal(reach, False)
    if (reach & reach.T).any():
        raise InputError(
            "prefs-inconsistent", "a judgment group's preferences contradict each other (trec_eval aborts)"
        )
    preferred, other = np.nonzero(reach)
    a, b = docs[preferred], docs[other]
    a_in, b_in = a < njr, b < njr
    fulfilled = a_in & b_in & (a < b)
    doc_in = docs < njr
    relevant, nonrelevant = last_level > 0, last_level == 0
    counts = {
        "ful_ret": int(fulfilled.sum()),
        "poss_ret": int((a_in & b_in).sum()),
        "ful_imp": int((a_in & ~b_in).sum()),
        "poss_imp": int((a_in ^ b_in).sum()),
        "notoccur": int((~a_in & ~b_in).sum()),
        "rel": int(relevant.sum()),
        "rel_ret": int((relevant & doc_in).sum()),
        "nonrel": int(nonrelevant.sum()),
        "nonrel_ret": int((nonrelevant & doc_in).sum()),
    }
    return {"counts": counts, "pairs": ClosedGroup(docs, np.packbits(reach)), "levels": (docs, last_level)}


def _transitive(reach: np.ndarray) -> np.ndarray:
    """The transitive closure of a preference relation: squared until nothing changes."""
    closed = reach | np.eye(len(reach), dtype=bool)
    while True:
        matrix = closed.astype(np.float32)
        squared = (matrix @ matrix) > 0
        if (squared == closed).all():
            return closed
        closed = squared


# --- the measures' values ---


def per_slot(table: PreferenceTable, per_group: np.ndarray) -> np.ndarray:
    """Per query, its groups' values added in group order (sequentially: bincount)."""
    return np.bincount(table.group_slot, weights=per_group, minlength=table.size)


def fulfilled_possible(table: PreferenceTable, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Per group, the fulfilled and possible preferences as prefs_simp (kind ""), _ret or _imp count them."""
    c = group_counts(table).counts
    fulfilled = c["ful_ret"] + (c["ful_imp"] if kind != "ret" else 0)
    possible = c["poss_ret"] + (c["poss_imp"] if kind != "ret" else 0) + (c["notoccur"] if kind == "" else 0)
    return fulfilled, possible


def ratio_or_zero(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros(len(denominator))
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def groups_per_slot(table: PreferenceTable) -> np.ndarray:
    return np.bincount(table.group_slot, minlength=table.size)


def group_mean(table: PreferenceTable, ratios: np.ndarray) -> np.ndarray:
    """Per query: the sum of its groups' ratios over their number when the sum is above 0 (NaN is not), else 0."""
    total = per_slot(table, ratios)
    count = groups_per_slot(table)
    with np.errstate(invalid="ignore"):
        return np.where(total > 0, total / np.maximum(count, 1), 0.0)


def rnonrel(table: PreferenceTable, retrieved_only: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per group, prefs_avgjg_Rnonrel's (_ret's) fulfilled and possible preferences
    (metrics.preferences.readable_preferences.rnonrel says how)."""
    return table.shared(("rnonrel", retrieved_only), lambda: _rnonrel(table, retrieved_only))


def _rnonrel(table: PreferenceTable, retrieved_only: bool) -> tuple[np.ndarray, np.ndarray]:
    arrays = group_counts(table)
    c = arrays.counts
    relevant = c["rel_ret"] if retrieved_only else c["rel"]
    nonrelevant = c["nonrel_ret"] if retrieved_only else c["nonrel"]
    fulfilled, possible = fulfilled_possible(table, "ret" if retrieved_only else "")
    missing = relevant - nonrelevant
    fulfilled = (fulfilled + c["rel_ret"] * missing).astype(np.float64)
    possible = (possible + c["rel"] * missing).astype(np.float64)
    again = relevant < nonrelevant
    single = table.group_subgroups == 1
    if (again & single).any():
        f, p = _recalculated_classes(table, again & single, retrieved_only)
        fulfilled = np.where(again & single, f, fulfilled)
        possible = np.where(again & single, p, possible)
    for group in np.flatnonzero(again & ~single).tolist():
        fulfilled[group], possible[group] = _recalculated_closed(table, arrays, group, retrieved_only)
    return fulfilled, possible


def _recalculated_classes(table: PreferenceTable, groups: np.ndarray, retrieved_only: bool):
    """The recalculation for one-subgroup groups (m_prefs_avgjg_Rnonrel.c): the pairs between the classes but the
    last, then every entry (of the last class too) against the first R entries of the last class (R: the relevant
    documents; _ret: only retrieved entries count, R the relevant retrieved), read as trec_eval reads them
    (:func:`_cut_classes`)."""
    c = group_counts(table).counts
    chosen = groups[table.group] & (table.group_subgroups[table.group] == 1)
    rows, group, _, docid, retrieved, group_end, class_end, _ = _sorted_classes(table, chosen)
    last = class_end == group_end
    counted = retrieved if retrieved_only else np.ones(len(rows), dtype=bool)
    # between the classes but the last: trec_eval's counts of the group without its last class
    without_last = np.zeros(len(table.slot), dtype=bool)
    without_last[rows[~last & counted]] = True
    inner = class_counts(table, without_last)
    fulfilled = (inner["ful_ret"] + inner["ful_imp"]).astype(np.float64)
    possible = (inner["poss_ret"] + inner["poss_imp"] + inner["notoccur"]).astype(np.float64)
    # every counted entry x against each entry y of the cut class: fulfilled when x is retrieved and above y
    keep = c["rel_ret"] if retrieved_only else c["rel"]
    cut_group, cut_docid, unseen = _cut_classes(table, groups, keep, retrieved_only)
    width = int(table.docid.max(initial=0)) + 2
    shown = np.sort(group[retrieved] * width + docid[retrieved])  # each group's retrieved entries, by docid
    above = np.searchsorted(shown, cut_group * width + cut_docid) - np.searchsorted(shown, cut_group * width)
    fulfilled += np.bincount(cut_group, weights=above, minlength=table.groups)
    fulfilled += np.bincount(group[retrieved], minlength=table.groups) * unseen  # above a document never retrieved
    cut_size = np.bincount(cut_group, minlength=table.groups) + unseen
    possible += np.bincount(group[counted], minlength=table.groups) * cut_size
    return fulfilled, possible


def _cut_classes(table: PreferenceTable, groups: np.ndarray, keep: np.ndarray, retrieved_only: bool):
    """The first ``keep`` entries of each chosen one-subgroup group's last class as m_prefs_avgjg_Rnonrel.c reads
    them: (each entry's group, its docid; per group, how many lie past the query's judgments). trec_eval reads
    ``keep`` entries of its list of the query's one-subgroup groups (each by level descending, then docid) from
    the class's start: when the class holds fewer (levels below 0 make it short), the next groups' entries, then
    memory past them (README, Known differences), taken here for documents no run retrieved. _ret reads only while
    the entries are retrieved."""
    single = table.group_subgroups[table.group] == 1
    _, group, _, docid, retrieved, group_end, class_end, _ = _sorted_classes(table, single)
    n = len(group)
    slot = table.group_slot[group]
    last = class_end == group_end
    first_of_last = last & np.concatenate([[True], ~last[:-1] | (group[1:] != group[:-1])]) if n else last
    start = np.zeros(table.groups, dtype=np.int64)
    start[group[first_of_last]] = np.flatnonzero(first_of_last)
    wanted = np.flatnonzero(groups & (table.group_subgroups == 1))
    begin = start[wanted]
    ends = np.searchsorted(slot, table.group_slot[wanted], side="right")  # the end of the query's entries
    available = np.minimum(keep[wanted], ends - begin)
    unseen = np.zeros(table.groups, dtype=np.int64)
    if retrieved_only:
        hidden = np.append(np.flatnonzero(~retrieved), n)  # the first entry not retrieved at or after each one
        first_hidden = hidden[np.searchsorted(hidden, begin)]
        available = np.minimum(available, first_hidden - begin)
    else:
        unseen[wanted] = keep[wanted] - available
    offsets = np.arange(int(available.sum())) - np.repeat(np.cumsum(available) - available, available)
    positions = np.repeat(begin, available) + offsets
    return np.repeat(wanted, available), docid[positions], unseen


def _recalculated_closed(table: PreferenceTable, arrays: GroupArrays, group: int, retrieved_only: bool):
    """The recalculation for a group of several subgroups: its non-relevant documents after the first R in docid
    order (R: the group's relevant documents, in both measures; _ret: among the retrieved) leave its preferences."""
    njr = int(table.retrieved[int(table.group_slot[group])])
    preferred, other = arrays.closed[group].pairs()
    docs, levels = arrays.levels[group]
    scanned = docs < njr if retrieved_only else np.ones(len(docs), dtype=bool)
    nonrelevant = np.flatnonzero(scanned & (levels == 0.0))  # docs are sorted by docid
    dropped = docs[nonrelevant[int(arrays.counts["rel"][group]) :]]
    kept = ~np.isin(preferred, dropped) & ~np.isin(other, dropped)
    a, b = preferred[kept], other[kept]
    if retrieved_only:
        both = (a < njr) & (b < njr)
        a, b = a[both], b[both]
    fulfilled = (a < njr) & ((a < b) | (b >= njr))
    return float(fulfilled.sum()), float(len(a))


def pair_values(table: PreferenceTable, kind: str) -> np.ndarray:
    """prefs_pair (kind "": loops 1, 2, 3), _imp (1, 2), _ret (1; PAIR_LOOPS): per query, over its document pairs
    with a preference, the share of the groups preferring the better-ranked document, averaged over the pairs
    (metrics.preferences.readable_preferences.pair_breakdown). A query judged by one group has one preference per pair:
    the counts give it."""
    loops = PAIR_LOOPS[kind]
    fulfilled, possible = fulfilled_possible(table, kind)
    values = ratio_or_zero(per_slot(table, fulfilled.astype(np.float64)), per_slot(table, possible.astype(float)))
    several = np.flatnonzero(groups_per_slot(table) > 1)
    if len(several):
        first, both, pairs = table.shared(("pair sums",), lambda: _pair_sums(table, several))
        total = first if loops == (1,) else both
        counted = sum(pairs[loop] for loop in loops)
        values[several] = ratio_or_zero(total[several], counted[several].astype(np.float64))
    return values


def _pair_sums(table: PreferenceTable, several: np.ndarray):
    """For the queries judged by several groups, per query: the sum of the pairs' shares over trec_eval's loop 1
    (both retrieved), over loops 1 then 2 (only the better one retrieved), each pair in loop order, and the pairs of
    each loop. As trec_eval (m_prefs_pair.c), each query's preferences are counted in a matrix of its judged
    documents: counts[i, j], how many groups prefer docid i to docid j."""
    size = table.size
    first, both = np.zeros(size), np.zeros(size)
    counts = {loop: np.zeros(size, dtype=np.int64) for loop in (1, 2, 3)}
    arrays = group_counts(table)
    single = table.group_subgroups[table.group] == 1
    rows, group, _, docid, _, _, class_end, klass = _sorted_classes(table, np.isin(table.slot, several) & single)
    class_start = (
        np.flatnonzero(np.concatenate([[True], klass[1:] != klass[:-1]]) | _starts(group)) if len(rows) else rows
    )
    by_slot = table.group_slot[group] if len(rows) else rows
    judged = np.bincount(table.slot, minlength=size)  # an upper bound on each query's docids
    for slot in several.tolist():
        n = int(table.docid[table.slot == slot].max()) + 1 if judged[slot] else 0
        matrix = np.zeros((n, n), dtype=np.int32)
        mine = class_start[by_slot[class_start] == slot]
        for start in mine.tolist():  # each class against the classes above it, in its group
            group_first = np.searchsorted(group, group[start])
            if start > group_first:
                matrix[np.ix_(docid[group_first:start], docid[start : class_end[start]])] += 1
        for g in np.flatnonzero((table.group_slot == slot) & (table.group_subgroups > 1)).tolist():
            preferred, other = arrays.closed[g].pairs()
            np.add.at(matrix, (preferred, other), 1)
        njr = int(table.retrieved[slot])
        top = matrix[:njr, :njr]
        upper = np.triu_indices(njr, 1)
        one = _shares(top[upper], top.T[upper])
        two = _shares(matrix[:njr, njr:].ravel(), matrix[njr:, :njr].T.ravel())
        rest = matrix[njr:, njr:]
        lower = np.triu_indices(n - njr, 1)
        counts[1][slot], counts[2][slot] = len(one), len(two)
        counts[3][slot] = int(((rest[lower] + rest.T[lower]) > 0).sum())
        ordered = np.concatenate([one, two])
        first[slot] = np.cumsum(one)[-1] if len(one) else 0.0  # cumsum: added one after the other, as C adds
        both[slot] = np.cumsum(ordered)[-1] if len(ordered) else 0.0
    return first, both, counts


def _starts(values: np.ndarray) -> np.ndarray:
    return np.concatenate([[True], values[1:] != values[:-1]])


def _shares(for_first: np.ndarray, for_second: np.ndarray) -> np.ndarray:
    """The share preferring the first document of each pair some group has a preference on (in order)."""
    total = for_first.astype(np.float64) + for_second
    stated = total > 0
    return for_first[stated] / total[stated]

"""Every measure for every query of a whole run at once, with numpy: the same numbers, bit for bit, as the
readable functions (``Measure.compute`` per query, ``mean`` over queries), at a fraction of the cost.

Sparse arithmetic: every measure follows from the judged retrieved rows (query, rank,
grade) plus per-query counts (R, list length) and the ideal gains; unjudged rows only ever add 0.0. Sums run
in rank order with ``np.bincount(weights=...)``, which accumulates sequentially like the readable loops' ``+=``
(``np.add.reduceat`` and ``np.sum`` sum pairwise and would differ in the last bit).
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics import registry
from metrics.aggregate import summarize
from metrics.conventions import TREC_EVAL, Conventions
from metrics.dcg import gain
from metrics.io import Qrels, Run, doc_hash, read_qrels, read_run
from metrics.io.arrays import bool_numpy, int_numpy, take
from metrics.io.parallel import by_halves
from metrics.measures import DEFAULT_MEASURES, Measure, parse_measure


@dataclass(frozen=True)
class QueryCounts:
    """How many queries were scored, and how many were left out (or scored 0 with ``complete``)."""

    evaluated: int  # the queries in the means
    only_in_run: int  # never scored: trec_eval only knows queries with qrels lines
    only_in_qrels: int  # skipped, or scored 0 with complete=True (trec_eval -c)
    no_relevant: int  # evaluated queries with R = 0 (every measure 0 but IDCG/NDCG of grades below threshold)


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Per-query values (numpy, one array per measure) and means, as trec_eval -q prints them."""

    queries: tuple[str, ...]  # the evaluated queries, sorted by id in byte order (trec_eval -q's order)
    measures: tuple[Measure, ...]
    per_query: dict[str, np.ndarray]  # measure name as spelled -> float64 value per query, aligned with queries
    # measure name -> mean over the evaluated queries (math.fsum / n), or the family's summary (sum, geometric);
    # NaN for a family with no summary (relstring)
    means: dict[str, float]
    counts: QueryCounts
    only_in_run: tuple[str, ...]
    only_in_qrels: tuple[str, ...]
    conventions: Conventions = TREC_EVAL
    complete: bool = False
    # a measure whose value is a string (trec_eval relstring) -> one string per query; its per_query values are 0.0,
    # as trec_eval stores them
    texts: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def to_frame(self):
        """One row per query (index ``query``), one column per measure as spelled: its values, or its strings for a
        measure whose value is a string (relstring). Imports pandas."""
        import pandas as pd  # lazily: the CLI never pays pandas' import time

        columns = {name: self.texts.get(name, values) for name, values in self.per_query.items()}
        frame = pd.DataFrame(columns, index=list(self.queries))
        frame.index.name = "query"
        return frame


def evaluate(
    run,
    qrels,
    measures: Iterable[str | Measure] = DEFAULT_MEASURES,
    *,
    conventions: Conventions = TREC_EVAL,
    complete: bool = False,
    max_docs: int | None = None,
    judged_only: bool = False,
) -> Evaluation:
    """Score every query of a run (trec_eval's query set; ``complete`` = trec_eval ``-c``).

    ``max_docs`` keeps the top ``max_docs`` of each ranking (trec_eval ``-M``); ``judged_only`` then drops the
    documents without a judgment of 0 or more and ranks the rest 1, 2, 3... (trec_eval ``-J``).

    ``run`` and ``qrels`` are anything :func:`metrics.io.read_run` / :func:`read_qrels` accept (a path, bytes,
    a DataFrame, a dict) or what they return. Each measure is a name (``nDCG@10``, ``map``, ``P_5``) or a Measure.

    >>> result = evaluate({"q1": ["a", "b"], "q2": ["c"]}, {"q1": {"b": 1}, "q2": {"z": 1}}, ["RR", "P@1"])
    >>> result.per_query["RR"].tolist(), result.means["RR"]
    ([0.5, 0.0], 0.25)
    """
    run = read_run(run)
    qrels = read_qrels(qrels)
    parsed: dict[str, Measure] = {}
    for measure in measures:
        measure = measure if isinstance(measure, Measure) else parse_measure(measure)
        parsed.setdefault(measure.name, measure)
    if max_docs is not None and (isinstance(max_docs, bool) or not isinstance(max_docs, int) or max_docs < 1):
        raise ValueError(f"the largest number of documents per query must be a positive integer, got {max_docs!r}")
    prepared: dict[int, _Prepared] = {}  # one per relevance threshold (a measure may bring its own, P(rel=2)@5)
    cache: dict[tuple, np.ndarray] = {}
    per_query = {}
    for name, measure in parsed.items():
        under = measure.conventions_under(conventions)
        key = (measure.family, measure.k, measure.params, under)
        if key not in cache:
            if under.threshold not in prepared:
                at_threshold = dataclasses.replace(conventions, threshold=under.threshold)
                prepared[under.threshold] = _Prepared(run, qrels, at_threshold, complete, max_docs, judged_only)
            data = prepared[under.threshold]
            values = data.compute(measure)
            if complete and registry.family(measure.family).kind == "count" and measure.family != "NumQ":
                values = np.where(data.in_run, values, 0.0)  # -c: a query missing from the run adds nothing
            cache[key] = values
        per_query[name] = cache[key]
    texts = {name: tuple(values.tolist()) for name, values in per_query.items() if values.dtype == object}
    per_query.update((name, np.zeros(len(values))) for name, values in per_query.items() if name in texts)
    data = prepared.get(conventions.threshold) or next(iter(prepared.values()), None)
    if data is None:
        data = _Prepared(run, qrels, conventions, complete, max_docs, judged_only)
    means = summaries(per_query, parsed)
    return Evaluation(
        data.queries,
        tuple(parsed.values()),
        per_query,
        means,
        data.counts,
        data.only_in_run,
        data.only_in_qrels,
        conventions,
        complete,
        texts,
    )


def summaries(per_query: dict[str, np.ndarray], measures: dict[str, Measure]) -> dict[str, float]:
    """The 'all' value of each measure from its per-query values (in trec_eval -q's query order): the one place
    summaries are formed, for a whole run and for one evaluated in parts (metrics.combine: streamed, distributed)."""
    return {
        name: summarize(values.tolist(), registry.family(measures[name].family).summary)
        for name, values in per_query.items()
    }


class _Prepared:
    """What every measure needs, computed once, one slot per evaluated query (the kernels' interface):

    - ``size``, ``queries``: the evaluated queries; ``in_run``: which of them the run has (all but with -c);
      ``n``: how many documents each retrieved (after -M and -J);
    - ``R``: judged relevant (grade >= threshold); ``nonrel``: judged non-relevant (0 <= grade < threshold);
    - ``slot``, ``rank``, ``grade``: every retrieved document that has a qrels line (any grade; a negative grade is
      trec_eval's "in the pool but not judged"), sorted by (slot, rank);
    - ``ideal_slot``, ``ideal_grade``: the judged documents with a positive grade (IDCG's ideal list).
    Unjudged retrieved documents have no row: a kernel that needs them counts ``rank`` gaps.
    """

    def __init__(
        self,
        run: Run,
        qrels: Qrels,
        conventions: Conventions,
        complete: bool,
        max_docs: int | None = None,
        judged_only: bool = False,
    ):
        self.conventions = conventions
        judged = pc.unique(qrels.query) if len(qrels.grade) else _strings([])
        run_ids = run.query_ids
        judged_in_run = pc.is_in(judged, value_set=run_ids)
        run_in_qrels = bool_numpy(pc.is_in(run_ids, value_set=judged))
        counted = judged if complete else judged.filter(judged_in_run)
        counted = counted.take(pc.sort_indices(counted))  # trec_eval -q lists queries by id (strcmp order)
        self.queries = tuple(counted.to_pylist())
        size = len(counted)
        self.size = size
        self.only_in_run = tuple(sorted(run_ids.filter(pc.invert(pc.is_in(run_ids, value_set=judged))).to_pylist()))
        self.only_in_qrels = tuple(sorted(judged.filter(pc.invert(judged_in_run)).to_pylist()))

        # Each ranking's and each qrels line's slot among the evaluated queries (-1: not evaluated).
        ranking_slot = _slots(run_ids, counted)
        line_slot = _slots(qrels.query, counted)
        lengths = np.diff(run.starts)
        self.in_run = np.zeros(size, dtype=bool)  # with complete, queries missing from the run are not
        self.in_run[ranking_slot[ranking_slot >= 0]] = True
        self.n = np.zeros(size, dtype=np.int64)
        self.n[ranking_slot[ranking_slot >= 0]] = lengths[ranking_slot >= 0]
        grade = qrels.grade
        evaluated = line_slot >= 0
        self.R = np.bincount(line_slot[evaluated & (grade >= conventions.threshold)], minlength=size)
        judged_nonrelevant = evaluated & (grade >= 0) & (grade < conventions.threshold)
        self.nonrel = np.bincount(line_slot[judged_nonrelevant], minlength=size)

        # Ideal gains from the qrels: every judged doc with a positive grade (trec_eval's IDCG).
        positive = np.flatnonzero(evaluated & (grade > 0))
        self.ideal_slot, self.ideal_grade = line_slot[positive], grade[positive]
        self.slot, self.rank, self.grade = _judged_retrieved(
            run, ranking_slot, qrels, np.flatnonzero(evaluated), line_slot
        )
        if max_docs is not None:  # trec_eval -M: the top max_docs after sorting, before -J
            np.minimum(self.n, max_docs, out=self.n)
            self._keep(self.rank <= max_docs)
        if judged_only:  # trec_eval -J: unjudged (and pool-unjudged, grade < 0) documents leave the ranking
            self._keep(self.grade >= 0)
            self.rank = _position_within(self.slot)
            self.n = np.bincount(self.slot, minlength=size)
        self.counts = QueryCounts(size, int((~run_in_qrels).sum()), len(self.only_in_qrels), int((self.R == 0).sum()))
        self._discounts: dict[int, float] = {}

    def _keep(self, rows: np.ndarray) -> None:
        self.slot, self.rank, self.grade = self.slot[rows], self.rank[rows], self.grade[rows]

    # -- building blocks ------------------------------------------------------------------------------------

    def _within(self, k: int | None) -> np.ndarray:
        return np.ones(len(self.rank), dtype=bool) if k is None else self.rank <= k

    def _relevant(self) -> np.ndarray:
        return self.grade >= self.conventions.threshold

    def _hits(self, k: int | None) -> np.ndarray:
        return np.bincount(self.slot[self._relevant() & self._within(k)], minlength=self.size)

    def _discount(self, ranks: np.ndarray) -> np.ndarray:
        """log2(rank + 1) with math.log2, as the readable code computes it (np.log2 differs in the last bit)."""
        unique, inverse = np.unique(ranks, return_inverse=True)  # (plain np.unique imports numpy.ma: 6 ms)
        return np.array([math.log2(r + 1) for r in unique.tolist()], dtype=np.float64)[inverse]

    def _gains(self, grades: np.ndarray, kind: str) -> np.ndarray:
        """metrics.dcg.gain itself, applied to each distinct grade (2**g - 1 with Python ints for exp)."""
        unique, inverse = np.unique(grades, return_inverse=True)
        return np.array([gain(g, kind) for g in unique.tolist()], dtype=np.float64)[inverse]

    def _dcg(self, slot: np.ndarray, position: np.ndarray, grades: np.ndarray, k: int | None, kind: str):
        keep = position <= k if k is not None else np.ones(len(position), dtype=bool)
        terms = self._gains(grades[keep], kind) / self._discount(position[keep])
        return np.bincount(slot[keep], weights=terms, minlength=self.size)  # sequential, in rank order

    def _idcg(self, k: int | None, kind: str) -> np.ndarray:
        if self.conventions.idcg == "all":
            slot, grades = self.ideal_slot, self.ideal_grade
        else:
            positive = self.grade > 0
            slot, grades = self.slot[positive], self.grade[positive]
        order = np.lexsort((-grades, slot))  # by query, grade descending: the ideal ranking
        slot, grades = slot[order], grades[order]
        return self._dcg(slot, _position_within(slot), grades, k, kind)

    # -- the measures: one kernel per registry family (Family.kernel names it) -------------------------------

    def compute(self, measure: Measure) -> np.ndarray:
        """The kernel the registry names: a method ``kernel_<name>``, or ``module:function`` taking (data, measure)."""
        kernel = registry.family(measure.family).kernel
        if ":" in kernel:
            module, _, function = kernel.partition(":")
            return getattr(importlib.import_module(module), function)(self, measure)
        return getattr(self, f"kernel_{kernel}")(measure)

    def _set_divisor(self, k: int | None) -> np.ndarray:
        return self.n if k is None else np.full(self.size, k, dtype=np.int64)

    def kernel_precision(self, measure: Measure) -> np.ndarray:
        return _ratio(self._hits(measure.k), self._set_divisor(measure.k))

    def kernel_recall(self, measure: Measure) -> np.ndarray:
        return _ratio(self._hits(measure.k), self.R)

    def kernel_capped_recall(self, measure: Measure) -> np.ndarray:
        return _ratio(self._hits(measure.k), np.minimum(self.R, self._set_divisor(measure.k)))

    def kernel_hit_rate(self, measure: Measure) -> np.ndarray:
        return (self._hits(measure.k) > 0).astype(np.float64)

    def kernel_f1(self, measure: Measure) -> np.ndarray:
        hits = self._hits(measure.k)
        p, r = _ratio(hits, self._set_divisor(measure.k)), _ratio(hits, self.R)
        return _ratio(2 * p * r, p + r)  # the readable f1: 2 * p * r / (p + r), 0 when p + r = 0

    def kernel_reciprocal_rank(self, measure: Measure) -> np.ndarray:
        k = measure.k
        relevant = np.flatnonzero(self._relevant())
        slots, first = np.unique(self.slot[relevant], return_index=True)  # rows are in rank order
        first_rank = self.rank[relevant][first]
        values = np.zeros(self.size)
        hit = first_rank <= k if k is not None else np.ones(len(first_rank), dtype=bool)
        values[slots[hit]] = 1 / first_rank[hit]
        return values

    def kernel_average_precision(self, measure: Measure) -> np.ndarray:
        k = measure.k
        relevant = np.flatnonzero(self._relevant())
        slot, rank = self.slot[relevant], self.rank[relevant]
        hits_so_far = _position_within(slot)
        keep = rank <= k if k is not None else np.ones(len(rank), dtype=bool)
        precision_sum = np.bincount(slot[keep], weights=hits_so_far[keep] / rank[keep], minlength=self.size)
        denominator = self.R if self.conventions.ap_denominator == "all" else self._hits(k)
        return _ratio(precision_sum, denominator)

    def kernel_dcg(self, measure: Measure) -> np.ndarray:
        return self._dcg(self.slot, self.rank, self.grade, measure.k, measure.gain_under(self.conventions))

    def kernel_idcg(self, measure: Measure) -> np.ndarray:
        return self._idcg(measure.k, measure.gain_under(self.conventions))

    def kernel_ndcg(self, measure: Measure) -> np.ndarray:
        if measure.param("gains"):  # trec_eval's ndcg.1=3,2=9: its own walk (metrics.kernels_gains)
            return importlib.import_module("metrics.kernels_gains").ndcg_with_gains(self, measure)
        return _ratio(self.kernel_dcg(measure), self.kernel_idcg(measure))


    # -- trec_eval's counts, set measures, R-precision and interpolated precision ------------------------------

    def _retrieved(self, k: int | None) -> np.ndarray:
        return self.n if k is None else np.minimum(self.n, k)

    def kernel_num_ret(self, measure: Measure) -> np.ndarray:
        return self._retrieved(measure.k).astype(np.float64)

    def kernel_num_rel(self, measure: Measure) -> np.ndarray:
        return self.R.astype(np.float64)

    def kernel_num_rel_ret(self, measure: Measure) -> np.ndarray:
        return self._hits(measure.k).astype(np.float64)

    def kernel_num_nonrel_judged_ret(self, measure: Measure) -> np.ndarray:
        nonrelevant = (self.grade >= 0) & ~self._relevant() & self._within(measure.k)
        return np.bincount(self.slot[nonrelevant], minlength=self.size).astype(np.float64)

    def kernel_num_q(self, measure: Measure) -> np.ndarray:
        return np.ones(self.size)

    def kernel_set_precision(self, measure: Measure) -> np.ndarray:
        return _ratio(self._hits(measure.k), self._retrieved(measure.k))

    def kernel_set_recall(self, measure: Measure) -> np.ndarray:
        return _ratio(self._hits(measure.k), self.R)

    def kernel_set_f(self, measure: Measure) -> np.ndarray:
        hits, beta = self._hits(measure.k), measure.param("beta")
        p, r = _ratio(hits, self._retrieved(measure.k)), _ratio(hits, self.R)
        scored = (hits > 0) & (self._retrieved(measure.k) > 0) & (self.R > 0)
        values = np.zeros(self.size)
        values[scored] = (beta + 1.0) * p[scored] * r[scored] / (beta * p[scored] + r[scored])
        return values

    def kernel_set_average_precision(self, measure: Measure) -> np.ndarray:
        hits = self._hits(measure.k)
        return _ratio(hits, self._retrieved(measure.k)) * _ratio(hits, self.R)

    def _precision_at_rank(self, cut: np.ndarray, k: int | None) -> np.ndarray:
        """hits in the top cut[q] (and the top k) / cut[q], per query; 0 where cut is 0."""
        counted = self._relevant() & self._within(k) & (self.rank <= cut[self.slot])
        return _ratio(np.bincount(self.slot[counted], minlength=self.size), cut)

    def kernel_r_precision(self, measure: Measure) -> np.ndarray:
        return self._precision_at_rank(self.R, measure.k)

    def kernel_r_precision_multiple(self, measure: Measure) -> np.ndarray:
        cut = (measure.param("multiple") * self.R + 0.9).astype(np.int64)  # C's (long)(x * R + 0.9)
        return self._precision_at_rank(cut, measure.k)

    def _interpolated(self, level: float, k: int | None) -> np.ndarray:
        """Interpolated precision at one recall level, per query (metrics.interpolated, vectorized)."""
        relevant = np.flatnonzero(self._relevant() & self._within(k))
        slot, rank = self.slot[relevant], self.rank[relevant]
        corners = _position_within(slot) / rank
        best_after = _suffix_max(slot, corners, self.size)
        hits = np.bincount(slot, minlength=self.size)
        first_row = np.concatenate([[0], np.cumsum(hits)[:-1]])
        needed = (level * self.R + 0.9).astype(np.int64)  # metrics.interpolated.relevant_needed
        answered = (needed <= hits) & (hits > 0)
        values = np.zeros(self.size)
        values[answered] = best_after[first_row[answered] + np.maximum(needed[answered], 1) - 1]
        return values

    def kernel_interpolated_precision(self, measure: Measure) -> np.ndarray:
        return self._interpolated(measure.param("level"), measure.k)

    def kernel_eleven_point_average(self, measure: Measure) -> np.ndarray:
        levels = measure.param("levels")
        total = np.zeros(self.size)
        for level in reversed(levels):  # the readable function's order of additions
            total += self._interpolated(level, measure.k)
        return total / len(levels)


def _judged_retrieved(run: Run, ranking_slot, qrels: Qrels, lines: np.ndarray, line_slot):
    """(slot, rank, grade) of every retrieved doc with one of the qrels lines ``lines``, sorted by (slot, rank).

    The join: each run row's doc hash is looked up in a small bit table of the judged docs' hashes (no hash table
    of every row), then the few candidates are matched exactly on their (query, doc) strings.
    """
    empty = np.zeros(0, dtype=np.int64)
    if len(lines) == 0 or run.num_rows == 0:
        return empty, empty, empty
    judged_docs = take(qrels.doc, lines)
    # A bit table indexed by the top bits of the judged docs' 31-bit hashes, under 0.4% of it set: the run rows
    # whose bit is set (their doc is judged for some query, or a rare false match) are the only candidates.
    bits = min(31, max(12, int(len(lines) * 256).bit_length()))
    shift = np.uint32(31 - bits)
    table = np.zeros(1 << bits, dtype=bool)
    table[doc_hash(judged_docs) >> shift] = True

    def candidates_among(first: int, stop: int) -> np.ndarray:
        # A block of rows at a time, in reused arrays: full-length temporaries would cost page faults.
        block = min(stop - first, _BLOCK_ROWS)
        index, found = np.empty(block, dtype=np.uint32), np.empty(block, dtype=bool)
        rows = [np.zeros(0, dtype=np.int64)]
        for top in range(first, stop, block):
            size = min(block, stop - top)
            np.right_shift(run.doc_hash[top : top + size], shift, out=index[:size])
            np.take(table, index[:size], out=found[:size], mode="wrap")  # in range; "raise" would buffer "out"
            rows.append(np.flatnonzero(found[:size]) + top)
        return np.concatenate(rows)

    candidates = np.concatenate(by_halves(candidates_among, run.num_rows, run.num_rows))

    distinct_docs = pc.unique(judged_docs)
    found = pc.index_in(take(run.doc, candidates), value_set=distinct_docs)
    valid = bool_numpy(pc.is_valid(found))
    rows, found_index = candidates[valid], int_numpy(found.filter(pc.is_valid(found)))
    ranking, rank = run.ranks(rows)
    slot = ranking_slot[ranking]
    counted = slot >= 0
    width = len(distinct_docs)
    keys = slot[counted] * width + found_index[counted]
    line_keys = line_slot[lines] * width + int_numpy(pc.index_in(judged_docs, value_set=distinct_docs))
    order = np.argsort(line_keys, kind="stable")
    line_keys, line_grades = line_keys[order], qrels.grade[lines][order]
    at = np.minimum(np.searchsorted(line_keys, keys), len(line_keys) - 1)
    matched = line_keys[at] == keys
    slot, rank, grade = slot[counted][matched], rank[counted][matched], line_grades[at[matched]]
    order = np.lexsort((rank, slot))
    return slot[order], rank[order], grade[order]


_BLOCK_ROWS = 1 << 16


def _position_within(slot: np.ndarray) -> np.ndarray:
    """1, 2, 3... within each run of equal slots (the array is sorted by slot)."""
    index = np.arange(len(slot))
    if len(slot) == 0:
        return index
    block_start = np.flatnonzero(np.concatenate([[True], slot[1:] != slot[:-1]]))
    sizes = np.diff(np.append(block_start, len(slot)))
    return index - np.repeat(block_start, sizes) + 1


def _suffix_max(slot: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """For each row, the largest value at it or after it within its slot (rows sorted by slot). Exact: the running
    maximum runs over integer keys (slot block, then the value's order), never over shifted floats."""
    if len(values) == 0:
        return values
    order = np.argsort(values, kind="stable")
    ordinal = np.empty(len(values), dtype=np.int64)
    ordinal[order] = np.arange(len(values))
    backwards_block = (size - slot[::-1]).astype(np.int64) * len(values)  # rises block by block, read backwards
    running = np.maximum.accumulate(backwards_block + ordinal[::-1]) - backwards_block
    return values[order[running]][::-1]


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, and 0.0 where the denominator is 0 (trec_eval's convention: never NaN)."""
    out = np.zeros(len(denominator), dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def _slots(ids, counted: pa.Array) -> np.ndarray:
    """Index of each id among the evaluated queries, -1 when it is not evaluated."""
    return int_numpy(pc.index_in(ids, value_set=counted), null=-1)


def _strings(values: list[str]) -> pa.Array:
    return pa.chunked_array([values], pa.string()).combine_chunks()

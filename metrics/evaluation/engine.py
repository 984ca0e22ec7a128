"""Every measure for every query of a whole run at once, with numpy: the same numbers, bit for bit, as the
readable functions (``Measure.compute`` per query, ``mean`` over queries), at a fraction of the cost.

Sparse arithmetic: every measure follows from the judged retrieved rows (query, rank,
grade) plus per-query counts (R, list length) and the ideal gains; unjudged rows only ever add 0.0. Sums run
in rank order with ``np.bincount(weights=...)``, which accumulates sequentially like the readable loops' ``+=``
(``np.add.reduceat`` and ``np.sum`` sum pairwise and would differ in the last bit).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.catalog import registry
from metrics.catalog.measures import DEFAULT_MEASURES, Measure, parse_measures
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.prepared import Prepared, position_within
from metrics.core.tables import html_table, markdown_table, number
from metrics.evaluation.aggregate import summarize, zero_when_missing
from metrics.evaluation.options import EvaluationOptions, given
from metrics.io import Qrels, Run, doc_hash, fingerprint, read_qrels, read_run
from metrics.io.arrays import bool_numpy, int_numpy, take
from metrics.io.parallel import by_halves


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
    # measure name -> mean over the evaluated queries (added in query order, as trec_eval adds), or the family's
    # summary (sum, geometric); NaN for a family with no summary (relstring)
    means: dict[str, float]
    counts: QueryCounts
    only_in_run: tuple[str, ...]
    only_in_qrels: tuple[str, ...]
    conventions: Conventions = TREC_EVAL
    complete: bool = False
    # a measure whose value is a string (trec_eval relstring) -> one string per query; its per_query values are 0.0,
    # as trec_eval stores them
    texts: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def _table(self) -> tuple[list[str], list[list[object]]]:
        """Each query's values then the means (or summaries), 4 decimals: what Jupyter shows."""
        names = list(self.per_query)

        def cell(name: str, index: int | None) -> object:
            if index is None:
                return number(self.means[name])
            return self.texts[name][index] if name in self.texts else number(float(self.per_query[name][index]))

        rows = [[query, *(cell(n, i) for n in names)] for i, query in enumerate(self.queries)]
        return ["query", *names], [*rows, ["all", *(cell(n, None) for n in names)]]

    def _repr_html_(self) -> str:
        header, rows = self._table()
        return html_table(header, rows, caption=f"{self.counts.evaluated} queries evaluated; the last row: all")

    def _repr_markdown_(self) -> str:
        return markdown_table(*self._table())

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
    options: EvaluationOptions | None = None,
    **keywords,
) -> Evaluation:
    """Score every query of a run (trec_eval's query set).

    ``options`` (:class:`metrics.evaluation.options.EvaluationOptions`), or its fields as keywords:
    ``conventions``; ``complete`` (trec_eval ``-c``); ``max_docs`` keeps the top ``max_docs`` of each ranking
    (trec_eval ``-M``); ``judged_only`` then drops the documents without a judgment of 0 or more and ranks the rest
    1, 2, 3... (trec_eval ``-J``).

    ``run`` and ``qrels`` are anything :func:`metrics.io.read_run` / :func:`read_qrels` accept (a path, bytes,
    a DataFrame, a dict) or what they return. Each measure is a name (``nDCG@10``, ``map``, ``P_5``) or a Measure.

    >>> result = evaluate({"q1": ["a", "b"], "q2": ["c"]}, {"q1": {"b": 1}, "q2": {"z": 1}}, ["RR", "P@1"])
    >>> result.per_query["RR"].tolist(), result.means["RR"]
    ([0.5, 0.0], 0.25)
    """
    return score(join(read_run(run), read_qrels(qrels), measures, options=given(options, keywords)))


@dataclass(frozen=True, eq=False)
class Joined:
    """A run joined with its qrels for the given measures: all that scoring reads, so that the Run and Qrels (a
    large run's doc ids above all) can be freed before it (the CLI does)."""

    measures: dict[str, Measure]  # name as spelled -> Measure
    prepared: dict[int, _Prepared]  # one per relevance threshold (a measure may bring its own, P(rel=2)@5)
    options: EvaluationOptions
    positive_judgments: int | None  # with complete: the qrels lines with a grade above 0 (num_rel's 'all')


def join(
    run: Run,
    qrels: Qrels,
    measures: Iterable[str | Measure] = DEFAULT_MEASURES,
    *,
    options: EvaluationOptions | None = None,
    **keywords,
) -> Joined:
    """The first half of :func:`evaluate` (its options too): the run joined with its qrels at every threshold the
    measures use."""
    options = given(options, keywords)
    parsed = {measure.name: measure for measure in parse_measures(measures)}
    max_docs, conventions = options.max_docs, options.conventions
    if max_docs is not None and (isinstance(max_docs, bool) or not isinstance(max_docs, int) or max_docs < 1):
        raise ValueError(f"the largest number of documents per query must be a positive integer, got {max_docs!r}")
    thresholds = [measure.conventions_under(conventions).threshold for measure in parsed.values()]
    prepared: dict[int, _Prepared] = {}
    for threshold in thresholds or [conventions.threshold]:
        if threshold not in prepared:
            at_threshold = dataclasses.replace(conventions, threshold=threshold)
            prepared[threshold] = _Prepared(run, qrels, dataclasses.replace(options, conventions=at_threshold))
    positive = int(np.count_nonzero(qrels.grade > 0)) if options.complete else None
    return Joined(parsed, prepared, options, positive)


def score(joined: Joined) -> Evaluation:
    """The second half of :func:`evaluate`: every measure's per-query values and summaries."""
    options = joined.options
    conventions, complete, judged_only = options.conventions, options.complete, options.judged_only
    cache: dict[tuple, np.ndarray] = {}
    per_query = {}
    for name, measure in joined.measures.items():
        under = measure.conventions_under(conventions)
        key = (measure.family, measure.k, measure.params, under)
        if key not in cache:
            data = joined.prepared[under.threshold]
            family = registry.family(measure.family)
            values = family.kernel(data, measure)
            if complete and zero_when_missing(measure):
                values = np.where(data.in_run, values, 0.0)  # -c: trec_eval's values for a query missing from the run
            elif complete and (stand_in := family.trec_eval.stand_in) and not judged_only:  # -J drops the stand-in
                values = stand_in(values, data, measure)
            cache[key] = values
        per_query[name] = cache[key]
    texts = {name: tuple(values.tolist()) for name, values in per_query.items() if values.dtype == object}
    per_query.update((name, np.zeros(len(values))) for name, values in per_query.items() if name in texts)
    data = joined.prepared.get(conventions.threshold) or next(iter(joined.prepared.values()))
    means = summaries(per_query, joined.measures, positive_judgments=joined.positive_judgments)
    return Evaluation(
        data.queries,
        tuple(joined.measures.values()),
        per_query,
        means,
        data.counts,
        data.only_in_run,
        data.only_in_qrels,
        conventions,
        complete,
        texts,
    )


def summaries(
    per_query: dict[str, np.ndarray], measures: dict[str, Measure], *, positive_judgments: int | None = None
) -> dict[str, float]:
    """The 'all' value of each measure from its per-query values (in trec_eval -q's query order): the one place
    summaries are formed, for a whole run and for one evaluated in parts (metrics.evaluation.combine: streamed,
    distributed). ``positive_judgments`` (-c only): the qrels lines with a grade above 0, which trec_eval -c prints as
    num_rel's 'all', whatever -l says (m_num_rel.c)."""
    means = {
        name: summarize(values.tolist(), registry.family(measures[name].family).values.summary)
        for name, values in per_query.items()
    }
    if positive_judgments is not None:
        for name, measure in measures.items():
            if registry.family(measure.family).trec_eval.counts_positive_judgments:
                means[name] = float(positive_judgments)
    return means


class _Prepared(Prepared):
    """A run joined with its qrels (metrics.core.prepared.Prepared documents the arrays), with trec_eval's -M and -J;
    ``options`` at one relevance threshold."""

    def __init__(self, run: Run, qrels: Qrels, options: EvaluationOptions):
        conventions = options.conventions  # at this one threshold
        self.conventions = conventions
        self.judged_only = options.judged_only
        # Qrels files come grouped by query: the distinct queries and each line's slot are read off the first line
        # of each group (a few thousand strings), not hashed line by line (0.1 s of CPU at 300k lines).
        heads, line_group = _groups(qrels.query)
        judged = pc.unique(heads) if len(qrels.grade) else _strings([])
        run_ids = run.query_ids
        judged_in_run = pc.is_in(judged, value_set=run_ids)
        run_in_qrels = bool_numpy(pc.is_in(run_ids, value_set=judged))
        counted = judged if options.complete else judged.filter(judged_in_run)
        counted = counted.take(pc.sort_indices(counted))  # trec_eval -q lists queries by id (strcmp order)
        self.queries = tuple(counted.to_pylist())
        size = len(counted)
        self.size = size
        self.only_in_run = tuple(sorted(run_ids.filter(pc.invert(pc.is_in(run_ids, value_set=judged))).to_pylist()))
        self.only_in_qrels = tuple(sorted(judged.filter(pc.invert(judged_in_run)).to_pylist()))

        # Each ranking's and each qrels line's slot among the evaluated queries (-1: not evaluated).
        ranking_slot = _slots(run_ids, counted)
        line_slot = _slots(heads, counted)[line_group]
        del line_group
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
        lines = np.flatnonzero(evaluated)
        del positive, evaluated, judged_nonrelevant  # the join is the peak of a large evaluation: free what we can
        self.slot, self.rank, self.grade = _judged_retrieved(run, ranking_slot, qrels, lines, line_slot)
        if options.max_docs is not None:  # trec_eval -M: the top max_docs after sorting, before -J
            np.minimum(self.n, options.max_docs, out=self.n)
            self._keep(self.rank <= options.max_docs)
        if options.judged_only:  # trec_eval -J: unjudged (and pool-unjudged, grade < 0) documents leave the ranking
            self._keep(self.grade >= 0)
            self.rank = position_within(self.slot)
            self.n = np.bincount(self.slot, minlength=size)
        self.counts = QueryCounts(size, int((~run_in_qrels).sum()), len(self.only_in_qrels), int((self.R == 0).sum()))

    def _keep(self, rows: np.ndarray) -> None:
        self.slot, self.rank, self.grade = self.slot[rows], self.rank[rows], self.grade[rows]


def _judged_retrieved(run: Run, ranking_slot, qrels: Qrels, lines: np.ndarray, line_slot):
    """(slot, rank, grade) of every retrieved doc with one of the qrels lines ``lines``, sorted by (slot, rank).

    The join: a cheap filter finds the candidate rows (_candidates), which are matched exactly on (query, doc),
    _JOIN_ROWS candidates at a time: a dozen arrays per candidate, which whole would hold ~20 MB more at 300k
    candidates (the many-judgments shape), for the same work.
    """
    empty = np.zeros(0, dtype=np.int64)
    if len(lines) == 0 or run.num_rows == 0:
        return empty, empty, empty
    judged_docs = qrels.doc if len(lines) == len(qrels.grade) else take(qrels.doc, lines)
    judged_slot = line_slot[lines]
    candidates = _candidates(run, judged_docs)
    keys = _line_keys(judged_docs, judged_slot)
    found = [(empty, empty, empty)]
    for top in range(0, len(candidates), _JOIN_ROWS):
        found.append(_join_block(run, candidates[top : top + _JOIN_ROWS], ranking_slot, judged_docs, judged_slot, keys))
    del candidates, keys, judged_slot
    parts = [list(part) for part in zip(*found, strict=True)]
    del found
    line = np.concatenate(parts.pop())  # one column at a time, each list freed once joined
    grade = qrels.grade[lines[line]]
    del line
    rank = np.concatenate(parts.pop())
    slot = np.concatenate(parts.pop())
    # The candidates come in run order: usually already by (slot, rank), unless the run's queries are not in
    # trec_eval's (strcmp) order or tied rows moved; then one sort of a combined integer key.
    key = slot * (int(rank.max(initial=0)) + 1) + rank
    if len(key) > 1 and not (key[1:] > key[:-1]).all():
        order = np.argsort(key, kind="stable")
        slot, rank, grade = slot[order], rank[order], grade[order]
    return slot, rank, grade


def _join_block(run: Run, block: np.ndarray, ranking_slot, judged_docs, judged_slot, keys):
    """(slot, rank, line) of the candidate rows ``block`` that have a qrels line (an index into judged_docs)."""
    ranking, rank = run.ranks(block)
    slot = ranking_slot[ranking]
    counted = slot >= 0
    block, slot, rank = block[counted], slot[counted], rank[counted]
    candidate_docs = take(run.doc, block)
    matched = None if keys is None else _match(candidate_docs, slot, judged_docs, keys)
    if matched is None:  # two (query, doc) keys collided: the exact match on the strings themselves
        matched = _match_strings(candidate_docs, slot, judged_docs, judged_slot)
    rows, line = matched
    return slot[rows], rank[rows], line


def _candidates(run: Run, judged_docs) -> np.ndarray:
    """The run rows whose doc may be judged for some query: each row's doc hash looked up in a small bit table of
    the judged docs' hashes (no hash table of every row). A superset: false matches are dropped by _match."""
    # The table is indexed by the top bits of the 31-bit hashes, under 0.4% of it set. At most 2^23 entries (8 MB):
    # with 300k judgments 2^27 would be a 128 MB table, zeroed and paged in for a filter whose false matches (here
    # ~4% of the rows) the exact match drops anyway.
    bits = min(_TABLE_BITS, max(12, int(len(judged_docs) * 256).bit_length()))
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

    return np.concatenate(by_halves(candidates_among, run.num_rows, run.num_rows))


def _line_keys(line_docs, line_slot: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The qrels lines' join keys (slot, the doc's fingerprint), sorted, and the line of each; None when a slot
    does not fit in the key (then _match_strings matches)."""
    if len(line_slot) and int(line_slot.max()) >= 1 << _SLOT_BITS:
        return None
    line_keys = _join_keys(line_docs, line_slot)
    order = np.argsort(line_keys)
    return line_keys[order], order


def _match(row_docs: pa.Array, row_slot: np.ndarray, line_docs, line_keys: tuple[np.ndarray, np.ndarray]):
    """(rows, lines): the candidate rows that have a qrels line for their (slot, doc), and that line's index, by
    64-bit keys (slot, the doc's fingerprint) searched in the sorted line keys (_line_keys; pyarrow's index_in on
    the strings costs ~3x as much). Every match is then confirmed on the strings: None when keys collide (~2^-40
    per pair), as a row then finds another doc's line (two lines with one key: a row finds the first of them)."""
    sorted_keys, order = line_keys
    row_keys = _join_keys(row_docs, row_slot)
    at = np.searchsorted(sorted_keys, row_keys)
    np.minimum(at, len(sorted_keys) - 1, out=at)
    rows = np.flatnonzero(sorted_keys[at] == row_keys)
    lines = order[at[rows]]
    if not pc.all(pc.equal(take(row_docs, rows), take(line_docs, lines))).as_py():
        return None
    return rows, lines


def _join_keys(docs, slot: np.ndarray) -> np.ndarray:
    """The slot in the high bits, then the doc's fingerprint: keys of one query lie together, so that the binary
    searches of a query's rows, which come together, touch the same few cache lines (random 64-bit keys: 2x slower)."""
    key = fingerprint(docs)
    np.right_shift(key, np.uint64(_SLOT_BITS), out=key)
    high = slot.astype(np.uint64)
    np.left_shift(high, np.uint64(64 - _SLOT_BITS), out=high)
    return np.bitwise_or(key, high, out=key)


_SLOT_BITS = 24  # up to 16M evaluated queries (more: the exact string match); 40 bits of fingerprint per doc


def _match_strings(row_docs: pa.Array, row_slot: np.ndarray, line_docs, line_slot: np.ndarray):
    """_match without fingerprints: the docs looked up among the distinct judged docs, then (slot, doc index)."""
    distinct_docs = pc.unique(line_docs)
    found = pc.index_in(row_docs, value_set=distinct_docs)
    valid = bool_numpy(pc.is_valid(found))
    candidate_rows = np.flatnonzero(valid)
    found_index = int_numpy(found.filter(pc.is_valid(found)))
    width = len(distinct_docs)
    keys = row_slot[candidate_rows] * width + found_index
    line_keys = line_slot * width + int_numpy(pc.index_in(line_docs, value_set=distinct_docs))
    order = np.argsort(line_keys, kind="stable")
    line_keys = line_keys[order]
    at = np.minimum(np.searchsorted(line_keys, keys), len(line_keys) - 1)
    matched = line_keys[at] == keys
    return candidate_rows[matched], order[at[matched]]


def _groups(query: pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """(the first query id of each run of equal ids, each line's run index): in a grouped qrels file the heads are
    its distinct queries; in any other, an id may head several runs, which is fine for a lookup."""
    n = len(query)
    if n == 0:
        return _strings([]), np.zeros(0, dtype=np.int64)
    starts = [np.zeros(1, dtype=np.int64)]
    at = 1
    for chunk in pc.not_equal(query.slice(1), query.slice(0, n - 1)).chunks:
        starts.append(np.flatnonzero(bool_numpy(chunk)) + at)
        at += len(chunk)
    first = np.concatenate(starts)
    group = np.repeat(np.arange(len(first), dtype=np.int64), np.diff(np.append(first, n)))
    return take(query, first), group


_BLOCK_ROWS = 1 << 16
_JOIN_ROWS = 1 << 16
_TABLE_BITS = 23


def _slots(ids, counted: pa.Array) -> np.ndarray:
    """Index of each id among the evaluated queries, -1 when it is not evaluated."""
    return int_numpy(pc.index_in(ids, value_set=counted), null=-1)


def _strings(values: list[str]) -> pa.Array:
    return pa.chunked_array([values], pa.string()).combine_chunks()

"""What every engine kernel reads: a run joined with its qrels, one slot per evaluated query, and the vector helpers
the kernels share. The engine builds it (metrics.evaluation.engine); each family's kernel takes it and a Measure and
returns one value per query. Nothing here knows a family, so every family module can import it without a cycle.

Sums run in rank order with ``np.bincount(weights=...)``, which accumulates sequentially like the readable loops'
``+=`` (``np.add.reduceat`` and ``np.sum`` sum pairwise and would differ in the last bit).
"""

from __future__ import annotations

import math

from metrics.core.conventions import Conventions
from metrics.core.lazy_numpy import np


class Prepared:
    """The kernels' interface, one slot per evaluated query (metrics.evaluation.engine fills it):

    - ``size``, ``queries``: the evaluated queries; ``in_run``: which of them the run has (all but with -c);
      ``n``: how many documents each retrieved (after -M and -J);
    - ``R``: judged relevant (grade >= threshold); ``nonrel``: judged non-relevant (0 <= grade < threshold);
    - ``slot``, ``rank``, ``grade``: every retrieved document that has a qrels line (any grade; a negative grade is
      trec_eval's "in the pool but not judged"), sorted by (slot, rank);
    - ``ideal_slot``, ``ideal_grade``: the judged documents with a positive grade (IDCG's ideal list).
    Unjudged retrieved documents have no row: a kernel that needs them counts ``rank`` gaps.
    """

    conventions: Conventions
    size: int
    queries: tuple[str, ...]
    in_run: np.ndarray
    n: np.ndarray
    R: np.ndarray
    nonrel: np.ndarray
    slot: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    ideal_slot: np.ndarray
    ideal_grade: np.ndarray
    judged_only: bool  # trec_eval -J: unjudged documents left the rankings (a ranking may be empty)

    def shared(self, key: tuple, compute):
        """``compute()``, once per prepared run and key: the arrays several measures of one family share (its
        cutoffs, its recall levels) are built for the first and reused by the others."""
        cache = self.__dict__.setdefault("_shared", {})
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    def in_top(self, k: int | None) -> np.ndarray:
        """Which rows lie in the top k (every row when k is None)."""
        return np.ones(len(self.rank), dtype=bool) if k is None else self.rank <= k

    def within(self, k: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(slot, rank, grade) of the judged retrieved rows (any grade) in the top k of each query."""
        if k is None:
            return self.slot, self.rank, self.grade
        keep = self.rank <= k
        return self.slot[keep], self.rank[keep], self.grade[keep]

    def relevant(self) -> np.ndarray:
        return self.grade >= self.conventions.threshold

    def hits(self, k: int | None) -> np.ndarray:
        """Relevant documents in the top k, per query."""
        return np.bincount(self.slot[self.relevant() & self.in_top(k)], minlength=self.size)

    def retrieved(self, k: int | None) -> np.ndarray:
        """How many documents each query shows within k."""
        return self.n if k is None else np.minimum(self.n, k)

    def cutoff_divisor(self, k: int | None) -> np.ndarray:
        """P@k's divisor: k itself (a short list counts its empty ranks), or the list's length when uncut."""
        return self.n if k is None else np.full(self.size, k, dtype=np.int64)


def ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, and 0.0 where the denominator is 0 (trec_eval's convention: never NaN)."""
    out = np.zeros(len(denominator), dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def position_within(slot: np.ndarray) -> np.ndarray:
    """1, 2, 3... within each run of equal slots (the array is sorted by slot)."""
    index = np.arange(len(slot))
    if len(slot) == 0:
        return index
    block_start = np.flatnonzero(np.concatenate([[True], slot[1:] != slot[:-1]]))
    sizes = np.diff(np.append(block_start, len(slot)))
    return index - np.repeat(block_start, sizes) + 1


def count_before(slot: np.ndarray, flag: np.ndarray) -> np.ndarray:
    """For each row, how many earlier rows of its query have ``flag`` (rows sorted by slot, then rank)."""
    flag = flag.astype(np.int64)
    seen = np.cumsum(flag) - flag
    first = position_within(slot) == 1
    starts = seen[first]
    return seen - np.repeat(starts, np.diff(np.append(np.flatnonzero(first), len(slot))))


def suffix_max(slot: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
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


def log2_discounts(positions: np.ndarray) -> np.ndarray:
    """log2(position + 1) with math.log2, as the readable code computes it (np.log2 differs in the last bit)."""
    if len(positions) == 0:
        return np.zeros(0, dtype=np.float64)
    top = int(positions.max())
    if top <= max(_LOG2_TABLE_MIN, 4 * len(positions)):
        # One table of math.log2 values for positions 1..top, grown as needed and shared by every kernel: a gather,
        # where np.unique would sort the positions at each call (a dozen NDCG cutoffs, each on 200k+ rows).
        if len(_log2_table[0]) <= top:
            size = max(top + 1, 2 * len(_log2_table[0]))
            _log2_table[0] = np.array([math.log2(p + 1) for p in range(size)], dtype=np.float64)
        return _log2_table[0][positions]
    unique, inverse = np.unique(positions, return_inverse=True)  # (plain np.unique imports numpy.ma: 6 ms)
    return np.array([math.log2(p + 1) for p in unique.tolist()], dtype=np.float64)[inverse]


_LOG2_TABLE_MIN = 1 << 12
_log2_table: list = [()]  # [math.log2(p + 1) for p = 0, 1, ...] as numpy, built on first use (numpy loads lazily)

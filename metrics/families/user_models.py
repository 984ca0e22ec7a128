"""User models: rank-biased precision (a patient user who goes on to the next document with probability p) and
expected reciprocal rank (a cascade: the user stops at a document with a probability that grows with its grade)."""

from __future__ import annotations

from dataclasses import dataclass

from metrics._checks import checked
from metrics.conventions import TREC_EVAL, Conventions
from metrics.family import PATIENCE, Family
from metrics.judgments import level, level_counts, level_gains
from metrics.latex import aligned_block, compact, decimal, elided_sum, plain
from metrics.lazy_numpy import np
from metrics.prepared import position_within
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term

ERR_MAX_GRADE = 4  # gdeval's MAX_JUDGMENT: a grade-4 document satisfies the user with probability 15/16


def rbp_gains(qrels: Judgments) -> dict[int, float]:
    """The gain of each judged level in trec_eval's ``rbp``: the level itself, scaled to [0, 1] by the query's
    highest level when that is above 1 (``m_rbp.c``, "normalize gains to [0,1]").

    >>> rbp_gains({"a": 3, "b": 1, "c": 0})
    {0: 0.0, 1: 0.3333333333333333, 2: 0.6666666666666666, 3: 1.0}
    """
    levels = level_gains(level_counts(qrels))
    if not levels:
        return {}
    low, high = min(e.gain for e in levels), max(e.gain for e in levels)
    scale = low < 0 or high > 1
    return {e.level: (e.gain - low) / (high - low) if scale else e.gain for e in levels}


def rank_biased_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, p: float = 0.9
) -> Breakdown:
    r"""Rank-biased precision (trec_eval ``rbp``, p = 0.9 by default; ir_measures ``RBP(p=0.8)``).

    .. math:: \mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}

    A user reads rank 1, then goes on to the next rank with probability p; RBP is the expected gain per document
    read. Conventions (trec_eval ``m_rbp.c``): g_i is the grade, divided by the query's highest judged grade when
    that is above 1 (so binary qrels give 0 or 1); unjudged documents gain 0; the relevance threshold is ignored;
    p^(i-1) is built by repeated multiplication, as trec_eval does. ir_measures' ``RBP`` defaults to p = 0.8: write
    ``RBP(p=0.8)`` for its number. k keeps the top k. Moffat and Zobel, TOIS 2008.

    >>> round(rank_biased_precision(["r", "x", "r2"], {"r": 1, "r2": 1}, p=0.5).value, 4)  # 0.5 * (1 + 0.25)
    0.625
    """
    top = checked(ranking, qrels, k)
    gains = rbp_gains(qrels)
    weight, total, running, steps = 1.0, 0.0, 0.0, []
    for rank, doc in enumerate(top, start=1):
        gain = gains.get(level(qrels, doc), 0.0)
        contribution = 0.0
        if gain != 0:
            total += gain * weight
            contribution = (1.0 - p) * gain * weight
        running += contribution
        weight = weight * p
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    value = (1.0 - p) * total
    return Breakdown("RBP", k, value, tuple(steps), {Term.PATIENCE: p, Term.DISCOUNTED_SUM: total}, conventions)


def rbp_residual(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, p: float = 0.9
) -> Breakdown:
    r"""The residual of RBP (trec_eval ``rbp_resid``): how much RBP could still rise if every unjudged retrieved
    document, and everything below the list, had the highest gain.

    .. math:: \mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \leq n,\ d_i \text{ unjudged}} p^{\,i-1}

    Conventions (trec_eval ``m_rbp_resid.c``): unjudged means no qrels line or a negative grade; **a list with no
    unjudged document gives 0**, although the tail p^n beyond the list is still unknown (trec_eval computes the
    residual only when it saw an unjudged document). RBP lies in [RBP, RBP + residual]. k keeps the top k.

    >>> rbp_residual(["r", "x"], {"r": 1}, p=0.5).value  # 0.5**2 + 0.5 * 0.5
    0.5
    """
    top = checked(ranking, qrels, k)
    weight, unjudged_weight, count, steps = 1.0, 0.0, 0, []
    for rank, doc in enumerate(top, start=1):
        is_unjudged = level(qrels, doc) < 0
        contribution = 0.0
        if is_unjudged:
            count += 1
            unjudged_weight += weight
            contribution = (1.0 - p) * weight
        weight = weight * p
        running = (steps[-1].running if steps else 0.0) + contribution
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    value = weight + (1 - p) * unjudged_weight if count else 0.0
    if count:  # the tail beyond the list has no rank: the last rank carries it, so the contributions sum to the value
        last = steps[-1]
        steps[-1] = RankStep(last.rank, last.doc_id, last.grade, last.relevant, last.contribution + weight, value)
    terms = {Term.PATIENCE: p, Term.UNJUDGED: count, Term.TAIL: weight if count else 0.0}
    return Breakdown("RBP_resid", k, value, tuple(steps), terms, conventions)


def rbp_weights(n: int, p: float) -> tuple[list[float], float]:
    """RBP's weight of ranks 1..n, (1 - p) p^(i-1), built by repeated multiplication as trec_eval does, and p^n,
    the weight of every rank below n together: the chance the user reads past rank n. They sum to 1.

    >>> rbp_weights(3, 0.5)
    ([0.5, 0.25, 0.125], 0.125)
    """
    weight, weights = 1.0, []
    for _ in range(n):
        weights.append((1.0 - p) * weight)
        weight = weight * p
    return weights, weight


@dataclass(frozen=True, slots=True)
class CascadeStep:
    """One rank of ERR's cascade."""

    rank: int
    doc_id: str
    grade: int
    reach: float  # the chance the user reads this far: the product of (1 - R_j) above
    stop: float  # R_i = (2^g - 1) / 2^4: the chance a reader stops here, satisfied
    contribution: float  # reach * stop / rank


def err_cascade(ranking: Ranking, qrels: Judgments, k: int | None = None) -> list[CascadeStep]:
    """ERR's cascade rank by rank (gdeval's conventions, see :func:`expected_reciprocal_rank`, which sums it).

    >>> [(s.reach, s.stop, s.contribution) for s in err_cascade(["a", "b"], {"a": 4, "b": 1})]
    [(1.0, 0.9375, 0.9375), (0.0625, 0.0625, 0.001953125)]
    """
    still_reading, steps = 1.0, []
    for rank, doc in enumerate(checked(ranking, qrels, k), start=1):
        grade = int(qrels.get(doc, 0))
        satisfied = (2 ** min(max(grade, 0), ERR_MAX_GRADE) - 1) / 2**ERR_MAX_GRADE
        steps.append(CascadeStep(rank, doc, grade, still_reading, satisfied, satisfied * still_reading / rank))
        still_reading *= 1 - satisfied
    return steps


def expected_reciprocal_rank(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Expected reciprocal rank at k (ir_measures ``ERR@k``, computed there by gdeval).

    .. math:: \mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j < i} (1 - R_j),
        \qquad R_i = \frac{2^{g_i} - 1}{2^{4}}

    A cascade: the user stops at rank i, satisfied, with probability R_i, else reads on. Conventions (gdeval, as
    ir_measures runs it): the highest grade is 4, so a grade-4 document stops the user with probability 15/16;
    grades above 4, which gdeval refuses, count as 4; unjudged documents and grades <= 0 have R = 0; the relevance
    threshold is ignored. gdeval prints 5 decimals. Chapelle et al., CIKM 2009.

    >>> expected_reciprocal_rank(["a", "b"], {"a": 1, "b": 4}, k=10).value == 1 / 16 + (15 / 16) * (15 / 16) / 2
    True
    """
    total, still_reading, steps = 0.0, 1.0, []
    for s in err_cascade(ranking, qrels, k):
        total += s.contribution
        still_reading = s.reach * (1 - s.stop)
        steps.append(RankStep(s.rank, s.doc_id, s.grade, s.grade >= conventions.threshold, s.contribution, total))
    return Breakdown("ERR", k, total, tuple(steps), {Term.STILL_READING: still_reading}, conventions)


# --- definitions and worked formulas (LaTeX) ---


def rbp_definition(c: Conventions) -> str:
    return r"\mathrm{RBP} = (1 - p) \sum_{i=1}^{n} g_i \, p^{\,i-1}"


def rbp_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    lines = [rf"\mathrm{{RBP}} &= (1 - p) \sum_i g_i \, p^{{\,i-1}} \quad (p = {compact(p)})"]
    gained = [st for st in b.steps if st.contribution]
    terms = [rf"{decimal(st.contribution / (1 - p))}" for st in gained] if p != 1 else []
    if terms:
        written = elided_sum(terms, [st.contribution for st in gained])
        lines.append(rf"&= {compact(1 - p)} \cdot \Bigl( {written} \Bigr)")
    lines.append(rf"&= {compact(1 - p)} \cdot {decimal(b.terms[Term.DISCOUNTED_SUM])} = {decimal(b.value)}")
    return aligned_block(lines)


def rbp_resid_definition(c: Conventions) -> str:
    return r"\mathrm{RBP_{resid}} = p^{\,n} + (1 - p) \sum_{i \leq n,\ d_i \text{ unjudged}} p^{\,i-1}"


def rbp_resid_worked(b: Breakdown) -> str:
    p = b.terms[Term.PATIENCE]
    unjudged_sum = r"\sum_{d_i \text{ unjudged}} p^{\,i-1}"
    lines = [rf"\mathrm{{RBP_{{resid}}}} &= p^{{\,n}} + (1 - p) {unjudged_sum} \quad (p = {compact(p)})"]
    if not b.terms[Term.UNJUDGED]:
        lines.append(r"&= 0 \quad \text{(no unjudged document in the list: trec\_eval reports 0)}")
        return aligned_block(lines)
    unjudged = sum(st.contribution for st in b.steps) - b.terms[Term.TAIL]  # the last rank's step carries the tail
    lines.append(rf"&= {decimal(b.terms[Term.TAIL])} + {decimal(unjudged)} = {decimal(b.value)}")
    return aligned_block(lines)


def err_definition(c: Conventions) -> str:
    return (
        r"\mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j<i} (1 - R_j), \quad "
        r"R_i = \frac{2^{g_i} - 1}{2^4}"
    )


def err_worked(b: Breakdown) -> str:
    s = plain("ERR", b.k)
    lines = [rf"{s} &= \sum_i \frac{{R_i}}{{i}} \prod_{{j<i}} (1 - R_j), \quad R_i = \frac{{2^{{g_i}} - 1}}{{16}}"]
    stops = [st for st in b.steps if st.contribution]
    if stops:
        lines.append(rf"&= {elided_sum([decimal(st.contribution) for st in stops], [st.contribution for st in stops])}")
    past = decimal(b.terms[Term.STILL_READING])
    lines.append(rf"&= {decimal(b.value)} \quad \text{{(reads past the end with probability {past})}}")
    return aligned_block(lines)


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def _powers(p: float, length: int) -> np.ndarray:
    """1, p, p*p, (p*p)*p, ...: ``length`` + 1 values, multiplied one after the other (np.multiply.accumulate is
    sequential)."""
    out = np.ones(length + 1)
    if length:
        out[1:] = np.multiply.accumulate(np.full(length, p))
    return out


def rank_biased_precision_kernel(data, measure) -> np.ndarray:
    p = float(measure.param("p"))
    slot, rank, grade = data.within(measure.k)
    top_grade = np.zeros(data.size, dtype=np.int64)
    np.maximum.at(top_grade, data.ideal_slot, data.ideal_grade)  # the highest judged grade (trec_eval's levels)
    positive = grade > 0
    slot, rank, grade = slot[positive], rank[positive], grade[positive]
    highest = top_grade[slot]
    gain = np.where(highest > 1, grade.astype(np.float64) / highest.astype(np.float64), grade.astype(np.float64))
    weights = _powers(p, int(rank.max()) if len(rank) else 0)
    total = np.bincount(slot, weights=gain * weights[rank - 1], minlength=data.size)
    return (1.0 - p) * total


def rbp_residual_kernel(data, measure) -> np.ndarray:
    p = float(measure.param("p"))
    n = data.retrieved(measure.k)
    slot, rank, grade = data.within(measure.k)
    judged_rows = grade >= 0
    slot, rank = slot[judged_rows], rank[judged_rows]
    weights = _powers(p, int(n.max()) if data.size else 0)
    count = n - np.bincount(slot, minlength=data.size)  # unjudged ranks
    longest = int(n.max()) if data.size else 0
    if longest * data.size <= _RANK_STEPS_PER_RANK * int(n.sum()):
        unjudged_weight = _unjudged_weight_by_rank(data.size, n, slot, rank, weights, longest)
    else:  # a few very long lists: expand every rank instead (memory: 30 bytes per rank)
        unjudged_weight = _unjudged_weight_expanded(data.size, n, slot, rank, weights)
    return np.where(count > 0, weights[n] + (1 - p) * unjudged_weight, 0.0)


_RANK_STEPS_PER_RANK = 4  # lists of about equal length: a step per rank; else (a few very long lists) expand them


def _unjudged_weight_by_rank(size, n, slot, rank, weights, longest) -> np.ndarray:
    """Each query's sum of weights[r - 1] over its unjudged ranks r, added rank after rank (as the readable loop adds;
    adding 0.0 for a judged rank changes no sum): one step per rank for every query at once, in memory of one
    bit per (query, rank), where expanding every rank of every list costs 30 bytes per rank (70 MB at 2M ranks)."""
    judged = np.zeros((longest, size), dtype=bool)  # rank-major: each step reads one contiguous row
    judged[rank - 1, slot] = True
    total = np.zeros(size)
    unjudged = np.empty(size, dtype=bool)
    for r in range(longest):
        np.less(r, n, out=unjudged)
        unjudged &= ~judged[r]
        total += np.where(unjudged, weights[r], 0.0)
    return total


def _unjudged_weight_expanded(size, n, slot, rank, weights) -> np.ndarray:
    all_slots = np.repeat(np.arange(size), n)
    starts = np.cumsum(n) - n
    all_ranks = np.arange(len(all_slots)) - np.repeat(starts, n) + 1
    unjudged = np.ones(len(all_slots), dtype=bool)
    unjudged[starts[slot] + rank - 1] = False
    return np.bincount(all_slots[unjudged], weights=weights[all_ranks[unjudged] - 1], minlength=size)


def expected_reciprocal_rank_kernel(data, measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
    positive = grade > 0
    slot, rank, grade = slot[positive], rank[positive], grade[positive]
    satisfied = np.array([(2 ** min(g, ERR_MAX_GRADE) - 1) / 2**ERR_MAX_GRADE for g in range(ERR_MAX_GRADE + 1)])
    chance = satisfied[np.minimum(grade, ERR_MAX_GRADE)]
    total, still_reading = np.zeros(data.size), np.ones(data.size)
    position = position_within(slot) - 1
    for nth in range(int(position.max()) + 1 if len(position) else 0):  # the nth positive row of every query at once
        rows = position == nth
        at = slot[rows]
        total[at] += chance[rows] * still_reading[at] / rank[rows]
        still_reading[at] *= 1 - chance[rows]
    return total


# --- the families' declarations (metrics.registry collects them) ---

RANK_BIASED_PRECISION = Family(
    "RBP",
    "Rank-biased precision",
    rank_biased_precision,
    rank_biased_precision_kernel,
    "order",
    "RBP: expected gain per document read by a user who reads on with probability p (trec_eval rbp, p = 0.9).",
    rbp_definition,
    rbp_worked,
    (Term.PATIENCE, Term.DISCOUNTED_SUM),
    usually_cut=False,
    trec_eval="rbp",
    ir_measures="RBP",
    params=(PATIENCE,),
)

RBP_RESIDUAL = Family(
    "RBP_resid",
    "Rank-biased precision residual",
    rbp_residual,
    rbp_residual_kernel,
    "order",
    "RBP residual: how much RBP could still rise if the unjudged documents and the rest of the list were relevant.",
    rbp_resid_definition,
    rbp_resid_worked,
    (Term.PATIENCE, Term.UNJUDGED, Term.TAIL),
    usually_cut=False,
    trec_eval="rbp_resid",
    params=(PATIENCE,),
)

EXPECTED_RECIPROCAL_RANK = Family(
    "ERR",
    "Expected reciprocal rank",
    expected_reciprocal_rank,
    expected_reciprocal_rank_kernel,
    "order",
    "ERR@k: the expected 1/rank where a user stops, satisfied with probability (2^grade - 1) / 16 at each rank.",
    err_definition,
    err_worked,
    (Term.STILL_READING,),
    ir_measures="ERR",
)

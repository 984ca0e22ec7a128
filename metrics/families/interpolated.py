"""Interpolated precision at recall levels (trec_eval ``iprec_at_recall``), their 11-point average (``11pt_avg``),
and the precision-recall curve they come from.

Interpolated precision at recall level ℓ is the best precision at any rank from the one where recall first reaches
ℓ onwards: the standard precision-recall graph, made monotone so topics with different R can be averaged.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics._checks import checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions, RecallRounding
from metrics.family import Family, Param
from metrics.latex import aligned_block, decimal, whole
from metrics.lazy_numpy import np
from metrics.prepared import position_within, suffix_max
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term

ELEVEN_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # trec_eval's default recall levels


def relevant_needed(level: float, R: int, rounding: RecallRounding = "nearest") -> int:
    """How many relevant documents recall level ``level`` asks for: level · R rounded half away from zero
    (trec_eval 10.0's lround), or with ``rounding="plus_0.9"`` ⌊level · R + 0.9⌋ (trec_eval 9.0.x, inside
    pytrec_eval). They differ when level · R has a fraction from 0.1 to 0.5: level 0.6 with R = 2 asks for 1 or 2.

    >>> relevant_needed(0.6, 2), relevant_needed(0.6, 2, "plus_0.9")
    (1, 2)
    """
    x = level * R
    if rounding == "plus_0.9":
        return int(x + 0.9)  # C's (long)(x + 0.9) on a non-negative double: truncation
    whole = int(x)
    return whole + 1 if x - whole >= 0.5 else whole  # C's lround; x - whole is exact, unlike floor(x + 0.5)


def precision_at_hits(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions) -> list[float]:
    """Precision at the rank of each relevant document, in rank order: the corners of the precision-recall curve."""
    corners, hits = [], 0
    for rank, _doc, _grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        if relevant:
            hits += 1
            corners.append(hits / rank)
    return corners


def _interpolated(corners: Sequence[float], needed: int) -> float:
    """The best precision at the needed-th hit or after it; 0 when fewer hits were retrieved. needed = 0 takes
    the best precision anywhere (trec_eval's recall level 0)."""
    if needed > len(corners):
        return 0.0
    return max(corners[max(needed, 1) - 1 :], default=0.0)


def interpolated_precision(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    level: float = 0.0,
) -> Breakdown:
    r"""Interpolated precision at a recall level (trec_eval ``iprec_at_recall_ℓ``; ir_measures ``IPrec@ℓ``).

    .. math:: \mathrm{iP}(\ell) = \max_{i:\ \mathrm{R@}i \geq \ell} \mathrm{P@}i

    Conventions (trec_eval ``m_iprec_at_recall.c``): the level asks for ℓ·R relevant documents, rounded
    (conventions.recall_rounding); if fewer were retrieved the value is 0; level 0 takes the best precision anywhere
    in the list. The steps mark the relevant ranks; the one whose precision is the answer contributes the whole
    value.

    >>> interpolated_precision(["a", "x", "b", "y", "c"], {"a": 1, "b": 1, "c": 1}, level=0.5).value  # 2 of 3
    0.6666666666666666
    """
    R = count_relevant(qrels, conventions.threshold)
    needed = relevant_needed(level, R, conventions.recall_rounding)
    corners = precision_at_hits(ranking, qrels, k, conventions)
    value = _interpolated(corners, needed)
    winner = (
        None
        if needed > len(corners) or not corners
        else max(range(max(needed, 1) - 1, len(corners)), key=lambda i: (corners[i], -i))
    )
    steps, running, hit = [], 0.0, -1
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        hit += relevant
        contribution = value if relevant and hit == winner else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    terms = {Term.R: R, Term.RECALL_LEVEL: level, Term.RELEVANT_NEEDED: needed, Term.HITS: len(corners)}
    return Breakdown("IPrec", k, value, tuple(steps), terms, conventions)


def eleven_point_average(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    levels: tuple[float, ...] = ELEVEN_LEVELS,
) -> Breakdown:
    r"""The mean of interpolated precision over recall levels, 0.0, 0.1, ... 1.0 by default (trec_eval ``11pt_avg``).

    .. math:: \mathrm{11pt} = \frac{1}{11} \sum_{\ell \in \{0, 0.1, \ldots, 1\}} \mathrm{iP}(\ell)

    An old estimate of the area under the precision-recall curve (trec_eval calls it obsolete: use AP). Conventions:
    as iprec_at_recall; summed from the last level back, as trec_eval sums. Each relevant rank contributes
    the interpolated precision of the levels it answers, divided by the number of levels.

    >>> round(eleven_point_average(["a", "x", "b"], {"a": 1, "b": 1}).value, 4)  # 1.0 to level 0.7 (1.4 rounds to 1)
    0.9091
    """
    if not levels:
        raise ValueError("11pt_avg needs at least one recall level")
    R = count_relevant(qrels, conventions.threshold)
    corners = precision_at_hits(ranking, qrels, k, conventions)
    total = 0.0
    for level in reversed(levels):  # trec_eval sums its parameters from the last one back
        total += _interpolated(corners, relevant_needed(level, R, conventions.recall_rounding))
    value = total / len(levels)
    share = [0.0] * len(corners)
    for level in levels:  # credit each level's value to the hit whose precision it is
        needed = relevant_needed(level, R, conventions.recall_rounding)
        if needed <= len(corners) and corners:
            best = max(range(max(needed, 1) - 1, len(corners)), key=lambda i: (corners[i], -i))
            share[best] += corners[best] / len(levels)
    steps, running, hit = [], 0.0, -1
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        hit += relevant
        contribution = share[hit] if relevant else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    terms = {Term.R: R, Term.HITS: len(corners), Term.RECALL_LEVEL: float(len(levels))}
    return Breakdown("IPrec11", k, value, tuple(steps), terms, conventions)


def precision_recall_points(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> list[tuple[int, float, float]]:
    """(rank, R@rank, P@rank) at every rank of the top k: the raw precision-recall curve, before interpolation.
    R = 0 gives recall 0 everywhere.

    >>> precision_recall_points(["a", "x", "b"], {"a": 1, "b": 1})
    [(1, 0.5, 1.0), (2, 0.5, 0.5), (3, 1.0, 0.6666666666666666)]
    """
    R = count_relevant(qrels, conventions.threshold)
    points, hits = [], 0
    for rank, _doc, _grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        hits += relevant
        points.append((rank, hits / R if R else 0.0, hits / rank))
    return points


# --- definitions and worked formulas (LaTeX) ---


def interpolated_precision_definition(c: Conventions) -> str:
    return r"\mathrm{iP}(\ell) = \max_{i:\ \mathrm{R@}i\ \geq\ \ell} \mathrm{P@}i"


def interpolated_precision_worked(b: Breakdown) -> str:
    level, needed, hits = b.terms[Term.RECALL_LEVEL], whole(b.terms[Term.RELEVANT_NEEDED]), whole(b.terms[Term.HITS])
    s = rf"\mathrm{{iP}}({level:.2f})"
    product = rf"{level:.2f} \cdot {whole(b.terms[Term.R])}"
    nine = b.conventions.recall_rounding == "plus_0.9"  # trec_eval 9's rounding
    rounded = rf"\lfloor {product} + 0.9 \rfloor" if nine else rf"\mathrm{{round}}({product})"
    lines = [
        rf"{s} &= \max_{{i:\ \mathrm{{R@}}i\ \geq\ {level:.2f}}} \mathrm{{P@}}i"
        rf" \quad (\text{{needs }} {rounded} = {needed}"
        r"\text{ relevant})"
    ]
    if b.terms[Term.RELEVANT_NEEDED] > b.terms[Term.HITS]:
        lines.append(rf"&= 0 \quad \text{{(only {hits} relevant retrieved)}}")
        return aligned_block(lines)
    winner = next((st for st in b.steps if st.contribution), None)
    where = rf" \quad \text{{(}}\mathrm{{P@}}{winner.rank}\text{{)}}" if winner else ""
    lines.append(rf"&= {decimal(b.value)}{where}")
    return aligned_block(lines)


def eleven_point_average_definition(c: Conventions) -> str:
    return r"\mathrm{11pt\_avg} = \frac{1}{11} \sum_{\ell \in \{0, 0.1, \ldots, 1\}} \mathrm{iP}(\ell)"


def eleven_point_average_worked(b: Breakdown) -> str:
    count = b.terms[Term.RECALL_LEVEL]
    levels = whole(count)
    return aligned_block(
        [
            rf"\mathrm{{11pt\_avg}} &= \frac{{1}}{{{levels}}} \sum_{{\ell}} \mathrm{{iP}}(\ell)",
            rf"&= \frac{{{decimal(b.value * count)}}}{{{levels}}} = {decimal(b.value)}",
        ]
    )


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def _interpolated_rows(data, level: float, k: int | None) -> np.ndarray:
    """Interpolated precision at one recall level, per query (metrics.families.interpolated, vectorized)."""
    # The same for every level: built once per cutoff (all_trec asks for 11 levels, and 11pt_avg for 11 more)
    hits, first_row, best_after = data.shared(("IPrec", k), lambda: _best_precision_after(data, k))
    needed = _relevant_needed_per_query(level, data.R, data.conventions.recall_rounding)
    answered = (needed <= hits) & (hits > 0)
    values = np.zeros(data.size)
    values[answered] = best_after[first_row[answered] + np.maximum(needed[answered], 1) - 1]
    # trec_eval starts from precision num_rel_ret / num_ret: 0/0 on a ranking -J left empty, and a level asking
    # for no document takes it (NaN, printed -nan). Only -J empties a ranking of a run file: with -c, a query
    # missing from the run is scored on trec_eval's one-document stand-in ranking (trec_eval.c's bogus_ranking).
    if data.judged_only:
        values[(data.n == 0) & (needed == 0)] = np.nan
    return values


def _best_precision_after(data, k: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(relevant retrieved per query, each query's first relevant row, the best precision at or after each
    relevant row of its query)."""
    relevant = np.flatnonzero(data.relevant() & data.in_top(k))
    slot, rank = data.slot[relevant], data.rank[relevant]
    corners = position_within(slot) / rank
    best_after = suffix_max(slot, corners, data.size)
    hits = np.bincount(slot, minlength=data.size)
    first_row = np.concatenate([[0], np.cumsum(hits)[:-1]])
    return hits, first_row, best_after


def _relevant_needed_per_query(level: float, R: np.ndarray, rounding: RecallRounding) -> np.ndarray:
    """relevant_needed, per query."""
    x = level * R
    if rounding == "plus_0.9":
        return (x + 0.9).astype(np.int64)
    whole = x.astype(np.int64)
    return whole + (x - whole >= 0.5)  # C's lround on a non-negative double


def interpolated_precision_kernel(data, measure) -> np.ndarray:
    return _interpolated_rows(data, measure.param("level"), measure.k)


def eleven_point_average_kernel(data, measure) -> np.ndarray:
    levels = measure.param("levels")
    total = np.zeros(data.size)
    for level in reversed(levels):  # the readable function's order of additions
        total += _interpolated_rows(data, level, measure.k)
    return total / len(levels)


# --- the families' declarations (metrics.registry collects them) ---

INTERPOLATED_PRECISION = Family(
    "IPrec",
    "Interpolated precision at a recall level",
    interpolated_precision,
    interpolated_precision_kernel,
    "curve",
    "Interpolated precision: the best precision at or after the rank where recall reaches the level.",
    interpolated_precision_definition,
    interpolated_precision_worked,
    (Term.R, Term.RECALL_LEVEL, Term.RELEVANT_NEEDED, Term.HITS),
    trec_eval="iprec_at_recall",
    ir_measures="IPrec",
    params=(Param("level", 0.0, 0.0, 1.0, "the recall level, 0 to 1"),),
    at_param="level",
    trec_defaults=ELEVEN_LEVELS,
)

ELEVEN_POINT_AVERAGE = Family(
    "IPrec11",
    "11-point interpolated average precision",
    eleven_point_average,
    eleven_point_average_kernel,
    "curve",
    "The mean interpolated precision at recall 0, 0.1, ..., 1 (an old estimate of the area under the curve).",
    eleven_point_average_definition,
    eleven_point_average_worked,
    (Term.R, Term.HITS, Term.RECALL_LEVEL),
    spellings=("11pt", "11-pt_avg"),
    trec_eval="11pt_avg",
    params=(Param("levels", ELEVEN_LEVELS, 0.0, 1.0, "the recall levels averaged"),),
    trec_param="levels",
    usually_cut=False,
)

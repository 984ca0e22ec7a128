"""Discounted cumulative gain: graded gains, discounted by log2(rank + 1), normalised by the ideal ordering."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from math import log2

from metrics._checks import checked, judged
from metrics.conventions import TREC_EVAL, Conventions, Gain
from metrics.families.gain_measures import Walk, ideal_rows, row_gains, walk_breakdown, walk_values
from metrics.family import GAINS, TREC_CUTOFFS, Family
from metrics.judgments import Gains, LevelGain, gain_of, ideal_gains, level_counts, level_gains
from metrics.latex import aligned_block, compact, decimal, elided_sum, measure_symbol
from metrics.lazy_numpy import np
from metrics.prepared import log2_discounts, position_within, ratio
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def gain(grade: int, kind: Gain = "linear") -> float:
    """The gain of a grade: the grade itself (linear) or 2^grade - 1 (exp). Grades <= 0 gain nothing.

    >>> gain(3), gain(3, "exp"), gain(-1, "exp")
    (3.0, 7.0, 0.0)
    """
    if grade <= 0:
        return 0.0
    return float(grade) if kind == "linear" else float(2**grade - 1)


def dcg(ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL) -> Breakdown:
    r"""Discounted cumulative gain at cutoff k (ranx ``dcg@k``; ``dcg_burges@k`` with exponential gain).

    .. math:: DCG@k = \sum_{i=1}^{k} \frac{g(d_i)}{\log_2(i + 1)}

    Conventions (trec_eval >= 9.0.4): discount log2(rank + 1), so rank 1 is undiscounted; gain = grade (linear)
    or 2^grade - 1 (``gain="exp"``); unjudged, zero and negative grades gain 0. The threshold is ignored.

    >>> round(dcg(["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}, k=4).value, 4)
    5.7619
    """
    top = checked(ranking, qrels, k)
    total, steps = 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = gain(grade, conventions.gain) / log2(rank + 1)
        total += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, total))
    return Breakdown("DCG", k, total, tuple(steps), {Term.DCG: total}, conventions, graded=True)


def ideal_ranking(ranking: Ranking, qrels: Judgments, *, conventions: Conventions = TREC_EVAL) -> list[str]:
    """The best possible order: judged docs with a positive grade (or, with ``idcg="retrieved"``, the retrieved
    docs), by grade descending; equal grades by doc id, so the order is reproducible.
    """
    pool = qrels.keys() if conventions.idcg == "all" else ranking
    return sorted((d for d in pool if qrels.get(d, 0) > 0), key=lambda d: (-qrels[d], d))


def idcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Ideal DCG at cutoff k: the DCG of the best possible ordering (trec_eval's ndcg denominator).

    .. math:: IDCG@k = \sum_{i=1}^{k} \frac{g(d^*_i)}{\log_2(i + 1)}, \quad d^*\ \text{sorted by grade}

    Conventions (trec_eval, ranx): the ideal list holds **every judged doc with grade > 0, retrieved or not**,
    cut at k; k=None keeps all of them (trec_eval ``ndcg``). ``idcg="retrieved"`` sorts only the retrieved
    list, as some tutorials do: it overrates a run that misses relevant docs.

    >>> round(idcg(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).value, 4)
    3.1309
    """
    checked(ranking, qrels, k)
    ideal = ideal_ranking(ranking, qrels, conventions=conventions)
    best = dcg(ideal if k is None else ideal[:k], qrels, conventions=conventions)
    return Breakdown("IDCG", k, best.value, best.steps, {Term.IDCG: best.value}, conventions, graded=True)


def ndcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""Normalised DCG at cutoff k (trec_eval ``ndcg_cut_k``; ``ndcg`` if k is None; ranx ``ndcg_burges@k``
    with ``gain="exp"``).

    .. math:: NDCG@k = \frac{DCG@k}{IDCG@k}

    Conventions (trec_eval): IDCG from all judged grades (see :func:`idcg`); gain linear; the relevance threshold
    is **ignored** (every positive grade is a gain); IDCG = 0 gives 0.0, not NaN. A list shorter than k is
    padded with non-relevant docs. Each rank's contribution is its DCG term divided by IDCG.

    >>> grades = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1, "d6": 3}  # d6 was never retrieved
    >>> round(ndcg(["d1", "d2", "d3", "d4", "d5"], grades, k=5).value, 4)
    0.8047

    ``gains`` maps levels to gains as trec_eval's ``ndcg.1=3,2=9,4=4.5`` does: see
    :func:`ndcg_with_gains`, which computes the value then.
    """
    if gains:
        return ndcg_with_gains(ranking, qrels, k, conventions=conventions, gains=gains)
    actual = dcg(ranking, qrels, k, conventions=conventions)
    best = idcg(ranking, qrels, k, conventions=conventions).value
    steps = tuple(
        RankStep(
            s.rank,
            s.doc_id,
            s.grade,
            s.relevant,
            s.contribution / best if best else 0.0,
            s.running / best if best else 0.0,
        )
        for s in actual.steps
    )
    value = actual.value / best if best else 0.0
    return Breakdown("NDCG", k, value, steps, {Term.DCG: actual.value, Term.IDCG: best}, conventions, graded=True)


def ndcg_walk(values: Sequence[int], levels: Sequence[LevelGain], k: int | None) -> Walk:
    """NDCG with the levels' gains (``m_ndcg.c``): DCG of the ranking / DCG of the ideal ranking, both cut at k."""
    ideal = list(ideal_gains(levels))
    ideal = ideal if k is None else ideal[:k]
    best = 0.0
    for i, gain in enumerate(ideal):
        best += gain / math.log2(i + 2)
    total, terms = 0.0, []
    for i, value in enumerate(values):
        gain = gain_of(value, levels)
        term = gain / math.log2(i + 2) if gain != 0 else 0.0
        if gain != 0:
            total += term
        terms.append(term / best if best > 0 else 0.0)
    value = total / best if best > 0.0 else 0.0
    return Walk(value, tuple(terms), {Term.DCG: total, Term.IDCG: best})


def ndcg_with_gains(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""NDCG with a gain per relevance level (trec_eval ``ndcg.1=3,2=9,4=4.5``; ir_measures ``nDCG(gains=...)``).

    .. math:: \mathrm{NDCG} = \frac{\sum_i g(\ell_i) / \log_2(i+1)}{\sum_i g(\ell^*_i) / \log_2(i+1)}

    Conventions (trec_eval ``m_ndcg.c``, ``gain_init.c``): a level not in the map gains its own number; gains may be
    0 or negative, level 0 may gain; unjudged documents gain 0. The ideal ranking takes the levels by decreasing
    gain and stops at the first gain <= 0 (trec_eval orders gains less than 1 apart as equal: see
    metrics.judgments). k cuts both rankings (trec_eval's ``ndcg`` has no cutoff). IDCG = 0 gives 0.

    >>> b = ndcg_with_gains(["a", "b"], {"a": 1, "b": 2}, gains=((1, 3.0), (2, 9.0)))
    >>> b.value == (3 + 9 / math.log2(3)) / (9 + 3 / math.log2(3))
    True
    """
    top, values = walk_values(ranking, qrels, k)
    walk = ndcg_walk(values, level_gains(level_counts(qrels), gains), k)
    breakdown = walk_breakdown("NDCG", top, qrels, k, walk, conventions)
    return dataclasses.replace(breakdown, gains=tuple(gains), graded=True)


# --- definitions and worked formulas (LaTeX) ---


def _defined(family: str, c: Conventions) -> str:
    return _symbol(family, None, c.gain, symbolic=True)


def _symbol(family: str, k: int | None, gain: str, *, symbolic: bool = False) -> str:
    """``\\mathrm{NDCG@5}``, or ``\\mathrm{NDCG}_{\\exp}\\mathrm{@5}`` under exponential gain."""
    return measure_symbol(family, k, symbolic=symbolic, subscript=r"{\exp}" if gain == "exp" else None)


def gain_symbol(grade: str, c: Conventions) -> str:
    return grade if c.gain == "linear" else rf"\left(2^{{{grade}}} - 1\right)"


def dcg_definition(c: Conventions) -> str:
    return rf"{_defined('DCG', c)} = \sum_{{i=1}}^{{k}} \frac{{{gain_symbol('g_i', c)}}}{{\log_2(i+1)}}"


def idcg_definition(c: Conventions) -> str:
    return rf"{_defined('IDCG', c)} = \sum_{{i=1}}^{{k}} \frac{{{gain_symbol('g^*_i', c)}}}{{\log_2(i+1)}}"


def ndcg_definition(c: Conventions) -> str:
    return rf"{_defined('NDCG', c)} = \frac{{{_defined('DCG', c)}}}{{{_defined('IDCG', c)}}}"


def _gain_term(grade: int, gain: str) -> str:
    if gain == "exp":
        return f"2^{{{grade}}} - 1" if grade > 0 else "0"
    return str(max(grade, 0))


def _dcg_terms(b: Breakdown) -> str:
    if b.gains:  # a gain map (trec_eval ndcg.1=3,2=9): a level not listed gains its own number, unjudged 0
        mapped = dict(b.gains)
        numerators = [compact(mapped.get(s.grade, float(s.grade))) if s.contribution else "0" for s in b.steps]
    else:
        numerators = [_gain_term(s.grade, b.conventions.gain) for s in b.steps]
    terms = [rf"\frac{{{g}}}{{\log_2 {s.rank + 1}}}" for g, s in zip(numerators, b.steps, strict=True)]
    return elided_sum(terms, [s.contribution for s in b.steps])


def dcg_worked(b: Breakdown) -> str:
    s = _symbol(b.family, b.k, b.conventions.gain)
    upper = b.k if b.k is not None else "n"
    g = "g^*_i" if b.family == "IDCG" else "g_i"
    gain = g if b.conventions.gain == "linear" else rf"\left(2^{{{g}}} - 1\right)"
    lines = [rf"{s} &= \sum_{{i=1}}^{{{upper}}} \frac{{{gain}}}{{\log_2(i+1)}}"]
    if b.family == "IDCG":
        source = "all judged grades" if b.conventions.idcg == "all" else "retrieved grades only"
        lines[0] += rf" \quad (g^* = \text{{{source}, best first}})"
    if b.steps:
        lines.append(rf"&= {_dcg_terms(b)}")
    else:
        lines.append(r"&= 0 \quad \text{(nothing to sum)}")
    lines.append(rf"&= {decimal(b.value)}")
    return aligned_block(lines)


def ndcg_worked(b: Breakdown) -> str:
    gain = b.conventions.gain
    s = _symbol("NDCG", b.k, gain)
    dcg_s, idcg_s = _symbol("DCG", b.k, gain), _symbol("IDCG", b.k, gain)
    dcg_v, idcg_v = b.terms[Term.DCG], b.terms[Term.IDCG]
    lines = [rf"{s} &= \frac{{{dcg_s}}}{{{idcg_s}}}"]
    if b.gains:
        listed = r",\ ".join(rf"g({level}) = {compact(gain)}" for level, gain in b.gains)
        lines[0] += rf" \quad \text{{(gain map: }} {listed} \text{{; other levels gain their number)}}"
    if b.steps:
        lines.append(rf"{dcg_s} &= {_dcg_terms(b)} = {decimal(dcg_v)}")
    if not idcg_v:
        lines.append(rf"{s} &= 0 \quad \text{{(}}{idcg_s} = 0\text{{: no judged document has a positive grade)}}")
    else:
        lines.append(rf"{s} &= \frac{{{decimal(dcg_v)}}}{{{decimal(idcg_v)}}} = {decimal(b.value)}")
    return aligned_block(lines)


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def _gains(grades: np.ndarray, kind: str) -> np.ndarray:
    """metrics.families.dcg.gain itself, applied to each distinct grade (2**g - 1 with Python ints for exp)."""
    unique, inverse = np.unique(grades, return_inverse=True)
    return np.array([gain(g, kind) for g in unique.tolist()], dtype=np.float64)[inverse]


def _within(data, slot: np.ndarray, position: np.ndarray, terms: np.ndarray, k: int | None) -> np.ndarray:
    keep = position <= k if k is not None else np.ones(len(position), dtype=bool)
    return np.bincount(slot[keep], weights=terms[keep], minlength=data.size)  # sequential, in rank order


def _row_dcg_terms(data, kind: str) -> np.ndarray:
    """Each judged retrieved row's gain / log2(rank + 1): the same at every cutoff, so built once per run (a dozen
    cutoffs under all_trec) and cut by _within."""
    return data.shared(("DCG terms", kind), lambda: _gains(data.grade, kind) / log2_discounts(data.rank))


def _ideal_terms(data, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(slot, position, gain / log2(position + 1)) of every query's ideal ranking, built once per run."""

    def build():
        if data.conventions.idcg == "all":
            slot, grades = data.ideal_slot, data.ideal_grade
        else:
            positive = data.grade > 0
            slot, grades = data.slot[positive], data.grade[positive]
        order = np.lexsort((-grades, slot))  # by query, grade descending: the ideal ranking
        slot, grades = slot[order], grades[order]
        position = position_within(slot)
        return slot, position, _gains(grades, kind) / log2_discounts(position)

    return data.shared(("IDCG terms", kind), build)


def _idcg(data, k: int | None, kind: str) -> np.ndarray:
    slot, position, terms = _ideal_terms(data, kind)
    return _within(data, slot, position, terms, k)


def dcg_kernel(data, measure) -> np.ndarray:
    kind = measure.gain_under(data.conventions)
    return _within(data, data.slot, data.rank, _row_dcg_terms(data, kind), measure.k)


def idcg_kernel(data, measure) -> np.ndarray:
    return _idcg(data, measure.k, measure.gain_under(data.conventions))


def ndcg_kernel(data, measure) -> np.ndarray:
    if measure.param("gains"):  # trec_eval's ndcg.1=3,2=9: the gain-map walk below
        return ndcg_with_gains_kernel(data, measure)
    return ratio(dcg_kernel(data, measure), idcg_kernel(data, measure))


def ndcg_with_gains_kernel(data, measure) -> np.ndarray:
    gains = measure.param("gains")
    slot, rank, grade = data.within(measure.k)
    gain = row_gains(grade, gains)
    nonzero = gain != 0
    dcg = np.bincount(slot[nonzero], weights=gain[nonzero] / log2_discounts(rank[nonzero]), minlength=data.size)
    ideal_slot, ideal_gain = ideal_rows(data, gains)
    position = position_within(ideal_slot)
    if measure.k is not None:
        keep = position <= measure.k
        ideal_slot, ideal_gain, position = ideal_slot[keep], ideal_gain[keep], position[keep]
    best = np.bincount(ideal_slot, weights=ideal_gain / log2_discounts(position), minlength=data.size)
    return ratio(dcg, np.where(best > 0, best, 0.0))


# --- the families' declarations (metrics.registry collects them) ---

DCG = Family(
    "DCG",
    "Discounted cumulative gain",
    dcg,
    dcg_kernel,
    "order",
    "Discounted cumulative gain: each grade's gain divided by log2(rank + 1).",
    dcg_definition,
    dcg_worked,
    (Term.DCG,),
    graded=True,
    tools={"ranx": "dcg@k"},
    card=4,
    value_range=None,
)

IDCG = Family(
    "IDCG",
    "Ideal DCG",
    idcg,
    idcg_kernel,
    "order",
    "Ideal DCG: the DCG of the best possible ordering of the judged docs.",
    idcg_definition,
    dcg_worked,
    (Term.IDCG,),
    graded=True,
    card=5,
    value_range=None,
)

NDCG = Family(
    "NDCG",
    "Normalised discounted cumulative gain",
    ndcg,
    ndcg_kernel,
    "order",
    "Normalised DCG: DCG / IDCG, 1.0 for the ideal ordering.",
    ndcg_definition,
    ndcg_worked,
    (Term.DCG, Term.IDCG),
    graded=True,
    spellings=("ndcg_cut",),
    params=(GAINS,),
    trec_eval="ndcg_cut",
    trec_eval_uncut="ndcg",
    ir_measures="nDCG",
    trec_defaults=TREC_CUTOFFS,
    tools={"ranx": "ndcg@k", "BEIR": "NDCG@k"},
    card=1,
    curve=4,
    default=1,
    default_cutoff=10,
    tab=1,
    pinned=1,
)

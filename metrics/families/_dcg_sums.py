"""The DCG sum that DCG, IDCG and NDCG share: each grade's gain (linear or exponential), discounted by
log2(rank + 1), its vectorized form and its LaTeX terms.
"""

from __future__ import annotations

from metrics.core.conventions import Conventions, Gain
from metrics.core.lazy_numpy import np
from metrics.core.prepared import log2_discounts, position_within
from metrics.core.types import Breakdown
from metrics.teaching.latex import aligned_block, compact, decimal, elided_sum, measure_symbol


def gain(grade: int, kind: Gain = "linear") -> float:
    """The gain of a grade: the grade itself (linear) or 2^grade - 1 (exp); grades <= 0 gain nothing.

    Parameters
    ----------
    grade : int
        A grade from the qrels.
    kind : {"linear", "exp"}, optional
        ``Conventions.gain``: ``"linear"`` (the default, trec_eval) or ``"exp"`` (ranx ``ndcg_burges``).

    Returns
    -------
    float
        The grade's gain.

    Examples
    --------
    >>> gain(3), gain(3, "exp"), gain(-1, "exp")
    (3.0, 7.0, 0.0)
    """
    if grade <= 0:
        return 0.0
    return float(grade) if kind == "linear" else float(2**grade - 1)


def _defined(family: str, c: Conventions) -> str:
    return _symbol(family, None, c.gain, symbolic=True)


def _symbol(family: str, k: int | None, gain: str, *, symbolic: bool = False) -> str:
    """``\\mathrm{NDCG@5}``, or ``\\mathrm{NDCG}_{\\exp}\\mathrm{@5}`` under exponential gain."""
    return measure_symbol(family, k, symbolic=symbolic, subscript=r"{\exp}" if gain == "exp" else None)


def gain_symbol(grade: str, c: Conventions) -> str:
    return grade if c.gain == "linear" else rf"\left(2^{{{grade}}} - 1\right)"


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


def dcg_sum_worked(b: Breakdown, grade: str, note: str = "") -> str:
    """The worked formula of a DCG sum (DCG's, or IDCG's over the ideal ranking): the sum over the gains of ``grade``
    (``g_i``, or ``g^*_i``), ``note`` after it, the terms written out and the value."""
    s = _symbol(b.family, b.k, b.conventions.gain)
    upper = b.k if b.k is not None else "n"
    lines = [rf"{s} &= \sum_{{i=1}}^{{{upper}}} \frac{{{gain_symbol(grade, b.conventions)}}}{{\log_2(i+1)}}{note}"]
    if b.steps:
        lines.append(rf"&= {_dcg_terms(b)}")
    else:
        lines.append(r"&= 0 \quad \text{(nothing to sum)}")
    lines.append(rf"&= {decimal(b.value)}")
    return aligned_block(lines)


def _gains(grades: np.ndarray, kind: Gain) -> np.ndarray:
    """``gain`` itself, applied to each distinct grade (2**g - 1 with Python ints for exp)."""
    unique, inverse = np.unique(grades, return_inverse=True)
    return np.array([gain(g, kind) for g in unique.tolist()], dtype=np.float64)[inverse]


def _within(data, slot: np.ndarray, position: np.ndarray, terms: np.ndarray, k: int | None) -> np.ndarray:
    keep = position <= k if k is not None else np.ones(len(position), dtype=bool)
    return np.bincount(slot[keep], weights=terms[keep], minlength=data.size)  # sequential, in rank order


def _row_dcg_terms(data, kind: Gain) -> np.ndarray:
    """Each judged retrieved row's gain / log2(rank + 1): the same at every cutoff, so built once per run (a dozen
    cutoffs under all_trec) and cut by _within."""
    return data.shared(("DCG terms", kind), lambda: _gains(data.grade, kind) / log2_discounts(data.rank))


def _ideal_terms(data, kind: Gain) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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

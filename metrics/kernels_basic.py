"""Engine kernels of the cards' families and trec_eval's counts, set measures, R-precision and interpolated
precision: one value per evaluated query (``data`` is a metrics.prepared.Prepared), equal bit for bit to the
readable functions."""

from __future__ import annotations

from metrics.dcg import gain
from metrics.lazy_numpy import np
from metrics.prepared import log2_discounts, position_within, ratio


def _gains(grades: np.ndarray, kind: str) -> np.ndarray:
    """metrics.dcg.gain itself, applied to each distinct grade (2**g - 1 with Python ints for exp)."""
    unique, inverse = np.unique(grades, return_inverse=True)
    return np.array([gain(g, kind) for g in unique.tolist()], dtype=np.float64)[inverse]


def _dcg(data, slot: np.ndarray, position: np.ndarray, grades: np.ndarray, k: int | None, kind: str):
    keep = position <= k if k is not None else np.ones(len(position), dtype=bool)
    terms = _gains(grades[keep], kind) / log2_discounts(position[keep])
    return np.bincount(slot[keep], weights=terms, minlength=data.size)  # sequential, in rank order


def _idcg(data, k: int | None, kind: str) -> np.ndarray:
    if data.conventions.idcg == "all":
        slot, grades = data.ideal_slot, data.ideal_grade
    else:
        positive = data.grade > 0
        slot, grades = data.slot[positive], data.grade[positive]
    order = np.lexsort((-grades, slot))  # by query, grade descending: the ideal ranking
    slot, grades = slot[order], grades[order]
    return _dcg(data, slot, position_within(slot), grades, k, kind)


def dcg(data, measure) -> np.ndarray:
    return _dcg(data, data.slot, data.rank, data.grade, measure.k, measure.gain_under(data.conventions))


def idcg(data, measure) -> np.ndarray:
    return _idcg(data, measure.k, measure.gain_under(data.conventions))


def ndcg(data, measure) -> np.ndarray:
    if measure.param("gains"):  # trec_eval's ndcg.1=3,2=9: its own walk (metrics.kernels_gains)
        from metrics.kernels_gains import ndcg_with_gains

        return ndcg_with_gains(data, measure)
    return ratio(dcg(data, measure), idcg(data, measure))


# -- trec_eval's counts, set measures, R-precision and interpolated precision ------------------------------



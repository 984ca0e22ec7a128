"""The powers of RBP's patience p, the weights by which RBP and rbp_resid discount each rank."""

from __future__ import annotations

from metrics.core.lazy_numpy import np


def _powers(p: float, length: int) -> np.ndarray:
    """1, p, p*p, (p*p)*p, ...: ``length`` + 1 values, multiplied one after the other (np.multiply.accumulate is
    sequential)."""
    out = np.ones(length + 1)
    if length:
        out[1:] = np.multiply.accumulate(np.full(length, p))
    return out

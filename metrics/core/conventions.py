"""The convention switches on which popular tools disagree, with trec_eval's choices as the defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Gain = Literal["linear", "exp"]
IdcgSource = Literal["all", "retrieved"]
ApDenominator = Literal["all", "retrieved"]
RecallRounding = Literal["nearest", "plus_0.9"]
RECALL_ROUNDINGS: tuple[RecallRounding, ...] = ("nearest", "plus_0.9")


@dataclass(frozen=True, slots=True)
class Conventions:
    """How a metric turns grades into numbers; the defaults reproduce trec_eval.

    The switches on which popular tools disagree. Every readable function and :func:`metrics.evaluate` take one
    (``conventions=``); each function's docstring says which switches it reads. ``TREC_EVAL`` is ``Conventions()``;
    ``metrics.core.conventions.PYTREC_EVAL`` is trec_eval 9.0.x's recall rounding, as pytrec_eval and ir_measures
    compute it.

    Parameters
    ----------
    threshold : int, optional
        A doc is relevant iff it is judged and its grade >= threshold (trec_eval ``-l``, default 1; with 0, judged
        non-relevant docs count as relevant, unjudged ones never). NDCG ignores it, as trec_eval does: every
        positive grade is a gain.
    gain : {"linear", "exp"}, optional
        ``"linear"`` (the default) uses the grade itself (trec_eval ``ndcg_cut``); ``"exp"`` uses 2^grade - 1
        (ranx ``ndcg_burges``, Burges et al. 2005). Grades <= 0 give 0 either way.
    idcg : {"all", "retrieved"}, optional
        ``"all"`` (the default) builds the ideal ranking from every judged doc, retrieved or not (trec_eval, ranx);
        ``"retrieved"`` sorts only the retrieved list (a common blog-post shortcut).
    ap_denominator : {"all", "retrieved"}, optional
        ``"all"`` (the default) divides AP by R, every relevant doc in the qrels (trec_eval, ranx); ``"retrieved"``
        divides by the relevant docs retrieved within the cutoff (RAGAS-style context precision).
    recall_rounding : {"nearest", "plus_0.9"}, optional
        How many relevant documents recall level ℓ asks for (iprec_at_recall, 11pt_avg). ``"nearest"`` (the
        default): ℓ·R rounded half away from zero (trec_eval 10.0's lround); ``"plus_0.9"``: ⌊ℓ·R + 0.9⌋
        (trec_eval 9.0.x, so pytrec_eval and ir_measures). Level 0.6 with R = 2: 1 document vs 2.

    Raises
    ------
    ValueError
        If threshold is not an integer >= 0, or another switch is not one of its values.

    Examples
    --------
    >>> Conventions() == TREC_EVAL
    True
    >>> from metrics import ndcg
    >>> round(ndcg(["a", "b"], {"a": 1, "b": 3}, conventions=Conventions(gain="exp")).value, 4)
    0.7098
    >>> Conventions(gain="log")
    Traceback (most recent call last):
    ...
    ValueError: gain must be 'linear' or 'exp', got 'log'
    """

    threshold: int = 1
    gain: Gain = "linear"
    idcg: IdcgSource = "all"
    ap_denominator: ApDenominator = "all"
    recall_rounding: RecallRounding = "nearest"

    def __post_init__(self) -> None:
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, int) or self.threshold < 0:
            raise ValueError(f"the relevance threshold must be an integer >= 0, got {self.threshold!r}")
        if self.gain not in ("linear", "exp"):
            raise ValueError(f"gain must be 'linear' or 'exp', got {self.gain!r}")
        if self.idcg not in ("all", "retrieved"):
            raise ValueError(f"idcg must be 'all' or 'retrieved', got {self.idcg!r}")
        if self.ap_denominator not in ("all", "retrieved"):
            raise ValueError(f"ap_denominator must be 'all' or 'retrieved', got {self.ap_denominator!r}")
        if self.recall_rounding not in RECALL_ROUNDINGS:
            raise ValueError(f"recall_rounding must be 'nearest' or 'plus_0.9', got {self.recall_rounding!r}")


TREC_EVAL = Conventions()
"""trec_eval 10.0's conventions, ``Conventions()``: every function's default."""
PYTREC_EVAL = Conventions(recall_rounding="plus_0.9")  # trec_eval 9.0.x inside pytrec_eval (and ir_measures)

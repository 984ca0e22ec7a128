"""Normalised NRBP (nNRBP), ndeval 4.5's: NRBP over the NRBP of ndeval's greedy ideal ranking.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching, Values
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking, Term
from metrics.diversity import arithmetic as a
from metrics.diversity.readable import ALPHA, BETA, IDEAL, SubtopicJudgments, one_topic, per_query, steps_of, walk
from metrics.diversity.worked import ratio_worked

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

RUN = Term("run")  # the run's own value, before it is divided by the ideal ranking's


def nnrbp(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, alpha: float = 0.5, beta: float = 0.5,
    conventions: Conventions = TREC_EVAL,
) -> Breakdown:  # fmt: skip
    r"""nNRBP as ndeval 4.5 computes it: NRBP over the NRBP of ndeval's greedy ideal ranking (its whole list).

    ndeval ``nNRBP``, ir_measures ``nNRBP``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; distinct strings.
    qrels : mapping
        One topic's judgments ``{subtopic: {doc: grade}}``, or plain qrels ``{doc: grade}`` (one subtopic).
    k : int or None, optional
        Cut the ranking at k first (ndeval -M; the ideal ranking is not cut); None (the default): the whole list.
    alpha : float, optional
        Redundancy intolerance, 0 to 1 (ndeval's default 0.5).
    beta : float, optional
        Patience, 0 to 1 (ndeval's default 0.5).
    conventions : Conventions, optional
        ``threshold``: the grade that makes a document cover a subtopic (ndeval: 1).

    Returns
    -------
    Breakdown
        ``value`` is nNRBP; ``steps`` are AspectSteps contributing g_i beta^(i-1) (unscaled); ``terms`` hold the run's
        NRBP and the ideal ranking's.

    Raises
    ------
    ValueError
        As :func:`metrics.families.nrbp.nrbp`.

    Notes
    -----
    .. math:: \mathrm{nNRBP} = \frac{\mathrm{NRBP}}{\mathrm{NRBP}(\text{ideal})}

    NaN (ndeval prints -nan) where both are 0: no subtopic is relevant, or alpha = 0 with beta = 1.

    Examples
    --------
    >>> nnrbp(["b", "a"], {"1": {"a": 1, "b": 1}}).value
    1.0
    """
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"beta must be from 0 to 1, got {beta!r}")
    w = walk(ranking, qrels, k, alpha, conventions)
    n = w.aspects.subtopics
    run = a.nrbp(w.scores, n, alpha, beta)
    ideal = a.nrbp(a.scores(w.ideal_covers(alpha), alpha), n, alpha, beta)
    steps = steps_of(w, [score * beta**i for i, score in enumerate(w.scores)])
    return Breakdown("nNRBP", k, a.divide(run, ideal), steps, {RUN: run, IDEAL: ideal}, conventions)


def nnrbp_definition(c: Conventions) -> str:
    return (
        r"\mathrm{nNRBP} = \frac{\mathrm{NRBP}}{\mathrm{NRBP}(\text{ideal})}, \quad "
        r"\mathrm{NRBP} = \frac{1 - (1-\alpha)\beta}{N} \sum_i \beta^{i-1} g_i"
    )


def nnrbp_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    alpha, beta, k = measure.number("alpha"), measure.number("beta"), measure.k

    def value(covers: list, ideal: list, relevant) -> float:
        n = one_topic(relevant)[0]
        run = a.nrbp(a.scores(covers[:k] if k else covers, alpha), n, alpha, beta)
        return a.divide(run, a.nrbp(a.scores(ideal, alpha), n, alpha, beta))

    return per_query(data, value, alpha)


NNRBP = Family(
    key="nNRBP",
    title="Normalised novelty- and rank-biased precision",
    help="nNRBP (ndeval): NRBP over the NRBP of the greedy ideal ranking.",
    function=nnrbp,
    kernel=nnrbp_kernel,
    kind="order",
    teaching=Teaching(
        nnrbp_definition,
        lambda b: ratio_worked("nNRBP", b, RUN),
        terms=(RUN, IDEAL),
        plain="rewards covering many subtopics near the top of {top}, as a share of what the best ranking found gets",
    ),
    written="whole",
    params=(ALPHA, BETA),
    values=Values(range=None),
    names=Names(ir_measures="nNRBP"),
    order=790,
)

"""Normalised intent-aware ERR (nERR-IA@k), ndeval 4.5's: ERR-IA@k over ERR-IA@k of ndeval's greedy ideal ranking.

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
from metrics.diversity.readable import ALPHA, IDEAL, SubtopicJudgments, steps_of, walk
from metrics.diversity.worked import GAIN, GAIN_WHERE, ratio_worked
from metrics.families._novelty_curves import normalised_values, over_ideal

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

RUN = Term("run")  # the run's own value, before it is divided by the ideal ranking's


def nerr_ia(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, alpha: float = 0.5,
    conventions: Conventions = TREC_EVAL,
) -> Breakdown:  # fmt: skip
    r"""nERR-IA@k as ndeval 4.5 computes it: ERR-IA@k over the ERR-IA@k of ndeval's greedy ideal ranking.

    ndeval ``nERR-IA@k``, ir_measures ``nERR_IA@k``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; distinct strings.
    qrels : mapping
        One topic's judgments ``{subtopic: {doc: grade}}``, or plain qrels ``{doc: grade}`` (one subtopic).
    k : int
        The cutoff (ndeval reports 5, 10 and 20); None: the whole list.
    alpha : float, optional
        Redundancy intolerance, 0 to 1 (ndeval's default 0.5).
    conventions : Conventions, optional
        ``threshold``: the grade that makes a document cover a subtopic (ndeval: 1).

    Returns
    -------
    Breakdown
        ``value`` is nERR-IA@k; ``steps`` are AspectSteps contributing g_i / i; ``terms`` hold the run's ERR-IA@k
        and the ideal ranking's.

    Raises
    ------
    ValueError
        As :func:`metrics.families.err_ia.err_ia`.

    Notes
    -----
    .. math:: \mathrm{nERR\text{-}IA@}k = \frac{\mathrm{ERR\text{-}IA@}k}{\mathrm{ERR\text{-}IA@}k(\text{ideal})}

    The ideal ranking is ndeval's greedy one (metrics.diversity.ideal), not always the best: a run can score above 1.
    0 where the run's alpha-DCG@k is 0 (ndeval divides only where it is not).

    Examples
    --------
    >>> b = nerr_ia(["b", "a"], {"1": {"a": 1}, "2": {"a": 1, "b": 1}}, 2)
    >>> round(b.value, 4), round((1 + 1.5 / 2) / (2 + 0.5 / 2), 4)  # b, then a (new 1 + seen once 0.5), halved
    (0.7778, 0.7778)
    """
    w = walk(ranking, qrels, k, alpha, conventions)
    value, run, ideal = over_ideal(w, k or len(w.ranking), alpha, a.err_curve, guard=a.dcg_curve)
    steps = steps_of(w, [score / float(i + 1) for i, score in enumerate(w.scores)])
    return Breakdown("nERR_IA", k, value, steps, {RUN: run, IDEAL: ideal}, conventions)


def nerr_ia_definition(c: Conventions) -> str:
    return (
        r"\mathrm{nERR\text{-}IA@}k = \frac{\mathrm{ERR\text{-}IA@}k}{\mathrm{ERR\text{-}IA@}k(\text{ideal})}, "
        r"\quad \mathrm{ERR\text{-}IA@}k \propto \sum_{i=1}^{k} \frac{g_i}{i}, \quad " + GAIN + GAIN_WHERE
    )


def nerr_ia_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return normalised_values(data, measure, a.err_curve, guard=a.dcg_curve)


NERR_IA = Family(
    key="nERR_IA",
    title="Normalised intent-aware expected reciprocal rank",
    help="nERR-IA@k (ndeval): ERR-IA@k over ERR-IA@k of the greedy ideal ranking.",
    function=nerr_ia,
    kernel=nerr_ia_kernel,
    kind="order",
    teaching=Teaching(
        nerr_ia_definition,
        lambda b: ratio_worked("nERR_IA", b, RUN),
        terms=(RUN, IDEAL),
        plain="rewards covering many subtopics early in {top}, as a share of what the best ranking found achieves",
    ),
    params=(ALPHA,),
    values=Values(range=None),
    names=Names(spellings=("nERR-IA",), ir_measures="nERR_IA"),
    order=750,
)

"""alpha-nDCG@k, ndeval 4.5's: alpha-DCG@k over alpha-DCG@k of ndeval's greedy ideal ranking.

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


def alpha_ndcg(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, alpha: float = 0.5,
    conventions: Conventions = TREC_EVAL,
) -> Breakdown:  # fmt: skip
    r"""alpha-nDCG@k as ndeval 4.5 computes it: alpha-DCG@k over the alpha-DCG@k of ndeval's greedy ideal ranking.

    ndeval ``alpha-nDCG@k``, ir_measures ``alpha_nDCG@k``. Clarke et al., SIGIR 2008.

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
        ``value`` is alpha-nDCG@k; ``steps`` are AspectSteps (subtopics covered, times seen above, gains, discount)
        contributing g_i times the discount; ``terms`` hold the run's alpha-DCG@k and the ideal ranking's.

    Raises
    ------
    ValueError
        As :func:`metrics.families.err_ia.err_ia`.

    Notes
    -----
    .. math:: \alpha\mathrm{\text{-}nDCG@}k = \frac{\alpha\mathrm{\text{-}DCG@}k}
        {\alpha\mathrm{\text{-}DCG@}k(\text{ideal})}

    The ideal ranking is ndeval's greedy one (metrics.diversity.ideal), ties to the document last in byte order:
    not always the best, so a run can score above 1. 0 where the run's alpha-DCG@k is 0.

    Examples
    --------
    >>> alpha_ndcg(["b", "a"], {"1": {"a": 1}, "2": {"a": 1}, "3": {"b": 1}}, 5).value < 1
    True
    """
    w = walk(ranking, qrels, k, alpha, conventions)
    value, run, ideal = over_ideal(w, k or len(w.ranking), alpha, a.dcg_curve)
    steps = steps_of(w, [score * a.discount(i) for i, score in enumerate(w.scores)], a.discount)
    return Breakdown("alpha_nDCG", k, value, steps, {RUN: run, IDEAL: ideal}, conventions)


def alpha_ndcg_definition(c: Conventions) -> str:
    return (
        r"\mathrm{\alpha\text{-}nDCG@}k = \frac{\alpha\text{-}\mathrm{DCG@}k}{\alpha\text{-}\mathrm{DCG@}k"
        r"(\text{ideal})}, \quad \alpha\text{-}\mathrm{DCG@}k \propto \sum_{i=1}^{k} \frac{g_i}{\log_2(i+1)}, \quad "
        + GAIN
        + GAIN_WHERE
    )


def alpha_ndcg_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return normalised_values(data, measure, a.dcg_curve)


ALPHA_NDCG = Family(
    key="alpha_nDCG",
    title="alpha-nDCG (novelty-aware normalised DCG)",
    help="alpha-nDCG@k (ndeval): alpha-DCG@k over alpha-DCG@k of the greedy ideal ranking (can exceed 1).",
    function=alpha_ndcg,
    kernel=alpha_ndcg_kernel,
    kind="order",
    teaching=Teaching(
        alpha_ndcg_definition,
        lambda b: ratio_worked("alpha_nDCG", b, RUN),
        terms=(RUN, IDEAL),
        plain="rewards covering many subtopics high in {top} rather than repeating one, as a share of the best found",
    ),
    params=(ALPHA,),
    values=Values(range=None),
    names=Names(spellings=("alpha-nDCG",), ir_measures="alpha_nDCG"),
    order=770,
)

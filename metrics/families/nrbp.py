"""Novelty- and rank-biased precision (NRBP), ndeval 4.5's: each rank's novelty gain weighted by beta^(rank - 1),
summed over the whole list, scaled so that covering every subtopic at every rank scores 1.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking
from metrics.diversity import arithmetic as a
from metrics.diversity.readable import ALPHA, BETA, SUBTOPICS, SubtopicJudgments, one_topic, per_query, steps_of, walk
from metrics.diversity.worked import GAIN, GAIN_WHERE, summed
from metrics.teaching.latex import plain

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def nrbp(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, alpha: float = 0.5, beta: float = 0.5,
    conventions: Conventions = TREC_EVAL,
) -> Breakdown:  # fmt: skip
    r"""NRBP as ndeval 4.5 computes it: novelty gains weighted by beta^(i - 1), summed over the list, times
    (1 - (1 - alpha) beta) / N.

    ndeval ``NRBP``, ir_measures ``NRBP``. Clarke et al., ICTIR 2009.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; distinct strings.
    qrels : mapping
        One topic's judgments ``{subtopic: {doc: grade}}``, or plain qrels ``{doc: grade}`` (one subtopic).
    k : int or None, optional
        Cut the ranking at k first (ndeval -M); None (the default): the whole list, as ndeval.
    alpha : float, optional
        Redundancy intolerance, 0 to 1 (ndeval's default 0.5).
    beta : float, optional
        Patience, 0 to 1 (ndeval's default 0.5).
    conventions : Conventions, optional
        ``threshold``: the grade that makes a document cover a subtopic (ndeval: 1).

    Returns
    -------
    Breakdown
        ``value`` is NRBP; ``steps`` are AspectSteps contributing g_i beta^(i-1) times the scale; ``terms`` hold the
        subtopics counted.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, alpha or beta lies outside 0 to 1, the ranking is not distinct
        strings or a grade is not an integer.

    Notes
    -----
    .. math:: \mathrm{NRBP} = \frac{1 - (1-\alpha)\beta}{N} \sum_i \beta^{i-1} g_i

    N counts the subtopics some document is relevant to; 0 when there are none.

    Examples
    --------
    >>> nrbp(["a", "b"], {"1": {"a": 1, "b": 1}}).value == (1 + 0.5 * 0.5) * (1 - 0.5 * 0.5)
    True
    """
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"beta must be from 0 to 1, got {beta!r}")
    w = walk(ranking, qrels, k, alpha, conventions)
    n = w.aspects.subtopics
    value = a.nrbp(w.scores, n, alpha, beta)
    scale = (1 - (1 - alpha) * beta) / n if n else 0.0
    steps = steps_of(w, [score * beta**i * scale for i, score in enumerate(w.scores)])
    return Breakdown("NRBP", k, value, steps, {SUBTOPICS: float(n)}, conventions)


def nrbp_definition(c: Conventions) -> str:
    return r"\mathrm{NRBP} = \frac{1 - (1-\alpha)\beta}{N} \sum_{i} \beta^{i-1} g_i, \quad " + GAIN + GAIN_WHERE


def nrbp_worked(b: Breakdown) -> str:
    return summed(plain("NRBP", b.k), b, None, r"\frac{1 - (1-\alpha)\beta}{N} \sum_i \beta^{i-1} g_i")


def nrbp_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    alpha, beta, k = measure.number("alpha"), measure.number("beta"), measure.k

    def value(covers: list, ideal: list, relevant) -> float:
        return a.nrbp(a.scores(covers[:k] if k else covers, alpha), one_topic(relevant)[0], alpha, beta)

    return per_query(data, value)


NRBP = Family(
    key="NRBP",
    title="Novelty- and rank-biased precision",
    help="NRBP (ndeval): novelty gains weighted by beta^(rank - 1), scaled so that the best conceivable list scores 1.",
    function=nrbp,
    kernel=nrbp_kernel,
    kind="order",
    teaching=Teaching(
        nrbp_definition,
        nrbp_worked,
        terms=(SUBTOPICS,),
        plain="rewards covering many subtopics near the top of {top}, for a reader who reads on with probability beta",
    ),
    written="whole",
    params=(ALPHA, BETA),
    names=Names(ir_measures="NRBP"),
    order=780,
)

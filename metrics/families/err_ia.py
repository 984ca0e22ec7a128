"""Intent-aware expected reciprocal rank (ERR-IA@k), ndeval 4.5's: each rank's novelty gain over the rank, summed,
over the same sum for a ranking that covers every subtopic at every rank ("ideal ideal" normalisation).

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
from metrics.diversity.readable import ALPHA, IDEAL_IDEAL, SUBTOPICS, SubtopicJudgments, steps_of, walk
from metrics.diversity.worked import GAIN, GAIN_WHERE, summed
from metrics.families._novelty_curves import novelty_values
from metrics.teaching.latex import plain

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def err_ia(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, alpha: float = 0.5,
    conventions: Conventions = TREC_EVAL,
) -> Breakdown:  # fmt: skip
    r"""ERR-IA@k as ndeval 4.5 computes it: the novelty gain of each rank over the rank, summed to k, over that sum for
    every subtopic covered at every rank.

    ndeval ``ERR-IA@k``, ir_measures ``ERR_IA@k``. Chapelle et al., CIKM 2009; Clarke et al.'s novelty gain.

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
        ``value`` is ERR-IA@k; ``steps`` are AspectSteps (subtopics covered, times seen above, gains), contributing
        g_i / i; ``terms`` hold the subtopics counted and the "ideal ideal" divisor.

    Raises
    ------
    ValueError
        If k is not a positive integer, alpha lies outside 0 to 1, the ranking is not distinct strings or a grade is
        not an integer.

    Notes
    -----
    .. math:: \mathrm{ERR\text{-}IA@}k = \frac{\sum_{i \le k} g_i / i}{\sum_{i \le k} N (1-\alpha)^{i-1} / i},
        \qquad g_i = \sum_{s \in S(d_i)} (1 - \alpha)^{c_s(i)}

    N counts the subtopics some document is relevant to; 0 when there are none. As ndeval, the value at k = 1 is
    not divided (ndeval never divides its first rank: it reports 5, 10 and 20).

    Examples
    --------
    >>> err_ia(["a", "b"], {"1": {"a": 1}, "2": {"a": 1, "b": 1}}, 2).value == (2 + 0.5 / 2) / (2 + 1 / 2)
    True
    """
    w = walk(ranking, qrels, k, alpha, conventions)
    n, depth = w.aspects.subtopics, k or len(w.ranking)
    value = a.last(a.err_curve(w.scores, n, alpha, depth))
    steps = steps_of(w, [score / float(i + 1) for i, score in enumerate(w.scores)])
    terms = {SUBTOPICS: float(n), IDEAL_IDEAL: a.ideal_ideal(n, alpha, depth, discounted=False)}
    return Breakdown("ERR_IA", k, value, steps, terms, conventions)


def err_ia_definition(c: Conventions) -> str:
    return (
        r"\mathrm{ERR\text{-}IA@}k = \frac{\sum_{i=1}^{k} g_i / i}{\sum_{i=1}^{k} N (1-\alpha)^{i-1} / i}, \quad "
        + GAIN
        + GAIN_WHERE
    )


def err_ia_worked(b: Breakdown) -> str:
    return summed(plain("ERR_IA", b.k), b, f"{b.terms[IDEAL_IDEAL]:.4f}", r"\frac{\sum_i g_i / i}{\text{ideal ideal}}")


def err_ia_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return novelty_values(data, measure, a.err_curve)


ERR_IA = Family(
    key="ERR_IA",
    title="Intent-aware expected reciprocal rank",
    help="ERR-IA@k (ndeval): novelty gains over their rank, over the same for every subtopic covered at every rank.",
    function=err_ia,
    kernel=err_ia_kernel,
    kind="order",
    teaching=Teaching(
        err_ia_definition,
        err_ia_worked,
        terms=(SUBTOPICS, IDEAL_IDEAL),
        plain="rewards covering many subtopics early in {top}, each subtopic worth less each time it is covered again",
    ),
    params=(ALPHA,),
    names=Names(spellings=("ERR-IA",), ir_measures="ERR_IA"),
    order=740,
)

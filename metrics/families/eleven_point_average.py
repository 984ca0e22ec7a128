"""11-point interpolated average precision (IPrec11). The mean interpolated precision at recall 0, 0.1, ..., 1 (an old
estimate of the area under the curve).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Param, Teaching, TrecEval
from metrics.core.checks import checked, count_relevant, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families._interpolation import (
    ELEVEN_LEVELS,
    _interpolated,
    _interpolated_rows,
    precision_at_hits,
    relevant_needed,
)
from metrics.teaching.latex import aligned_block, decimal, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def eleven_point_average(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    levels: tuple[float, ...] = ELEVEN_LEVELS,
) -> Breakdown:
    r"""The mean of interpolated precision over recall levels, 0.0, 0.1, ... 1.0 by default.

    trec_eval ``11pt_avg``: an old estimate of the area under the precision-recall curve.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold`` (a doc is relevant
        if it is judged and its grade >= threshold) and ``recall_rounding``, how ℓ·R is rounded to a number of
        relevant docs (``"nearest"``, trec_eval 10.0; ``"plus_0.9"``, trec_eval 9.0.x and pytrec_eval).
    levels : tuple of float, optional
        The recall levels averaged, each 0 to 1 (trec_eval ``11pt_avg.0.2,0.5``); the eleven levels 0.0, 0.1, ...
        1.0 by default.

    Returns
    -------
    Breakdown
        ``value`` is the mean, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, each relevant
        rank contributing the interpolated precision of the levels it answers, divided by the number of levels;
        ``terms`` holds R (``Term.R``), the relevant docs retrieved (``Term.HITS``) and the number of levels
        (``Term.RECALL_LEVEL``).

    Raises
    ------
    ValueError
        If ``levels`` is empty, k is neither None nor a positive integer, the ranking is a single string or holds a
        doc id twice or one that is not a string, or a grade is not an integer.

    See Also
    --------
    interpolated_precision : one level.
    average_precision : what trec_eval advises instead.

    Notes
    -----
    .. math:: \mathrm{11pt} = \frac{1}{11} \sum_{\ell \in \{0, 0.1, \ldots, 1\}} \mathrm{iP}(\ell)

    An old estimate of the area under the precision-recall curve (trec_eval calls it obsolete: use AP). Conventions:
    as iprec_at_recall; summed from the last level back, as trec_eval sums. Each relevant rank contributes
    the interpolated precision of the levels it answers, divided by the number of levels.

    Examples
    --------
    >>> round(eleven_point_average(["a", "x", "b"], {"a": 1, "b": 1}).value, 4)  # 1.0 to level 0.7 (1.4 rounds to 1)
    0.9091
    >>> round(eleven_point_average(["a", "x", "b"], {"a": 1, "b": 1}, levels=(0.5, 1.0)).value, 4)
    0.8333
    """
    if not levels:
        raise ValueError("11pt_avg needs at least one recall level")
    R = count_relevant(qrels, conventions.threshold)
    corners = precision_at_hits(ranking, qrels, k, conventions)
    total = 0.0
    for level in reversed(levels):  # trec_eval sums its parameters from the last one back
        total += _interpolated(corners, relevant_needed(level, R, conventions.recall_rounding))
    value = total / len(levels)
    share = [0.0] * len(corners)
    for level in levels:  # credit each level's value to the hit whose precision it is
        needed = relevant_needed(level, R, conventions.recall_rounding)
        if needed <= len(corners) and corners:
            best = max(range(max(needed, 1) - 1, len(corners)), key=lambda i: (corners[i], -i))
            share[best] += corners[best] / len(levels)
    steps, running, hit = [], 0.0, -1
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        hit += relevant
        contribution = share[hit] if relevant else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    terms = {Term.R: R, Term.HITS: len(corners), Term.RECALL_LEVEL: float(len(levels))}
    return Breakdown("IPrec11", k, value, tuple(steps), terms, conventions)


def eleven_point_average_definition(c: Conventions) -> str:
    return r"\mathrm{11pt\_avg} = \frac{1}{11} \sum_{\ell \in \{0, 0.1, \ldots, 1\}} \mathrm{iP}(\ell)"


def eleven_point_average_worked(b: Breakdown) -> str:
    count = b.terms[Term.RECALL_LEVEL]
    levels = whole(count)
    return aligned_block(
        [
            rf"\mathrm{{11pt\_avg}} &= \frac{{1}}{{{levels}}} \sum_{{\ell}} \mathrm{{iP}}(\ell)",
            rf"&= \frac{{{decimal(b.value * count)}}}{{{levels}}} = {decimal(b.value)}",
        ]
    )


def eleven_point_average_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    levels = measure.numbers("levels")
    total = np.zeros(data.size)
    for level in reversed(levels):  # the readable function's order of additions
        total += _interpolated_rows(data, level, measure.k)
    return total / len(levels)


ELEVEN_POINT_AVERAGE = Family(
    key="IPrec11",
    title="11-point interpolated average precision",
    help="The mean interpolated precision at recall 0, 0.1, ..., 1 (an old estimate of the area under the curve).",
    function=eleven_point_average,
    kernel=eleven_point_average_kernel,
    kind="curve",
    teaching=Teaching(
        eleven_point_average_definition,
        eleven_point_average_worked,
        terms=(Term.R, Term.HITS, Term.RECALL_LEVEL),
        plain=(
            "rewards staying precise from the first relevant document found to the last: a summary of"
            " the precision-recall curve"
        ),
    ),
    written="whole",
    params=(Param("levels", ELEVEN_LEVELS, 0.0, 1.0, "the recall levels averaged"),),
    names=Names(spellings=("11pt", "11-pt_avg")),
    trec_eval=TrecEval("11pt_avg", param="levels"),
    order=200,
)

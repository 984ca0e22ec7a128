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
    r"""The mean of interpolated precision over recall levels, 0.0, 0.1, ... 1.0 by default (trec_eval ``11pt_avg``).

    .. math:: \mathrm{11pt} = \frac{1}{11} \sum_{\ell \in \{0, 0.1, \ldots, 1\}} \mathrm{iP}(\ell)

    An old estimate of the area under the precision-recall curve (trec_eval calls it obsolete: use AP). Conventions:
    as iprec_at_recall; summed from the last level back, as trec_eval sums. Each relevant rank contributes
    the interpolated precision of the levels it answers, divided by the number of levels.

    >>> round(eleven_point_average(["a", "x", "b"], {"a": 1, "b": 1}).value, 4)  # 1.0 to level 0.7 (1.4 rounds to 1)
    0.9091
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
    levels = measure.param("levels")
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

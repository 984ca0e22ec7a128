"""Discounted cumulative gain (DCG). Discounted cumulative gain: each grade's gain divided by log2(rank + 1).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from math import log2
from typing import TYPE_CHECKING

from metrics.catalog.family import GAINS, Family, Names, Teaching, TrecEval, Values
from metrics.core.checks import checked, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import Gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families._dcg_sums import _defined, _row_dcg_terms, _within, dcg_sum_worked, gain, gain_symbol
from metrics.families._gain_map_sums import dcg_with_gains, dcg_with_gains_kernel

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def dcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""Discounted cumulative gain at cutoff k (trec_eval ``dcg`` uncut; ranx ``dcg@k``; ``dcg_burges@k`` with
    exponential gain).

    .. math:: DCG@k = \sum_{i=1}^{k} \frac{g(d_i)}{\log_2(i + 1)}

    Conventions (trec_eval >= 9.0.4): discount log2(rank + 1), so rank 1 is undiscounted; gain = grade (linear)
    or 2^grade - 1 (``gain="exp"``); unjudged, zero and negative grades gain 0. The threshold is ignored.

    >>> round(dcg(["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}, k=4).value, 4)
    5.7619

    ``gains`` maps levels to gains as trec_eval's ``dcg.1=3,2=9`` does (metrics.families._gain_map_sums).
    """
    if gains:
        total, steps = dcg_with_gains(ranking, qrels, k, conventions, gains)
        return Breakdown("DCG", k, total, steps, {Term.DCG: total}, conventions, gains=tuple(gains), graded=True)
    top = checked(ranking, qrels, k)
    total, steps = 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = gain(grade, conventions.gain) / log2(rank + 1)
        total += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, total))
    return Breakdown("DCG", k, total, tuple(steps), {Term.DCG: total}, conventions, graded=True)


def dcg_definition(c: Conventions) -> str:
    return rf"{_defined('DCG', c)} = \sum_{{i=1}}^{{k}} \frac{{{gain_symbol('g_i', c)}}}{{\log_2(i+1)}}"


def dcg_worked(b: Breakdown) -> str:
    return dcg_sum_worked(b, "g_i")


def dcg_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    if measure.param("gains"):
        return dcg_with_gains_kernel(data, measure)
    kind = measure.gain_under(data.conventions)
    return _within(data, data.slot, data.rank, _row_dcg_terms(data, kind), measure.k)


DCG = Family(
    key="DCG",
    title="Discounted cumulative gain",
    help="Discounted cumulative gain: each grade's gain divided by log2(rank + 1).",
    function=dcg,
    kernel=dcg_kernel,
    kind="order",
    teaching=Teaching(
        dcg_definition,
        dcg_worked,
        terms=(Term.DCG,),
        plain=(
            "rewards relevant documents near the top of {top}, more for higher grades, each rank a "
            "little less than the one above; it is not capped at 1 and grows with the number of "
            "relevant documents"
        ),
    ),
    graded=True,
    params=(GAINS,),
    names=Names(tools={"ranx": "dcg@k"}),
    trec_eval=TrecEval("dcg"),
    values=Values(range=None),
    order=80,
)

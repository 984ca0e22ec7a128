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
    r"""Discounted cumulative gain at cutoff k: each rank's gain, discounted by log2(rank + 1), summed.

    trec_eval ``dcg`` (uncut); ir_measures ``DCG@k``; ranx ``dcg@k``, and ``dcg_burges@k`` with exponential gain.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: only the top k ranks count. None (the default) looks at the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``gain``, the grade itself
        (``"linear"``) or 2^grade - 1 (``"exp"``). The relevance ``threshold`` is ignored.
    gains : tuple of (int, float) pairs, optional
        A gain per relevance level, e.g. ``((1, 3.0), (2, 9.0))`` (trec_eval ``dcg.1=3,2=9``); other levels gain
        their own number, and ``conventions.gain`` is not read (metrics.families._gain_map_sums). Empty (the
        default): the grades are the gains.

    Returns
    -------
    Breakdown
        ``value`` is DCG@k (not bounded: it grows with the grades); ``steps`` has one RankStep per retrieved rank of
        the top k, contributing its discounted gain; ``terms`` holds ``Term.DCG``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    ndcg : DCG divided by IDCG, from 0 to 1.
    idcg : the DCG of the best possible ordering.

    Notes
    -----
    .. math:: DCG@k = \sum_{i=1}^{k} \frac{g(d_i)}{\log_2(i + 1)}

    Conventions (trec_eval >= 9.0.4): discount log2(rank + 1), so rank 1 is undiscounted; gain = grade (linear)
    or 2^grade - 1 (``gain="exp"``); unjudged, zero and negative grades gain 0. The threshold is ignored.

    Examples
    --------
    >>> grades = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
    >>> round(dcg(["d1", "d2", "d3", "d4", "d5"], grades, k=4).value, 4)
    5.7619
    >>> round(dcg(["d1", "d2", "d3", "d4", "d5"], grades, k=4, conventions=Conventions(gain="exp")).value, 4)
    12.3928
    >>> round(dcg(["a", "b"], {"a": 1, "b": 2}, gains=((1, 3.0), (2, 9.0))).value, 4)  # 3 + 9 / log2(3)
    8.6784
    """
    if gains:
        total, steps = dcg_with_gains(ranking, qrels, k, conventions, gains)
        return Breakdown("DCG", k, total, steps, {Term.DCG: total}, conventions, gains=tuple(gains), graded=True)
    top = checked(ranking, qrels, k)
    total, rows = 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = gain(grade, conventions.gain) / log2(rank + 1)
        total += contribution
        rows.append(RankStep(rank, doc, grade, relevant, contribution, total))
    return Breakdown("DCG", k, total, tuple(rows), {Term.DCG: total}, conventions, graded=True)


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

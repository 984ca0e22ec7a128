"""Geometric mean average precision (GM_AP). AP per query; over queries the geometric mean, which rewards consistency
across topics.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

import dataclasses
import math

from metrics.catalog.family import Family, Names, Teaching, TrecEval, Values
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families.average_precision import average_precision, average_precision_kernel
from metrics.teaching.latex import aligned_block, decimal


def geometric_mean_ap(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Average precision of one query, as trec_eval's ``gm_map`` takes it: its mean over queries is geometric.

    trec_eval ``gm_map``. The per-query value is AP itself.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff, as for :func:`average_precision`: only the top k ranks count. None (the default) looks at the
        whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here, as by AP: ``threshold`` and
        ``ap_denominator``.

    Returns
    -------
    Breakdown
        :func:`average_precision`'s, with family ``"GM_AP"``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    average_precision

    Notes
    -----
    The mean over queries is exp(mean(log max(AP, 0.00001))), which rewards being consistent over topics.

    Examples
    --------
    >>> geometric_mean_ap(["a", "x"], {"a": 1}).value
    1.0
    """
    return dataclasses.replace(average_precision(ranking, qrels, k, conventions=conventions), family="GM_AP")


def geometric_mean_ap_definition(c: Conventions) -> str:
    return r"\mathrm{gm\_map} = \exp\Bigl(\frac{1}{|Q|} \sum_{q} \log \max(\mathrm{AP}_q,\ 0.00001)\Bigr)"


def geometric_mean_ap_worked(b: Breakdown) -> str:
    return aligned_block(
        [
            rf"\mathrm{{AP}} &= {decimal(b.value)} \quad \text{{(this query)}}",
            rf"\log \max(\mathrm{{AP}},\ 0.00001) &= {decimal(math.log(max(b.value, 0.00001)))}",
        ]
    )


GEOMETRIC_MEAN_AP = Family(
    key="GM_AP",
    title="Geometric mean average precision",
    help="AP per query; over queries the geometric mean, which rewards consistency across topics.",
    function=geometric_mean_ap,
    kernel=average_precision_kernel,
    kind="order",
    teaching=Teaching(
        geometric_mean_ap_definition,
        geometric_mean_ap_worked,
        terms=(Term.PRECISION_SUM, Term.R, Term.HITS, Term.DENOMINATOR),
        plain=(
            "rewards doing reasonably on every query: AP, summarised so that a query where the run "
            "fails pulls the summary down much more than in the plain mean"
        ),
    ),
    written="whole",
    names=Names(spellings=("gm_ap",)),
    trec_eval=TrecEval("gm_map", per_query=False),
    values=Values(summary="geometric"),
    order=160,
)

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
    r"""Average precision of one query, as trec_eval's ``gm_map`` takes it: the same AP, but the mean over queries
    is geometric, exp(mean(log max(AP, 0.00001))), which rewards being consistent over topics.

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
    ),
    written="whole",
    names=Names(spellings=("gm_ap",)),
    trec_eval=TrecEval("gm_map", per_query=False),
    values=Values(summary="geometric"),
    order=160,
)

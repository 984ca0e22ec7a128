"""Ideal DCG (IDCG). Ideal DCG: the DCG of the best possible ordering of the judged docs.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import GAINS, Family, Teaching, TrecEval, Values
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import Gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._dcg_sums import _defined, _ideal_terms, _within, dcg_sum_worked, gain_symbol
from metrics.families._gain_map_sums import idcg_with_gains, idcg_with_gains_kernel
from metrics.families.dcg import dcg

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def ideal_ranking(ranking: Ranking, qrels: Judgments, *, conventions: Conventions = TREC_EVAL) -> list[str]:
    """The best possible order: judged docs with a positive grade (or, with ``idcg="retrieved"``, the retrieved
    docs), by grade descending; equal grades by doc id, so the order is reproducible.
    """
    pool = qrels.keys() if conventions.idcg == "all" else ranking
    return sorted((d for d in pool if qrels.get(d, 0) > 0), key=lambda d: (-qrels[d], d))


def idcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""Ideal DCG at cutoff k: the DCG of the best possible ordering (trec_eval's ndcg denominator).

    .. math:: IDCG@k = \sum_{i=1}^{k} \frac{g(d^*_i)}{\log_2(i + 1)}, \quad d^*\ \text{sorted by grade}

    Conventions (trec_eval, ranx): the ideal list holds **every judged doc with grade > 0, retrieved or not**,
    cut at k; k=None keeps all of them (trec_eval ``ndcg``). ``idcg="retrieved"`` sorts only the retrieved
    list, as some tutorials do: it overrates a run that misses relevant docs.

    >>> round(idcg(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).value, 4)
    3.1309

    ``gains`` maps levels to gains as trec_eval's ``ideal_dcg.1=3,2=9`` does (metrics.families._gain_map_sums).
    """
    checked(ranking, qrels, k)
    if gains:
        total, steps = idcg_with_gains(ranking, qrels, k, conventions, gains)
        return Breakdown("IDCG", k, total, steps, {Term.IDCG: total}, conventions, gains=tuple(gains), graded=True)
    ideal = ideal_ranking(ranking, qrels, conventions=conventions)
    best = dcg(ideal if k is None else ideal[:k], qrels, conventions=conventions)
    return Breakdown("IDCG", k, best.value, best.steps, {Term.IDCG: best.value}, conventions, graded=True)


def idcg_definition(c: Conventions) -> str:
    return rf"{_defined('IDCG', c)} = \sum_{{i=1}}^{{k}} \frac{{{gain_symbol('g^*_i', c)}}}{{\log_2(i+1)}}"


def idcg_worked(b: Breakdown) -> str:
    source = "all judged grades" if b.conventions.idcg == "all" else "retrieved grades only"
    return dcg_sum_worked(b, "g^*_i", rf" \quad (g^* = \text{{{source}, best first}})")


def _idcg(data, k: int | None, kind: str) -> np.ndarray:
    slot, position, terms = _ideal_terms(data, kind)
    return _within(data, slot, position, terms, k)


def idcg_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    if measure.param("gains"):
        return idcg_with_gains_kernel(data, measure)
    return _idcg(data, measure.k, measure.gain_under(data.conventions))


IDCG = Family(
    key="IDCG",
    title="Ideal DCG",
    help="Ideal DCG: the DCG of the best possible ordering of the judged docs.",
    function=idcg,
    kernel=idcg_kernel,
    kind="order",
    teaching=Teaching(
        idcg_definition,
        idcg_worked,
        terms=(Term.IDCG,),
        plain=("is no score of the run: it is the best DCG the judged documents allow, the yardstick NDCG divides by"),
    ),
    graded=True,
    params=(GAINS,),
    trec_eval=TrecEval("ideal_dcg"),
    values=Values(range=None),
    scores_the_list=False,
    order=90,
)

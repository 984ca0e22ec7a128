"""Ideal DCG (IDCG). Ideal DCG: the DCG of the best possible ordering of the judged docs.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import GAINS, Family, Teaching, TrecEval, Values
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions, Gain
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
    """The best possible order of a query's documents, the one IDCG scores.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; read only with ``idcg="retrieved"``.
    qrels : Judgments
        The query's judgments, doc id -> integer grade.
    conventions : Conventions, optional
        trec_eval's by default (``TREC_EVAL``). Read here: ``idcg``: ``"all"`` orders every judged doc with a
        positive grade, retrieved or not; ``"retrieved"`` only the retrieved ones.

    Returns
    -------
    list of str
        The doc ids with a positive grade, by grade descending; equal grades by doc id, so the order is
        reproducible. Unjudged docs and grades <= 0 are left out.

    Examples
    --------
    >>> qrels = {"a": 1, "b": 2, "c": 0, "z": 1}
    >>> ideal_ranking(["a", "b", "c"], qrels)
    ['b', 'a', 'z']
    >>> ideal_ranking(["a", "b", "c"], qrels, conventions=Conventions(idcg="retrieved"))
    ['b', 'a']
    """
    pool = qrels.keys() if conventions.idcg == "all" else ranking
    return sorted((d for d in pool if qrels.get(d, 0) > 0), key=lambda d: (-qrels[d], d))


def idcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""Ideal DCG at cutoff k: the DCG of the best possible ordering, NDCG's denominator.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings. Checked, but read only with
        ``idcg="retrieved"``, which orders its docs.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: the ideal ranking's top k count. None (the default) keeps all of it (trec_eval ``ndcg``).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``gain`` (the grade, or
        2^grade - 1) and ``idcg``: ``"all"`` ranks every judged doc with a positive grade, retrieved or not;
        ``"retrieved"`` only the retrieved ones. The relevance ``threshold`` is ignored.
    gains : tuple of (int, float) pairs, optional
        A gain per relevance level, e.g. ``((1, 3.0), (2, 9.0))`` (trec_eval ``ideal_dcg.1=3,2=9``); other levels
        gain their own number, and ``conventions.gain`` and ``conventions.idcg`` are not read
        (metrics.families._gain_map_sums). Empty (the default): the grades are the gains.

    Returns
    -------
    Breakdown
        ``value`` is IDCG@k; ``steps`` are the ideal ranking's ranks (its doc ids, not the ranking's), each
        contributing its discounted gain; ``terms`` holds ``Term.IDCG``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    ideal_ranking : the order it scores.
    ndcg : DCG / IDCG.

    Notes
    -----
    .. math:: IDCG@k = \sum_{i=1}^{k} \frac{g(d^*_i)}{\log_2(i + 1)}, \quad d^*\ \text{sorted by grade}

    Conventions (trec_eval, ranx): the ideal list holds **every judged doc with grade > 0, retrieved or not**,
    cut at k; k=None keeps all of them (trec_eval ``ndcg``). ``idcg="retrieved"`` sorts only the retrieved
    list, as some tutorials do: it overrates a run that misses relevant docs.

    Examples
    --------
    >>> round(idcg(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).value, 4)
    3.1309
    >>> [step.doc_id for step in idcg(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=2).steps]
    ['b', 'a']
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


def _idcg(data, k: int | None, kind: Gain) -> np.ndarray:
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

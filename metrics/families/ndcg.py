"""Normalised discounted cumulative gain (NDCG). Normalised DCG: DCG / IDCG, 1.0 for the ideal ordering.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.catalog.family import GAINS, TREC_CUTOFFS, Default, Family, Names, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import Gains, LevelGain, gain_of, ideal_gains, level_counts, level_gains
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families._dcg_sums import _dcg_terms, _defined, _symbol
from metrics.families._gain_map_sums import dcg_with_gains_kernel, idcg_with_gains_kernel
from metrics.families._gain_walks import Walk, walk_breakdown, walk_values
from metrics.families.dcg import DCG, dcg, dcg_kernel
from metrics.families.idcg import IDCG, idcg, idcg_kernel
from metrics.teaching.latex import aligned_block, compact, decimal

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def ndcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""Normalised DCG at cutoff k: DCG divided by the DCG of the best possible ordering.

    trec_eval ``ndcg_cut_k`` (``ndcg`` when k is None); ir_measures ``nDCG@k``; ranx ``ndcg@k``, and
    ``ndcg_burges@k`` with ``gain="exp"``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: the top k ranks count, and the ideal ranking is cut at k too. None (the default) looks at the
        whole list (trec_eval ``ndcg``).
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``gain`` (the grade, or
        2^grade - 1) and ``idcg`` (the ideal ranking from every judged doc, or from the retrieved ones only). The
        relevance ``threshold`` is ignored: every positive grade is a gain.
    gains : tuple of (int, float) pairs, optional
        A gain per relevance level, e.g. ``((1, 3.0), (2, 9.0))`` (trec_eval ``ndcg.1=3,2=9``); other levels gain
        their own number. When given, :func:`ndcg_with_gains` computes the value, and ``conventions.gain`` and
        ``conventions.idcg`` are not read. Empty (the default): the grades are the gains.

    Returns
    -------
    Breakdown
        ``value`` is NDCG@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, whose
        contribution is its DCG term divided by IDCG; ``terms`` holds ``Term.DCG`` and ``Term.IDCG``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    dcg, idcg : the numerator and the denominator.

    Notes
    -----
    .. math:: NDCG@k = \frac{DCG@k}{IDCG@k}

    Conventions (trec_eval): IDCG from all judged grades (see :func:`idcg`); gain linear; the relevance threshold
    is **ignored** (every positive grade is a gain); IDCG = 0 gives 0.0, not NaN. A list shorter than k is
    padded with non-relevant docs. Each rank's contribution is its DCG term divided by IDCG.

    Examples
    --------
    >>> grades = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1, "d6": 3}  # d6 was never retrieved
    >>> round(ndcg(["d1", "d2", "d3", "d4", "d5"], grades, k=5).value, 4)
    0.8047

    Exponential gain (2^grade - 1), as ranx's ``ndcg_burges``:

    >>> round(ndcg(["d1", "d2", "d3", "d4", "d5"], grades, k=5, conventions=Conventions(gain="exp")).value, 4)
    0.7701
    """
    if gains:
        return ndcg_with_gains(ranking, qrels, k, conventions=conventions, gains=gains)
    actual = dcg(ranking, qrels, k, conventions=conventions)
    best = idcg(ranking, qrels, k, conventions=conventions).value
    steps = tuple(
        RankStep(
            s.rank,
            s.doc_id,
            s.grade,
            s.relevant,
            s.contribution / best if best else 0.0,
            s.running / best if best else 0.0,
        )
        for s in actual.steps
    )
    value = actual.value / best if best else 0.0
    return Breakdown("NDCG", k, value, steps, {Term.DCG: actual.value, Term.IDCG: best}, conventions, graded=True)


def ndcg_walk(values: Sequence[int], levels: Sequence[LevelGain], k: int | None) -> Walk:
    """NDCG with the levels' gains (``m_ndcg.c``): DCG of the ranking / DCG of the ideal ranking, both cut at k."""
    ideal = list(ideal_gains(levels))
    ideal = ideal if k is None else ideal[:k]
    best = 0.0
    for i, gain in enumerate(ideal):
        best += gain / math.log2(i + 2)
    total, terms = 0.0, []
    for i, value in enumerate(values):
        gain = gain_of(value, levels)
        term = gain / math.log2(i + 2) if gain != 0 else 0.0
        if gain != 0:
            total += term
        terms.append(term / best if best > 0 else 0.0)
    score = total / best if best > 0.0 else 0.0
    return Walk(score, tuple(terms), {Term.DCG: total, Term.IDCG: best})


def ndcg_with_gains(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""NDCG with a gain per relevance level (trec_eval ``ndcg.1=3,2=9,4=4.5``; ir_measures ``nDCG(gains=...)``).

    .. math:: \mathrm{NDCG} = \frac{\sum_i g(\ell_i) / \log_2(i+1)}{\sum_i g(\ell^*_i) / \log_2(i+1)}

    Conventions (trec_eval ``m_ndcg.c``, ``gain_init.c``): a level not in the map gains its own number; gains may be
    0 or negative, level 0 may gain; unjudged documents gain 0. The ideal ranking takes the levels by decreasing
    gain and stops at the first gain <= 0 (trec_eval orders gains less than 1 apart as equal: see
    metrics.core.judgments). k cuts both rankings (trec_eval's ``ndcg`` has no cutoff). IDCG = 0 gives 0.

    >>> b = ndcg_with_gains(["a", "b"], {"a": 1, "b": 2}, gains=((1, 3.0), (2, 9.0)))
    >>> b.value == (3 + 9 / math.log2(3)) / (9 + 3 / math.log2(3))
    True
    """
    top, values = walk_values(ranking, qrels, k)
    walk = ndcg_walk(values, level_gains(level_counts(qrels), gains), k)
    breakdown = walk_breakdown("NDCG", top, qrels, k, walk, conventions)
    return dataclasses.replace(breakdown, gains=tuple(gains), graded=True)


def ndcg_definition(c: Conventions) -> str:
    return rf"{_defined('NDCG', c)} = \frac{{{_defined(DCG.key, c)}}}{{{_defined(IDCG.key, c)}}}"


def ndcg_worked(b: Breakdown) -> str:
    gain = b.conventions.gain
    s = _symbol("NDCG", b.k, gain)
    dcg_s, idcg_s = _symbol(DCG.key, b.k, gain), _symbol(IDCG.key, b.k, gain)
    dcg_v, idcg_v = b.terms[Term.DCG], b.terms[Term.IDCG]
    lines = [rf"{s} &= \frac{{{dcg_s}}}{{{idcg_s}}}"]
    if b.gains:
        listed = r",\ ".join(rf"g({level}) = {compact(gain)}" for level, gain in b.gains)
        lines[0] += rf" \quad \text{{(gain map: }} {listed} \text{{; other levels gain their number)}}"
    if b.steps:
        lines.append(rf"{dcg_s} &= {_dcg_terms(b)} = {decimal(dcg_v)}")
    if not idcg_v:
        lines.append(rf"{s} &= 0 \quad \text{{(}}{idcg_s} = 0\text{{: no judged document has a positive grade)}}")
    else:
        lines.append(rf"{s} &= \frac{{{decimal(dcg_v)}}}{{{decimal(idcg_v)}}} = {decimal(b.value)}")
    return aligned_block(lines)


def ndcg_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    if measure.param("gains"):  # trec_eval's ndcg.1=3,2=9: the gain-map walk below
        return ndcg_with_gains_kernel(data, measure)
    return ratio(dcg_kernel(data, measure), idcg_kernel(data, measure))


def ndcg_with_gains_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    best = idcg_with_gains_kernel(data, measure)
    return ratio(dcg_with_gains_kernel(data, measure), np.where(best > 0, best, 0.0))


NDCG = Family(
    key="NDCG",
    title="Normalised discounted cumulative gain",
    help="Normalised DCG: DCG / IDCG, 1.0 for the ideal ordering.",
    function=ndcg,
    kernel=ndcg_kernel,
    kind="order",
    teaching=Teaching(
        ndcg_definition,
        ndcg_worked,
        terms=(Term.DCG, Term.IDCG),
        plain=(
            "rewards putting the most relevant documents at the very top of {top}: each rank counts "
            "less than the one above, a highly relevant document more than a partly relevant one, and"
            " 1 is the best order the judgments allow"
        ),
    ),
    graded=True,
    params=(GAINS,),
    names=Names(spellings=("ndcg_cut",), ir_measures="nDCG", tools={"ranx": "ndcg@k", "BEIR": "NDCG@k"}),
    trec_eval=TrecEval("ndcg_cut", uncut="ndcg", defaults=TREC_CUTOFFS),
    default=Default(1, cutoff=10),
    normaliser=lambda k, conventions: IDCG.key if k is None else f"{IDCG.key}@{k}",
    order=100,
)

"""Interpolated precision at a recall level (IPrec). Interpolated precision: the best precision at or after the rank
where recall reaches the level.

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

RELEVANT_NEEDED = Term("relevant needed")  # the relevant documents a recall level asks for


def interpolated_precision(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    level: float = 0.0,
) -> Breakdown:
    r"""Interpolated precision at a recall level: the best precision at any rank that reaches that recall.

    trec_eval ``iprec_at_recall_ℓ``; ir_measures ``IPrec@ℓ``.

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
    level : float, optional
        ℓ, the recall level, 0 to 1 (0.0 by default: the best precision anywhere in the list).

    Returns
    -------
    Breakdown
        ``value`` is iP(ℓ), from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, the relevant
        rank whose precision is the answer contributing the whole value; ``terms`` holds R (``Term.R``), ℓ
        (``Term.RECALL_LEVEL``), the relevant docs the level asks for (``"relevant needed"``) and the relevant docs
        retrieved (``Term.HITS``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    eleven_point_average : its mean over the levels 0, 0.1, ... 1.

    Notes
    -----
    .. math:: \mathrm{iP}(\ell) = \max_{i:\ \mathrm{R@}i \geq \ell} \mathrm{P@}i

    Conventions (trec_eval ``m_iprec_at_recall.c``): the level asks for ℓ·R relevant documents, rounded
    (conventions.recall_rounding); if fewer were retrieved the value is 0; level 0 takes the best precision anywhere
    in the list. The steps mark the relevant ranks; the one whose precision is the answer contributes the whole
    value.

    Examples
    --------
    >>> interpolated_precision(["a", "x", "b", "y", "c"], {"a": 1, "b": 1, "c": 1}, level=0.5).value  # 2 of 3
    0.6666666666666666

    Level 0.6 with R = 2 asks for 1 relevant doc under trec_eval 10.0's rounding, 2 under trec_eval 9's:

    >>> qrels = {"a": 1, "b": 1}
    >>> interpolated_precision(["a", "x", "b"], qrels, level=0.6).value
    1.0
    >>> trec_eval_9 = Conventions(recall_rounding="plus_0.9")  # metrics.core.conventions.PYTREC_EVAL
    >>> round(interpolated_precision(["a", "x", "b"], qrels, level=0.6, conventions=trec_eval_9).value, 4)
    0.6667
    """
    R = count_relevant(qrels, conventions.threshold)
    needed = relevant_needed(level, R, conventions.recall_rounding)
    corners = precision_at_hits(ranking, qrels, k, conventions)
    value = _interpolated(corners, needed)
    winner = (
        None
        if needed > len(corners) or not corners
        else max(range(max(needed, 1) - 1, len(corners)), key=lambda i: (corners[i], -i))
    )
    steps, running, hit = [], 0.0, -1
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        hit += relevant
        contribution = value if relevant and hit == winner else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    terms = {Term.R: R, Term.RECALL_LEVEL: level, RELEVANT_NEEDED: needed, Term.HITS: len(corners)}
    return Breakdown("IPrec", k, value, tuple(steps), terms, conventions)


def interpolated_precision_definition(c: Conventions) -> str:
    return r"\mathrm{iP}(\ell) = \max_{i:\ \mathrm{R@}i\ \geq\ \ell} \mathrm{P@}i"


def interpolated_precision_worked(b: Breakdown) -> str:
    level, needed, hits = b.terms[Term.RECALL_LEVEL], whole(b.terms[RELEVANT_NEEDED]), whole(b.terms[Term.HITS])
    s = rf"\mathrm{{iP}}({level:.2f})"
    product = rf"{level:.2f} \cdot {whole(b.terms[Term.R])}"
    nine = b.conventions.recall_rounding == "plus_0.9"  # trec_eval 9's rounding
    rounded = rf"\lfloor {product} + 0.9 \rfloor" if nine else rf"\mathrm{{round}}({product})"
    lines = [
        rf"{s} &= \max_{{i:\ \mathrm{{R@}}i\ \geq\ {level:.2f}}} \mathrm{{P@}}i"
        rf" \quad (\text{{needs }} {rounded} = {needed}"
        r"\text{ relevant})"
    ]
    if b.terms[RELEVANT_NEEDED] > b.terms[Term.HITS]:
        lines.append(rf"&= 0 \quad \text{{(only {hits} relevant retrieved)}}")
        return aligned_block(lines)
    winner = next((st for st in b.steps if st.contribution), None)
    where = rf" \quad \text{{(}}\mathrm{{P@}}{winner.rank}\text{{)}}" if winner else ""
    lines.append(rf"&= {decimal(b.value)}{where}")
    return aligned_block(lines)


def interpolated_precision_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return _interpolated_rows(data, measure.number("level"), measure.k)


INTERPOLATED_PRECISION = Family(
    key="IPrec",
    title="Interpolated precision at a recall level",
    help="Interpolated precision: the best precision at or after the rank where recall reaches the level.",
    function=interpolated_precision,
    kernel=interpolated_precision_kernel,
    kind="curve",
    teaching=Teaching(
        interpolated_precision_definition,
        interpolated_precision_worked,
        terms=(Term.R, Term.RECALL_LEVEL, RELEVANT_NEEDED, Term.HITS),
        plain="rewards staying precise once a given share of the relevant documents has been found",
    ),
    params=(Param("level", 0.0, 0.0, 1.0, "the recall level, 0 to 1"),),
    at_param="level",
    names=Names(ir_measures="IPrec"),
    trec_eval=TrecEval("iprec_at_recall", defaults=ELEVEN_LEVELS),
    order=190,
)

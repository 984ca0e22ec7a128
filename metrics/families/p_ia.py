"""Intent-aware precision (P-IA@k), ndeval 4.5's: precision at k for each subtopic, averaged over the subtopics.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking
from metrics.diversity import arithmetic as a
from metrics.diversity.readable import SUBTOPICS, SubtopicJudgments, steps_of, walk
from metrics.diversity.worked import summed
from metrics.families._novelty_curves import coverage_values
from metrics.teaching.latex import plain

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def p_ia(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""P-IA@k as ndeval 4.5 computes it: the (subtopic, document) pairs covered in the top k over k times the
    subtopics.

    ndeval ``P-IA@k``, ir_measures ``P_IA@k``. Agrawal et al., WSDM 2009.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; distinct strings.
    qrels : mapping
        One topic's judgments ``{subtopic: {doc: grade}}``, or plain qrels ``{doc: grade}`` (one subtopic).
    k : int
        The cutoff (ndeval reports 5, 10 and 20; a shorter list is still divided by k); None: the whole list.
    conventions : Conventions, optional
        ``threshold``: the grade that makes a document cover a subtopic (ndeval: 1).

    Returns
    -------
    Breakdown
        ``value`` is P-IA@k; ``steps`` are AspectSteps contributing the subtopics covered over k N; ``terms`` hold
        the subtopics counted.

    Raises
    ------
    ValueError
        If k is not a positive integer, the ranking is not distinct strings or a grade is not an integer.

    Notes
    -----
    .. math:: \mathrm{P\text{-}IA@}k = \frac{1}{N} \sum_s \frac{|\{i \le k : s \in S(d_i)\}|}{k}

    Examples
    --------
    >>> p_ia(["a", "b"], {"1": {"a": 1}, "2": {"a": 1, "b": 1}}, 2).value
    0.75
    """
    w = walk(ranking, qrels, k, 0.5, conventions)
    n, depth = w.aspects.subtopics, k or len(w.ranking)
    value = a.last(a.precision_curve(w.covers, n, depth))
    contributions = [len(c) / (depth * n) if n else 0.0 for c in w.covers]
    return Breakdown("P_IA", k, value, steps_of(w, contributions), {SUBTOPICS: float(n)}, conventions)


def p_ia_definition(c: Conventions) -> str:
    return r"\mathrm{P\text{-}IA@}k = \frac{1}{N} \sum_s \frac{|\{i \le k : s \in S(d_i)\}|}{k}"


def p_ia_worked(b: Breakdown) -> str:
    return summed(plain("P_IA", b.k), b, None, r"\sum_{i \le k} \frac{|S(d_i)|}{k N}")


def p_ia_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return coverage_values(data, measure, a.precision_curve)


P_IA = Family(
    key="P_IA",
    title="Intent-aware precision",
    help="P-IA@k (ndeval): precision at k for each subtopic, averaged over the subtopics.",
    function=p_ia,
    kernel=p_ia_kernel,
    kind="set",
    teaching=Teaching(
        p_ia_definition,
        p_ia_worked,
        terms=(SUBTOPICS,),
        plain="rewards filling {top} with documents relevant to many subtopics, each subtopic weighing the same",
    ),
    names=Names(spellings=("P-IA",), ir_measures="P_IA"),
    order=810,
)

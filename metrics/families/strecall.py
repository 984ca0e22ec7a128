"""Subtopic recall (StRecall@k; ndeval's strec@k): the share of the subtopics that the top k cover.

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


def subtopic_recall(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Subtopic recall at k as ndeval 4.5 computes it: the subtopics some document of the top k covers, over the
    subtopics.

    ndeval ``strec@k``, ir_measures ``StRecall@k``. Zhai et al., SIGIR 2003.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; distinct strings.
    qrels : mapping
        One topic's judgments ``{subtopic: {doc: grade}}``, or plain qrels ``{doc: grade}`` (one subtopic).
    k : int
        The cutoff (ndeval reports 5, 10 and 20); None: the whole list.
    conventions : Conventions, optional
        ``threshold``: the grade that makes a document cover a subtopic (ndeval: 1).

    Returns
    -------
    Breakdown
        ``value`` is the share of subtopics covered; ``steps`` are AspectSteps contributing 1 / N per subtopic covered
        for the first time; ``terms`` hold the subtopics counted.

    Raises
    ------
    ValueError
        If k is not a positive integer, the ranking is not distinct strings or a grade is not an integer.

    Notes
    -----
    .. math:: \mathrm{StRecall@}k = \frac{|\bigcup_{i \le k} S(d_i)|}{N}

    Examples
    --------
    >>> subtopic_recall(["a", "b"], {"1": {"a": 1}, "2": {"a": 1}, "3": {"c": 1}}, 2).value == 2 / 3
    True
    """
    w = walk(ranking, qrels, k, 0.5, conventions)
    n, depth = w.aspects.subtopics, k or len(w.ranking)
    value = a.last(a.strec_curve(w.covers, n, depth))
    contributions = [sum(1 for seen in step.seen if seen == 0) / n if n else 0.0 for step in w.steps]
    return Breakdown("StRecall", k, value, steps_of(w, contributions), {SUBTOPICS: float(n)}, conventions)


def subtopic_recall_definition(c: Conventions) -> str:
    return r"\mathrm{StRecall@}k = \frac{|\bigcup_{i \le k} S(d_i)|}{N}, \quad S(d): \text{subtopics } d \text{ covers}"


def subtopic_recall_worked(b: Breakdown) -> str:
    return summed(plain("StRecall", b.k), b, None, r"\frac{\text{subtopics covered}}{N}")


def subtopic_recall_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return coverage_values(data, measure, a.strec_curve)


SUBTOPIC_RECALL = Family(
    key="StRecall",
    title="Subtopic recall",
    help="StRecall@k (ndeval's strec@k): the share of the subtopics that the top k documents cover.",
    function=subtopic_recall,
    kernel=subtopic_recall_kernel,
    kind="set",
    teaching=Teaching(
        subtopic_recall_definition,
        subtopic_recall_worked,
        terms=(SUBTOPICS,),
        plain="rewards covering as many of the query's subtopics as possible in {top}",
    ),
    names=Names(spellings=("strec",), ir_measures="StRecall"),
    order=820,
)

"""Intent-aware average precision (AP-IA; ndeval's MAP-IA per topic): each subtopic's average precision, averaged
over the subtopics.

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
from metrics.diversity.readable import SUBTOPICS, SubtopicJudgments, one_topic, per_query, steps_of, walk
from metrics.diversity.worked import summed
from metrics.teaching.latex import plain

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def ap_ia(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""AP-IA as ndeval 4.5 computes it (its MAP-IA column): for each subtopic, precision (for that subtopic) at each
    rank covering it, summed over its relevant documents; averaged over the subtopics.

    ndeval ``MAP-IA``, ir_measures ``AP_IA``. Agrawal et al., WSDM 2009.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; distinct strings.
    qrels : mapping
        One topic's judgments ``{subtopic: {doc: grade}}``, or plain qrels ``{doc: grade}`` (one subtopic).
    k : int or None, optional
        Cut the ranking at k first (ndeval -M); None (the default): the whole list, as ndeval.
    conventions : Conventions, optional
        ``threshold``: the grade that makes a document cover a subtopic (ndeval: 1).

    Returns
    -------
    Breakdown
        ``value`` is AP-IA; ``steps`` are AspectSteps contributing, per subtopic covered, its precision there over
        its relevant documents and the subtopics; ``terms`` hold the subtopics counted.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is not distinct strings or a grade is not an integer.

    Notes
    -----
    .. math:: \mathrm{AP\text{-}IA} = \frac{1}{N} \sum_{s} \frac{1}{R_s} \sum_{i:\, s \in S(d_i)} \frac{c_s(i) + 1}{i}

    R_s counts the positive judgment lines of subtopic s: as ndeval, a line repeated counts twice.

    Examples
    --------
    >>> ap_ia(["a", "x", "b"], {"1": {"a": 1, "b": 1}, "2": {"b": 1}}).value == ((1 + 2 / 3) / 2 + 1 / 3) / 2
    True
    """
    w = walk(ranking, qrels, k, 0.5, conventions)
    n = w.aspects.subtopics
    value = a.map_ia(w.covers, w.aspects.relevant, n)
    contributions = [
        sum((seen + 1) / (i + 1) / w.aspects.relevant[s] for s, seen in zip(step.covers, step.seen, strict=True)) / n
        if n else 0.0
        for i, step in enumerate(w.steps)
    ]  # fmt: skip
    return Breakdown("AP_IA", k, value, steps_of(w, contributions), {SUBTOPICS: float(n)}, conventions)


def ap_ia_definition(c: Conventions) -> str:
    return (
        r"\mathrm{AP\text{-}IA} = \frac{1}{N} \sum_{s} \frac{1}{R_s} \sum_{i:\, s \in S(d_i)} \frac{c_s(i) + 1}{i},"
        r" \quad c_s(i): \text{documents above } i \text{ that cover } s"
    )


def ap_ia_worked(b: Breakdown) -> str:
    return summed(plain("AP_IA", b.k), b, None, r"\frac{1}{N} \sum_s \mathrm{AP}_s")


def ap_ia_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    k = measure.k

    def value(covers: list, ideal: list, relevant) -> float:
        n, per_subtopic = one_topic(relevant)
        return a.map_ia(covers[:k] if k else covers, per_subtopic, n)

    return per_query(data, value)


AP_IA = Family(
    key="AP_IA",
    title="Intent-aware average precision",
    help="AP-IA (ndeval's MAP-IA): each subtopic's average precision, averaged over the subtopics.",
    function=ap_ia,
    kernel=ap_ia_kernel,
    kind="order",
    teaching=Teaching(
        ap_ia_definition,
        ap_ia_worked,
        terms=(SUBTOPICS,),
        plain="rewards ranking every subtopic's relevant documents high in {top}, each subtopic weighing the same",
    ),
    written="whole",
    names=Names(spellings=("MAP-IA", "MAP_IA"), ir_measures="AP_IA"),
    order=800,
)

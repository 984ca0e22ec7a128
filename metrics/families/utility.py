"""trec_eval's set utility: a weighted count of the contingency table (retrieved or not, relevant or not)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Param, Teaching, TrecEval, Values
from metrics.core.checks import checked, count_relevant, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, decimal, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def utility(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    a: float = 1.0,
    b: float = -1.0,
    c: float = 0.0,
    d: float = 0.0,
    collection: float = 0.0,
) -> Breakdown:
    r"""Set utility: a worth for each retrieved relevant, retrieved non-relevant, missed relevant and correctly left
    out document, summed.

    trec_eval ``utility`` (``utility.1,-1,0,0`` is the default).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).
    a : float, optional
        The worth of a relevant retrieved document (1.0 by default).
    b : float, optional
        The worth of a non-relevant retrieved document (-1.0 by default).
    c : float, optional
        The worth of a relevant document not retrieved (0.0 by default).
    d : float, optional
        The worth of a non-relevant document not retrieved (0.0 by default).
    collection : float, optional
        N, the documents in the collection (trec_eval ``-N``; 0 by default, as the files do not hold it).

    Returns
    -------
    Breakdown
        ``value`` is U, not bounded; ``steps`` has one RankStep per retrieved rank of the top k, contributing a or b,
        the last rank also the missed documents' terms; ``terms`` holds the hits (``Term.HITS``), the docs retrieved
        (``Term.RETRIEVED``) and R (``Term.R``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    Notes
    -----
    .. math:: U = a \cdot r + b \cdot (n - r) + c \cdot (R - r) + d \cdot (N + r - n - R)

    r = relevant retrieved, n = retrieved, R = relevant, N = documents in the collection (trec_eval ``-N``,
    0 unless given: the files do not hold it). Each retrieved relevant document is worth a, each retrieved
    non-relevant one b (usually negative), each missed relevant one c, each correctly left out one d.
    Conventions (``m_utility.c``): the mean over queries is the summary; an empty ranking scores c·R + d·(N − R), as
    trec_eval computes it (but trec_eval -c adds 0 for a query missing from the run); k keeps the top k. The last
    rank's contribution carries the missed documents' terms.

    Examples
    --------
    >>> utility(["r1", "x", "r2"], {"r1": 1, "r2": 1, "r3": 1}, a=2, b=-1, c=-0.5).value  # 2*2 - 1 - 0.5
    2.5
    >>> utility(["r1", "x", "r2"], {"r1": 1, "r2": 1, "r3": 1}).value  # trec_eval's 1, -1, 0, 0: 2 - 1
    1.0
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    hits, running, steps = 0, 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        hits += relevant
        contribution = a if relevant else b
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    n = len(top)
    value = a * hits + b * (n - hits) + c * (R - hits) + d * (collection + hits - n - R)
    # the missed documents' terms (c, d) have no rank: the last rank shows them
    if steps:
        last = steps[-1]
        steps[-1] = RankStep(
            last.rank, last.doc_id, last.grade, last.relevant, last.contribution + value - running, value
        )
    terms = {Term.HITS: hits, Term.RETRIEVED: n, Term.R: R}
    return Breakdown("utility", k, value, tuple(steps), terms, conventions)


def utility_definition(c: Conventions) -> str:
    return r"\mathrm{U} = a \cdot r + b \cdot (n - r) + c \cdot (R - r) + d \cdot (N + r - n - R)"


def utility_worked(b: Breakdown) -> str:
    r, n, R = whole(b.terms[Term.HITS]), whole(b.terms[Term.RETRIEVED]), whole(b.terms[Term.R])
    return aligned_block(
        [
            r"U &= a \cdot r + b \cdot (n - r) + c \cdot (R - r) + d \cdot (N + r - n - R)",
            rf"&\quad (r = {r} \text{{ relevant retrieved}},\ n = {n} \text{{ retrieved}},\ "
            rf"R = {R} \text{{ relevant}})",
            rf"U &= {decimal(b.value)}",
        ]
    )


def utility_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    a, b, c, d = (float(measure.number(name)) for name in "abcd")
    collection = float(measure.number("collection"))
    slot, _, grade = data.within(measure.k)
    hits = np.bincount(slot[grade >= data.conventions.threshold], minlength=data.size)
    n, R = data.retrieved(measure.k), data.R
    return a * hits + b * (n - hits) + c * (R - hits) + d * (collection + hits - n - R)


def plain_utility(measure: Measure) -> bool:
    """Is this trec_eval's plain ``utility`` (no parameters but -N's collection)? trec_eval -c sets it to 0 for a
    query missing from the run; a utility with parameters keeps the stand-in document's value."""
    return all(name == "collection" for name, _ in measure.params)


def utility_stand_in(values: np.ndarray, data: Prepared, measure: Measure) -> np.ndarray:
    """-c: a query missing from the run retrieved trec_eval's stand-in document, which is not relevant: one more
    non-relevant document retrieved (b), one fewer not retrieved (d)."""
    return np.where(data.in_run, values, values + measure.number("b") - measure.number("d"))


UTILITY = Family(
    key="utility",
    title="Set utility",
    help="Utility: a * relevant retrieved + b * non-relevant retrieved + c * relevant missed + d * rest (1, -1, 0, 0).",
    function=utility,
    kernel=utility_kernel,
    kind="set",
    teaching=Teaching(
        utility_definition,
        utility_worked,
        terms=(Term.HITS, Term.RETRIEVED, Term.R),
        plain=(
            "rewards each relevant document retrieved, and it takes a point off for each one that is "
            "not (trec_eval's default: +1 and −1)"
        ),
    ),
    cutoff="none",
    written="whole",
    params=(
        Param("a", 1.0, -1e6, 1e6, "Worth of a relevant retrieved document."),
        Param("b", -1.0, -1e6, 1e6, "Worth of a non-relevant retrieved document."),
        Param("c", 0.0, -1e6, 1e6, "Worth of a relevant document not retrieved."),
        Param("d", 0.0, -1e6, 1e6, "Worth of a non-relevant document not retrieved."),
        Param("collection", 0.0, 0.0, 1e12, "Documents in the collection (trec_eval -N).", integer=True),
    ),
    trec_eval=TrecEval(
        "utility", params=("a", "b", "c", "d"), zero_when_missing=plain_utility, stand_in=utility_stand_in
    ),
    values=Values(range=None),
    order=370,
)

"""trec_eval's relstring: the top of the ranking as a string of judgments, one character per document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Teaching, TrecEval, Values
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import NOT_IN_POOL, POOL_UNJUDGED, level
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

DEFAULT_LENGTH = 10  # trec_eval's relstring.10


def relevance_character(value: int) -> str:
    """One document's character: its grade 0-9, '>' above 9, '-' not in the pool, '.' in the pool but unjudged."""
    if value > 9:
        return ">"
    if value >= 0:
        return str(value)
    return {NOT_IN_POOL: "-", POOL_UNJUDGED: "."}.get(value, "<")


def relstring(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """The judgments of the first k documents as a string, one character a document.

    trec_eval ``relstring`` (k = 10 by default; ``relstring.20``).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        How many documents the string shows; None (the default) shows 10, as trec_eval does.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). None changes the value; ``threshold``
        marks the steps' relevant docs (``RankStep.relevant``).

    Returns
    -------
    Breakdown
        ``text`` is the string and ``value`` 0.0, as trec_eval stores it; ``steps`` has one RankStep per document
        shown, each contributing 0; ``terms`` holds the length asked for (``Term.CUTOFF``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    Notes
    -----
    Not a number: the string is ``Breakdown.text`` (and the engine's per-query value); ``value`` is 0.0, as
    trec_eval stores it. trec_eval prints it per query only, in quotes (``relstring  q1  '10-2.'``). Conventions
    (``m_relstring.c``): a grade 0-9 is itself, above 9 '>', no qrels line '-', a negative grade '.'.

    Examples
    --------
    >>> relstring(["a", "x", "b", "c"], {"a": 1, "b": -1, "c": 12}).text
    '1-.>'
    >>> relstring(["a", "x", "b", "c"], {"a": 1, "b": -1, "c": 12}, k=2).text
    '1-'
    """
    top = checked(ranking, qrels, DEFAULT_LENGTH if k is None else k)
    steps = tuple(
        RankStep(rank, doc, int(qrels.get(doc, 0)), qrels.get(doc, 0) >= conventions.threshold, 0.0, 0.0)
        for rank, doc in enumerate(top, start=1)
    )
    text = "".join(relevance_character(level(qrels, doc)) for doc in top)
    length = DEFAULT_LENGTH if k is None else k
    return Breakdown("relstring", k, 0.0, steps, {Term.CUTOFF: length}, conventions, text)


def relstring_definition(c: Conventions) -> str:
    return r"\mathrm{relstring} = \text{one character per rank: the grade, - not judged, . in the pool unjudged}"


def relstring_worked(b: Breakdown) -> str:
    shown = "".join(_RELSTRING_SAFE.get(ch, "?") for ch in (b.text or ""))
    return aligned_block([rf"\mathrm{{relstring}} &= \texttt{{'{shown}'}}"])


_RELSTRING_SAFE = {
    **{str(d): str(d) for d in range(10)},
    "-": "-",
    ".": ".",
    ">": r"\textgreater{}",
    "<": r"\textless{}",
}


def relstring_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    """The strings themselves (an array of str), not numbers: see metrics.families.relstring."""
    length = DEFAULT_LENGTH if measure.k is None else measure.k
    slot, rank, grade = data.within(length)
    strings = [["-"] * n for n in data.retrieved(length).tolist()]
    for s, r, g in zip(slot.tolist(), rank.tolist(), grade.tolist(), strict=True):
        strings[s][r - 1] = relevance_character(g if g >= 0 else POOL_UNJUDGED)
    return np.array(["".join(chars) for chars in strings], dtype=object)


RELSTRING = Family(
    key="relstring",
    title="Relevance string",
    help="relstring: the judgments of the first k documents (10 by default) as characters; not a number.",
    function=relstring,
    kernel=relstring_kernel,
    kind="order",
    teaching=Teaching(
        relstring_definition,
        relstring_worked,
        terms=(Term.CUTOFF,),
        plain="is no score: it spells out the judgments of the first documents",
    ),
    written="whole",
    trec_eval=TrecEval(
        "relstring",
        cut=True,  # relstring.20: its length
    ),
    values=Values(
        range=None,  # a string, not a number
        summary="none",
        text=True,
    ),
    order=380,
)

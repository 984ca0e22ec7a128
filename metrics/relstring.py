"""trec_eval's relstring: the top of the ranking as a string of judgments, one character per document."""

from __future__ import annotations

from metrics._checks import checked
from metrics.conventions import TREC_EVAL, Conventions
from metrics.judgments import NOT_IN_POOL, POOL_UNJUDGED, level
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term

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
    """The judgments of the first k documents as a string (trec_eval ``relstring``, k = 10 by default).

    Not a number: the string is ``Breakdown.text`` (and the engine's per-query value); ``value`` is 0.0, as
    trec_eval stores it. trec_eval prints it per query only, in quotes (``relstring  q1  '10-2.'``). Conventions
    (``m_relstring.c``): a grade 0-9 is itself, above 9 '>', no qrels line '-', a negative grade '.'.

    >>> relstring(["a", "x", "b", "c"], {"a": 1, "b": -1, "c": 12}).text
    '1-.>'
    """
    top = checked(ranking, qrels, DEFAULT_LENGTH if k is None else k)
    steps = tuple(
        RankStep(rank, doc, int(qrels.get(doc, 0)), qrels.get(doc, 0) >= conventions.threshold, 0.0, 0.0)
        for rank, doc in enumerate(top, start=1)
    )
    text = "".join(relevance_character(level(qrels, doc)) for doc in top)
    length = DEFAULT_LENGTH if k is None else k
    return Breakdown("relstring", k, 0.0, steps, {Term.CUTOFF: length}, conventions, text)

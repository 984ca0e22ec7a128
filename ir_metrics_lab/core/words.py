"""Counts in words with the noun and verb agreeing: "1 query", "2 queries", "1 of them is". Pure."""

from __future__ import annotations

IRREGULAR = {"query": "queries", "is": "are", "counts": "count", "has": "have", "scores": "score"}


def plural(word: str) -> str:
    return IRREGULAR.get(word, word + "s")


def count(n: int, noun: str, *, thousands: bool = True) -> str:
    """``n`` and the noun in the right number.

    >>> count(1, "query"), count(2, "query"), count(1_234, "judgment"), count(0, "empty rank")
    ('1 query', '2 queries', '1,234 judgments', '0 empty ranks')
    """
    number = f"{n:,}" if thousands else str(n)
    if n == 1:
        return f"{number} {noun}"
    head, _, last = noun.rpartition(" ")
    return f"{number} {head + ' ' if head else ''}{plural(last)}"


def verb(n: int, singular: str) -> str:
    """The verb agreeing with a count: verb(1, "is") == "is", verb(3, "is") == "are".

    >>> verb(1, "counts"), verb(2, "counts")
    ('counts', 'count')
    """
    return singular if n == 1 else plural(singular)

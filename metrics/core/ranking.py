"""Turning scores into a ranking, with trec_eval's tie rule; C's strcmp order of doc ids."""

from __future__ import annotations

from collections.abc import Mapping


def rank_by_score(scores: Mapping[str, float]) -> list[str]:
    """Order doc ids as trec_eval does: score descending, ties by doc id descending in byte order.

    Parameters
    ----------
    scores : Mapping of str to float
        Doc id -> the run's score for it.

    Returns
    -------
    list of str
        The doc ids, best first: a Ranking, the input of the readable functions.

    See Also
    --------
    metrics.read_run : orders a whole run the same way.

    Notes
    -----
    trec_eval ignores the rank column of a run and sorts by score; ties go by ``strcmp(p2->docno, p1->docno)``
    (``form_res_rels.c``), so 'doc9' comes before 'doc10' and 'a' before 'D1'. Python compares str by code
    point, which is the same order as UTF-8 bytes. trec_eval 10.0 stores scores as C doubles, so only scores equal
    as doubles tie (trec_eval 9, inside pytrec_eval, stored C floats: 1.0 and 1.00000001 tied there).

    Examples
    --------
    >>> rank_by_score({"b": 0.5, "a": 0.5, "doc10": 0.5, "doc9": 0.5, "D1": 0.5, "top": 2.0})
    ['top', 'doc9', 'doc10', 'b', 'a', 'D1']
    >>> rank_by_score({"a": 1.00000001, "b": 1.0})  # no tie in double precision
    ['a', 'b']
    """
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: (float(item[1]), item[0]), reverse=True)]


def byte_order(doc: str) -> bytes:
    """The sort key of C's strcmp on a document id's bytes (ids read from a file keep undecodable bytes as
    surrogates)."""
    return doc.encode("utf-8", "surrogateescape")

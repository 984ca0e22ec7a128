"""Turning scores into a ranking, with trec_eval's tie rule."""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping


def rank_by_score(scores: Mapping[str, float]) -> list[str]:
    """Order doc ids as trec_eval does: score descending, ties by doc id descending in byte order.

    trec_eval ignores the rank column of a run and sorts by score; ties go by ``strcmp(p2->docno, p1->docno)``
    (``form_res_rels.c``), so 'doc9' comes before 'doc10' and 'a' before 'D1'. Python compares str by code
    point, which is the same order as UTF-8 bytes. trec_eval stores scores as C floats, so two scores equal
    in 32-bit precision tie (1.0 and 1.00000001 do; so do 0.0 and 1e-214).

    >>> rank_by_score({"b": 0.5, "a": 0.5, "doc10": 0.5, "doc9": 0.5, "D1": 0.5, "top": 2.0})
    ['top', 'doc9', 'doc10', 'b', 'a', 'D1']
    >>> rank_by_score({"a": 1.00000001, "b": 1.0})  # a 32-bit tie: doc id decides
    ['b', 'a']
    """
    return [doc for doc, _ in sorted(scores.items(), key=lambda item: (_as_c_float(item[1]), item[0]), reverse=True)]


def _as_c_float(score: float) -> float:
    """The score as trec_eval stores it, a 32-bit C float (a value too large for one becomes ±inf, as in C).

    struct, not numpy: importing numpy here would slow every ``import metrics`` and start BLAS threads in the CLI.
    """
    try:
        return struct.unpack("f", struct.pack("f", score))[0]
    except OverflowError:
        return math.copysign(math.inf, score)

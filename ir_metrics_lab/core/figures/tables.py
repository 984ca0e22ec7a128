"""Breakdown -> pandas DataFrame for st.dataframe (which renders cell text as text, never as HTML). Pure."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from metrics.core.types import Breakdown

COLUMNS = ["rank", "doc", "grade", "relevant", "contribution", "running"]


def steps(b: Breakdown, *, titles: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per rank: rank, doc, (title,) grade, relevant, contribution, running; floats to 4 decimals.

    >>> from metrics import reciprocal_rank
    >>> steps(reciprocal_rank(["x", "a"], {"a": 1})).to_dict("list")["contribution"]
    [0.0, 0.5]
    """
    rows = [
        {
            "rank": s.rank,
            "doc": s.doc_id,
            "grade": s.grade,
            "relevant": s.relevant,
            "contribution": round(s.contribution, 4),
            "running": round(s.running, 4),
        }
        for s in b.steps
    ]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    if titles is not None:
        frame.insert(2, "title", [titles.get(s.doc_id, "") for s in b.steps])
    return frame

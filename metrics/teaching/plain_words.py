"""What each measure rewards, in words a reader who never computed one follows: the line a stakeholder's brief prints
under each measure (ir_metrics_lab.core.brief). Pure (no Streamlit).

Each family's line is its own, declared in its module (``Teaching.plain``); a family without one falls back to its
one-line ``help``. ``{top}`` in a line is the part of the list the measure reads: "the first 10 results", or "the
whole list" without a cutoff.

>>> rewards("NDCG@10")  # doctest: +ELLIPSIS
'NDCG@10 rewards putting the most relevant documents at the very top of the first 10 results: ...'
>>> rewards("AP").startswith("AP rewards putting every relevant document high")
True
"""

from __future__ import annotations

from metrics.catalog import registry
from metrics.catalog.family import Measure
from metrics.catalog.measures import parse_measure


def top(measure: Measure) -> str:
    """The part of the list a measure reads, in words: "the first 10 results", "the first result", "the whole list"."""
    if measure.k is None:
        return "the whole list"
    return "the first result" if measure.k == 1 else f"the first {measure.k:,} results"


def rewards(measure: str | Measure) -> str:
    """One sentence: ``<measure> rewards ...`` (or ``<measure> is ...`` for a count), the measure spelled as given."""
    measure = measure if isinstance(measure, Measure) else parse_measure(measure)
    where = top(measure)
    family = registry.family(measure.family)
    if family.teaching.plain is not None:
        line = f"{measure.name} {family.teaching.plain.format(top=where)}"
    else:  # a family declared without a line in words: its card's tooltip
        line = f"{measure.name}: {family.help.rstrip('.')}"
    if measure.gain == "exp":
        line += "; here a grade's gain is 2^grade − 1, so the top grade counts far more than the others"
    return line + "."

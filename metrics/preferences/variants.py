"""A row of a table of variants: the families of one preference measure that differ only by which preferences they
count (prefs_simp, prefs_simp_ret, prefs_simp_imp), each row with the family's names and place. Each prefs_* module of
metrics.families declares its families from such a table, VARIANTS, one Family(...) per row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from metrics.core.types import Breakdown


@dataclass(frozen=True)
class Variant:
    """One family of a table: its key (trec_eval's name too), readable function, what it counts, names and order."""

    key: str
    function: Callable[..., Breakdown]  # its readable function, which reads what it counts from its row
    # which preferences it counts, as the specification names them (metrics.preferences.readable_preferences): ""
    # all, "ret" only between two retrieved documents, "imp" only with a retrieved document; the counts' own:
    # "possible", "ful", "ful_ret"
    counted: str
    title: str  # Family.title
    help: str  # Family.help
    plain: str  # Teaching.plain
    order: int  # Family.order


def variant_of(variants: Sequence[Variant], function: Callable[..., Breakdown]) -> Variant:
    """The row of a readable function in its table."""
    return next(variant for variant in variants if variant.function is function)

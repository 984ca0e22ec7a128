"""What the prefs_* families' tables of variants (their VARIANTS, metrics.preferences.variants) share: a readable
function's Breakdown built from its row, and the fields of a row's record that every table fills alike. Each table
keeps its own ``Family(...)``, with what is its measure's: the kernel, the teaching's formulas and terms, the kind."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypedDict

from metrics.catalog.family import Teaching, TrecEval
from metrics.core.conventions import Conventions
from metrics.core.types import Breakdown, Ranking, Term
from metrics.preferences.readable_preferences import PreferenceJudgments
from metrics.preferences.variants import Variant, variant_of

if TYPE_CHECKING:
    from metrics.catalog.family import Kernel, Written

# a measure's Breakdown from the row's key and what it counts (metrics.preferences.readable_preferences):
# (key, ranking, qrels, k, conventions, counted) -> Breakdown
RowBreakdown = Callable[[str, Ranking, PreferenceJudgments, int | None, Conventions, str], Breakdown]


def row_breakdown(
    variants: Sequence[Variant],
    function: Callable[..., Breakdown],
    breakdown: RowBreakdown,
    ranking: Ranking,
    qrels: PreferenceJudgments,
    k: int | None,
    conventions: Conventions,
) -> Breakdown:
    """A readable function's Breakdown: its key and which preferences it counts are its row's in ``variants``."""
    variant = variant_of(variants, function)
    return breakdown(variant.key, ranking, qrels, k, conventions, variant.counted)


class RowRecord(TypedDict):
    """The ``Family`` fields :func:`row_record` fills: ``Family(**row_record(...), kind=...)``."""

    key: str
    title: str
    help: str
    function: Callable[..., Breakdown]
    kernel: Kernel
    teaching: Teaching
    written: Written
    trec_eval: TrecEval
    order: int


def row_record(
    variant: Variant,
    kernel: Kernel,
    definition: Callable[[Conventions], str],
    worked: Callable[[Breakdown], str],
    terms: tuple[Term, ...],
) -> RowRecord:
    """A row's record but for its kind (and values): its names, readable function and place, the kernel and teaching
    given (in the row's plain words), its usual name without a cutoff, read from ``-R prefs`` or ``-R qrels_prefs``."""
    return RowRecord(
        key=variant.key,
        title=variant.title,
        help=variant.help,
        function=variant.function,
        kernel=kernel,
        teaching=Teaching(definition, worked, terms=terms, plain=variant.plain),
        written="whole",
        trec_eval=TrecEval(variant.key, reads=("prefs", "qrels_prefs")),
        order=variant.order,
    )

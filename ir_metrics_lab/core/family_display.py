"""How the app shows each measure family: its playground card, tab and curve, the pages' measure lists, the pickers'
extra measures. One ``Display`` per family that the app shows beyond the catalog (a family with none has no card, tab or
curve, and is still in every catalog picker); what a family *is* (names, kernel, formulas) is its ``Family`` record in
metrics/families. Here in the pure core, below the app's Streamlit side and the live class, as both read it (the live
class asks a class about the carded families); pure: no Streamlit.

>>> cards("order"), cards("set")
(('NDCG', 'AP', 'RR', 'DCG', 'IDCG'), ('P', 'R', 'R_cap', 'F1', 'HitRate'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from metrics.catalog import registry
from metrics.catalog.family import Family, Kind


@dataclass(frozen=True, slots=True)
class Display:
    """Where the app shows one family. Positions order the families within each place (1 first)."""

    family: str  # the family's key (Family.key)
    card: int | None = None  # position among the playground's cards of its kind; None: no card
    uncut_card: bool = False  # the card shows the whole list (as trec_eval's recip_rank, map), not @k
    curve: int | None = None  # position in the playground's metric@k curves; None: not drawn
    tab: int | None = None  # position of its own tab in the playground's "How each number is computed"
    pinned: int | None = None  # position in the playground's summary line that a phone keeps in view
    # the app's other measure lists it belongs to, with its position in each (:func:`listed`): "compared" (A vs B's
    # side-by-side table), "compared_curves" (A vs B's metric@k curves), "swap_heatmap" (the heatmap's picker),
    # "means" (Many queries' means at k) and "means_uncut" (its means over the whole list: :func:`listed_at`),
    # "pooling_bias" (a shared task's leave-one-run-out table: AP beside the measures built for incomplete judgments)
    lists: Mapping[str, int] = field(default_factory=dict)
    offered: tuple[str, ...] = ()  # more of its spellings that Your data's measure picker offers beside the default set
    mean: str | None = None  # what its mean over queries is called (MRR, MAP); None: "mean <family>"
    # its own tab shows the worked formulas of these carded families under its own (NDCG: IDCG, its denominator) ...
    beside: tuple[str, ...] = ()
    # ... and charts the first one's per-rank terms against the second's, the ideal ordering (NDCG: DCG vs IDCG)
    versus: tuple[str, str] | None = None
    bars: bool = False  # its per-rank bars close the playground's "Precision & recall" tab (the set-based cards)


DISPLAYS: tuple[Display, ...] = (
    Display(
        "P",
        card=1,
        curve=1,
        pinned=4,
        lists={"compared": 1, "compared_curves": 1, "swap_heatmap": 4, "means": 5},
        offered=("P@5", "P@20"),
    ),
    Display(
        "R",
        card=2,
        curve=2,
        pinned=5,
        lists={"compared": 2, "compared_curves": 2, "swap_heatmap": 5},
        offered=("R@10", "R@1000"),
        bars=True,
    ),
    Display("R_cap", card=3, curve=3),
    Display("HitRate", card=5, lists={"compared": 3}, offered=("HitRate@10",)),
    Display("F1", card=4),
    Display(
        "RR",
        card=3,
        uncut_card=True,
        tab=3,
        pinned=3,
        lists={"compared": 4, "swap_heatmap": 3, "means": 1, "means_uncut": 2},
        offered=("RR",),
        mean="MRR",
    ),
    Display(
        "AP",
        card=2,
        uncut_card=True,
        curve=5,
        tab=2,
        pinned=2,
        lists={"compared": 5, "swap_heatmap": 2, "means": 3, "pooling_bias": 1},
        offered=("AP@10",),
        mean="MAP",
    ),
    Display("DCG", card=4, lists={"swap_heatmap": 6}),
    Display("IDCG", card=5),
    Display(
        "NDCG",
        card=1,
        curve=4,
        tab=1,
        pinned=1,
        lists={"compared": 6, "compared_curves": 3, "swap_heatmap": 1, "means": 4},
        offered=("NDCG@5", "NDCG@20", "NDCG_exp@10"),
        beside=("IDCG",),
        versus=("DCG", "IDCG"),
    ),
    Display("bpref", lists={"pooling_bias": 2}),
    Display("infAP", lists={"pooling_bias": 3}),
    Display("NumRelRet", offered=("NumRelRet",)),
    Display("GM_AP", offered=("GM_AP",)),
    Display("Rprec", offered=("Rprec",)),
    Display("IPrec", offered=("IPrec@0.5",)),
    Display("IPrec11", offered=("IPrec11",)),
    Display("SetF", offered=("SetF",)),
)


def _by_family(displays: Iterable[Display]) -> dict[str, Display]:
    """The displays keyed by family; a display of a family the registry does not declare, or a second display of one
    family, is an error (a renamed family would otherwise lose its card silently).

    >>> _by_family([Display("NDCG"), Display("nDCG")])
    Traceback (most recent call last):
    ValueError: a display of an undeclared family: 'nDCG'
    """
    found: dict[str, Display] = {}
    for shown in displays:
        if shown.family not in _DECLARED:
            raise ValueError(f"a display of an undeclared family: {shown.family!r}")
        if found.setdefault(shown.family, shown) is not shown:
            raise ValueError(f"two displays of {shown.family!r}")
    return found


_DECLARED = {f.key for f in registry.FAMILIES}
_BY_FAMILY = _by_family(DISPLAYS)


def display(family: str) -> Display:
    """How the app shows a family: its entry in DISPLAYS, or no card, tab, curve or list at all."""
    return _BY_FAMILY.get(family) or Display(family)


def _placed(
    position: Callable[[Display], int | None], families: Iterable[Family] = registry.FAMILIES
) -> tuple[str, ...]:
    """The keys of the families with a position, in its order."""
    placed = [(spot, f.key) for f in families if (spot := position(display(f.key))) is not None]
    return tuple(key for _, key in sorted(placed))


def cards(kind: Kind) -> tuple[str, ...]:
    """The playground's metric cards of one kind, in their display order."""
    return _placed(lambda shown: shown.card, registry.families(kind=kind))


def carded() -> tuple[Family, ...]:
    """The families with a playground card, in the registry's order."""
    return tuple(f for f in registry.FAMILIES if display(f.key).card is not None)


def card_k(family: str, k: int) -> int | None:
    """The cutoff its card shows: ``k``, or None for the cards that show the whole list (AP, RR)."""
    return None if display(family).uncut_card else k


def suggested_measures() -> tuple[str, ...]:
    """A measure picker's list: the default set, then each playground card's family at 10 (and uncut, for the
    cards that show the whole list).

    >>> suggested_measures()[:8]
    ('NDCG@10', 'AP', 'RR@10', 'R@100', 'R_cap@100', 'P@10', 'R@10', 'R_cap@10')
    """
    spelled = [name for f in carded() for name in (f"{f.key}@10", *((f.key,) if display(f.key).uncut_card else ()))]
    return tuple(dict.fromkeys([*registry.default_measures(), *spelled]))


def playground_tabs() -> tuple[str, ...]:
    """The families with a tab of their own in the playground, in tab order.

    >>> playground_tabs()
    ('NDCG', 'AP', 'RR')
    """
    return _placed(lambda shown: shown.tab)


def pinned_families() -> tuple[str, ...]:
    """The playground's key numbers, which a phone keeps in view, in order.

    >>> pinned_families()
    ('NDCG', 'AP', 'RR', 'P', 'R')
    """
    return _placed(lambda shown: shown.pinned)


def curve_families() -> tuple[str, ...]:
    """The families drawn in the playground's metric@k curves, in drawing order."""
    return _placed(lambda shown: shown.curve)


def listed(name: str) -> tuple[str, ...]:
    """The families of one of the app's measure lists (``Display.lists``), in their declared positions.

    >>> listed("compared_curves")
    ('P', 'R', 'NDCG')
    """
    placed = _placed(lambda shown: shown.lists.get(name))
    if not placed:
        raise ValueError(f"no family is in a list named {name!r}")
    return placed


def listed_at(name: str, k: int) -> tuple[tuple[str, int | None], ...]:
    """A list whose families are shown at a cutoff or over the whole list: (family, k) for each family of list
    ``name``, (family, None) for each of ``name + "_uncut"``, in their declared positions.

    >>> listed_at("means", 2)
    (('RR', 2), ('RR', None), ('AP', 2), ('NDCG', 2), ('P', 2))
    """
    placed = [
        (shown.lists[listed_name], f.key, cut)
        for listed_name, cut in ((name, k), (f"{name}_uncut", None))
        for f in registry.FAMILIES
        if listed_name in (shown := display(f.key)).lists
    ]
    if not placed:
        raise ValueError(f"no family is in a list named {name!r}")
    return tuple((key, cut) for _, key, cut in sorted(placed, key=lambda entry: entry[0]))


def offered_measures() -> tuple[str, ...]:
    """The measures Your data's picker offers beside the default set (``Display.offered``), in the registry's order."""
    return tuple(name for f in registry.FAMILIES for name in display(f.key).offered)

"""Metric values on screen: the four decimals every value is shown with, the metric cards with the change since the
last edit, the phone's sticky summary of the key numbers, and R and hits under the cards."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ir_metrics_lab.core import family_display, words
from ir_metrics_lab.shell import first_paint
from metrics.catalog import registry
from metrics.core.types import Breakdown, Term

# The playground's cards, as ir_metrics_lab.core.family_display declares them.
ORDER_AWARE = family_display.cards("order")
SET_BASED = family_display.cards("set")
HELP = {f.key: f.help for f in registry.FAMILIES}
# the key numbers a phone keeps in view (ir_metrics_lab/shell/layout.py makes it sticky)
SUMMARY = family_display.pinned_families()
SUMMARY_KEY = "pg_summary"


def fmt(x: float) -> str:
    """Every metric value in the app: 4 decimals."""
    return f"{x:.4f}"


def delta(now: Breakdown, before: Breakdown | None) -> str | None:
    """The change since the last edit for st.metric's delta ("+0.1234"), or None when there is none to show."""
    if before is None or abs(now.value - before.value) < 5e-5:
        return None
    return f"{now.value - before.value:+.4f}"


def metric_cards(now: dict[str, Breakdown], before: dict[str, Breakdown] | None, families: Sequence[str]) -> None:
    """One st.metric per family, labelled by Breakdown.metric ("NDCG@5", "AP", ...), with the change since the
    last edit as delta."""
    # A wrapping row rather than st.columns: five across on a laptop, two across on a phone.
    with st.container(horizontal=True, gap="small"):
        for family in families:
            b = now[family]
            st.metric(
                b.metric,
                fmt(b.value),
                delta=delta(b, before.get(family) if before else None),
                help=HELP.get(family),
                border=True,
                width="stretch",
            )


def sticky_summary(now: dict[str, Breakdown]) -> None:
    """One compact line of the key numbers. Shown on narrow screens only, where it sticks to the top of the screen while
    the list below is edited (ir_metrics_lab/shell/layout.py's CSS); wide screens have the cards beside the list."""
    sticky_line([now[f] for f in SUMMARY])


def sticky_line(items: Sequence[Breakdown]) -> None:
    """``sticky_summary`` of any numbers (a lesson's): sticky within its parent, so draw it above the list."""
    if not first_paint.charts_now() and not first_paint.on_phone():
        # a wide screen hides it (ir_metrics_lab/shell/layout.py), but its CSS comes after a new visitor's first paint
        st.empty()
        return
    with st.container(key=SUMMARY_KEY):
        st.markdown(" · ".join(f"**{b.metric}**\u00a0{fmt(b.value)}" for b in items))  # no break inside


def judgment_summary(now: dict[str, Breakdown]) -> None:
    """R and hits, read off the metrics' own terms (the first card at k that carries both), so the learner sees what
    the denominators are."""
    counted = next(b for b in now.values() if b.k is not None and Term.R in b.terms and Term.HITS in b.terms)
    R, hits = int(counted.terms[Term.R]), int(counted.terms[Term.HITS])
    st.caption(
        f"R = **{R}** relevant {'document' if R == 1 else 'documents'} judged (grade ≥ "
        f"{counted.conventions.threshold}); **{hits}** of them {words.verb(hits, 'is')} in the top {counted.k}."
    )

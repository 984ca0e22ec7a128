"""The numbers pages compute from a scenario beyond the cards' (ir_metrics_lab.core.numbers.breakdowns): one metric at
any k, any catalog measure and the picker's choices, the precision-recall chart, and the curves and swap deltas kept
for the lists a session goes back to."""

from __future__ import annotations

import streamlit as st

from ir_metrics_lab.core import numbers
from ir_metrics_lab.core.figures import curve_charts
from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog import registry
from metrics.catalog.measures import parse_measure
from metrics.core.types import Breakdown
from metrics.teaching.swaps import swap_deltas


def breakdown(scn: Scenario, family: str, k: int | None) -> Breakdown:
    """One metric of the scenario at ``k`` (None: the whole list), on the full ranking (a hidden tail counts)."""
    return registry.family(family).function(list(scn.full_ranking), scn.qrels, k, conventions=scn.conventions)


def catalog_choices(k: int) -> list[str]:
    """Every catalog measure, spelled for the picker at the playground's k (IPrec at recall 0.5)."""
    choices = []
    for f in registry.FAMILIES:
        if f.at_param:
            choices.append(f"{f.key}@{0.5 if f.at_param == 'level' else 1}")
        elif f.written != "whole" and f.cutoff != "none":
            choices.append(f"{f.key}@{k}")
        else:
            choices.append(f.key)
    return choices


def precision_recall_chart(scn: Scenario):
    """The playground list's precision-recall curve with trec_eval's 11 interpolated points."""
    return curve_charts.precision_recall(*numbers.precision_recall(scn))


def measure_breakdown(scn: Scenario, name: str) -> Breakdown:
    """Any catalog measure (by name, ours, trec_eval's or ir_measures') on the scenario's full ranking."""
    return parse_measure(name).compute(list(scn.full_ranking), scn.qrels, scn.conventions)


# Kept for the lists a session goes back to (an edit undone, a metric picked again, A vs B's other side); the key is
# everything the result depends on, and st.cache_data hands each caller its own copy. (The cards' breakdowns are not
# kept: for 100 documents they cost less than a cache hit.)
_kept = st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
curves = _kept(numbers.curves)  # metric@k at every cutoff: about 250 ms for 100 documents, a cache hit 2 ms
swap_deltas_kept = _kept(swap_deltas)  # a metric call per pair of differently graded docs: about 1 s for 100 docs

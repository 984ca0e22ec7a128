"""Whether other tools' conventions (metrics.tools.profiles) or trec_eval -l 2 change a brief's number, or its
verdict: the measure scored every other way someone might report it, as a caveat. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ir_metrics_lab.core.brief.wording import joined, number, signed
from metrics.catalog.family import Measure
from metrics.compare.significance import TIE
from metrics.io import read_qrels
from metrics.tools import profiles
from metrics.tools.settings import SWITCHES, TREC_EVAL_SETTING, Setting, described, score


def _alternative_settings(measure: Measure, qrels) -> list[tuple[str, Setting]]:
    """Other ways popular tools score ``measure`` (their profiles' Settings, one per distinct Setting, named by the
    tools that use it), and trec_eval -l 2 when some grades are above 1: each a number someone might report."""
    found: dict[Setting, list[str]] = {}
    plain_measure = measure.gain == "linear" and measure.rel is None and not measure.params
    if plain_measure:
        usable, _ = profiles.usable_tools(measure)
        for key in usable:
            setting = profiles.profile(key, measure.family).setting
            if setting is not None and setting != TREC_EVAL_SETTING:
                found.setdefault(setting, []).append(profiles.tool(key).title)
    if measure.rel is None and int(np.max(read_qrels(qrels).grade, initial=0)) >= 2:
        found.setdefault(Setting(threshold=2), []).append("trec_eval -l 2")
    return [(joined(names), setting) for setting, names in found.items()]


@dataclass(frozen=True)
class _Scored:
    tools: str  # the tools that score it this way
    how: str  # their choices that differ from trec_eval's, in words
    means: dict[str, float]  # run -> its mean under those choices


def _scored_otherwise(measure: Measure, runs: Mapping[str, object], qrels, means: Mapping[str, float]) -> list[_Scored]:
    """The measure's mean for each run under every other tool's choices that change at least one of them."""
    found = []
    for names, setting in _alternative_settings(measure, qrels):
        under = {run: score(source, qrels, measure, setting).mean for run, source in runs.items()}
        if all(abs(under[run] - means[run]) < 5e-5 for run in runs):
            continue
        changes = [s for s in SWITCHES if getattr(setting, s) != getattr(TREC_EVAL_SETTING, s)]
        found.append(_Scored(names, joined([described(s, getattr(setting, s)) for s in changes]), under))
    return found


def conventions_caveat(
    measure: Measure, runs: Mapping[str, object], qrels, means: Mapping[str, float], *, pair: bool
) -> str:
    """Whether other tools' conventions (metrics.tools.profiles) change the number, and the verdict: for a pair (A
    then B) the sign of B − A, for a leaderboard the leading run."""
    scored = _scored_otherwise(measure, runs, qrels, means)
    name = measure.name
    if not scored:
        return f"Conventions: no other tool's way of scoring {name} changes these numbers."
    if pair:
        a, b = list(runs)
        here = means[b] - means[a]

        def verdict(otherwise: _Scored) -> float:
            return otherwise.means[b] - otherwise.means[a]

        def same(otherwise: _Scored) -> bool:
            there = verdict(otherwise)
            return here * there > 0 or (abs(here) <= TIE and abs(there) <= TIE)

        said = f"{b} − {a} reads"
        shown = signed
    else:
        leader = max(means, key=lambda run: means[run])

        def verdict(otherwise: _Scored) -> float:
            return otherwise.means[leader]

        def same(otherwise: _Scored) -> bool:
            return max(otherwise.means, key=lambda run: otherwise.means[run]) == leader

        said = f"{leader}'s {name} reads"
        shown = number
    flipped = [otherwise for otherwise in scored if not same(otherwise)]
    low, high = min(scored, key=verdict), max(scored, key=verdict)
    spread = (
        f"as other tools score {name}, {said} {shown(verdict(low))} ({low.tools}: {low.how})"
        + ("" if low is high else f" to {shown(verdict(high))} ({high.tools}: {high.how})")
        + f", against {shown(here if pair else means[leader])} here"
    )
    if not flipped:
        return f"Conventions change the number, not the verdict: {spread}. Report {name} with the tool that made it."
    turned = "; ".join(
        f"as {o.tools} score it ({o.how}), "
        + (f"{b} − {a} is {signed(verdict(o))}" if pair else f"{max(o.means, key=lambda run: o.means[run])} leads")
        for o in flipped
    )
    return f"Conventions change the verdict: {turned}. Otherwise {spread}."

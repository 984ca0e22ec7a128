"""Why two tools give two numbers on the same run: each tool's mean and per-query values, the difference (second
minus first), and its exact Shapley attribution over the switches on which the tools' profiles differ.

Shapley: with n differing switches, every one of the 2^n mixes of the two tools' choices is evaluated by the engine;
a switch's part is its average effect over every order of switching from the first tool's choices to the second's.
The parts sum to the difference and do not depend on an order. Per query, the same over the switches that change a
query's value (which queries are averaged is a switch of the mean only).

Its command line is ``ir-metrics-explain`` (metrics.cli.ir_metrics_explain).

>>> run = {"q1": ["a", "b", "c"], "q2": ["d", "e"]}
>>> qrels = {"q1": {"c": 2, "z": 3}, "q2": {"e": 1}}
>>> found = explain(run, qrels, "NDCG@10", "trec_eval", "sklearn")
>>> round(found.difference, 4), {s: round(p, 4) for s, p in found.attribution.items()}
(0.1327, {'idcg': 0.1327})
>>> print(found.sentence)
scikit-learn gives 0.1327 more than trec_eval 10.0 on NDCG@10 (0.5655 vs 0.4328): all of it comes from building \
the ideal ranking from the retrieved list.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from metrics.catalog.family import Measure
from metrics.catalog.measures import parse_measure
from metrics.core.tables import html_table, html_text, number
from metrics.io import read_qrels, read_run
from metrics.tools.profiles import TIES_WORDS, Profile, Tool, profile, tool, unusable
from metrics.tools.settings import PER_RANKING, Setting, counted_under, described, differing, mixed, values_under

TOP_QUERIES = 10  # the queries that move the most, in the text output


def shapley(
    players: Sequence[str], value: Callable[[frozenset[str]], float | np.ndarray]
) -> dict[str, float | np.ndarray]:
    """Each player's Shapley value in the game ``value`` (a float, or a numpy array: one game per element).

    Exact: every coalition is evaluated once. With v the value, player i gets the sum over coalitions S without i of
    |S|! (n - |S| - 1)! / n! * (v(S + i) - v(S)).

    >>> parts = shapley(["a", "b"], lambda s: {0: 0.0, 1: 1.0, 2: 4.0}[len(s)])
    >>> parts
    {'a': 2.0, 'b': 2.0}
    """
    n = len(players)
    worth = {frozenset(s): value(frozenset(s)) for size in range(n + 1) for s in combinations(players, size)}
    parts: dict[str, float | np.ndarray] = {}
    for player in players:
        others = [p for p in players if p != player]
        total: float | np.ndarray = 0.0
        for size in range(n):
            weight = math.factorial(size) * math.factorial(n - size - 1) / math.factorial(n)
            for coalition in combinations(others, size):
                without = frozenset(coalition)
                total = total + weight * (worth[without | {player}] - worth[without])
        parts[player] = total
    return parts


@dataclass(frozen=True, eq=False)
class Explanation:
    measure: str  # as the user spelled it
    tools: tuple[Tool, Tool]
    profiles: tuple[Profile, Profile]
    means: tuple[float, float]
    switches: tuple[str, ...]  # where the two settings differ, in metrics.tools.settings.SWITCHES order
    choices: dict[str, tuple[object, object]]  # switch -> (first tool's choice, second's)
    attribution: dict[str, float]  # switch -> its part of the difference of the means
    queries: tuple[str, ...]  # every query of the run or the qrels
    values: tuple[np.ndarray, np.ndarray]  # per query, under each tool's setting
    counted: tuple[np.ndarray, np.ndarray]  # which queries each tool averages
    query_attribution: dict[str, np.ndarray]  # per-ranking switch -> its part of each query's difference
    caveats: tuple[str, ...]

    @property
    def difference(self) -> float:
        return self.means[1] - self.means[0]

    @property
    def query_difference(self) -> np.ndarray:
        return self.values[1] - self.values[0]

    def moved(self) -> list[int]:
        """Indices of the queries either tool averages, largest |difference| first (then by id)."""
        either = np.flatnonzero(self.counted[0] | self.counted[1])
        return sorted(either.tolist(), key=lambda i: (-abs(float(self.query_difference[i])), self.queries[i]))

    @property
    def sentence(self) -> str:
        return sentence(self)

    def _repr_html_(self) -> str:
        """Jupyter: the sentence, the two means and each differing convention's share of the difference."""
        first, second = (t.title for t in self.tools)
        means = html_table(
            [self.measure, first, second, "difference"],
            [["mean", number(self.means[0]), number(self.means[1]), f"{self.difference:+.4f}"]],
        )
        shares = html_table(
            ["convention", first, second, "share of the difference"],
            [[s, *map(str, self.choices[s]), f"{self.attribution[s]:+.4f}"] for s in self.switches],
        )
        return f"<p>{html_text(self.sentence)}</p>{means}{shares if self.switches else ''}"

    def _repr_markdown_(self) -> str:
        return "```text\n" + as_text(self).replace("```", "` ` `") + "```\n"


def sentence(found: Explanation) -> str:
    """One stakeholder-ready sentence: who gives how much more, and which choices it comes from."""
    first, second = (t.title for t in found.tools)
    a, b = found.means
    d = found.difference
    if abs(d) < 5e-5:
        if not found.switches:
            return f"{second} and {first} give the same {found.measure} ({a:.4f}): no convention differs."
        named = ", ".join(described(s, found.choices[s][1]) for s in found.switches)
        return (
            f"{second} and {first} give the same {found.measure} on this run ({a:.4f} vs {b:.4f}), although they "
            f"differ in {named}."
        )
    more = "more" if d > 0 else "less"
    head = f"{second} gives {abs(d):.4f} {more} than {first} on {found.measure} ({b:.4f} vs {a:.4f})"
    with_sign = [(s, p) for s, p in found.attribution.items() if abs(p) >= 5e-5]
    along = sorted(((s, p) for s, p in with_sign if p * d > 0), key=lambda item: -abs(item[1]))
    against = sorted(((s, p) for s, p in with_sign if p * d < 0), key=lambda item: -abs(item[1]))
    if len(along) == 1 and not against:
        return f"{head}: all of it comes from {described(along[0][0], found.choices[along[0][0]][1])}."
    first_verb = "comes" if against else "of it comes"  # with parts against it, the parts along exceed the whole
    parts = [
        f"{abs(p):.4f} {first_verb + ' ' if i == 0 else ''}from {described(s, found.choices[s][1])}"
        for i, (s, p) in enumerate(along)
    ]
    text = f"{head}; " + ", ".join(parts) if parts else head
    if against:
        text += "; " + ", ".join(f"{described(s, found.choices[s][1])} takes {abs(p):.4f} back" for s, p in against)
    return text + "."


def explain(run_input, qrels_input, measure: str | Measure, first: str, second: str) -> Explanation:
    """The two tools' numbers for ``measure`` on the run, and the difference attributed to each convention."""
    measure = measure if isinstance(measure, Measure) else parse_measure(measure)
    tools = (tool(first), tool(second))
    for key in (first, second):
        if (problem := unusable(key, measure)) is not None:
            raise ValueError(problem)
    profiles = (profile(tools[0].key, measure.family), profile(tools[1].key, measure.family))
    settings: tuple[Setting, Setting] = (profiles[0].setting, profiles[1].setting)  # type: ignore[assignment]
    run_data, qrels_data = read_run(run_input), read_qrels(qrels_input)
    switches = differing(*settings)
    cache: dict[Setting, np.ndarray] = {}
    queries: tuple[str, ...] = ()

    def values(setting: Setting) -> np.ndarray:
        nonlocal queries
        key = mixed(settings[0], setting, set(PER_RANKING))  # the query set does not change a query's value
        if key not in cache:
            queries, cache[key] = values_under(run_data, qrels_data, measure, key)
        return cache[key]

    values(settings[0])
    counted_cache = {s.queries: counted_under(run_data, qrels_data, queries, s) for s in (settings[0], settings[1])}

    def mean(taken: frozenset[str]) -> float:
        setting = mixed(settings[0], settings[1], taken)
        chosen = values(setting)[counted_cache[setting.queries]]
        return math.fsum(chosen.tolist()) / len(chosen) if len(chosen) else 0.0

    attribution = {s: float(p) for s, p in shapley(switches, mean).items()}
    per_ranking = [s for s in switches if s in PER_RANKING]
    query_attribution = {
        s: np.asarray(p, dtype=np.float64)
        for s, p in shapley(per_ranking, lambda taken: values(mixed(settings[0], settings[1], taken))).items()
    }
    means = (mean(frozenset()), mean(frozenset(switches)))
    caveats = tuple(_caveats(tools, profiles))
    return Explanation(
        measure.name,
        tools,
        profiles,
        means,
        switches,
        {s: (getattr(settings[0], s), getattr(settings[1], s)) for s in switches},
        attribution,
        queries,
        (values(settings[0]), values(settings[1])),
        (counted_cache[settings[0].queries], counted_cache[settings[1].queries]),
        query_attribution,
        caveats,
    )


def _caveats(tools: tuple[Tool, Tool], profiles: tuple[Profile, Profile]) -> list[str]:
    notes = []
    for tool_, found in zip(tools, profiles, strict=True):
        if found.ties != "docid":
            notes.append(
                f"{tool_.title} ({found.name.replace('{k}', 'k')}): tied scores: {TIES_WORDS[found.ties]}; the "
                "numbers here order them as trec_eval does, so they equal the tool's only where no scores tie."
            )
        if not tool_.runnable and tool_.key != "trec_eval":
            notes.append(f"{tool_.title}: its profile is {tool_.checked}.")
        if found.note:
            notes.append(f"{tool_.title}: {found.note}")
    return notes


# --- output ---------------------------------------------------------------------------------------------------


def as_json(found: Explanation) -> dict:
    """The JSON document: ``tools`` (name -> mean), ``difference``, ``attribution`` (switch -> part), ``queries``."""
    names = [t.key for t in found.tools]
    queries = {}
    for i in found.moved():
        values = {
            name: float(found.values[side][i]) if found.counted[side][i] else None for side, name in enumerate(names)
        }
        queries[found.queries[i]] = {
            "values": values,
            "difference": float(found.query_difference[i]),
            "attribution": {s: float(p[i]) for s, p in found.query_attribution.items()},
        }
    return {
        "measure": found.measure,
        "sentence": found.sentence,
        "tools": {name: mean for name, mean in zip(names, found.means, strict=True)},
        "difference": found.difference,
        "attribution": dict(found.attribution),
        "conventions": {s: {names[0]: a, names[1]: b} for s, (a, b) in found.choices.items()},
        "queries": queries,
        "caveats": list(found.caveats),
    }


def as_text(found: Explanation, top: int = TOP_QUERIES) -> str:
    first, second = (t.title for t in found.tools)
    lines = [found.sentence, ""]
    width = max(len(first), len(second), 12)
    lines.append(f"{found.measure:<14}{first:>{width}}  {second:>{width}}  {'difference':>10}")
    lines.append(f"{'mean':<14}{found.means[0]:>{width}.4f}  {found.means[1]:>{width}.4f}  {found.difference:>+10.4f}")
    lines.append(f"{'queries':<14}{int(found.counted[0].sum()):>{width}}  {int(found.counted[1].sum()):>{width}}")
    lines.append("")
    if found.switches:
        n = len(found.switches)
        which = "the convention that differs" if n == 1 else f"the {n} conventions that differ"
        lines.append(f"Attribution (exact Shapley values over {which}):")
        for switch in found.switches:
            a, b = found.choices[switch]
            lines.append(f"  {switch:<15} {a!s:>9} -> {b!s:<9}  {found.attribution[switch]:>+10.4f}")
        lines.append(f"  {'total':<40}{sum(found.attribution.values()):>+10.4f}")
    else:
        lines.append("No convention differs between these two profiles.")
    moved = [i for i in found.moved() if abs(float(found.query_difference[i])) > 0][:top]
    if moved:
        lines += ["", f"Queries that move the most ({len(moved)} shown):"]
        columns = list(found.query_attribution)
        lines.append("  " + "\t".join(["query", first, second, "difference", *columns]))
        for i in moved:
            cells = [
                found.queries[i],
                *(f"{found.values[side][i]:.4f}" if found.counted[side][i] else "-" for side in (0, 1)),
                f"{found.query_difference[i]:+.4f}",
                *(f"{found.query_attribution[s][i]:+.4f}" for s in columns),
            ]
            lines.append("  " + "\t".join(cells))
    for note in found.caveats:
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"

"""The numbers the playground, Retriever A vs B and Many queries show, computed from their inputs: the cards'
breakdowns, the metric@k curves, the precision-recall points and the query-set means. Pure (no Streamlit): the pages and
the notebooks they download (ir_metrics_lab.core.exports.notebooks) call these same functions, so both show the same
numbers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from ir_metrics_lab.core import family_display
from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog import registry
from metrics.core.types import Breakdown
from metrics.evaluation.aggregate import QuerySetResult, query_statuses
from metrics.families._interpolation import ELEVEN_LEVELS, precision_recall_points
from metrics.families.interpolated_precision import interpolated_precision
from metrics.teaching.sweep import at_each_cutoff
from metrics.tools.settings import TITLES

if TYPE_CHECKING:  # annotations only
    from metrics.evaluation.engine import Evaluation
    from metrics.tools.explain import Explanation

CURVE_FAMILIES = family_display.curve_families()


def breakdowns(scn: Scenario) -> dict[str, Breakdown]:
    """Every metric on the playground's cards, keyed by family (RR and AP over the whole list, the rest at k). The list
    includes a query's hidden tail (Scenario.full_ranking), so uncut RR and AP equal the run's values."""
    ranking, qrels = list(scn.full_ranking), scn.qrels
    return {
        f.key: f.function(ranking, qrels, family_display.card_k(f.key, scn.k), conventions=scn.conventions)
        for f in family_display.carded()
    }


def curves(scn: Scenario, families: Sequence[str] = CURVE_FAMILIES) -> dict[str, list[float]]:
    """metric@k for k = 1 .. max(k, displayed list length), one series per family, labelled like the cards. Values
    are computed on the full ranking (a hidden tail counts), but only swept over the ranks on screen."""
    depth = max(scn.k, len(scn.ranking), 1)
    ranking = list(scn.full_ranking)
    return {f"{family}@k": at_each_cutoff(family, ranking, scn.qrels, depth, scn.conventions) for family in families}


def precision_recall(scn: Scenario) -> tuple[list, tuple[float, ...], list[float]]:
    """The list's (recall, precision) point per rank, trec_eval's 11 recall levels and its interpolated precision at
    each: what ir_metrics_lab.core.figures.curve_charts.precision_recall draws."""
    ranking, conventions = list(scn.full_ranking), scn.conventions
    points = precision_recall_points(ranking, scn.qrels, conventions=conventions)
    interpolated = [
        interpolated_precision(ranking, scn.qrels, conventions=conventions, level=level).value
        for level in ELEVEN_LEVELS
    ]
    return points, ELEVEN_LEVELS, interpolated


def query_set_families(k: int) -> dict[str, tuple[str, Callable]]:
    """Label of the mean -> (label of the per-query value, metric function of (ranking, qrels)), for the families of
    ir_metrics_lab.core.family_display's "means" list at k and over the whole list (Many queries' cards)."""
    means = {}
    for family, cut in family_display.listed_at("means", k):
        at = "" if cut is None else f"@{cut}"
        mean = family_display.display(family).mean or f"mean {family}"
        means[f"{mean}{at}"] = (f"{family}{at}", partial(registry.family(family).function, k=cut))
    return means


# --- the tables a page shows, as DataFrames (the notebooks display them) ---

QUERY_STATUS_WORDS = {  # metrics.evaluation.aggregate.QUERY_RULES in words, as Many queries' table says them
    "no judgments": "skipped: no judgments, so trec_eval does not know it",
    "not in run": "skipped: not in the run (-c would count it as 0)",
    "missing counts 0": "counts as 0 (-c): judged, but the run has no results",
    "nothing relevant": "counts as 0: judged, but nothing is relevant",
    "counts": "counts",
}


def fmt(x: float) -> str:
    """Every metric value in the app: 4 decimals."""
    return f"{x:.4f}"


def scenario_table(scn: Scenario) -> list[dict]:
    """One row per document: its rank (empty on the shelf), id, title and grade ("unjudged": no qrels line)."""
    qrels = scn.qrels
    rows = [
        {"rank": rank, "doc": doc, "title": scn.title(doc), "grade": qrels.get(doc, "unjudged")}
        for rank, doc in enumerate(scn.ranking, start=1)
    ]
    rows += [{"rank": "not retrieved", "doc": doc, "title": scn.title(doc), "grade": qrels[doc]} for doc in scn.shelf]
    if scn.tail:
        rows.append({"rank": f"+{len(scn.tail)} more", "doc": "", "title": "(hidden, counted)", "grade": ""})
    return rows


def values_table(breakdowns: Iterable[Breakdown]):
    """The cards: one row per metric, its value to 4 decimals."""
    import pandas as pd

    shown = list(breakdowns)
    return pd.DataFrame({"metric": [b.metric for b in shown], "value": [fmt(b.value) for b in shown]})


def ab_table(a: Mapping[str, Breakdown], b: Mapping[str, Breakdown]):
    """Retriever A vs B's side-by-side table: each compared metric's two values and which is higher."""
    import pandas as pd

    rows = []
    for family in family_display.listed("compared"):
        x, y = a[family], b[family]
        verdict = "equal" if fmt(x.value) == fmt(y.value) else f"{'B' if y.value > x.value else 'A'} higher"
        rows.append({"metric": x.metric, "A": fmt(x.value), "B": fmt(y.value), "verdict": verdict})
    return pd.DataFrame(rows)


def means_table(results: Mapping[str, QuerySetResult]):
    """Many queries' cards: each mean to 4 decimals and how many queries it is over."""
    import pandas as pd

    return pd.DataFrame(
        {
            "mean": list(results),
            "value": [fmt(r.mean) for r in results.values()],
            "queries": [len(r.per_query) for r in results.values()],
        }
    )


def query_status_rows(run, qrels, k: int, results: Mapping[str, QuerySetResult], *, complete: bool) -> list[dict]:
    """Many queries' table: each query, whether it counts and why, and its AP@k (empty when it does not count)."""
    label = f"MAP@{k}"
    value_label, _ = query_set_families(k)[label]
    per_query = results[label].per_query
    return [
        {
            "query": status.query,
            "counts": status.counts,
            "why": QUERY_STATUS_WORDS[status.reason],
            value_label: fmt(per_query[status.query]) if status.query in per_query else None,
        }
        for status in query_statuses(run, qrels, complete=complete)
    ]


def tool_query_frame(found: Explanation):
    """One row per query either tool averages, largest |difference| first; a tool that does not average a query
    has no value there (None)."""
    import pandas as pd

    first, second = (t.title for t in found.tools)
    rows = found.moved()
    frame = {
        "query": [found.queries[i] for i in rows],
        first: [float(found.values[0][i]) if found.counted[0][i] else None for i in rows],
        second: [float(found.values[1][i]) if found.counted[1][i] else None for i in rows],
        "difference": [float(found.query_difference[i]) for i in rows],
    }
    for switch, parts in found.query_attribution.items():
        frame[TITLES[switch]] = [float(parts[i]) for i in rows]
    return pd.DataFrame(frame)


def numeric_names(evaluation: Evaluation) -> list[str]:
    """The evaluated measures (as spelled) whose values are numbers: all but those with a string per query
    (relstring), which have nothing to chart, average or compare."""
    return [m.name for m in evaluation.measures if not registry.family(m.family).values.text]


def summary_labels(evaluation: Evaluation) -> list[str]:
    """How each measure's 'all' value is formed, as trec_eval forms it: mean, sum, geometric mean or none."""
    words = {
        "mean": "mean",
        "sum": "sum",
        "geometric": "geometric mean",
        "queries": "number of queries",
        "none": "none (per query only)",
    }
    return [words[registry.family(m.family).values.summary] for m in evaluation.measures]


def p_value_text(p: float) -> str:
    """A p-value as Compare runs shows it: 4 decimals, or "< 0.0001".

    >>> p_value_text(0.01234), p_value_text(0.00001)
    ('0.0123', '< 0.0001')
    """
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def pair_summary(comparison) -> str:
    """One line of a paired comparison (metrics.compare.significance.PairedComparison) with the numbers Compare runs'
    pair view shows: both means, B − A, wins / ties / losses, and both tests' p-values."""
    r = comparison
    return (
        f"A {r.mean_a:.4f}, B {r.mean_b:.4f} (B − A {r.mean_difference:+.4f}); B wins / ties / losses "
        f"{r.wins} / {r.ties} / {r.losses}; p (t-test) · p (randomization) {p_value_text(r.t_test.p_value)} · "
        f"{p_value_text(r.randomization.p_value)}"
    )

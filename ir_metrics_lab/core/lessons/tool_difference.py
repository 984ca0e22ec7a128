"""The "Why tools differ" page's pieces, from a metrics.tools.explain.Explanation: the waterfall from one tool's mean to
the other's, the per-query table, and a query as a Playground share link with one tool's conventions
(ir_metrics_lab.core.url's schema). Pure (no Streamlit); the numbers all come from metrics.tools.explain."""

from __future__ import annotations

from ir_metrics_lab.core import numbers, url
from ir_metrics_lab.core.drilldown import DEFAULT_K, scenario_for_query
from ir_metrics_lab.core.figures import comparison_charts
from ir_metrics_lab.core.scenario import MAX_DOCS, Scenario
from metrics.catalog.measures import parse_measure
from metrics.tools.explain import Explanation

# ir_metrics_lab.core.figures draws every chart (no Streamlit)
waterfall_figure = comparison_charts.tool_waterfall
query_frame = numbers.tool_query_frame


def playground_scenario(found: Explanation, side: int, run, qrels, query_id: str) -> Scenario:
    """One query of the run (metrics.io Run, Qrels) as a Playground list with tool ``side``'s conventions: its
    relevant documents never retrieved on the shelf, and as much of its ranking as the Playground's MAX_DOCS leaves
    room for (a link carries no hidden tail)."""
    setting = found.profiles[side].setting
    ranking = run.ranking_of(query_id)
    judged = qrels.to_dict()
    retrieved = set(ranking)
    shelf = sum(1 for doc, grade in judged.get(query_id, {}).items() if grade > 0 and doc not in retrieved)
    k = parse_measure(found.measure).k or DEFAULT_K
    return scenario_for_query(
        {query_id: ranking},
        judged,
        query_id,
        max(1, min(len(ranking), MAX_DOCS - shelf)),
        k=min(k, MAX_DOCS),
        conventions=setting.conventions,
    )


def playground_link(app_url: str | None, scn: Scenario) -> str:
    """The share link (ir_metrics_lab.core.url's schema) that opens ``scn`` in the Playground; raises ValueError when an
    id cannot be carried (a ',' or ':' in it)."""
    return url.full_link(app_url, scn)

"""The "Why tools differ" page's pieces, from a metrics.tools.explain.Explanation: the waterfall from one tool's mean to
the other's, the per-query table, and a query as a Playground share link with one tool's conventions (ui.url's schema).
Pure (no Streamlit); the numbers all come from metrics.explain.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from lab_core.markdown import chart_label
from lab_core.scenario import MAX_DOCS, Scenario
from metrics.catalog.measures import parse_measure
from metrics.tools.explain import Explanation
from metrics.tools.settings import TITLES
from ui import url
from ui.charts import COLORS
from ui.drilldown import DEFAULT_K, scenario_for_query


def waterfall_figure(found: Explanation) -> go.Figure:
    """One bar per differing convention between the first tool's mean and the second's (the bars' heights are the
    Shapley parts, so they land exactly on the second mean)."""
    first, second = (t.title for t in found.tools)
    labels = [first, *(TITLES[s] for s in found.switches), second]
    values = [found.means[0], *(found.attribution[s] for s in found.switches), found.means[1]]
    kinds = ["absolute", *(["relative"] * len(found.switches)), "total"]
    text = [f"{found.means[0]:.4f}", *(f"{found.attribution[s]:+.4f}" for s in found.switches), f"{found.means[1]:.4f}"]
    fig = go.Figure(
        go.Waterfall(
            x=[chart_label(label) for label in labels],
            y=values,
            measure=kinds,
            text=text,
            textposition="outside",
            connector={"line": {"color": COLORS["grey"], "width": 1}},
            increasing={"marker": {"color": COLORS["green"]}},
            decreasing={"marker": {"color": COLORS["vermillion"]}},
            totals={"marker": {"color": COLORS["blue"]}},
            hovertemplate="%{x}: %{text}<extra></extra>",
        )
    )
    running = [found.means[0]]
    for switch in found.switches:
        running.append(running[-1] + found.attribution[switch])
    # Zoomed on the steps: on a 0-1 axis a difference of 0.02 would be a sliver. The two totals' bars run off the
    # bottom, and the axis title says the axis is zoomed.
    low, high = min(*running, found.means[1]), max(*running, found.means[1])
    pad = max(0.35 * (high - low), 0.01)
    fig.update_layout(
        template="plotly_white",
        height=360,
        margin={"l": 56, "r": 16, "t": 36, "b": 72},
        font={"family": "sans-serif", "size": 13, "color": COLORS["ink"]},
        showlegend=False,
        title={"text": f"Mean {chart_label(found.measure)}, one bar per convention", "x": 0},
    )
    fig.update_yaxes(
        title_text=f"mean {chart_label(found.measure)} (axis zoomed)",
        range=[max(low - pad, 0.0) if low >= 0 else low - pad, high + pad],
        gridcolor="#E5E9F0",
    )
    fig.update_xaxes(showgrid=False, automargin=True)
    return fig


def query_frame(found: Explanation) -> pd.DataFrame:
    """One row per query either tool averages, largest |difference| first; a tool that does not average a query
    has no value there (None)."""
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
    """The share link (ui.url's schema) that opens ``scn`` in the Playground; raises ValueError when an id cannot be
    carried (a ',' or ':' in it)."""
    return url.full_link(app_url, scn)

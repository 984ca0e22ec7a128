"""The brief of Retriever A vs B: two lists for one query. Which list is better and why
(ir_metrics_lab.core.lessons.narrative's sentences), each list's first documents, the measures side by side, what
each list earns at each rank, the curves over the cutoff, and the caveats one query calls for. Pure."""

from __future__ import annotations

from ir_metrics_lab.core import family_display, words
from ir_metrics_lab.core import url as links
from ir_metrics_lab.core.brief import charts
from ir_metrics_lab.core.brief.model import Brief, Chart, Inputs, Table
from ir_metrics_lab.core.brief.wording import joined, made, number, page_link, sentence, setting_words
from ir_metrics_lab.core.figures import curve_charts
from ir_metrics_lab.core.lessons import narrative
from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog import registry
from metrics.compare.significance import TIE
from metrics.teaching import diagnosis
from metrics.teaching.plain_words import rewards
from metrics.teaching.sweep import at_each_cutoff
from metrics.tools.settings import Setting

MAX_LISTED = 10  # the brief lists this many documents of each list at most


def brief(a: Scenario, b: Scenario, *, source: str = "", inputs: Inputs | None = None) -> Brief:
    """The A vs B story: which list is better and why (ir_metrics_lab.core.lessons.narrative's sentences), each list's
    first documents, the measures side by side, what each list earns at each rank, and the curves over the cutoff."""
    inputs = inputs or Inputs()
    values = {"A": _values(a), "B": _values(b)}
    keys = list(values["A"])
    numbers = "; ".join(
        f"{values['A'][key].metric if a.k == b.k else key} A {number(values['A'][key].value)} → "
        f"B {number(values['B'][key].value)}"
        for key in keys
    )
    link_list = _links(a, b, inputs)
    c = a.conventions
    setting = Setting(threshold=c.threshold, gain=c.gain, idcg=c.idcg, ap_denominator=c.ap_denominator)
    made_list = [("Conventions", setting_words(setting, ("threshold", "gain", "idcg", "ap_denominator")))]
    if not link_list:
        why = "a document id holds ',' or ':'" if inputs.app_url else "the app's address is unknown"
        made_list.append(("Open in the app", f"no link: {why}"))
    return Brief(
        "ab",
        "Retriever A vs Retriever B",
        narrative.headline(a, b),
        numbers,
        tuple(narrative.explain_ab(a, b)),
        (_side_by_side(values), _rank_chart(a, b), _curves_chart(a, b)),
        tuple(rewards(values["A"][key].metric) for key in keys),
        tuple(_caveats(a, b, values)),
        made(inputs, *made_list, given=source or "the two lists of the Retriever A vs B page"),
        tuple(link_list) + page_link(inputs, "ab", "Open Retriever A vs B in the app"),
        _table(a, b),
    )


def _breakdown(scn: Scenario, key: str):
    """One family on one list, uncut where the playground's card is (its Display's uncut_card), on the full ranking."""
    family = registry.family(key)
    cut = family_display.card_k(key, scn.k)
    return family.function(list(scn.full_ranking), scn.qrels, cut, conventions=scn.conventions)


def _values(scn: Scenario) -> dict[str, object]:
    """The compared measures of one list (metrics.catalog.registry's "compared" list), as the A vs B page shows them."""
    return {key: _breakdown(scn, key) for key in family_display.listed("compared")}


def _table(a: Scenario, b: Scenario) -> Table:
    """Each list's first MAX_LISTED documents side by side: id, title and grade ("unjudged" for no judgment)."""
    shown = min(max(len(a.ranking), len(b.ranking)), MAX_LISTED)

    def cell(scn: Scenario, i: int) -> tuple[str, str, str]:
        if i >= len(scn.ranking):
            return ("", "", "")
        doc = scn.ranking[i]
        grade = "unjudged" if doc in scn.unjudged else str(scn.grades.get(doc, 0))
        return (doc, scn.title(doc), grade)

    longest = max(len(a.ranking), len(b.ranking))
    return Table(
        f"The first {shown} documents of each list (of {longest})" if longest > shown else "Both lists, best first",
        ("rank", "A: document", "A: title", "A: grade", "B: document", "B: title", "B: grade"),
        tuple((str(i + 1), *cell(a, i), *cell(b, i)) for i in range(shown)),
        numeric=frozenset({0, 3, 6}),
    )


def _side_by_side(values: dict[str, dict[str, object]]) -> Chart:
    """Each measure for A and B, and which are equal or higher for either."""
    keys = list(values["A"])
    metrics_ = [values["A"][key].metric for key in keys]
    equal = [values["A"][k].metric for k in keys if abs(values["A"][k].value - values["B"][k].value) <= TIE]
    higher_b = [values["A"][k].metric for k in keys if values["B"][k].value - values["A"][k].value > TIE]
    higher_a = [values["A"][k].metric for k in keys if values["A"][k].value - values["B"][k].value > TIE]
    said = []
    if equal:
        said.append(f"{joined(equal)} {'is' if len(equal) == 1 else 'are'} equal for both lists")
    if higher_b:
        said.append(f"{joined(higher_b)} {'is' if len(higher_b) == 1 else 'are'} higher for B")
    if higher_a:
        said.append(f"{joined(higher_a)} {'is' if len(higher_a) == 1 else 'are'} higher for A")
    return Chart(
        "The measures side by side",
        charts.side_by_side(metrics_, [values["A"][k].value for k in keys], [values["B"][k].value for k in keys]),
        sentence("; ".join(said)),
        "Bar chart of each measure for A and B: "
        + "; ".join(
            f"{m} A {number(values['A'][k].value)}, B {number(values['B'][k].value)}"
            for m, k in zip(metrics_, keys, strict=True)
        )
        + ".",
    )


def _rank_chart(a: Scenario, b: Scenario) -> Chart:
    """What each rank adds to the measure whose per-rank bars the A vs B page opens with."""
    focus = family_display.playground_tabs()[0]
    fa, fb = (_breakdown(scn, focus) for scn in (a, b))

    def relevant_ranks(breakdown) -> str:
        ranks = [str(s.rank) for s in breakdown.steps if s.contribution > 0]
        return f"rank{'s' * (len(ranks) != 1)} {joined(ranks)}" if ranks else "no rank"

    return Chart(
        "Where in the list each one earns",
        charts.rank_contributions(fa, fb),
        f"What each rank adds to {fb.metric}: B earns at {relevant_ranks(fb)}, A at {relevant_ranks(fa)}; the same "
        "document earns less the further down it sits.",
        f"Grouped bar chart of each rank's contribution to {fb.metric}: A "
        + ", ".join(f"rank {s.rank} {number(s.contribution)}" for s in fa.steps)
        + "; B "
        + ", ".join(f"rank {s.rank} {number(s.contribution)}" for s in fb.steps)
        + ".",
    )


def _curves_chart(a: Scenario, b: Scenario) -> Chart:
    """Each compared curve's measure at every cutoff, for A and B."""
    curves_a, curves_b = (
        {
            f"{k}@k": at_each_cutoff(k, list(s.full_ranking), s.qrels, max(s.k, len(s.ranking), 1), s.conventions)
            for k in family_display.listed("compared_curves")
        }
        for s in (a, b)
    )
    depth = max(len(v) for v in (*curves_a.values(), *curves_b.values()))
    return Chart(
        "At every cutoff",
        curve_charts.ab_curves(curves_a, curves_b, a.k),
        f"Each measure at every cutoff from 1 to {depth} (the dashed line marks k = {a.k}): where B's line is "
        "above A's, a reader who stops there is better served by B.",
        "Line chart of each measure at cutoffs 1 to "
        f"{depth}: "
        + "; ".join(
            f"{name} A {', '.join(number(v) for v in curves_a[name])}, B {', '.join(number(v) for v in curves_b[name])}"
            for name in curves_a
        )
        + ".",
    )


def _caveats(a: Scenario, b: Scenario, values: dict[str, dict[str, object]]) -> list[str]:
    """One query is an example; each list's unjudged documents in its top k; measures that cannot tell the lists
    apart; conventions and cutoffs that would change the verdict."""
    said = [
        "One query is an example, not evidence: whether B beats A on your users' queries takes many queries and a "
        "test (Compare runs does that)."
    ]
    for side, scn in (("A", a), ("B", b)):
        hidden = [doc for doc in scn.full_ranking[: scn.k] if doc in scn.unjudged]
        if hidden:
            said.append(
                f"{words.count(len(hidden), 'document')} in {side}'s top {scn.k} {words.verb(len(hidden), 'has')} no "
                f"judgment ({', '.join(hidden)}): every measure here counts {'it' if len(hidden) == 1 else 'them'} as "
                "not relevant."
            )
    said += _saturated(values)
    said += _flips(a, b, values)
    return said


def _saturated(values: dict[str, dict[str, object]]) -> list[str]:
    """The measures at their best, or at 0, for both lists."""
    said = []
    for key in values["A"]:
        bounds = registry.value_range(key)
        va, vb = values["A"][key].value, values["B"][key].value
        if bounds and va >= bounds[1] - TIE and vb >= bounds[1] - TIE:
            said.append(
                f"{values['A'][key].metric} is at its best ({bounds[1]:g}) for both lists: it cannot tell them apart "
                "here."
            )
        elif abs(va) <= TIE and abs(vb) <= TIE:
            said.append(f"{values['A'][key].metric} is 0 for both lists: it cannot tell them apart here.")
    return said


def _flips(a: Scenario, b: Scenario, values: dict[str, dict[str, object]]) -> list[str]:
    """Which other convention or cutoff one rank either side would change the list an order measure prefers
    (metrics.teaching.diagnosis), or that none would (when both lists share k)."""
    qrels = {**a.qrels, **b.qrels}
    flips = []
    for key in values["A"]:
        if registry.family(key).kind != "order" or a.k != b.k:
            continue
        k = family_display.card_k(key, a.k)
        for answer, mistakes in diagnosis.choice_variants(
            key, a.full_ranking, b.full_ranking, qrels, k, a.conventions
        ).items():
            verdict = "tie" if answer == "tie" else f"favour {answer}"
            flips.append(f"with {mistakes[0]}, {values['A'][key].metric} would {verdict}")
    if flips:
        return ["Conventions and cutoffs can change the verdict: " + "; ".join(flips) + "."]
    if a.k == b.k:
        return [
            "No other convention (gain, ideal ranking, AP's denominator, relevance threshold) and no cutoff one rank "
            "either side changes which list any measure prefers."
        ]
    return []


def _links(a: Scenario, b: Scenario, inputs: Inputs) -> list[tuple[str, str]]:
    """Each list as a Playground link, when the app's address is known and the list has a link."""
    link_list = []
    for side, scn in (("A", a), ("B", b)):
        try:
            link = links.full_link(inputs.app_url, scn)
        except ValueError:
            continue
        if inputs.app_url:
            link_list.append((f"Open list {side} in the Playground", link))
    return link_list

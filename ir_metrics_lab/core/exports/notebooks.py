"""A page's scenario as a Jupyter notebook (nbformat 4.5 JSON, built as plain dicts: the app needs no Jupyter package)
that rebuilds exactly what the page shows by calling the library: the same numbers (ir_metrics_lab.core.numbers), the
worked formulas and per-rank tables (the Breakdowns' Jupyter reprs, metrics.teaching.jupyter) and the same plotly
figures (ir_metrics_lab.core.figures, which imports no Streamlit). Pure (no Streamlit).

Safe by construction: the scenario's user text (ids, titles, query ids, file names) reaches a code cell only inside a
Python literal written by ``repr`` (ir_metrics_lab.core.exports.notebook_cells.literal), which cannot run code however
it is spelled, and a Markdown cell only through ir_metrics_lab.core.markdown.plain, which shows it character for
character. Every other piece of a cell is this module's own text. The cells are notebook_cells', the data files
notebook_files'; the teaching notebooks are teaching_notebooks'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ir_metrics_lab.core import family_display
from ir_metrics_lab.core.exports.notebook_cells import (
    code_cell,
    literal,
    markdown_cell,
    notebook,
    scenario_source,
    setup,
)
from ir_metrics_lab.core.exports.notebook_files import data_files_source, data_section, run_files_source
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import Scenario


def _heading(title: str, about: str) -> dict:
    return markdown_cell(
        f"# {title}\n\n{about}\n\n"
        "Run every cell from the top (*Run All*): each number below is the page's, to its 4 decimals, computed by "
        "the `metrics` library; the charts are the page's own plotly figures (`ir_metrics_lab.core.figures`)."
    )


def _scenario_cells(names: Mapping[str, Scenario], about: str) -> list[dict]:
    source = "\n\n".join(scenario_source(name, scn) for name, scn in names.items())
    shown = "\n".join(f"display(pd.DataFrame(numbers.scenario_table({name})))" for name in names)
    return [markdown_cell(about), code_cell(f"{source}\n\n{shown}")]


# --- the pages ---


def playground(scn: Scenario, *, preset: str | None = None) -> dict:
    """The Playground's list, grades, titles, shelf, k and conventions: its cards, every worked formula with its
    per-rank table and bars, the metric@k curves and the precision-recall curve."""
    about = "The Playground's ranked list" + (f" (preset: {plain(preset, one_line=True)})" if preset else "") + "."
    cells = [_heading("Playground", about), *setup()]
    cells += _scenario_cells(
        {"SCENARIO": scn},
        "## The scenario\n\nThe ranked list (best first), the judged documents it missed (the shelf: they count in R "
        "and in the ideal ordering), every grade and title, k and every convention, as data.",
    )
    cells += [
        markdown_cell("## The numbers\n\nThe page's cards: RR and AP over the whole list, the rest at k."),
        code_cell("now = numbers.breakdowns(SCENARIO)\nnumbers.values_table(now.values())"),
        markdown_cell(
            "## How each number is computed\n\nEach metric's worked formula with this list's numbers, its per-rank "
            "table (each rank's contribution and the running total) and, where the page draws them, its bars."
        ),
    ]
    tabs = family_display.playground_tabs()
    for family in family_display.cards("order") + family_display.cards("set"):
        shown = family_display.display(family)
        lines = [f"now[{family!r}]"]
        if family in tabs or shown.bars:
            lines.insert(0, f"display(rank_charts.contributions(now[{family!r}], titles=SCENARIO.titles))")
        if shown.versus:
            actual, ideal = shown.versus
            lines.insert(0, f"display(rank_charts.ideal_vs_actual(now[{actual!r}], now[{ideal!r}]))")
        cells.append(code_cell("\n".join(lines)))
    cells += [
        markdown_cell(
            "## Metric@k curves and the precision-recall curve\n\nEach metric at every cutoff (the marked line is "
            "k), then precision against recall: one point per rank, and trec_eval's interpolated precision at the 11 "
            "recall levels."
        ),
        code_cell(
            "display(curve_charts.curves(numbers.curves(SCENARIO), SCENARIO.k, 'Each metric at every cutoff'))\n"
            "curve_charts.precision_recall(*numbers.precision_recall(SCENARIO))"
        ),
    ]
    return notebook(cells)


def ab(a: Scenario, b: Scenario, *, bars_of: str | None = None) -> dict:
    """Retriever A vs B: both lists (grades belong to the documents, k is shared), the side-by-side numbers, the
    page's sentences, the per-rank bars of ``bars_of`` (the page's picker; its first tab by default) and the
    metric@k curves."""
    bars_of = bars_of or family_display.playground_tabs()[0]
    cells = [_heading("Retriever A vs B", "Two retrievers' rankings of the same documents."), *setup()]
    cells += _scenario_cells(
        {"A": a, "B": b}, "## The two lists\n\nRetriever A's and B's rankings, grades, titles, k and conventions."
    )
    cells += [
        markdown_cell(
            "## Side by side\n\nRR and AP over the whole list, the rest at k; *equal* when the 4 decimals tie."
        ),
        code_cell(
            "from ir_metrics_lab.core.lessons import narrative\n\n"
            "now = {'A': numbers.breakdowns(A), 'B': numbers.breakdowns(B)}\n"
            "numbers.ab_table(now['A'], now['B'])"
        ),
        markdown_cell("## What the numbers say"),
        code_cell(
            "print(narrative.headline(A, B))\nfor sentence in narrative.explain_ab(A, B):\n    print('-', sentence)"
        ),
        markdown_cell("## Per-rank contributions\n\nBoth on the same scale, then each worked formula and table."),
        code_cell(
            f"bars = {{side: rank_charts.contributions(now[side][{bars_of!r}], titles=scn.titles) "
            "for side, scn in (('A', A), ('B', B))}\n"
            "rank_charts.share_y_range(*bars.values())\n"
            "for side, fig in bars.items():\n"
            f"    display(fig, now[side][{bars_of!r}])"
        ),
        markdown_cell("## Metric@k curves\n\nEach metric at every cutoff, A against B."),
        code_cell(
            f"families = {literal(family_display.listed('compared_curves'))}\n"
            "curve_charts.ab_curves(numbers.curves(A, families), numbers.curves(B, families), A.k)"
        ),
    ]
    return notebook(cells)


def multi_query(
    queries: Mapping[str, Scenario],
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    k: int,
    *,
    complete: bool = False,
    bars_of: str | None = None,
) -> dict:
    """Many queries: each query's ranked list and judgments (``run`` and ``qrels``, the page's queries with any demo
    queries added), k and ``-c``: the means, the per-query bars of ``bars_of`` (a mean's label; MAP@k by default)
    and which queries count."""
    titles = {doc: title for scn in queries.values() for doc, title in scn.titles.items() if title}
    cells = [_heading("Many queries: MRR, MAP and mean NDCG", "Per-query scores and their means."), *setup()]
    cells += [
        markdown_cell(
            "## The queries\n\nEach query's ranked list (best first) and its judgments (document: grade), k, and "
            "whether a judged query missing from the run counts as 0 (trec_eval `-c`)."
        ),
        code_cell(
            f"RUN = {literal({q: list(docs) for q, docs in run.items()})}\n"
            f"QRELS = {literal({q: dict(j) for q, j in qrels.items()})}\n"
            f"TITLES = {literal(titles)}\n"
            f"K = {k!r}\n"
            f"COMPLETE = {complete!r}\n\n"
            "from metrics.evaluation.dataframes import qrels_frame, run_frame\n\n"
            "display(run_frame(RUN), qrels_frame(QRELS))  # as DataFrames, with ir_measures' and ranx's column names"
        ),
        markdown_cell("## The means\n\nEach mean over the queries that count, and each query's value."),
        code_cell(
            "from metrics import mean_over_queries\n\n"
            "results = {label: mean_over_queries(fn, RUN, QRELS, complete=COMPLETE)\n"
            "           for label, (_, fn) in numbers.query_set_families(K).items()}\n"
            "numbers.means_table(results)"
        ),
        code_cell("for label, result in results.items():\n    print(label)\n    display(result)"),
        markdown_cell("## Per-query bars and which queries count"),
        code_cell(
            f"chosen = {literal(bars_of)} or f'MAP@{{K}}'\n"
            "display(query_charts.per_query_bars(dict(results[chosen].per_query), results[chosen].mean, chosen))\n"
            "pd.DataFrame(numbers.query_status_rows(RUN, QRELS, K, results, complete=COMPLETE))"
        ),
    ]
    return notebook(cells)


def swap_heatmap(scn: Scenario, family: str, k: int | None) -> dict:
    """The Swap heatmap: for every two ranks of the Playground's list, how much swapping them would change
    ``family`` at ``k`` (None: the whole list), the best single swap and the heatmap."""
    cells = [
        _heading("Swap heatmap", "How much each swap of two ranks of the Playground's list would change a metric."),
        *setup(),
    ]
    cells += _scenario_cells({"SCENARIO": scn}, "## The list\n\nThe Playground's list, grades, k and conventions.")
    cells += [
        markdown_cell("## The metric now"),
        code_cell(
            "from metrics.catalog import registry\n"
            "from metrics.teaching.swaps import best_swap, swap_deltas\n\n"
            f"FAMILY, CUTOFF = {family!r}, {k!r}\n"
            "ranking = list(SCENARIO.ranking)  # the shown ranks are swapped; a hidden tail still counts\n"
            "now = registry.family(FAMILY).function(list(SCENARIO.full_ranking), SCENARIO.qrels, CUTOFF, "
            "conventions=SCENARIO.conventions)\nnow"
        ),
        markdown_cell(
            "## Every swap\n\nRow i, column j: the change in the metric if the documents at ranks i and j swapped "
            "places (4 decimals), then the best single swap and the page's heatmap."
        ),
        code_cell(
            "deltas = swap_deltas(ranking, SCENARIO.qrels, FAMILY, CUTOFF, SCENARIO.conventions, tail=SCENARIO.tail)\n"
            "ranks = range(1, len(ranking) + 1)\n"
            "display(pd.DataFrame([[f'{d:+.4f}' for d in row] for row in deltas], index=ranks, columns=ranks))\n"
            "best = best_swap(deltas)\n"
            "if best is None:\n"
            "    print(f'No single swap raises {now.metric}: '\n"
            "          'this order is already the best you can reach by one swap.')\n"
            "else:\n"
            "    i, j, gain = best\n"
            "    print(f'The best single swap is rank {i} ↔ rank {j}: {now.metric} {gain:+.4f}.')\n"
            "heatmaps.swap_heatmap(deltas, SCENARIO.ranking, now.metric)"
        ),
    ]
    return notebook(cells)


def quiz_exercise(
    title: str, question: str, runs: Mapping[str, Mapping[str, Sequence[str]]], qrels: Mapping, measures: Sequence[str]
) -> dict:
    """A Quiz exercise once answered: its lists (``runs``: a name per list -> {query: ranking}; one query for the
    single-list exercises, "A" and "B" over three queries for Which MRR is higher), every judgment (``qrels``:
    {query: {doc: grade}}) and the measures it asks about, each worked rank by rank and averaged over the queries as
    trec_eval averages."""
    cells = [
        _heading(f"Quiz: {plain(title, one_line=True)}", plain(question)),
        *setup(),
        markdown_cell("## The exercise\n\nEach list (best first, per query) and every judgment, as data."),
        code_cell(
            f"RUNS = {literal({name: dict(run) for name, run in runs.items()})}\n"
            f"QRELS = {literal(dict(qrels))}\n"
            f"MEASURES = {literal(list(measures))}\n"
            "for name, run in RUNS.items():\n"
            "    for query, ranking in run.items():\n"
            "        print(f'{name}, {query}: ' + ', '.join(f'{d} (grade {QRELS[query].get(d, 0)})' for d in ranking))"
        ),
        markdown_cell(
            "## The solution\n\nEach measure worked rank by rank on each query (its formula with the list's numbers, "
            "then its per-rank table), then its mean over the queries."
        ),
        code_cell(
            "from metrics import mean_over_queries, parse_measure\n\n"
            "for name, run in RUNS.items():\n"
            "    for spelled in MEASURES:\n"
            "        measure = parse_measure(spelled)\n"
            "        result = mean_over_queries(lambda ranking, judged: measure.compute(list(ranking), judged), run,\n"
            "                                   QRELS)\n"
            "        for query in result.per_query:\n"
            "            display(measure.compute(list(run[query]), QRELS[query]))\n"
            "        over = f' (the mean over {len(result.per_query)} queries)' if len(result.per_query) > 1 else ''\n"
            "        print(f'{name}: {spelled} = {result.mean:.4f}{over}')"
        ),
    ]
    return notebook(cells)


def why_tools_differ(run: tuple[str, str], qrels: tuple[str, str], measure: str, first: str, second: str) -> dict:
    """Why tools differ: the run and qrels (each ("sample" or "upload", file name)), the measure and the two tools:
    the sentence, both means and their difference, each convention's share, the waterfall and the per-query table."""
    where = data_section((run, qrels), "run and qrels")
    cells = [
        _heading("Why do two tools disagree?", "Two tools' numbers for one measure on a run, and why they differ."),
        *setup(),
        markdown_cell(where),
        code_cell(data_files_source({"RUN": run, "QRELS": qrels})),
        markdown_cell(
            "## The difference\n\nThe run scored under both tools' choices; the difference of the means split "
            "between the conventions that differ (exact Shapley values)."
        ),
        code_cell(
            "from metrics.tools.explain import explain\n\n"
            f"MEASURE, FIRST, SECOND = {literal(measure)}, {literal(first)}, {literal(second)}\n"
            "found = explain(RUN, QRELS, MEASURE, FIRST, SECOND)\n"
            "print(found.sentence)\n"
            "first, second = (tool.title for tool in found.tools)\n"
            "display(pd.DataFrame({'': [f'{first}: mean {MEASURE}', f'{second}: mean {MEASURE}', "
            "'Difference (second − first)'],\n"
            "                      'value': [f'{found.means[0]:.4f}', f'{found.means[1]:.4f}', "
            "f'{found.difference:+.4f}']}))\n"
            "found"
        ),
        markdown_cell("## One bar per convention, then each query, largest difference first"),
        code_cell(
            "if found.switches:\n    display(comparison_charts.tool_waterfall(found))\n"
            "with pd.option_context('display.float_format', '{:.4f}'.format, 'display.max_rows', 20):\n"
            "    display(numbers.tool_query_frame(found))"
        ),
    ]
    return notebook(cells)


def evaluate_run(run: tuple[str, str], qrels: tuple[str, str], measures: Sequence[str], *, complete: bool) -> dict:
    """Evaluate a run: the files (as for why_tools_differ), the measures as typed and trec_eval's -c: the means, each
    measure's distribution over the queries and the per-query table."""
    where = data_section((run, qrels), "run and qrels")
    cells = [
        _heading("Evaluate a run", "A run scored against its qrels with trec_eval's conventions."),
        *setup(),
        markdown_cell(where),
        code_cell(data_files_source({"RUN": run, "QRELS": qrels})),
        markdown_cell(
            "## The means\n\nOver the queries in both files (with `-c`, a judged query the run misses counts as "
            "0): the same numbers as `python -m metrics QRELS RUN -q`."
        ),
        code_cell(
            "from metrics.evaluation.engine import evaluate\n\n"
            f"MEASURES = {literal(list(measures))}\nCOMPLETE = {complete!r}\n"
            "result = evaluate(RUN, QRELS, MEASURES, complete=COMPLETE)\n"
            "names = numbers.numeric_names(result)\n"
            "labels = dict(zip((m.name for m in result.measures), numbers.summary_labels(result), strict=True))\n"
            "print(f'{result.counts.evaluated} queries evaluated')\n"
            "pd.DataFrame({'measure': names, 'all': [f'{result.means[n]:.4f}' for n in names], "
            "'over queries': [labels[n] for n in names]})"
        ),
        markdown_cell("## Distribution over queries"),
        code_cell(
            "for name in names:\n"
            "    display(query_charts.distribution(result.per_query[name], name, result.means[name]))"
        ),
        markdown_cell("## Per query"),
        code_cell(
            "with pd.option_context('display.float_format', '{:.4f}'.format, 'display.max_rows', 20):\n"
            "    display(result.to_frame().reset_index())"
        ),
    ]
    return notebook(cells)


def compare_runs(
    runs: Mapping[str, tuple],
    qrels: tuple,
    measures: Sequence[str],
    *,
    test: str,
    correction: str,
    heatmap: tuple[str, str, int] | None = None,
    pair: tuple[str, str, str] | None = None,
) -> dict:
    """Compare runs: each run by name with its file, the qrels (as for why_tools_differ), the measures, the
    significance test and the correction: the leaderboard (means, best per column, the runs each one beats); with
    ``heatmap`` (measure, query order, at most this many queries) the runs x queries heatmap and the win/tie/loss
    table; with ``pair`` (run A, run B, the metric looked at) the pair's tests, its per-query differences and its
    randomization test, as the page's pair view shows them."""
    cells = [
        _heading("Compare runs", "Several runs against the same qrels: a leaderboard with significance tests."),
        *setup(),
        markdown_cell(data_section((*runs.values(), qrels), "runs and qrels")),
        code_cell(run_files_source(runs, qrels)),
        *_leaderboard_cells(measures, test, correction),
    ]
    if heatmap is not None:
        cells += _heatmap_cells(*heatmap)
    if pair is not None:
        cells += _pair_cells(*pair)
    return notebook(cells)


def _leaderboard_cells(measures: Sequence[str], test: str, correction: str) -> list[dict]:
    """Every run evaluated, and the leaderboard under the page's test and correction."""
    return [
        markdown_cell(
            "## The leaderboard\n\nMeans over the queries every run was evaluated on, best per column, and the "
            "runs each one beats significantly (the letters), under the page's test and correction."
        ),
        code_cell(
            "from metrics.compare.leaderboard import from_evaluations\n"
            "from metrics.evaluation.engine import evaluate\n\n"
            f"MEASURES = {literal(list(measures))}\n"
            f"TEST, CORRECTION = {literal(test)}, {literal(correction)}\n"
            "evaluations = {name: evaluate(path, QRELS, MEASURES) for name, path in RUN_FILES.items()}\n"
            "board = from_evaluations(evaluations, test=TEST, correction=CORRECTION)\n"
            "print(board.to_text())\n"
            "board"
        ),
    ]


def _heatmap_cells(measure: str, order: str, most: int) -> list[dict]:
    """The runs x queries heatmap of ``measure`` (queries in ``order``, at most ``most``) and the win/tie/loss table."""
    return [
        markdown_cell(
            "## Where the runs differ\n\nOne row per run, one column per query; then each run against each "
            "other, query by query: wins / ties / losses (row against column)."
        ),
        code_cell(
            "from metrics.compare.leaderboard import query_order\n"
            "from ir_metrics_lab.core.figures import leaderboard as board_tables\n\n"
            f"MEASURE, ORDER, MOST = {literal(measure)}, {literal(order)}, {most!r}\n"
            "order = query_order(board.queries, board.per_query[MEASURE], by=ORDER)\n"
            "queries, values = board_tables.heatmap_rows(board, MEASURE, order, MOST)\n"
            "labels = [board_tables.run_label(board, run) for run in board.runs]\n"
            "unit = board_tables.on_unit_scale(MEASURE)\n"
            "display(heatmaps.runs_heatmap(queries, labels, values, MEASURE, unit=unit))\n"
            "board_tables.win_tie_loss_table(board, MEASURE)"
        ),
    ]


def _pair_cells(name_a: str, name_b: str, metric: str) -> list[dict]:
    """Run B against run A as the page's pair view shows them: the tests, and ``metric``'s per-query differences and
    randomization test."""
    return [
        markdown_cell(
            "## Two runs, query by query\n\nThe queries both runs are evaluated on; for each measure the paired "
            "t-test, the randomization test and a bootstrap interval (fixed seeds: the page's numbers)."
        ),
        code_cell(
            "from metrics.compare.pairing import align\n"
            "from metrics.compare.significance import compare_paired\n\n"
            f"A, B, METRIC = {literal(name_a)}, {literal(name_b)}, {literal(metric)}\n"
            "pair = align(evaluations[A], evaluations[B])\n"
            "results = {name: compare_paired(a, b) for name, (a, b) in pair.values.items()}\n"
            "print(f'{len(pair.queries)} queries are evaluated in both runs (A = {A}, B = {B}).')\n"
            "for name, comparison in results.items():\n"
            "    print(f'{name}: {numbers.pair_summary(comparison)}')\n"
            "a_values, b_values = pair.values[METRIC]\n"
            "display(comparison_charts.waterfall(list(pair.queries), a_values, b_values, METRIC, A, B))\n"
            "comparison_charts.null_histogram(results[METRIC].randomization, METRIC)"
        ),
    ]

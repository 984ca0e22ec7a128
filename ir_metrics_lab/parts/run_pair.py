"""Two runs query by query, as Compare runs shows them: the queries they share, the paired tests' table and cards, and
below them the waterfall, the tests explained in words, the per-query values, the brief and the query picker. The
numbers come from metrics.compare (pairing, significance)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ir_metrics_lab.core.figures import comparison_charts
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.numbers import p_value_text
from ir_metrics_lab.parts import brief_download, teaching
from ir_metrics_lab.session import dataset_state, drilldown, widget_state
from ir_metrics_lab.shell import first_paint
from metrics.compare.pairing import LeftOut, align
from metrics.compare.significance import (
    N_PERMUTATIONS,
    N_RESAMPLES,
    SEED,
    PairedComparison,
    compare_paired,
    differences,
    holm_across_metrics,
)
from metrics.evaluation.engine import Evaluation

# The heights of the Holm switch and the metric picker, which a new visitor's first run leaves for the next
# (ir_metrics_lab.shell.first_paint.later), measured in Chromium with the bundled samples' defaults.
HOLM_ROOM = first_paint.Room(wide=24, phone=24, presenter=32)
METRIC_PICKER_ROOM = first_paint.LABELLED_WIDGET


def left_out_notes(left_out: LeftOut) -> list[str]:
    """Why queries are not in the pair's common set (metrics.compare.pairing counts them), one phrase per reason."""
    reasons = (
        (left_out.only_a, "with qrels that only run A retrieved documents for"),
        (left_out.only_b, "with qrels that only run B retrieved documents for"),
        (left_out.without_qrels, "retrieved for but without any qrels line (trec_eval never scores those)"),
        (left_out.in_neither, "in the qrels that neither run retrieved anything for (trec_eval -c would score 0)"),
    )
    return [f"{count} {why}" for count, why in reasons if count]


@st.cache_data(show_spinner=False, max_entries=64)
def _compare(a_values: np.ndarray, b_values: np.ndarray) -> PairedComparison:
    return compare_paired(a_values, b_values)


def p_is(p: float) -> str:
    """'p < 0.0001' or 'p = 0.0123' for sentences."""
    return f"p {p_value_text(p)}" if p < 1e-4 else f"p = {p_value_text(p)}"


def t_text(r: PairedComparison) -> str:
    t = r.t_test
    return "undefined" if t.statistic is None else f"{t.statistic:+.3f} (df {t.df})"


def summary_rows(results: dict[str, PairedComparison], adjust: bool) -> list[dict]:
    adjusted = holm_across_metrics(results) if adjust else {}
    rows = []
    for m, r in results.items():
        row = {
            "metric": m,
            "mean A": r.mean_a,
            "mean B": r.mean_b,
            "B − A": r.mean_difference,
            "95% CI": f"[{r.ci.low:+.4f}, {r.ci.high:+.4f}]",
            "wins / ties / losses": f"{r.wins} / {r.ties} / {r.losses}",
            "t (df)": t_text(r),
            "p (t-test)": p_value_text(r.t_test.p_value),
            "p (randomization)": p_value_text(r.randomization.p_value),
        }
        if adjust:
            row["Holm p (t-test)"] = p_value_text(adjusted[m][0])
            row["Holm p (randomization)"] = p_value_text(adjusted[m][1])
        rows.append(row)
    return rows


def explain_tests(r: PairedComparison, metric: str, name_a: str, name_b: str) -> None:
    """The bootstrap interval, the t-test and the randomization test, each in words with its numbers."""
    t, rand, ci = r.t_test, r.randomization, r.ci
    st.markdown(
        f"**Bootstrap 95% CI for the mean difference: [{ci.low:+.4f}, {ci.high:+.4f}].** Resampling the {r.n} "
        f"queries with replacement {ci.n_resamples:,} times (seed {ci.seed}), 95% of the resampled mean differences "
        f"fell in this range; " + ("it excludes 0." if ci.low > 0 or ci.high < 0 else "it includes 0.")
    )
    if t.statistic is None:
        st.markdown(f"**Paired t-test: t is undefined, p = 1.** {t.note[:1].upper() + t.note[1:]}.")
    else:
        st.markdown(
            f"**Paired t-test: t = {t.statistic:+.3f}, df = {t.df}, {p_is(t.p_value)}.** If {name_a} and "
            f"{name_b} were equally good on average, a mean {metric} difference at least this far from 0 would turn up "
            f"with probability {p_value_text(t.p_value)}, assuming the per-query differences are roughly normal."
            + (f" ({t.note[:1].upper() + t.note[1:]}.)" if t.note else "")
        )
    if rand.exact:
        tried = f"all {rand.n_permutations:,} ways of swapping A and B within queries"
        p_how = f"p = {rand.count:,} / {rand.n_permutations:,}, exact"
    else:
        tried = f"{rand.n_permutations:,} random swaps of A and B within queries (seed {rand.seed})"
        p_how = f"p = ({rand.count:,} + 1) / ({rand.n_permutations:,} + 1)"
        if rand.count == 0:
            p_how += ", the smallest p this many swaps can give"
    hits = f"{rand.count:,}" if rand.count else "none"
    st.markdown(
        f"**Randomization test: {p_is(rand.p_value)}.** Of {tried}, {hits} gave a mean difference at least as far "
        f"from 0 as the observed {rand.observed:+.4f} ({p_how}). It assumes nothing about the shape of the "
        "differences."
    )


def pair_view(
    prefix: str, eval_a: Evaluation, eval_b: Evaluation, run_a, run_b, qrels, name_a: str, name_b: str
) -> str | None:
    """The pair's tests and charts; returns the metric looked at (None: no shared query)."""
    pair = align(eval_a, eval_b)
    common, values = list(pair.queries), pair.values
    _shared_queries(common, left_out_notes(pair.left_out), name_a, name_b)
    if not common:
        return None
    with st.spinner("Resampling ..."):
        results = {m: _compare(a, b) for m, (a, b) in values.items()}
    _tests_table(prefix, results)
    first_paint.later(
        f"{prefix}_metric_picker",
        lambda: st.selectbox("Look closer at", list(results), key=f"{prefix}_metric"),
        METRIC_PICKER_ROOM,
    )
    metric = widget_state.widget_value(f"{prefix}_metric")
    metric = metric if metric in results else next(iter(results))  # the first until the picker is drawn
    r = results[metric]
    _pair_cards(r, metric, name_a, name_b)
    # the page's end (the notebook's button follows, drawn later too): nothing moves when it arrives
    first_paint.later(
        f"{prefix}_pair_more",
        lambda: closer_look(
            prefix, r, metric, values[metric], (eval_a, eval_b), (run_a, run_b), qrels, (name_a, name_b), common
        ),
    )
    return metric


def _shared_queries(common: list[str], dropped: list[str], name_a: str, name_b: str) -> None:
    """How many queries both runs were evaluated on, why the others were left out, and a warning when too few are."""
    st.markdown(f"**{len(common)} queries** are evaluated in both runs ({plain(name_a)} = A, {plain(name_b)} = B).")
    if dropped:
        st.caption("Left out: " + "; ".join(dropped) + ".")
    if not common:
        st.warning("No query is evaluated in both runs, so there is nothing to compare. Are these the right files?")
    elif len(common) < 2:
        st.warning(
            "Only 1 shared query: the tests need at least 2 (t is undefined, p = 1). The numbers are for that one."
        )


def _tests_table(prefix: str, results: dict[str, PairedComparison]) -> None:
    """Every metric's tests in one table, with the Holm switch above it and what the seeds and p-values mean."""
    key = f"{prefix}_holm"
    first_paint.later(
        f"{prefix}_holm_switch",
        lambda: st.toggle(
            "Holm correction for testing several metrics",
            **dataset_state.kept_widget(key, False, argument="value"),
            disabled=len(results) < 2,
            help="Holm's step-down method keeps the chance of any false 'significant' among the metrics at 5%.",
        ),
        HOLM_ROOM,
    )
    adjust = dataset_state.shown_setting(key, False)
    first_paint.later(
        f"{prefix}_summary",
        lambda: st.dataframe(
            summary_rows(results, adjust),
            hide_index=True,
            column_config={c: st.column_config.NumberColumn(format="%.4f") for c in ("mean A", "mean B")}
            | {"B − A": st.column_config.NumberColumn(format="%+.4f")},
        ),
        first_paint.grid_room(len(results)),
    )
    if len(results) > 1:
        st.caption(
            f"p-values are per metric: with {len(results)} metrics the chance that at least one looks significant "
            "by luck is higher than 5%. "
            + ("The Holm columns correct for that." if adjust else "Turn on Holm to correct for it.")
        )
    st.caption(
        f"Fixed seeds ({SEED}): {N_RESAMPLES:,} bootstrap resamples and {N_PERMUTATIONS:,} sign-flip permutations, "
        "so the numbers are the same on every visit."
    )


def _pair_cards(r: PairedComparison, metric: str, name_a: str, name_b: str) -> None:
    """The metric looked at: both runs' means, B's wins, ties and losses, and both tests' p-values."""
    with st.container(horizontal=True, gap="small"):
        st.metric(plain(f"{metric} · A ({name_a})", one_line=True), f"{r.mean_a:.4f}", border=True, width="stretch")
        st.metric(
            plain(f"{metric} · B ({name_b})", one_line=True),
            f"{r.mean_b:.4f}",
            delta=f"{r.mean_difference:+.4f}",
            border=True,
            width="stretch",
        )
        st.metric("B wins / ties / losses", f"{r.wins} / {r.ties} / {r.losses}", border=True, width="stretch")
        st.metric(
            "p (t-test) · p (randomization)",
            f"{p_value_text(r.t_test.p_value)} · {p_value_text(r.randomization.p_value)}",
            border=True,
            width="stretch",
        )


def closer_look(prefix: str, r: PairedComparison, metric: str, pair_values, evals, runs, qrels, names, common) -> None:
    """Below the pair's cards: the waterfall, the tests explained, the per-query values, the brief and the query
    picker (``pair_values``: A's and B's values of ``metric`` on the ``common`` queries)."""
    (a_values, b_values), (eval_a, eval_b), (run_a, run_b), (name_a, name_b) = pair_values, evals, runs, names
    figure = comparison_charts.waterfall(common, a_values, b_values, metric, name_a, name_b)
    teaching.chart(figure, key=f"{prefix}_waterfall")
    explain_tests(r, metric, plain(name_a), plain(name_b))
    if r.n and r.mean_difference == 0 and r.wins == r.losses == 0:
        st.info("The two runs score every query identically on this metric: there is no difference to test.")
    with st.expander("The randomization test, visually", icon=":material/shuffle:"):
        teaching.chart(comparison_charts.null_histogram(r.randomization, metric), key=f"{prefix}_null")
        st.caption(
            "Each bar counts shuffles whose mean difference fell in that bin. The p-value is the share of shuffles "
            "beyond the red lines (either side): the further out the observed difference, the smaller p."
        )

    with st.expander("Per-query values of the two runs", icon=":material/table:"):
        st.dataframe(
            {"query": common, "A": a_values, "B": b_values, "B − A": differences(a_values, b_values)},
            hide_index=True,
            column_config={
                "A": st.column_config.NumberColumn(format="%.4f"),
                "B": st.column_config.NumberColumn(format="%.4f"),
                "B − A": st.column_config.NumberColumn(format="%+.4f"),
            },
        )
    brief_download.pair(eval_a, eval_b, run_a, run_b, qrels, (name_a, name_b), metric, key=f"{prefix}_brief_pair")
    drilldown.compare_picker(prefix, run_a, run_b, qrels.value, common, a_values, b_values, metric, (name_a, name_b))

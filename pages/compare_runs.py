"""Compare two runs: per-query differences, wins/ties/losses, a bootstrap CI and two paired significance tests,
then open any query in the playground. Numbers come from metrics.engine and metrics.significance; this page renders.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from metrics.engine import Evaluation
from metrics.significance import (
    N_PERMUTATIONS,
    N_RESAMPLES,
    SEED,
    PairedComparison,
    compare_paired,
    differences,
    holm,
)
from ui import charts, datasets, drilldown, state
from ui.widgets import plain

PAGE = "cmp"
DEFAULT_MEASURES = ["NDCG@10", "AP", "RR@10"]
CHOICES = ["NDCG@10", "NDCG@20", "AP", "AP@10", "RR", "RR@10", "P@10", "R@100", "R_cap@100", "HitRate@10", "NDCG"]
ALPHA = 0.05


# --- loading (ui.datasets parses and caches; this page only picks the files) ---


def kept(name: str, default: object) -> dict:
    """key and on_change for a widget whose value outlives page switches (Streamlit drops widget keys when another
    page runs, e.g. after a drill-down into the playground); saved as a ui.state dataset setting."""
    key = f"{PAGE}_{name}"
    state.sync_widget(key, state.dataset_setting(key, default))
    return {"key": key, "on_change": lambda: state.set_dataset_setting(key, st.session_state[key])}


def load_inputs():
    """(run A, run B, qrels, name A, name B) as ui.datasets.Loaded values, or None when something is missing."""
    source = st.radio(
        "Data",
        ["sample", "upload"],
        format_func={"sample": "Sample data", "upload": "Upload files"}.get,
        horizontal=True,
        **kept("source", "sample"),
    )
    if source == "sample":
        systems = list(datasets.SAMPLE_RUNS)
        col_a, col_b = st.columns(2)
        name_a = col_a.selectbox("Run A", systems, **kept("sample_a", "bm25"))
        name_b = col_b.selectbox("Run B", systems, **kept("sample_b", "dense"))
        st.caption(datasets.SAMPLE_DESCRIPTION)
        run_a = datasets.load_path("run", datasets.SAMPLE_RUNS[name_a])
        run_b = datasets.load_path("run", datasets.SAMPLE_RUNS[name_b])
        qrels = datasets.load_path("qrels", datasets.SAMPLE_QRELS)
    else:
        col_a, col_b, col_q = st.columns(3)
        with col_a:
            run_a = datasets.upload_input(f"{PAGE}_run_a", "run", "Run A", key=f"{PAGE}_run_a_upload")
        with col_b:
            run_b = datasets.upload_input(f"{PAGE}_run_b", "run", "Run B", key=f"{PAGE}_run_b_upload")
        with col_q:
            qrels = datasets.upload_input(f"{PAGE}_qrels", "qrels", "Qrels", key=f"{PAGE}_qrels_upload")
        name_a = run_a.name if run_a is not None else ""
        name_b = run_b.name if run_b is not None else ""
    for loaded in (run_a, run_b, qrels):
        if loaded is not None and not loaded.ok:
            datasets.show_status(loaded)
    if not all(loaded is not None and loaded.ok for loaded in (run_a, run_b, qrels)):
        if source == "upload":
            st.info("Upload two runs and the qrels to compare them.")
        return None
    return run_a, run_b, qrels, name_a, name_b


# --- the query set ---


def query_set(a: Evaluation, b: Evaluation) -> tuple[list[str], list[str]]:
    """The queries both runs were evaluated on (trec_eval's set per run, intersected), and why others were dropped."""
    in_a, in_b = set(a.queries), set(b.queries)
    common = [q for q in a.queries if q in in_b]
    notes = []
    if only_a := len(in_a - in_b):
        notes.append(f"{only_a} with qrels that only run A retrieved documents for")
    if only_b := len(in_b - in_a):
        notes.append(f"{only_b} with qrels that only run B retrieved documents for")
    if no_qrels := len(set(a.only_in_run) | set(b.only_in_run)):
        notes.append(f"{no_qrels} retrieved for but without any qrels line (trec_eval never scores those)")
    if neither := len(set(a.only_in_qrels) & set(b.only_in_qrels)):
        notes.append(f"{neither} in the qrels that neither run retrieved anything for (trec_eval -c would score 0)")
    return common, notes


@st.cache_data(show_spinner=False, max_entries=64)
def _compare(a_values: np.ndarray, b_values: np.ndarray) -> PairedComparison:
    return compare_paired(a_values, b_values)


# --- formatting ---


def fmt_p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def p_is(p: float) -> str:
    """'p < 0.0001' or 'p = 0.0123' for sentences."""
    return f"p {fmt_p(p)}" if p < 1e-4 else f"p = {fmt_p(p)}"


def t_text(r: PairedComparison) -> str:
    t = r.t_test
    return "undefined" if t.statistic is None else f"{t.statistic:+.3f} (df {t.df})"


def summary_rows(results: dict[str, PairedComparison], adjust: bool) -> list[dict]:
    names = list(results)
    p_t = [results[m].t_test.p_value for m in names]
    p_r = [results[m].randomization.p_value for m in names]
    holm_t, holm_r = holm(p_t), holm(p_r)
    rows = []
    for i, m in enumerate(names):
        r = results[m]
        row = {
            "metric": m,
            "mean A": r.mean_a,
            "mean B": r.mean_b,
            "B − A": r.mean_difference,
            "95% CI": f"[{r.ci.low:+.4f}, {r.ci.high:+.4f}]",
            "wins / ties / losses": f"{r.wins} / {r.ties} / {r.losses}",
            "t (df)": t_text(r),
            "p (t-test)": fmt_p(p_t[i]),
            "p (randomization)": fmt_p(p_r[i]),
        }
        if adjust:
            row["Holm p (t-test)"] = fmt_p(holm_t[i])
            row["Holm p (randomization)"] = fmt_p(holm_r[i])
        rows.append(row)
    return rows


def explain(r: PairedComparison, metric: str, name_a: str, name_b: str) -> None:
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
            f"with probability {fmt_p(t.p_value)}, assuming the per-query differences are roughly normal."
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


# --- the page ---

st.title("Compare two runs")
st.caption(
    "Is run B really better than run A, or could the difference be luck of the query sample? Every query is scored "
    "in both runs (trec_eval's conventions), and the per-query differences are tested as pairs."
)


def render() -> None:
    """The page below the title. It returns early, never st.stop(): a run cut short by st.stop() skips Streamlit's
    stale-widget cleanup, so a widget it did not draw keeps its value on the server while the browser forgets it,
    and the box redrawn later shows nothing while the old value is used (issue 11, item 1)."""
    inputs = load_inputs()
    if inputs is None:
        return
    run_a, run_b, qrels, name_a, name_b = inputs

    measures = st.multiselect(
        "Metrics to compare",
        CHOICES,
        **kept("measures", DEFAULT_MEASURES),
        accept_new_options=True,
        help="Any measure name the engine knows (nDCG@10, map, P_5, recip_rank ...). RR and AP look at the whole list.",
    )
    if not measures:
        st.info("Pick at least one metric.")
        return
    try:
        eval_a = datasets.evaluate_loaded(run_a, qrels, measures, complete=False)
        eval_b = datasets.evaluate_loaded(run_b, qrels, measures, complete=False)
    except ValueError as error:
        st.error(plain(str(error)))
        return

    common, dropped = query_set(eval_a, eval_b)
    index_a = {q: i for i, q in enumerate(eval_a.queries)}
    index_b = {q: i for i, q in enumerate(eval_b.queries)}
    rows_a, rows_b = [index_a[q] for q in common], [index_b[q] for q in common]
    st.markdown(f"**{len(common)} queries** are evaluated in both runs ({plain(name_a)} = A, {plain(name_b)} = B).")
    if dropped:
        st.caption("Left out: " + "; ".join(dropped) + ".")
    if not common:
        st.warning("No query is evaluated in both runs, so there is nothing to compare. Are these the right files?")
        return
    if len(common) < 2:
        st.warning(
            "Only 1 shared query: the tests need at least 2 (t is undefined, p = 1). The numbers are for that one."
        )

    values = {m: (eval_a.per_query[m][rows_a], eval_b.per_query[m][rows_b]) for m in eval_a.per_query}
    with st.spinner("Resampling ..."):
        results = {m: _compare(a, b) for m, (a, b) in values.items()}

    adjust = st.toggle(
        "Holm correction for testing several metrics",
        **kept("holm", False),
        disabled=len(results) < 2,
        help="Holm's step-down method keeps the chance of any false 'significant' among the metrics at 5%.",
    )
    st.dataframe(
        summary_rows(results, adjust),
        hide_index=True,
        column_config={c: st.column_config.NumberColumn(format="%.4f") for c in ("mean A", "mean B")}
        | {"B − A": st.column_config.NumberColumn(format="%+.4f")},
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

    metric = st.selectbox("Look closer at", list(results), key=f"{PAGE}_metric")
    r = results[metric]
    a_values, b_values = values[metric]
    with st.container(horizontal=True, gap="small"):
        st.metric(f"{metric} · A ({plain(name_a)})", f"{r.mean_a:.4f}", border=True, width="stretch")
        st.metric(
            f"{metric} · B ({plain(name_b)})",
            f"{r.mean_b:.4f}",
            delta=f"{r.mean_difference:+.4f}",
            border=True,
            width="stretch",
        )
        st.metric("B wins / ties / losses", f"{r.wins} / {r.ties} / {r.losses}", border=True, width="stretch")
        st.metric(
            "p (t-test) · p (randomization)",
            f"{fmt_p(r.t_test.p_value)} · {fmt_p(r.randomization.p_value)}",
            border=True,
            width="stretch",
        )
    figure = charts.waterfall(common, a_values, b_values, metric, name_a, name_b)
    st.plotly_chart(figure, theme=None, key=f"{PAGE}_waterfall")
    explain(r, metric, plain(name_a), plain(name_b))
    if r.n and r.mean_difference == 0 and r.wins == r.losses == 0:
        st.info("The two runs score every query identically on this metric: there is no difference to test.")
    with st.expander("The randomization test, visually", icon=":material/shuffle:"):
        st.plotly_chart(charts.null_histogram(r.randomization, metric), theme=None, key=f"{PAGE}_null")
        st.caption(
            "Each bar counts shuffles whose mean difference fell in that bin. The p-value is the share of shuffles "
            "beyond the red lines (either side): the further out the observed difference, the smaller p."
        )

    st.subheader("Per query", anchor=False)
    st.dataframe(
        {"query": common, "A": a_values, "B": b_values, "B − A": differences(a_values, b_values)},
        hide_index=True,
        column_config={
            "A": st.column_config.NumberColumn(format="%.4f"),
            "B": st.column_config.NumberColumn(format="%.4f"),
            "B − A": st.column_config.NumberColumn(format="%+.4f"),
        },
    )
    drilldown.compare_picker(
        PAGE, run_a.value, run_b.value, qrels.value, common, a_values, b_values, metric, (name_a, name_b)
    )


render()

"""A list's settings as controls: the cutoff k and the conventions (rating scale, relevance threshold, gain, IDCG
source, AP's denominator), each with a one-line explanation.

Controls never hold the canonical state: each one is seeded from the Scenario (``widget_state.sync_widget``) and writes
back through an ``apply`` callback (``playground_state.update`` on the playground).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import streamlit as st

from ir_metrics_lab.core.scenario import MAX_DOCS, SCALES, Scenario
from ir_metrics_lab.session import widget_state
from metrics.catalog import registry
from metrics.core.conventions import TREC_EVAL
from metrics.core.errors import pointer

# How every control of a list (here and in ir_metrics_lab.parts.list_editor) reads its Scenario and writes it back.
Apply = Callable[[Scenario], None]
Current = Callable[[], Scenario]

MAX_K = MAX_DOCS  # curves are swept to k: keep a typo like k = 10^9 from stalling the page


def _k_error(raw: object) -> str | None:
    if not isinstance(raw, int | float) or raw != int(raw):
        return f"Cutoff k must be a whole number; got {raw!r} {pointer('cutoff-k')}. Keeping the previous k."
    if not 1 <= raw <= MAX_K:
        return f"Cutoff k must be between 1 and {MAX_K}; got {int(raw)} {pointer('cutoff-k')}. Keeping the previous k."
    return None


def k_control(prefix: str, current: Current, apply: Apply, *, label: str = "Cutoff k") -> None:
    """A number input for k; invalid entries stay visible with an error, the scenario keeps its k."""
    key = f"{prefix}_k"
    k = widget_state.sync_widget(key, current().k)

    def on_change() -> None:
        raw = widget_state.widget_value(key)
        if _k_error(raw) is None:
            apply(current().with_settings(k=int(raw)))

    st.number_input(
        label, value=k, step=1, key=key, on_change=on_change, help="Metrics with @k look only at the top k."
    )
    error = _k_error(widget_state.widget_value(key))
    if error:
        st.error(error)


def _tools(convention: str, choices: Sequence[str]) -> list[str]:
    """Which tools make each choice of a convention (the registry's facts), as radio captions."""
    return [registry.tools(convention, choice) for choice in choices]


def _default(text: str, is_default: bool) -> str:
    return f"{text}  ·  trec_eval default" if is_default else text


def convention_controls(prefix: str, current: Current, apply: Apply) -> None:
    """Rating scale, relevance threshold, gain, IDCG source and AP denominator, each with a one-line explanation."""
    _scale_control(prefix, current, apply)
    _threshold_control(prefix, current, apply)
    _gain_control(prefix, current, apply)
    _idcg_control(prefix, current, apply)
    _ap_denominator_control(prefix, current, apply)
    if current().conventions != TREC_EVAL:
        st.button(
            "Back to trec_eval defaults",
            key=f"{prefix}_trec_defaults",
            icon=":material/restart_alt:",
            on_click=lambda: apply(current().with_settings(conventions=dataclasses.replace(TREC_EVAL))),
        )


def _setting_widget(
    prefix: str,
    name: str,
    control: Callable[..., object],
    options: Sequence,
    value: object,
    on_value: Callable[[object], None],
    **kwargs: object,
) -> None:
    """One setting's widget showing the scenario's ``value``; a change to an actual choice goes to ``on_value``."""
    key = f"{prefix}_{name}"
    shown = widget_state.sync_widget(key, value)
    # ir_metrics_lab.session.widget_state.sync_widget: the widget's default is the value it shows (a radio's: an
    # index)
    initial = {"index": widget_state.option_index(options, shown)} if control is st.radio else {"default": shown}

    def on_change() -> None:
        picked = widget_state.widget_value(key)
        if picked is not None:
            on_value(picked)

    control(options=options, key=key, on_change=on_change, **initial, **kwargs)


def _change_conventions(current: Current, apply: Apply, **changes: object) -> None:
    apply(current().with_settings(conventions=dataclasses.replace(current().conventions, **changes)))


def _scale_control(prefix: str, current: Current, apply: Apply) -> None:
    def rescale(value: object) -> None:
        scaled = current().with_scale(int(value))
        threshold = min(scaled.conventions.threshold, int(value))
        apply(scaled.with_settings(conventions=dataclasses.replace(scaled.conventions, threshold=threshold)))

    _setting_widget(
        prefix,
        "scale",
        st.segmented_control,
        list(SCALES),
        current().scale,
        rescale,
        label="Rating scale",
        format_func=lambda s: {1: "Binary 0–1", 3: "0–3", 4: "0–4"}[s],
        required=True,
        help="The grades a rater can give. Changing it caps grades above the new top.",
    )


def _threshold_control(prefix: str, current: Current, apply: Apply) -> None:
    scn = current()
    _setting_widget(
        prefix,
        "threshold",
        st.segmented_control,
        list(range(1, scn.scale + 1)),
        min(scn.conventions.threshold, scn.scale),
        lambda value: _change_conventions(current, apply, threshold=int(value)),
        label="Relevant if grade ≥",
        required=True,
        help="Binary metrics (P, R, RR, AP, HitRate, F1) count a doc as relevant from this grade up "
        "(trec_eval -l; default 1). NDCG ignores it: every positive grade is a gain.",
    )
    st.caption("Binary metrics use the threshold; NDCG uses the grades themselves.")


def _gain_control(prefix: str, current: Current, apply: Apply) -> None:
    _setting_widget(
        prefix,
        "gain",
        st.radio,
        ["linear", "exp"],
        current().conventions.gain,
        lambda value: _change_conventions(current, apply, gain=value),
        label="Gain",
        format_func=lambda g: (
            _default("Linear: gain = g", g == TREC_EVAL.gain) if g == "linear" else "Exponential: 2^g − 1"
        ),
        captions=_tools("gain", ["linear", "exp"]),
    )


def _idcg_control(prefix: str, current: Current, apply: Apply) -> None:
    _setting_widget(
        prefix,
        "idcg",
        st.radio,
        ["all", "retrieved"],
        current().conventions.idcg,
        lambda value: _change_conventions(current, apply, idcg=value),
        label="Ideal ordering (IDCG) from",
        format_func=lambda s: (
            _default("All judged docs", s == TREC_EVAL.idcg) if s == "all" else "The retrieved list only"
        ),
        captions=["Missed relevant docs lower NDCG", "Blog shortcut: ignores what was missed"],
    )


def _ap_denominator_control(prefix: str, current: Current, apply: Apply) -> None:
    _setting_widget(
        prefix,
        "ap",
        st.radio,
        ["all", "retrieved"],
        current().conventions.ap_denominator,
        lambda value: _change_conventions(current, apply, ap_denominator=value),
        label="AP divides by",
        format_func=lambda s: (
            _default("All relevant docs (R)", s == TREC_EVAL.ap_denominator)
            if s == "all"
            else "Relevant docs retrieved"
        ),
        captions=_tools("ap_denominator", ["all", "retrieved"]),
    )

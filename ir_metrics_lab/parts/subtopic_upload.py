"""The data pages' optional subtopic qrels (ndeval's ``topic subtopic docno judgment``): their own uploader, since
they have four columns as plain qrels do and are never guessed from a file, and the diversity measures they are
scored on. The numbers come from metrics.evaluate(..., subtopic_qrels=...) through ir_metrics_lab.session.datasets."""

from __future__ import annotations

import streamlit as st

from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.session import dataset_state, datasets
from metrics.catalog.measures import parse_measure
from metrics.diversity.runs import DIVERSITY, HEADLINE, NDEVAL_COLUMNS

DEFAULT = list(HEADLINE)
ORDER_NOTE = (
    "Diversity measures are scored as ndeval 4.5 scores them (`ir-ndeval -traditional`): the run in trec_eval's "
    "order (score, then doc id). ndeval by default orders by the rank column; the two agree when the ranks follow "
    "the scores."
)


def upload(page: str) -> datasets.Loaded | None:
    """The subtopic qrels uploader, in an expander (open once a file is in), with the file's status."""
    loaded = dataset_state.loaded_file(f"{page}_subtopics")
    with st.expander("Diversity: subtopic qrels (optional)", icon=":material/category:", expanded=loaded is not None):
        st.caption(
            "Upload ndeval's subtopic qrels to score the diversity measures (alpha-nDCG, ERR-IA, NRBP, MAP-IA, P-IA, "
            f"subtopic recall) against them. {datasets.SUBTOPIC_HELP}"
        )
        loaded = datasets.upload_input(
            f"{page}_subtopics",
            "subtopics",
            "Subtopic qrels",
            key=f"{page}_subtopics_upload",
            formats=datasets.SUBTOPIC_HELP,
        )
        datasets.show_status(loaded)
    return loaded


def measures(page: str, subtopics: datasets.Loaded | None) -> list[str]:
    """The diversity measures picked (none until subtopic qrels are loaded)."""
    if datasets.subtopics_in_use(subtopics) is None:
        return []
    key = f"{page}_diversity_measures"
    st.multiselect(
        "Diversity measures (from the subtopic qrels)",
        list(dict.fromkeys([*NDEVAL_COLUMNS, *dataset_state.shown_setting(key, DEFAULT)])),
        accept_new_options=True,
        help="ndeval's columns, in ir_measures' names; type one with its parameters too, e.g. "
        "alpha_nDCG(alpha=0.2)@10 or NRBP(beta=0.8) (ndeval's -alpha and -beta).",
        **dataset_state.kept_widget(key, DEFAULT),
    )
    return list(dataset_state.shown_setting(key, DEFAULT))


def without_subtopics(names: list[str]) -> list[str]:
    """What a notebook scores: it reads no subtopic qrels, so the diversity measures stay out."""
    return [name for name in names if parse_measure(name).family not in DIVERSITY]


def diversity_only(names: list[str]) -> list[str]:
    """The diversity measures among ``names``: what subtopic qrels alone can score."""
    return [name for name in names if parse_measure(name).family in DIVERSITY]


def overlap_warning(run: datasets.Loaded, subtopics: datasets.Loaded | None) -> None:
    message = datasets.subtopic_overlap_message(run, subtopics)
    if message:
        st.warning(plain(message), icon=":material/link_off:")

"""Lesson: unjudged is not non-relevant. Judged@k, bpref, infAP and condensed lists (trec_eval -J) on the
Playground's list, where documents can be marked unjudged. Renders metrics.families.bpref, infap, judged, unjudged
and _judged_ranks; computes nothing."""

import streamlit as st

from ir_metrics_lab.core.lessons.lesson_text import LESSONS
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.parts import cards, notebook_button, teaching
from ir_metrics_lab.session import playground_state, widget_state
from ir_metrics_lab.shell import first_paint
from metrics import parse_measure
from metrics.catalog import registry
from metrics.core.types import Term
from metrics.families._judged_ranks import condensed, in_pool_unjudged, judged_ranks
from metrics.families.bpref import bpref
from metrics.families.infap import inferred_average_precision
from metrics.families.judged import judged

LESSON = LESSONS["unjudged"]  # the title, introduction, traps and naming the notebook shares
PAGE = "lesson_unjudged"
AS_NONRELEVANT = "Unjudged treated as non-relevant"
DROPPED = "Unjudged dropped (as trec_eval -J)"
NOT_IN_POOL = "never in the pool (no qrels line)"
IN_POOL = "in the pool, not sampled (grade −1 in the qrels)"
JUDGMENT_SHOWN = {"relevant": "relevant", "non-relevant": "judged non-relevant", "unjudged": "unjudged"}

st.title(LESSON.title)
st.markdown(LESSON.intro)

scn = playground_state.scenario()
ranking, qrels, conventions, k = list(scn.full_ranking), scn.qrels, scn.conventions, scn.k
titles = dict(scn.titles)
judgments = judged_ranks(ranking, qrels, conventions=conventions)  # the whole list, hidden tail included
shown = judgments[: len(scn.ranking)]  # the ranks on screen (a prefix: n_i counts only ranks above)
unjudged_docs = [row.doc_id for row in judgments if row.judgment == "unjudged"]
unjudged_count = len(unjudged_docs)


def mark_unjudged() -> None:
    current = playground_state.scenario()
    chosen = set(widget_state.widget_value(f"{PAGE}_unjudged") or ())
    playground_state.update(current.with_unjudged(chosen | (current.unjudged & set(current.tail))))


def table_height(rows: int) -> int:
    """A data grid's height in px for ``rows`` rows (up to 10 shown, then it scrolls): Streamlit's own sizing, fixed
    so that its room on the first paint is exact."""
    return 35 * (min(rows, 10) + 1) + 3


def list_table(rows, ranks_from=None, height: int | None = None) -> None:
    """The list with each document's judgment (cells are plain text, so ids and titles are safe)."""
    st.dataframe(
        [
            {
                "rank": row.rank,
                **({"was rank": ranks_from[row.doc_id]} if ranks_from else {}),
                "doc": row.doc_id,
                "title": titles.get(row.doc_id, ""),
                "judgment": JUDGMENT_SHOWN[row.judgment],
            }
            for row in rows
        ],
        hide_index=True,
        width="stretch",
        height=height if height is not None else "auto",
    )


with teaching.step(
    1,
    "Which documents were judged?",
    "Mark the documents of your list that no assessor judged. They keep grade 0 on the Playground, which is all "
    "P@k, AP and NDCG can see; the measures below tell them apart.",
):
    teaching.playground_note(scn)

    def unjudged_picker() -> None:
        unjudged = widget_state.sync_widget(f"{PAGE}_unjudged", [doc for doc in scn.ranking if doc in scn.unjudged])
        labels = {doc: f"{rank}. {doc}" for rank, doc in enumerate(scn.ranking, start=1)}
        st.multiselect(
            "Unjudged documents (no qrels line)",
            list(scn.ranking),
            default=unjudged,
            key=f"{PAGE}_unjudged",
            on_change=mark_unjudged,
            format_func=lambda doc: labels.get(doc, str(doc)),
            placeholder="Nothing is unjudged: pick documents to take their judgment away",
            help="Changes the Playground's list (undo is there), where they show grade 0; a grade above 0 judges one.",
        )

    # The numbers below paint first: the picker and the table (a data grid's code) wait in rooms of their height.
    first_paint.later(f"{PAGE}_picker", unjudged_picker, first_paint.LABELLED_WIDGET)
    height = table_height(len(shown))
    list_room = first_paint.Room(wide=height, phone=height, presenter=height)  # the grid's px, whatever the type size
    first_paint.later(f"{PAGE}_list", lambda: list_table(shown, height=height), list_room)
    if unjudged_count:
        names = ", ".join(row.doc_id for row in shown if row.judgment == "unjudged")
        hidden = unjudged_count - sum(1 for row in shown if row.judgment == "unjudged")
        st.caption(
            f"{unjudged_count} of the {len(ranking)} retrieved documents {'is' if unjudged_count == 1 else 'are'} "
            f"unjudged: {plain(names, one_line=True)}{f' and {hidden} further down' if hidden else ''}. P@k, AP and "
            "NDCG score them exactly as they score the judged non-relevant ones."
        )
    else:
        st.info("Every document on your list is judged: mark some above to see the measures part ways.")

with teaching.step(
    2,
    "Judged@k: how much of the top k was judged",
    "Check it before you trust any other number: a low Judged@10 means the qrels barely cover this list.",
):
    judged_b = judged(ranking, qrels, k, conventions=conventions)
    teaching.definition("Judged", judged_b)
    teaching.metric_row([(judged_b.metric, judged_b)], help_texts=[registry.family("Judged").help])
    first_paint.rest_next_run()  # the rest below the numbers comes with the next run (ir_metrics_lab.shell.first_paint)
    teaching.worked(judged_b)

with teaching.step(
    3,
    "bpref: judged non-relevant documents above each relevant one",
    "Each retrieved relevant document scores 1 minus the share of judged non-relevant documents ranked above it; "
    "unjudged documents are skipped as if they were not there.",
):
    bpref_b = bpref(ranking, qrels, conventions=conventions)
    teaching.definition("bpref", bpref_b)
    teaching.metric_row([("bpref", bpref_b)], help_texts=[registry.family("bpref").help])
    teaching.worked(bpref_b)
    R, N = int(bpref_b.terms[Term.R]), int(bpref_b.terms[Term.NONRELEVANT])

    def bpref_term(row, share: float, R: int, N: int) -> str:
        if row.judgment == "unjudged":
            return "skipped"
        if row.judgment == "non-relevant":
            return "none: adds 1 to n below it"
        if row.nonrelevant_above == 0:
            return "1 (none above)"
        return f"1 − min({row.nonrelevant_above}, {R}) / min({N}, {R}) = {teaching.fmt(share)}"

    scores = {step.doc_id: step.contribution * R for step in bpref_b.steps}
    st.dataframe(
        [
            {
                "rank": row.rank,
                "doc": row.doc_id,
                "judgment": JUDGMENT_SHOWN[row.judgment],
                "n_i": row.nonrelevant_above,
                "its term": bpref_term(row, scores.get(row.doc_id, 0.0), R, N),
            }
            for row in shown
        ],
        hide_index=True,
        width="stretch",
        column_config={"n_i": st.column_config.NumberColumn(help="Judged non-relevant documents ranked above it")},
    )
    if R == 0:
        st.caption("No document is judged relevant (R = 0): bpref is 0, never NaN.")
    elif N == 0:
        st.caption(
            f"R = {R} relevant documents and no judged non-relevant one (N = 0): nothing can rank above a relevant "
            "document, so each one retrieved scores 1 and each one missed 0."
        )
    else:
        st.caption(
            f"R = {R} relevant and N = {N} judged non-relevant documents in the qrels: the denominator is "
            f"min(N, R) = {min(N, R)}. A relevant document never retrieved adds 0."
        )

with teaching.step(
    4,
    "infAP: estimating what was not sampled",
    "infAP estimates the precision above each relevant document from the judged ones. It only estimates documents "
    "that were in a sampled pool but not judged (a negative grade); a document with no qrels line is a zero.",
):
    pool = st.radio("The unjudged documents were", [NOT_IN_POOL, IN_POOL], horizontal=True, key=f"{PAGE}_pool")
    pooled_qrels = in_pool_unjudged(qrels, unjudged_docs)
    infap_b = inferred_average_precision(ranking, pooled_qrels if pool == IN_POOL else qrels, conventions=conventions)
    other_infap = inferred_average_precision(
        ranking, qrels if pool == IN_POOL else pooled_qrels, conventions=conventions
    )
    ap_b = parse_measure("AP").compute(ranking, qrels, conventions)
    teaching.definition("infAP", infap_b)
    teaching.metric_row(
        [("infAP", infap_b), ("AP", ap_b)], help_texts=[registry.family(f).help for f in ("infAP", "AP")]
    )
    teaching.worked(infap_b)
    if not unjudged_docs:
        st.caption("Nothing is unjudged, so both choices give the same infAP.")
    else:
        other = "in the pool" if pool == NOT_IN_POOL else "never in the pool"
        st.caption(
            f"Had the unjudged documents been {other}, infAP would be {teaching.fmt(other_infap.value)}"
            + (" (the same)." if other_infap.value == infap_b.value else ".")
        )

with teaching.step(
    5,
    "Condensed lists: drop the unjudged and score the rest",
    "Sakai's condensed lists (trec_eval -J): remove every unjudged document, let the judged ones move up, then "
    "compute the usual measures. Switch between the two lists.",
):
    way = st.segmented_control(
        "Unjudged documents are",
        [AS_NONRELEVANT, DROPPED],
        default=AS_NONRELEVANT,
        required=True,  # clicking the chosen side again must not leave neither chosen
        key=f"{PAGE}_way",
        label_visibility="collapsed",
    )
    short = condensed(ranking, qrels)
    names = [f"P@{k}", f"R@{k}", "AP", f"NDCG@{k}", "RR", "bpref", "infAP"]
    full_values = {name: parse_measure(name).compute(ranking, qrels, conventions) for name in names}
    short_values = {name: parse_measure(name).compute(short, qrels, conventions) for name in names}
    chosen, other = (short_values, full_values) if way == DROPPED else (full_values, short_values)
    for column, name in zip(st.columns(4), (f"P@{k}", "AP", f"NDCG@{k}", "bpref"), strict=True):
        column.metric(
            name,
            teaching.fmt(chosen[name].value),
            delta=cards.delta(chosen[name], other[name]),
            border=True,
            help="The arrow is the change from the other list.",
        )
    left, right = st.columns(2)
    with left:
        if way == DROPPED:
            was = {doc: rank for rank, doc in enumerate(ranking, start=1)}
            list_table(judged_ranks(condensed(list(scn.ranking), qrels), qrels, conventions=conventions), was)
        else:
            list_table(shown)
    right.dataframe(
        [
            {
                "measure": name,
                "as non-relevant": full_values[name].value,
                "dropped (-J)": short_values[name].value,
            }
            for name in names
        ],
        hide_index=True,
        width="stretch",
        column_config={
            column: st.column_config.NumberColumn(format="%.4f") for column in ("as non-relevant", "dropped (-J)")
        },
    )
    changed = [name for name in names if full_values[name].value != short_values[name].value]
    unchanged = [name for name in names if name not in changed]
    if unjudged_count == 0:
        st.caption("Nothing is unjudged: both lists are the same, and so is every number.")
    else:
        dropped = f"Dropping the {unjudged_count} unjudged document{'' if unjudged_count == 1 else 's'}"
        same = f"; {', '.join(unchanged)} stayed the same" if unchanged else ""
        why = " bpref skips unjudged documents anyway, so its two numbers are equal." if "bpref" in unchanged else ""
        st.caption(f"{dropped} changed {', '.join(changed) or 'no measure'}{same}.{why}")

notebook_button.lesson(LESSON.key, scn)  # this lesson's teaching notebook, on this list
teaching.traps(LESSON.traps)
teaching.naming(
    f"Naming: trec_eval prints `{registry.family('bpref').trec_eval.name}` and "
    f"`{registry.family('infAP').trec_eval.name}`, and `-J` scores judged documents only; ir_measures writes "
    f"`{registry.family('bpref').names.ir_measures}`, `{registry.family('infAP').names.ir_measures}` and "
    f"`{registry.family('Judged').names.ir_measures}@10`. Here: bpref, infAP and Judged@k, and any of them in the "
    "Playground's measure picker."
)
teaching.show_source(bpref)
teaching.show_source(inferred_average_precision)
teaching.show_source(condensed)

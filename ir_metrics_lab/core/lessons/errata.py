"""The blog posts' errata (docs/conventions.md §6): what each post says or printed, and the right value, computed live
by ``metrics``. Pure.

One function per erratum, in the order the errata page shows them: each computes only the numbers its row states
and opens the scenario it names (the built-in examples are ir_metrics_lab.core.lessons.convention_examples').
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ir_metrics_lab.core.lessons.convention_examples import (
    example_ap_denominator,
    example_graded,
    example_rcap,
    example_rr_cutoff,
    with_conventions,
)
from ir_metrics_lab.core.scenario import Scenario
from metrics import (
    average_precision,
    capped_recall,
    dcg,
    mean_over_queries,
    ndcg,
    precision,
    recall,
    reciprocal_rank,
)
from metrics.core.conventions import Conventions
from metrics.teaching.blog_posts import SOURCES
from metrics.teaching.examples import BETTER_AUTH, CAT_DOG_PARROT, RETRIEVER_A


@dataclass(frozen=True, slots=True)
class Erratum:
    key: str
    seed: str  # the post it corrects: a key of metrics.teaching.blog_posts.SOURCES
    claim: str  # what the post says or printed
    printed: str
    correct: str  # computed by metrics, 4 decimals
    reason: str
    scenario: Scenario | None = None  # what "Open in playground" loads
    open_note: str = ""


POSTS = {key: source.title for key, source in SOURCES.items()}  # the errata page's sections, by post


def errata() -> list[Erratum]:
    """Every erratum, post by post, each value computed now."""
    return [
        erratum()
        for erratum in (
            _rr_first_document,
            _ap_denominator,
            _ndcg_71_percent,
            _dcg_at_4,
            _idcg_from_retrieved,
            _exponential_gain,
            _ndcg_of_scores,
            _map_at_k,
            _precision_at_2,
            _recall_at_2,
            _mrr_at_2,
            _recall_cap,
        )
    ]


def _f(x: float) -> str:
    return f"{x:.4f}"


def _per_query(fn: Callable, k: int | None, queries: dict) -> tuple[list[float], float]:
    run = {q: list(query.ranking) for q, query in queries.items()}
    qrels = {q: dict(query.qrels) for q, query in queries.items()}
    result = mean_over_queries(partial(fn, k=k), run, qrels)
    return [result.per_query[q] for q in run], result.mean


def _graded_x10() -> dict[str, tuple[list[str], dict[str, int]]]:
    """Scores of "Metrics for Information Retrieval" mapped to int(round(10 * score)) (golden ``...-graded-x10``)."""
    ranking = ["D1", "D2", "D3", "D4"]
    return {
        "Q1": (ranking, {"D1": 10, "D2": 5, "D3": 3, "D4": 1}),
        "Q2": (ranking, {"D1": 7, "D2": 10, "D3": 2, "D4": 1}),
        "Q3": (ranking, {"D1": 4, "D2": 2, "D3": 10, "D4": 1}),
    }


# --- IR Metrics 102 (000) ---


def _rr_first_document() -> Erratum:
    retriever_a = Scenario.from_example(RETRIEVER_A)
    rr_a = reciprocal_rank(list(retriever_a.full_ranking), retriever_a.qrels).value
    return Erratum(
        "000-rr",
        "000",
        "RR is “the reciprocal of the rank of the first document that appears in the retrieved set”.",
        "1 for every list (as worded)",
        f"RR = {_f(rr_a)} for retriever A",
        "The word *relevant* is missing: RR is 1 / rank of the first **relevant** document.",
        retriever_a,
    )


def _ap_denominator() -> Erratum:
    ap_case = example_ap_denominator()
    ap_trec = average_precision(list(ap_case.full_ranking), ap_case.qrels).value
    ap_prose = average_precision(
        list(ap_case.full_ranking), ap_case.qrels, conventions=Conventions(ap_denominator="retrieved")
    ).value
    return Erratum(
        "000-ap",
        "000",
        "AP divides by “the total number of relevant documents in the retrieved set”.",
        "0.5 (prose); the code ÷ len(ground_truth) gives 0.6875 or 0.25",
        f"AP = {_f(ap_trec)} (÷ R = 3); the prose's rule gives {_f(ap_prose)}",
        "trec_eval divides by R, every relevant doc in the qrels, retrieved or not; the code also counts a "
        "grade-0 judgment as a hit.",
        ap_case,
    )


def _ndcg_71_percent() -> Erratum:
    better = Scenario.from_example(BETTER_AUTH)
    ba_linear = ndcg(list(better.full_ranking), better.qrels, 3).value
    exponential = dataclasses.replace(better.conventions, gain="exp")
    ba_exp = ndcg(list(better.full_ranking), better.qrels, 3, conventions=exponential).value
    return Erratum(
        "000-71",
        "000",
        "A (grade 1), B (3), C (2): “performing at 71% of the ideal”.",
        "0.71",
        f"NDCG@3 = {_f(ba_linear)} (linear gain), {_f(ba_exp)} (exponential, the post's code)",
        "Not reproducible from the text; one speculative reconstruction (A, B, an irrelevant doc, C, "
        "exponential gain) gives 0.7142.",
        better,
    )


# --- RAG Pipelines, Part 3 (001) ---


def _dcg_at_4() -> Erratum:
    graded = example_graded()
    ranking, qrels = list(graded.full_ranking), graded.qrels
    dcg4 = dcg(ranking, qrels, 4).value
    dcg4_exp = dcg(ranking, qrels, 4, conventions=dataclasses.replace(graded.conventions, gain="exp")).value
    return Erratum(
        "001-dcg4",
        "001",
        "For the list [3, 2, 3, 0, 1]: “DCG@4 = 28.19”.",
        "28.19",
        f"DCG@4 = {_f(dcg4)} (linear gain), {_f(dcg4_exp)} (exponential)",
        "Neither gain gives 28.19 for this list; it probably refers to an example shown only as an image.",
        graded.with_settings(k=4),
    )


def _idcg_from_retrieved() -> Erratum:
    graded = example_graded()
    ranking = list(graded.full_ranking)
    missed = graded.with_doc("d9", "A grade-3 doc the retriever missed", grade=3, on_shelf=True)
    ndcg_retrieved = ndcg(ranking, missed.qrels, 5, conventions=Conventions(idcg="retrieved")).value
    ndcg_all = ndcg(ranking, missed.qrels, 5).value
    return Erratum(
        "001-idcg",
        "001",
        "`idcg_at_k` sorts the retrieved grades to build the ideal ranking.",
        "0.9724 (what the code prints)",
        f"NDCG@5 = {_f(ndcg_all)} when a grade-3 doc was judged but not retrieved "
        f"(the code still prints {_f(ndcg_retrieved)})",
        "trec_eval builds IDCG from every judged doc, so a relevant doc the retriever missed lowers NDCG.",
        missed,
    )


# --- Recall@K, MRR and nDCG (002) ---


def _exponential_gain() -> Erratum:
    graded = example_graded()
    ranking, qrels = list(graded.full_ranking), graded.qrels
    ndcg_exp = ndcg(ranking, qrels, 5, conventions=dataclasses.replace(graded.conventions, gain="exp")).value
    ndcg_lin = ndcg(ranking, qrels, 5).value
    return Erratum(
        "002-gain",
        "002",
        "nDCG uses DCG@K = Σ (2^rel − 1) / log2(i + 1).",
        "formula only (exponential gain)",
        f"NDCG@5 of [3, 2, 3, 0, 1] = {_f(ndcg_exp)} (exponential) vs {_f(ndcg_lin)} (linear, trec_eval)",
        "Not an error but a convention split with the linear gain of RAG Pipelines, Part 3: ranx "
        "`ndcg_burges` agrees with the "
        "post, trec_eval with Part 3. It also does not say whether IDCG uses every judged doc.",
        with_conventions(graded, gain="exp"),
    )


# --- Metrics for Information Retrieval (004) ---


def _ndcg_of_scores() -> Erratum:
    x10 = {q: ndcg(r, g, 2).value for q, (r, g) in _graded_x10().items()}
    return Erratum(
        "004-ndcg",
        "004",
        "NDCG@2 for Q2 and Q3 (scores 0.7/1.0/0.2/0.1 and 0.4/0.2/1.0/0.1 on D1..D4).",
        "Q2 0.89, Q3 0.77",
        f"Q2 {_f(x10['Q2'])}, Q3 {_f(x10['Q3'])} (Q1 {_f(x10['Q1'])})",
        "The post moved the score-1.0 doc to rank 1 although D1 is ranked first, and used IDCG@2 = 1 + 1/log2 3 "
        "although only one doc per query scores 1.0. Grades here are round(10 × score): linear NDCG is "
        "unchanged by the scaling.",
        None,
        "Grades 0–10 do not fit the playground's rating scale.",
    )


def _map_at_k() -> Erratum:
    _, map2 = _per_query(average_precision, 2, CAT_DOG_PARROT.queries)
    return Erratum(
        "004-map",
        "004",
        "“MAP@k = the mean of Precision@k” over Q1–Q3.",
        "0.5",
        f"MAP@2 = {_f(map2)} (the mean of AP@2)",
        "MAP@k is the mean of AP@k (trec_eval `map_cut`, what BEIR reports), not of P@k; the post also counted "
        "Q2's top 2 as one relevant doc when both are.",
        example_rr_cutoff().with_settings(k=2),
        "Opens Q3, the query with no relevant doc in its top 2.",
    )


def _precision_at_2() -> Erratum:
    p2, p2_mean = _per_query(precision, 2, CAT_DOG_PARROT.queries)
    return Erratum(
        "004-p",
        "004",
        "Precision@2 per query, after computing “2/2 = 1.0” for Q1 and Q2.",
        "0.5, 0.5, 0.0",
        f"{', '.join(_f(v) for v in p2)} (mean {_f(p2_mean)})",
        "Q1 and Q2 each have both top-2 docs relevant: P@2 = 2/2. P@k divides by k, not by the list length.",
        Scenario.from_example(CAT_DOG_PARROT, "Q2").with_settings(k=2),
        "Opens Q2.",
    )


def _recall_at_2() -> Erratum:
    r2, _ = _per_query(recall, 2, CAT_DOG_PARROT.queries)
    return Erratum(
        "004-r",
        "004",
        "Recall@2: Q1 = 1/2, Q3 has “total relevant = 0 → NaN”.",
        "0.5, 1.0, NaN",
        ", ".join(_f(v) for v in r2),
        "Q1 finds both of its 2 relevant docs (1.0). Q3 has one relevant doc, D3 (score 1.0 ≥ 0.5), at rank 3: "
        "recall@2 = 0. And the tools never return NaN: R = 0 gives 0.",
        example_rr_cutoff().with_settings(k=2),
        "Opens Q3.",
    )


def _mrr_at_2() -> Erratum:
    _, mrr2 = _per_query(reciprocal_rank, 2, CAT_DOG_PARROT.queries)
    _, mrr = _per_query(reciprocal_rank, None, CAT_DOG_PARROT.queries)
    return Erratum(
        "004-mrr",
        "004",
        "MRR@2 = (1 + 1 + 0.33) / 3.",
        "0.78",
        f"MRR@2 = {_f(mrr2)} (uncut MRR = {_f(mrr)})",
        "Q3's first relevant doc is at rank 3 > 2, so its RR@2 is 0; 0.78 is the MRR without a cutoff.",
        example_rr_cutoff().with_settings(k=2),
        "Opens Q3.",
    )


def _recall_cap() -> Erratum:
    rcap = example_rcap()
    r5 = recall(list(rcap.full_ranking), rcap.qrels, 5).value
    rc5 = capped_recall(list(rcap.full_ranking), rcap.qrels, 5).value
    return Erratum(
        "004-rcap",
        "004",
        "R_cap example: “7 relevant docs”, then Recall@5 = 3/8.",
        "Recall@5 = 0.38",
        f"Recall@5 = {_f(r5)} (3/7); R_cap@5 = {_f(rc5)} is right",
        "The post says 7 relevant documents but divides by 8.",
        rcap,
    )

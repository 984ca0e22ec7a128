"""The blog posts the app's examples and errata come from, by name (data only; no Streamlit).

Pages name a post by ``title`` (in full) or ``short`` (in running text), never by an internal key: the keys
("000", ...) only tie an example or an erratum to its post.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Source:
    key: str
    title: str  # as the post titles itself
    short: str  # for running text: "the *IR Metrics 102* post"
    teaches: str  # what a reader learns from it, and the examples the app takes from it


SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source(
            "000",
            "Information Retrieval Metrics 102: Order-Aware Metrics",
            "IR Metrics 102",
            "Why order matters: retrievers A and B return the same documents, so precision and recall tie, yet MRR, "
            "MAP and NDCG tell them apart. Defines RR, AP and DCG/NDCG with code, and grades Better Auth docs 1, 3, 2. "
            "The app's Retriever A vs B page and its Better Auth example come from it.",
        ),
        Source(
            "001",
            "Tips on how to Evaluate Retrieval Quality in RAG Pipelines (Part 3): DCG@k and NDCG@k",
            "RAG Pipelines, Part 3",
            "Graded relevance for RAG: DCG@k and NDCG@k worked on the graded list [3, 2, 3, 0, 1] (the playground's "
            "default example), after binary metrics (HitRate, P, R, F1, MRR, AP) in its Parts 1 and 2.",
        ),
        Source(
            "002",
            "FAQ on Recall@K, MRR and nDCG (untitled)",
            "Recall@K/MRR/nDCG FAQ",
            "Short answers on Recall@K, MRR, nDCG@K and Precision@K for RAG, and how to choose K.",
        ),
        Source(
            "004",
            "Metrics for Information Retrieval",
            "Metrics for IR",
            "The metrics BEIR reports, each with a formula and one worked example: NDCG@k, MAP@k, P@k, R@k, capped "
            "recall R_cap@k and MRR@k on three queries (cat, dog, parrot). The multi-query preset comes from it.",
        ),
    )
}


def named(key: str) -> str:
    """The post's title in quotes, for a caption: “Metrics for Information Retrieval”."""
    return f"“{SOURCES[key].title}”"

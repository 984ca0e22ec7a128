"""Worked examples from the blog posts the app teaches from, as data. The numbers in each description are the
golden values computed by trec_eval (tests/data/golden_public.json); tests hold the presets to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from metrics.core.types import Judgments, Ranking
from metrics.teaching.blog_posts import SOURCES


@dataclass(frozen=True, slots=True)
class Query:
    ranking: Ranking  # retrieved doc ids, best first
    qrels: Judgments  # every judgment, including relevant docs that were never retrieved
    text: str = ""


@dataclass(frozen=True, slots=True)
class Example:
    key: str
    title: str
    source: str  # the title of the post it comes from (metrics.teaching.blog_posts)
    lesson: str  # what it teaches, with the correct numbers
    queries: Mapping[str, Query]
    titles: Mapping[str, str] = field(default_factory=dict)  # doc id -> short title
    k: int = 5
    scale: int = 3  # the largest grade of the rating scale

    @property
    def first(self) -> Query:
        return next(iter(self.queries.values()))


_RETRIEVER_TITLES = {
    "n1": "Changelog for v2.3",
    "n2": "Pricing page",
    "n3": "Company blog: our offsite",
    "r1": "Guide: configuring OAuth login",
    "r2": "API reference: session tokens",
}

RETRIEVER_A = Example(
    key="retriever-a",
    title="Retriever A: relevant docs in the middle",
    source=SOURCES["000"].title,
    lesson="The 2 relevant docs sit at ranks 3 and 4: P@5 = 0.4 and R@5 = 1, but RR = 1/3, AP = 0.4167, "
    "NDCG@5 = 0.5706.",
    queries={"q1": Query(["n1", "n2", "r1", "r2", "n3"], {"r1": 1, "r2": 1}, "How do I set up OAuth login?")},
    titles=_RETRIEVER_TITLES,
    k=5,
    scale=1,
)

RETRIEVER_B = Example(
    key="retriever-b",
    title="Retriever B: relevant docs at the top",
    source=SOURCES["000"].title,
    lesson="The same 2 relevant docs at ranks 1 and 2: P@5 = 0.4 and R@5 = 1 as for A, but RR = 1, AP = 1, NDCG@5 = 1.",
    queries={"q1": Query(["r1", "r2", "n1", "n2", "n3"], {"r1": 1, "r2": 1}, "How do I set up OAuth login?")},
    titles=_RETRIEVER_TITLES,
    k=5,
    scale=1,
)

BETTER_AUTH = Example(
    key="better-auth",
    title="Better Auth docs graded 1 / 3 / 2",
    source=SOURCES["000"].title,
    lesson="A (grade 1), B (3), C (2) in that order: NDCG@3 = 0.8175 with linear gain, 0.7364 with exponential "
    "gain (the post's code). The post's '71% of ideal' cannot be reproduced from its text.",
    queries={"q1": Query(["A", "B", "C"], {"A": 1, "B": 3, "C": 2}, "How do I integrate Better Auth into Next.js?")},
    titles={
        "A": "Blog post introducing Better Auth",
        "B": "Docs: using Better Auth with Next.js",
        "C": "StackOverflow: a Next.js integration bug",
    },
    k=3,
)

GRADES_32301 = Example(
    key="grades-32301",
    title="The graded list [3, 2, 3, 0, 1]",
    source=SOURCES["001"].title,
    lesson="NDCG@5 = 0.9724 (linear) vs 0.9575 (exponential). The post's DCG@4 = 28.19 cannot come from "
    "this list: set k = 4 and DCG@4 = 5.7619 (linear gain). Judge one more grade-3 doc that was not retrieved and "
    "trec_eval's NDCG@5 drops to 0.8047.",
    queries={"q1": Query(["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1})},
    titles={
        "d1": "Install guide",
        "d2": "Quick-start tutorial",
        "d3": "Configuration reference",
        "d4": "Release notes",
        "d5": "Forum thread",
    },
    k=5,
)

_PET_TITLES = {
    "D1": "How to train a cat",
    "D2": "How to train a dog",
    "D3": "How to train a parrot",
    "D4": "Pet food reviews",
}
CAT_DOG_PARROT = Example(
    key="cat-dog-parrot",
    title="Cat, dog, parrot: three queries",
    source=SOURCES["004"].title,
    lesson="Every query ranks D1..D4; scores >= 0.5 are relevant. Correct at k = 2: mean P@2 = 0.6667 (the post "
    "says 0.5), MAP@2 = 0.6667 (the post: 0.5), MRR@2 = 0.6667 (the post: 0.78, the uncut MRR).",
    queries={
        "Q1": Query(["D1", "D2", "D3", "D4"], {"D1": 1, "D2": 1, "D3": 0, "D4": 0}, "train cat"),
        "Q2": Query(["D1", "D2", "D3", "D4"], {"D1": 1, "D2": 1, "D3": 0, "D4": 0}, "train dog"),
        "Q3": Query(["D1", "D2", "D3", "D4"], {"D1": 0, "D2": 0, "D3": 1, "D4": 0}, "train parrot"),
    },
    titles=_PET_TITLES,
    k=2,
    scale=1,
)

EXAMPLES: dict[str, Example] = {e.key: e for e in (RETRIEVER_A, RETRIEVER_B, BETTER_AUTH, GRADES_32301, CAT_DOG_PARROT)}

"""Hypothesis strategies for rankings and qrels, shared by the readable-metric and engine tests.

A query is ``(ranking, qrels)``: a list of distinct doc ids (best first) and a dict doc id -> int grade.
Both are drawn from one pool of ids, so every overlap occurs: retrieved and judged, retrieved but unjudged,
judged but never retrieved. Grades include 0 and negatives (never relevant, gain 0).

A non-empty qrels dict always holds at least one grade >= 0: trec_eval sizes its per-grade counts by the
largest grade (``form_res_rels.c``: ``malloc(max_rel + 1)``), so a query whose grades are all negative corrupts
pytrec_eval's memory and crashes or hangs the process some calls later (pytrec-eval-terrier 0.5.11).
Pass ``trec_safe=False`` where no trec_eval runs.
A run is ``(run, qrels)`` over several query ids: ``{qid: ranking}`` and ``{qid: qrels}``, with queries only in
the run, only in the qrels, empty rankings, all-zero qrels and empty qrels dicts ({} = no qrels lines).
"""

from __future__ import annotations

from hypothesis import strategies as st

from metrics import Conventions

# ids whose byte order is easy to get wrong ('doc9' > 'doc10', 'a' > 'D1'), plus plain ones
TRICKY_IDS = ("a", "b", "B", "D1", "d1", "doc9", "doc10", "z")
# trec_eval docnos: no whitespace; keep them short so pools collide with the tricky ones
_ID_ALPHABET = "abcdxyzAD019_-."


def doc_ids() -> st.SearchStrategy[str]:
    """One doc id: a tricky one or a short random one."""
    return st.one_of(st.sampled_from(TRICKY_IDS), st.text(_ID_ALPHABET, min_size=1, max_size=5))


def grades(min_grade: int = -2, max_grade: int = 4) -> st.SearchStrategy[int]:
    """An integer grade; 0 and negatives are never relevant."""
    return st.integers(min_grade, max_grade)


def cutoffs(max_k: int = 20) -> st.SearchStrategy[int]:
    """A cutoff k >= 1; with the default pools it is often beyond the list."""
    return st.integers(1, max_k)


def thresholds(max_threshold: int = 3) -> st.SearchStrategy[int]:
    """A relevance threshold L (trec_eval ``-l``)."""
    return st.integers(1, max_threshold)


@st.composite
def queries(
    draw,
    *,
    max_docs: int = 12,
    min_grade: int = -2,
    max_grade: int = 4,
    min_judged: int = 0,
    min_ranked: int = 0,
    trec_safe: bool = True,
) -> tuple[list[str], dict[str, int]]:
    """One query: (ranking, qrels). ``min_judged=1`` keeps the qrels dict non-empty (trec_eval skips {})."""
    size = max(min_judged, min_ranked)
    pool = draw(st.lists(doc_ids(), unique=True, min_size=size, max_size=max(max_docs, size)))
    order = draw(st.permutations(pool))
    ranking = order[: draw(st.integers(min(min_ranked, len(order)), len(order)))]
    judged = draw(st.lists(st.booleans(), min_size=len(order), max_size=len(order)))
    judged_ids = [d for d, j in zip(order, judged, strict=True) if j]
    # top up to min_judged from the front of the order, so retrieved docs get judged too
    judged_ids += [d for d in order if d not in judged_ids][: max(0, min_judged - len(judged_ids))]
    qrels = {d: draw(grades(min_grade, max_grade)) for d in judged_ids}
    if trec_safe and qrels and max(qrels.values()) < 0:
        qrels[judged_ids[0]] = 0  # see the module docstring
    return list(ranking), qrels


def binary_queries(**kwargs) -> st.SearchStrategy[tuple[list[str], dict[str, int]]]:
    """A query with grades 0/1 only."""
    return queries(min_grade=0, max_grade=1, **kwargs)


@st.composite
def scored_queries(
    draw, *, max_docs: int = 12, min_grade: int = -2, max_grade: int = 4, min_judged: int = 0, trec_safe: bool = True
) -> tuple[dict[str, float], dict[str, int]]:
    """One query as (scores, qrels): scores come from a handful of values, so ties are common.

    The values are exact binary fractions, so no tool can order them differently by rounding.
    """
    ranking, qrels = draw(
        queries(max_docs=max_docs, min_grade=min_grade, max_grade=max_grade, min_judged=min_judged, trec_safe=trec_safe)
    )
    values = st.sampled_from((-1.0, 0.0, 0.25, 0.5, 1.0, 2.0))
    return {d: draw(values) for d in ranking}, qrels


@st.composite
def runs(
    draw,
    *,
    max_queries: int = 5,
    max_docs: int = 8,
    min_grade: int = -2,
    max_grade: int = 3,
    trec_safe: bool = True,
) -> tuple[dict[str, list[str]], dict[str, dict[str, int]]]:
    """A run and its qrels over several queries, with every way a query can be missing or empty."""
    run: dict[str, list[str]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for i in range(draw(st.integers(0, max_queries))):
        qid = f"q{i}"
        ranking, grades_ = draw(
            queries(max_docs=max_docs, min_grade=min_grade, max_grade=max_grade, trec_safe=trec_safe)
        )
        kind = draw(st.sampled_from(("both", "both", "both", "run_only", "qrels_only")))
        if draw(st.booleans()) and kind != "run_only":
            # all-zero judgments: R = 0, but the query exists for trec_eval
            grades_ = {d: 0 for d in grades_} or {ranking[0] if ranking else "zero": 0}
        if kind != "qrels_only":
            run[qid] = ranking  # may be []
        if kind != "run_only":
            qrels[qid] = grades_  # may be {}: no qrels lines at all
    # shuffle the key orders, so nothing may depend on run and qrels listing queries alike
    run = dict(draw(st.permutations(list(run.items()))))
    qrels = dict(draw(st.permutations(list(qrels.items()))))
    return run, qrels


# Whole runs as score dicts {query: {doc: score}} and qrels {query: {doc: grade}}, for the engine and trec_eval:
# few queries and docs, so rankings overlap, tie, and miss each other.
SCORED_DOCS = [f"d{i}" for i in range(12)] + ["D1", "doc10", "doc9", "a", "é", "z z"[0]]
SCORED_QUERIES = ["q1", "q2", "q3", "q10", "Q4"]
# width=32: scores exact as C floats, so pytrec_eval's trec_eval 9 (floats) and trec_eval 10.0 (doubles) order them
# alike; scores that tie only as floats are the corpus' (tests/test_trec_eval10_corpus.py) and test_ranking's.
_scores = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, -1.0, 3.25]) | st.floats(-5, 5, allow_nan=False, width=32)
scored_rankings = st.dictionaries(st.sampled_from(SCORED_DOCS), _scores, max_size=14)
nonempty_scored_rankings = st.dictionaries(st.sampled_from(SCORED_DOCS), _scores, min_size=1, max_size=14)
scored_judgments = st.dictionaries(st.sampled_from(SCORED_DOCS), st.integers(-1, 4), max_size=10)
scored_runs = st.dictionaries(st.sampled_from(SCORED_QUERIES), scored_rankings, max_size=5)
scored_qrels_sets = st.dictionaries(st.sampled_from(SCORED_QUERIES), scored_judgments, max_size=5)
binary_scored_qrels_sets = st.dictionaries(
    st.sampled_from(SCORED_QUERIES), st.dictionaries(st.sampled_from(SCORED_DOCS), st.integers(0, 1))
)
every_conventions = st.builds(
    Conventions,
    threshold=st.integers(1, 3),
    gain=st.sampled_from(["linear", "exp"]),
    idcg=st.sampled_from(["all", "retrieved"]),
    ap_denominator=st.sampled_from(["all", "retrieved"]),
    recall_rounding=st.sampled_from(["nearest", "plus_0.9"]),
)


# Families whose value is 0 / 0 when a query has nothing relevant: ndeval 4.5 prints -nan for nNRBP then, and the
# library keeps it (tests/families/test_nnrbp.py). The invariants below a number hold for every other query.
ZERO_OVER_ZERO = frozenset({"nNRBP"})

"""The convention splits between popular tools, and the blog posts' errata, as data computed by ``metrics``. Pure.

For each split: the current scenario's number both ways, which tools give which, and why; when the scenario gives
the same number both ways, a one-click fix (a tweak of the scenario or a built-in example) that shows the
difference. The tool facts were checked by running the tools (pytrec-eval-terrier 0.5.11, ranx 0.3.21,
ir-measures 0.4.3, beir 2.2.0); scikit-learn's ``ndcg_score`` was read from its source (``_ranking.py``):
the gain is the ``y_true`` value itself, the discount log2(rank + 1), the ideal DCG comes from sorting the same
``y_true`` (so only the items you pass in, usually the retrieved list), and tied scores are averaged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ir_metrics_lab.core.scenario import MAX_DOCS, Scenario
from metrics import (
    average_precision,
    capped_recall,
    dcg,
    mean,
    mean_over_queries,
    ndcg,
    precision,
    rank_by_score,
    recall,
    reciprocal_rank,
)
from metrics.catalog import registry
from metrics.core.conventions import Conventions
from metrics.core.types import Term
from metrics.teaching.blog_posts import SOURCES
from metrics.teaching.examples import BETTER_AUTH, CAT_DOG_PARROT, GRADES_32301, RETRIEVER_A

SAME = 5e-5  # values that agree to 4 decimals are "the same" on the page


@dataclass(frozen=True, slots=True)
class Way:
    """One side of a split: a number and the tools that give it."""

    label: str  # e.g. "Linear gain g"
    metric: str  # e.g. "NDCG@5"
    value: float
    tools: str  # who computes it this way
    order: tuple[str, ...] = ()  # the effective ranking, for the ties split
    current: bool = False  # the playground's own setting


@dataclass(frozen=True, slots=True)
class Fix:
    """A scenario that shows the difference, and the button text that loads it."""

    label: str
    scenario: Scenario


@dataclass(frozen=True, slots=True)
class Split:
    key: str
    title: str
    ways: tuple[Way, ...]
    why: str
    same_because: str  # shown when the ways agree on the current scenario
    fix: Fix | None = None
    note: str = ""

    @property
    def differs(self) -> bool:
        values = [w.value for w in self.ways]
        return max(values) - min(values) >= SAME


def _replace(scn: Scenario, **changes: object) -> Scenario:
    return scn.with_settings(conventions=dataclasses.replace(scn.conventions, **changes))


def _missed_doc(scn: Scenario) -> Scenario | None:
    """The scenario plus one top-grade doc the retriever missed (on the shelf), or None if it cannot hold one."""
    if len(scn.docs) >= MAX_DOCS:
        return None
    doc = next(f"missed{i}" for i in range(1, MAX_DOCS + 2) if f"missed{i}" not in scn.docs)
    return scn.with_doc(doc, "A relevant doc the retriever missed", grade=scn.scale, on_shelf=True)


def _first_relevant(scn: Scenario) -> int | None:
    rr = reciprocal_rank(list(scn.full_ranking), scn.qrels, conventions=scn.conventions)
    return rr.terms.get(Term.FIRST_RELEVANT_RANK)


def _relevant_count(scn: Scenario) -> int:
    return int(recall(list(scn.full_ranking), scn.qrels, scn.k, conventions=scn.conventions).terms[Term.R])


# --- built-in examples, as data (each shows its split) ---


def example_ap_denominator() -> Scenario:
    """Golden ``pub-seed000-ap-denominator``: R = 3, r3 never retrieved, z judged 0 at rank 1."""
    grades = {"z": 0, "r1": 1, "n1": 0, "r2": 1, "n2": 0, "r3": 1}
    return Scenario(("z", "r1", "n1", "r2", "n2"), ("r3",), grades, k=5, scale=1)


def example_ap_at_k() -> Scenario:
    """R = 10 relevant docs, ranking [r0, n1, r1, r2, n2], k = 3 (trec ``map_cut_3`` = 0.1667)."""
    shelf = tuple(f"r{i}" for i in range(3, 10))
    grades = {d: 1 for d in ("r0", "r1", "r2", *shelf)} | {"n1": 0, "n2": 0}
    return Scenario(("r0", "n1", "r1", "r2", "n2"), shelf, grades, k=3, scale=1)


def example_rcap() -> Scenario:
    """The R_cap example of "Metrics for Information Retrieval": relevant at ranks 1-3, 6-8 and 10 (R = 7), k = 5."""
    ranking = tuple(f"d{i}" for i in range(1, 11))
    grades = {d: int(d in {"d1", "d2", "d3", "d6", "d7", "d8", "d10"}) for d in ranking}
    return Scenario(ranking, (), grades, k=5, scale=1)


def example_tie_pair() -> Scenario:
    """Golden ties ``tie-relevant-vs-nonrelevant-pair``: a (relevant) and b tie; a was inserted first."""
    return Scenario(("a", "b"), (), {"a": 1, "b": 0}, k=2, scale=1)


def example_threshold() -> Scenario:
    """qrels {a:1, b:2, c:3, d:0, e:1, f:2}, ranking [a, b, c, d, e, g], threshold 2 (f never retrieved)."""
    grades = {"a": 1, "b": 2, "c": 3, "d": 0, "e": 1, "g": 0, "f": 2}
    scn = Scenario(("a", "b", "c", "d", "e", "g"), ("f",), grades, k=5, scale=3)
    return _replace(scn, threshold=2)


def example_recall_rounding() -> Scenario:
    """R = 2, relevant at ranks 1 and 4: recall levels 0.6 and 0.7 ask for 1 relevant doc (lround(1.2), lround(1.4))
    or 2 (⌊1.2 + 0.9⌋, ⌊1.4 + 0.9⌋), so their interpolated precision is 1 or 2/4."""
    grades = {"r1": 1, "n1": 0, "n2": 0, "r2": 1}
    return Scenario(("r1", "n1", "n2", "r2"), (), grades, k=4, scale=1)


def example_graded() -> Scenario:
    return Scenario.from_example(GRADES_32301)


def example_rr_cutoff() -> Scenario:
    """Q3 of "Metrics for Information Retrieval": the first relevant doc is at rank 3 and k = 2."""
    return Scenario.from_example(CAT_DOG_PARROT, "Q3")


# --- the splits ---


def split_gain(scn: Scenario) -> Split:
    ranking, qrels, k = list(scn.full_ranking), scn.qrels, scn.k
    linear = ndcg(ranking, qrels, k, conventions=dataclasses.replace(scn.conventions, gain="linear"))
    exp = ndcg(ranking, qrels, k, conventions=dataclasses.replace(scn.conventions, gain="exp"))
    return Split(
        "gain",
        "Linear or exponential gain (NDCG)",
        (
            Way(
                "Linear gain: g",
                linear.metric,
                linear.value,
                f"{registry.tools('gain', 'linear', k)}, RAG Pipelines Part 3",
                current=scn.conventions.gain == "linear",
            ),
            Way(
                "Exponential gain: 2^g − 1",
                exp.metric,
                exp.value,
                f"{registry.tools('gain', 'exp', k)}, the code of IR Metrics 102, the Recall@K/MRR/nDCG FAQ",
                current=scn.conventions.gain == "exp",
            ),
        ),
        "Exponential gain makes a grade-3 document worth 7 and a grade-1 document worth 1 (linear: 3 and 1), so it "
        "rewards putting the very best documents first more strongly. The two orders systems differently: always "
        "say which gain you use.",
        "With binary grades 2¹ − 1 = 1, so both gains are the same; they split only on grades of 2 or more.",
    )


def split_idcg(scn: Scenario) -> Split:
    ranking, qrels, k = list(scn.full_ranking), scn.qrels, scn.k
    every = ndcg(ranking, qrels, k, conventions=dataclasses.replace(scn.conventions, idcg="all"))
    retrieved = ndcg(ranking, qrels, k, conventions=dataclasses.replace(scn.conventions, idcg="retrieved"))
    return Split(
        "idcg",
        "IDCG from all judgments or from the retrieved list",
        (
            Way(
                "Ideal from every judged doc",
                every.metric,
                every.value,
                registry.tools("idcg", "all", k),
                current=scn.conventions.idcg == "all",
            ),
            Way(
                "Ideal from the retrieved list only",
                retrieved.metric,
                retrieved.value,
                f"{registry.tools('idcg', 'retrieved', k)}, the code of IR Metrics 102 and of RAG Pipelines Part 3",
                current=scn.conventions.idcg == "retrieved",
            ),
        ),
        "The ideal ranking should contain the relevant documents the retriever missed. Built from the retrieved "
        "list only, a retriever that finds one grade-1 document and misses every grade-3 document still scores 1.",
        "No judged document outside your list would enter the ideal top k, so both ideals are the same.",
    )


def split_ap_denominator(scn: Scenario) -> Split:
    ranking, qrels = list(scn.full_ranking), scn.qrels
    by_r = average_precision(ranking, qrels, conventions=dataclasses.replace(scn.conventions, ap_denominator="all"))
    by_hits = average_precision(
        ranking, qrels, conventions=dataclasses.replace(scn.conventions, ap_denominator="retrieved")
    )
    return Split(
        "ap_denominator",
        "AP's denominator: R or the relevant docs retrieved",
        (
            Way(
                f"÷ R = {int(by_r.terms[Term.R])} (all relevant)",
                "AP",
                by_r.value,
                registry.tools("ap_denominator", "all"),
                current=scn.conventions.ap_denominator == "all",
            ),
            Way(
                f"÷ {int(by_hits.terms[Term.HITS])} relevant retrieved",
                "AP",
                by_hits.value,
                f"{registry.tools('ap_denominator', 'retrieved')}, the prose of IR Metrics 102",
                current=scn.conventions.ap_denominator == "retrieved",
            ),
        ),
        "Dividing by the relevant documents that were retrieved never penalises missing one: a list with a "
        "single relevant document at rank 1 scores 1.0 even if nine others were never found.",
        "Every relevant document is in your list, so R equals the number retrieved.",
    )


def split_ap_at_k(scn: Scenario) -> Split:
    ranking, qrels, k = list(scn.full_ranking), scn.qrels, scn.k
    b = average_precision(ranking, qrels, k, conventions=dataclasses.replace(scn.conventions, ap_denominator="all"))
    R = int(b.terms[Term.R])
    cap = min(R, k)
    capped = b.terms[Term.PRECISION_SUM] / cap if cap else 0.0  # ml_metrics apk: score / min(len(actual), k)
    return Split(
        "ap_at_k",
        "AP@k's denominator: R or min(R, k)",
        (
            Way(
                f"÷ R = {R}",
                b.metric,
                b.value,
                f"trec_eval / pytrec_eval `map_cut_{k}`, ranx `map@{k}`, ir_measures `AP@{k}`, BEIR `MAP@{k}`",
            ),
            Way(
                f"÷ min(R, k) = {cap}",
                b.metric,
                capped,
                "ml_metrics `apk` (Kaggle's MAP@k, copied into many recommender code bases)",
            ),
        ),
        f"AP@k keeps dividing by every relevant document, so when R > k even a perfect top {k} cannot reach 1. "
        "Dividing by min(R, k) makes 1 reachable, but it is a different metric from trec_eval's.",
        f"R = {R} is at most k = {k}, so min(R, k) = R.",
    )


def split_rr_cutoff(scn: Scenario) -> Split:
    ranking, qrels, k = list(scn.full_ranking), scn.qrels, scn.k
    uncut = reciprocal_rank(ranking, qrels, conventions=scn.conventions)
    cut = reciprocal_rank(ranking, qrels, k, conventions=scn.conventions)
    return Split(
        "rr_cutoff",
        "RR with or without a cutoff",
        (
            Way("No cutoff", uncut.metric, uncut.value, "trec_eval / pytrec_eval `recip_rank`, ir_measures `RR`"),
            Way(
                f"Cut at k = {k}",
                cut.metric,
                cut.value,
                f"ranx `mrr@{k}`, ir_measures `RR@{k}`, BEIR `MRR@{k}`; trec_eval on the run cut to its top {k}",
            ),
        ),
        "A first relevant document below rank k gives 1/rank without a cutoff and 0 with one. The Metrics for IR "
        "post printed the uncut MRR (0.78) as MRR@2 (0.6667).",
        "The first relevant document is within the top k (or there is none), so the cutoff changes nothing.",
    )


def split_rcap(scn: Scenario) -> Split:
    ranking, qrels, k = list(scn.full_ranking), scn.qrels, scn.k
    r = recall(ranking, qrels, k, conventions=scn.conventions)
    rc = capped_recall(ranking, qrels, k, conventions=scn.conventions)
    R = int(r.terms[Term.R])
    return Split(
        "rcap",
        "Recall: R or R_cap when R > k",
        (
            Way(f"÷ R = {R}", r.metric, r.value, f"trec_eval `recall_{k}`, ranx `recall@{k}`, ir_measures `R@{k}`"),
            Way(
                f"÷ min(R, k) = {min(R, k)}",
                rc.metric,
                rc.value,
                f"BEIR `R_cap@{k}` (`recall_cap`; raises ZeroDivisionError when R = 0)",
            ),
        ),
        f"With more relevant documents than slots (R > k), recall@{k} can never reach 1. Capped recall divides by "
        "min(R, k), so a top k full of relevant documents scores 1.",
        f"R = {R} is at most k = {k}, so both divide by R.",
    )


def split_ties(scn: Scenario) -> Split:
    """Give every doc of the list the same score and let each tool break the tie its own way."""
    scores = {doc: 1.0 for doc in scn.full_ranking}
    orders = {
        "trec": tuple(rank_by_score(scores)),  # docno descending
        "insertion": tuple(scn.full_ranking),
        "ascending": tuple(sorted(scn.full_ranking)),
    }
    rr = {name: reciprocal_rank(list(order), scn.qrels, conventions=scn.conventions) for name, order in orders.items()}
    return Split(
        "ties",
        "Tied scores: who goes first",
        (
            Way(
                "Doc id descending",
                "RR",
                rr["trec"].value,
                "trec_eval / pytrec_eval, ir_measures `RR`",
                order=orders["trec"],
            ),
            Way(
                "Insertion order",
                "RR",
                rr["insertion"].value,
                "ranx `Run` objects (lists of at most 15 docs; plain dicts reverse it), BEIR",
                order=orders["insertion"],
            ),
            Way(
                "Doc id ascending",
                "RR",
                rr["ascending"].value,
                "ir_measures `RR@k` (msmarco backend)",
                order=orders["ascending"],
            ),
        ),
        "Scores, not list positions, decide ranks in a run file. When scores tie, trec_eval sorts by doc id "
        "descending ('doc9' before 'doc10', 'a' before 'D1'); ranx keeps insertion order for up to 15 docs and is "
        "arbitrary from 16 on (numba quicksort). The same run can score differently in each tool.",
        "The first relevant document comes first in every one of these orders, so RR agrees.",
        note="Here every document of your list gets the same score; the orders are computed by "
        "`metrics.rank_by_score` (trec_eval's rule), insertion and sorted().",
    )


def split_no_relevant(scn: Scenario) -> Split:
    """The current list plus a second query whose qrels dict is empty."""
    ranking, k = list(scn.full_ranking), scn.k
    metric = partial(precision, k=k, conventions=scn.conventions)
    run = {"yours": ranking, "empty": ["x1", "x2"]}
    qrels = {"yours": scn.qrels, "empty": {}}
    trec = mean_over_queries(metric, run, qrels)  # trec_eval's rule: no qrels lines, no query
    ranx = mean(metric(run[q], qrels[q]).value for q in run)  # ranx keeps the query and scores it 0
    all_zero = {d: 0 for d in scn.qrels}
    zeros = [f.function(ranking, all_zero, k, conventions=scn.conventions).value for f in registry.FAMILIES]
    label = f"P@{k}"
    return Split(
        "no_relevant",
        "A query with no relevant document",
        (
            Way(
                "Empty qrels: the query is dropped",
                f"mean {label}",
                trec.mean,
                "pytrec_eval (trec_eval knows only queries with qrels lines)",
            ),
            Way("Empty qrels: the query scores 0", f"mean {label}", ranx, "ranx (kept, scored 0, counted)"),
        ),
        "Judged but all grade 0 (R = 0): every tool gives 0 on every metric, recall included, never NaN, and the "
        f"query counts in the mean. Your list with all grades set to 0 scores {max(zeros):.4f} on all "
        f"{len(zeros)} metrics. BEIR's R_cap raises ZeroDivisionError there. An *empty* qrels dict is different: "
        "here your query is averaged with one such query.",
        f"Your list scores 0 on {label}, so averaging in another 0 changes nothing.",
    )


def split_threshold(scn: Scenario) -> Split:
    ranking, qrels, k = list(scn.full_ranking), scn.qrels, scn.k
    L = scn.conventions.threshold
    trec = ndcg(ranking, qrels, k, conventions=scn.conventions)  # ignores the threshold, as trec_eval does
    kept = {doc: grade for doc, grade in qrels.items() if grade >= L}
    ranx = ndcg(ranking, kept, k, conventions=scn.conventions)
    return Split(
        "threshold",
        f"The relevance threshold and NDCG (relevant if grade ≥ {L})",
        (
            Way(
                "Threshold ignored",
                trec.metric,
                trec.value,
                f"trec_eval / pytrec_eval `ndcg_cut_{k}` (ignores `-l`), ir_measures `nDCG@{k}` (no `rel`)",
            ),
            Way(f"Grades below {L} dropped", ranx.metric, ranx.value, f"ranx `ndcg@{k}-l{L}` (raw grade as gain)"),
        ),
        "trec_eval's NDCG has no relevance level: every positive grade is a gain. ranx filters its qrels with the "
        "threshold first, so grades below it stop counting in both DCG and IDCG.",
        "No positive grade is below the threshold, so nothing is dropped. Raise the threshold to see the split.",
    )


def split_recall_rounding(scn: Scenario) -> Split:
    ranking, qrels = list(scn.full_ranking), scn.qrels
    eleven_point_average = registry.family("IPrec11").function
    ways = {
        rounding: eleven_point_average(
            ranking, qrels, conventions=dataclasses.replace(scn.conventions, recall_rounding=rounding)
        )
        for rounding in ("nearest", "plus_0.9")
    }
    return Split(
        "recall_rounding",
        "How many relevant documents a recall level asks for (11pt_avg, iprec_at_recall)",
        (
            Way(
                "Rounded: lround(ℓ·R)",
                "11pt_avg",
                ways["nearest"].value,
                registry.tools("recall_rounding", "nearest"),
                current=scn.conventions.recall_rounding == "nearest",
            ),
            Way(
                "Plus 0.9, truncated: ⌊ℓ·R + 0.9⌋",
                "11pt_avg",
                ways["plus_0.9"].value,
                registry.tools("recall_rounding", "plus_0.9"),
                current=scn.conventions.recall_rounding == "plus_0.9",
            ),
        ),
        "Interpolated precision at recall level ℓ is the best precision once ℓ·R relevant documents are found, and "
        "ℓ·R is rarely whole. trec_eval 10.0 rounds it to the nearest; trec_eval 9 (inside pytrec_eval, and so "
        "ir_measures) adds 0.9 and truncates, which asks for one more document when the fraction is from 0.1 to "
        "0.5. With R = 2, level 0.6 asks for 1 or 2 relevant documents.",
        "No recall level asks for a different number of relevant documents here, or the precision at those ranks "
        "is the same either way.",
        note="The whole list counts (no cutoff), as trec_eval computes 11pt_avg.",
    )


BUILDERS: dict[str, Callable[[Scenario], Split]] = {
    "gain": split_gain,
    "idcg": split_idcg,
    "ap_denominator": split_ap_denominator,
    "ap_at_k": split_ap_at_k,
    "rr_cutoff": split_rr_cutoff,
    "rcap": split_rcap,
    "ties": split_ties,
    "no_relevant": split_no_relevant,
    "threshold": split_threshold,
    "recall_rounding": split_recall_rounding,
}


def _candidates(key: str, scn: Scenario) -> list[Fix]:
    """Fixes to try in order: tweaks of the current scenario first, then a built-in example."""
    fixes: list[Fix] = []
    R = _relevant_count(scn)
    if key == "gain":
        fixes.append(Fix("Load the graded list [3, 2, 3, 0, 1]", example_graded()))
    elif key in ("idcg", "ap_denominator"):
        missed = _missed_doc(scn)
        if missed is not None:
            fixes.append(Fix("Add a top-grade document the retriever missed", missed))
        example = _missed_doc(example_graded()) if key == "idcg" else example_ap_denominator()
        fixes.append(Fix("Load a built-in example", example))
    elif key in ("ap_at_k", "rcap"):
        if R >= 2:
            fixes.append(Fix(f"Set k = {R - 1} (below R = {R})", scn.with_settings(k=R - 1)))
        fixes.append(Fix("Load a built-in example", example_ap_at_k() if key == "ap_at_k" else example_rcap()))
    elif key == "rr_cutoff":
        first = _first_relevant(scn)
        if first is not None and first > 1:
            fixes.append(Fix(f"Set k = {first - 1} (just above the first hit)", scn.with_settings(k=first - 1)))
        fixes.append(Fix("Load Q3 of the Metrics for IR post (first hit at rank 3, k = 2)", example_rr_cutoff()))
    elif key == "ties":
        fixes.append(Fix("Load the tied pair a (relevant), b", example_tie_pair()))
    elif key == "no_relevant":
        fixes.append(Fix("Load the graded list [3, 2, 3, 0, 1]", example_graded()))
    elif key == "threshold":
        if scn.scale >= 2 and scn.conventions.threshold < scn.scale:
            higher = scn.conventions.threshold + 1
            fixes.append(Fix(f"Set the threshold to {higher}", _replace(scn, threshold=higher)))
        fixes.append(Fix("Load the threshold example (threshold 2)", example_threshold()))
    elif key == "recall_rounding":
        fixes.append(Fix("Load the list r1, n1, n2, r2 (R = 2)", example_recall_rounding()))
    return fixes


def split(key: str, scn: Scenario) -> Split:
    """One split on the scenario; when both ways agree, the first fix that makes them differ."""
    result = BUILDERS[key](scn)
    if result.differs:
        return result
    for fix in _candidates(key, scn):
        if BUILDERS[key](fix.scenario).differs:
            return dataclasses.replace(result, fix=fix)
    return result


def splits(scn: Scenario) -> list[Split]:
    return [split(key, scn) for key in BUILDERS]


# --- errata in the blog posts (docs/conventions.md §6), each value computed live ---


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


def errata() -> list[Erratum]:
    retriever_a = Scenario.from_example(RETRIEVER_A)
    rr_a = reciprocal_rank(list(retriever_a.full_ranking), retriever_a.qrels).value
    ap_case = example_ap_denominator()
    ap_trec = average_precision(list(ap_case.full_ranking), ap_case.qrels).value
    ap_prose = average_precision(
        list(ap_case.full_ranking), ap_case.qrels, conventions=Conventions(ap_denominator="retrieved")
    )
    ap_prose = ap_prose.value
    better = Scenario.from_example(BETTER_AUTH)
    ba_linear = ndcg(list(better.full_ranking), better.qrels, 3).value
    ba_exp_scn = _replace(better, gain="exp")
    ba_exp = ndcg(list(better.full_ranking), better.qrels, 3, conventions=ba_exp_scn.conventions).value

    graded = example_graded()
    g_rank, g_qrels = list(graded.full_ranking), graded.qrels
    exp_conv = dataclasses.replace(graded.conventions, gain="exp")
    dcg4 = dcg(g_rank, g_qrels, 4).value
    dcg4_exp = dcg(g_rank, g_qrels, 4, conventions=exp_conv).value
    missed = graded.with_doc("d9", "A grade-3 doc the retriever missed", grade=3, on_shelf=True)
    ndcg_retrieved = ndcg(g_rank, missed.qrels, 5, conventions=Conventions(idcg="retrieved")).value
    ndcg_all = ndcg(g_rank, missed.qrels, 5).value
    ndcg_exp = ndcg(g_rank, g_qrels, 5, conventions=exp_conv).value
    ndcg_lin = ndcg(g_rank, g_qrels, 5).value

    pets = CAT_DOG_PARROT.queries
    x10 = {q: ndcg(r, g, 2).value for q, (r, g) in _graded_x10().items()}
    p2, p2_mean = _per_query(precision, 2, pets)
    r2, _ = _per_query(recall, 2, pets)
    _, map2 = _per_query(average_precision, 2, pets)
    _, mrr2 = _per_query(reciprocal_rank, 2, pets)
    _, mrr = _per_query(reciprocal_rank, None, pets)
    rcap = example_rcap()
    r5 = recall(list(rcap.full_ranking), rcap.qrels, 5).value
    rc5 = capped_recall(list(rcap.full_ranking), rcap.qrels, 5).value
    q3 = example_rr_cutoff()
    q2 = Scenario.from_example(CAT_DOG_PARROT, "Q2")

    return [
        Erratum(
            "000-rr",
            "000",
            "RR is “the reciprocal of the rank of the first document that appears in the retrieved set”.",
            "1 for every list (as worded)",
            f"RR = {_f(rr_a)} for retriever A",
            "The word *relevant* is missing: RR is 1 / rank of the first **relevant** document.",
            retriever_a,
        ),
        Erratum(
            "000-ap",
            "000",
            "AP divides by “the total number of relevant documents in the retrieved set”.",
            "0.5 (prose); the code ÷ len(ground_truth) gives 0.6875 or 0.25",
            f"AP = {_f(ap_trec)} (÷ R = 3); the prose's rule gives {_f(ap_prose)}",
            "trec_eval divides by R, every relevant doc in the qrels, retrieved or not; the code also counts a "
            "grade-0 judgment as a hit.",
            ap_case,
        ),
        Erratum(
            "000-71",
            "000",
            "A (grade 1), B (3), C (2): “performing at 71% of the ideal”.",
            "0.71",
            f"NDCG@3 = {_f(ba_linear)} (linear gain), {_f(ba_exp)} (exponential, the post's code)",
            "Not reproducible from the text; one speculative reconstruction (A, B, an irrelevant doc, C, "
            "exponential gain) gives 0.7142.",
            better,
        ),
        Erratum(
            "001-dcg4",
            "001",
            "For the list [3, 2, 3, 0, 1]: “DCG@4 = 28.19”.",
            "28.19",
            f"DCG@4 = {_f(dcg4)} (linear gain), {_f(dcg4_exp)} (exponential)",
            "Neither gain gives 28.19 for this list; it probably refers to an example shown only as an image.",
            graded.with_settings(k=4),
        ),
        Erratum(
            "001-idcg",
            "001",
            "`idcg_at_k` sorts the retrieved grades to build the ideal ranking.",
            "0.9724 (what the code prints)",
            f"NDCG@5 = {_f(ndcg_all)} when a grade-3 doc was judged but not retrieved "
            f"(the code still prints {_f(ndcg_retrieved)})",
            "trec_eval builds IDCG from every judged doc, so a relevant doc the retriever missed lowers NDCG.",
            missed,
        ),
        Erratum(
            "002-gain",
            "002",
            "nDCG uses DCG@K = Σ (2^rel − 1) / log2(i + 1).",
            "formula only (exponential gain)",
            f"NDCG@5 of [3, 2, 3, 0, 1] = {_f(ndcg_exp)} (exponential) vs {_f(ndcg_lin)} (linear, trec_eval)",
            "Not an error but a convention split with the linear gain of RAG Pipelines, Part 3: ranx "
            "`ndcg_burges` agrees with the "
            "post, trec_eval with Part 3. It also does not say whether IDCG uses every judged doc.",
            _replace(graded, gain="exp"),
        ),
        Erratum(
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
        ),
        Erratum(
            "004-map",
            "004",
            "“MAP@k = the mean of Precision@k” over Q1–Q3.",
            "0.5",
            f"MAP@2 = {_f(map2)} (the mean of AP@2)",
            "MAP@k is the mean of AP@k (trec_eval `map_cut`, what BEIR reports), not of P@k; the post also counted "
            "Q2's top 2 as one relevant doc when both are.",
            q3.with_settings(k=2),
            "Opens Q3, the query with no relevant doc in its top 2.",
        ),
        Erratum(
            "004-p",
            "004",
            "Precision@2 per query, after computing “2/2 = 1.0” for Q1 and Q2.",
            "0.5, 0.5, 0.0",
            f"{', '.join(_f(v) for v in p2)} (mean {_f(p2_mean)})",
            "Q1 and Q2 each have both top-2 docs relevant: P@2 = 2/2. P@k divides by k, not by the list length.",
            q2.with_settings(k=2),
            "Opens Q2.",
        ),
        Erratum(
            "004-r",
            "004",
            "Recall@2: Q1 = 1/2, Q3 has “total relevant = 0 → NaN”.",
            "0.5, 1.0, NaN",
            ", ".join(_f(v) for v in r2),
            "Q1 finds both of its 2 relevant docs (1.0). Q3 has one relevant doc, D3 (score 1.0 ≥ 0.5), at rank 3: "
            "recall@2 = 0. And the tools never return NaN: R = 0 gives 0.",
            q3.with_settings(k=2),
            "Opens Q3.",
        ),
        Erratum(
            "004-mrr",
            "004",
            "MRR@2 = (1 + 1 + 0.33) / 3.",
            "0.78",
            f"MRR@2 = {_f(mrr2)} (uncut MRR = {_f(mrr)})",
            "Q3's first relevant doc is at rank 3 > 2, so its RR@2 is 0; 0.78 is the MRR without a cutoff.",
            q3.with_settings(k=2),
            "Opens Q3.",
        ),
        Erratum(
            "004-rcap",
            "004",
            "R_cap example: “7 relevant docs”, then Recall@5 = 3/8.",
            "Recall@5 = 0.38",
            f"Recall@5 = {_f(r5)} (3/7); R_cap@5 = {_f(rc5)} is right",
            "The post says 7 relevant documents but divides by 8.",
            rcap,
        ),
    ]

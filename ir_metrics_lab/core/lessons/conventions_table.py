"""The convention splits between popular tools, as data computed by ``metrics``. Pure.

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

from ir_metrics_lab.core.lessons.convention_examples import (
    example_ap_at_k,
    example_ap_denominator,
    example_graded,
    example_rcap,
    example_recall_rounding,
    example_rr_cutoff,
    example_threshold,
    example_tie_pair,
    with_conventions,
)
from ir_metrics_lab.core.scenario import MAX_DOCS, Scenario
from metrics import (
    average_precision,
    capped_recall,
    mean,
    mean_over_queries,
    ndcg,
    precision,
    rank_by_score,
    recall,
    reciprocal_rank,
)
from metrics.catalog import registry
from metrics.core.types import Term

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
            fixes.append(Fix(f"Set the threshold to {higher}", with_conventions(scn, threshold=higher)))
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

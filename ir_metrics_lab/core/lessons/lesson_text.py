"""Each lesson's words that its page and its teaching notebook (docs/notebooks/, built by
ir_metrics_lab.core.exports.teaching_notebooks) share: the title, the introduction, the traps and the naming note (one
fact, one place). Markdown; no user text. Pure.

NOTEBOOK_STEPS holds each teaching notebook's own code: the lesson's measures on the Playground's default list, with
their worked formulas, per-rank tables and the page's charts; GUIDES the two notebooks that are not lessons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    key: str
    title: str
    intro: str
    traps: Sequence[str]
    naming: str = ""  # empty: the page builds its note from the registry (the notebook has none)


LESSONS: dict[str, Lesson] = {
    "ap": Lesson(
        key="ap",
        title="Average precision (AP) and MAP",
        intro=(
            "**What it measures:** precision at the rank of every relevant document, averaged over *all* relevant "
            "documents. It rewards finding every relevant document and finding them early. **Use it when** the "
            "reader wants all the relevant documents (search for a literature review, legal discovery, a RAG context "
            "that should hold every supporting passage) and the grades are binary."
        ),
        traps=(
            (
                "**AP@k divides by R, not min(R, k).** With R = 10 relevant and hits at ranks 1 and 3 of the top 3, "
                "AP@3 = (1 + 2/3) / 10 = 0.1667, not 0.5556 (÷ 3) and not 0.8333 (÷ 2 hits). trec_eval `map_cut_3` "
                "and ranx `map@3` agree on 0.1667."
            ),
            (
                "**R counts relevant documents never retrieved.** Each one adds a precision of 0 to the sum: AP can "
                "only reach 1 when every relevant document is ranked above every non-relevant one."
            ),
            (
                "**The code in *IR Metrics 102* divides by every judged document** (`len(ground_truth)`, grade 0 "
                "included) and counts judged non-relevant documents as hits: its example gives 0.6875 or 0.25 where "
                "trec_eval gives 0.3333."
            ),
            "**R = 0 gives 0, not NaN**, and the query still counts in MAP.",
            (
                "**Grades are binarised** at the threshold (grade ≥ 1 by default): AP cannot tell a grade-3 document "
                "from a grade-1 one. Use NDCG for graded relevance."
            ),
        ),
        naming=(
            "Naming: MAP@k is the mean of AP@k over queries (trec_eval `map_cut_k`, BEIR's MAP@k), not the mean of "
            "P@k, which the *Metrics for IR* post used. RAGAS and DeepEval's *context precision* divides by the "
            "relevant documents retrieved, so it is not AP."
        ),
    ),
    "ndcg": Lesson(
        key="ndcg",
        title="DCG, IDCG and NDCG",
        intro=(
            "**What it measures:** graded usefulness of the top k, where each rank is worth less than the one above "
            "(discount 1/log₂(rank + 1)), normalised by the best possible ordering. **Use it when** documents are "
            "more or less relevant (grades 0-3), not just relevant or not: web search, recommendations, the main "
            "score of BEIR and MTEB (NDCG@10)."
        ),
        traps=(
            (
                "**IDCG from the retrieved list only** (*IR Metrics 102*; *RAG Pipelines, Part 3*) overrates a "
                "retriever that misses relevant documents: 0.9724 instead of trec_eval's 0.8047 in step 4."
            ),
            (
                "**Linear vs exponential gain** rank systems differently: [3, 2, 3, 0, 1] gives NDCG@5 = 0.9724 "
                "(linear) and 0.9575 (exponential); Better Auth's A, B, C gives 0.8175 vs 0.7364."
            ),
            (
                '**"DCG@4 = 28.19"** (*RAG Pipelines, Part 3*) cannot come from [3, 2, 3, 0, 1]: DCG@4 is 5.7619 '
                "(linear) or 12.3928 (exponential)."
            ),
            (
                "**The discount is log₂(rank + 1).** *IR Metrics 102*'s prose uses the natural log, which scales DCG "
                "by 1.4427 (it cancels in NDCG). trec_eval before 9.0.4 used log₂(rank) with rank 1 undiscounted."
            ),
            "**Negative grades gain 0.** *IR Metrics 102*'s 2^g − 1 gives a grade of −1 a gain of −0.5.",
            (
                "**NDCG = 1 does not mean the documents are good,** only that no better order of the judged "
                'documents exists: a list of grade-1 documents is "perfect" if nothing better was judged.'
            ),
        ),
        naming=(
            "Naming: trec_eval's `ndcg_cut_k` is NDCG@k with linear gain; ranx `ndcg_burges@k` and many blog posts "
            "use exponential gain under the same name. ir_measures writes `nDCG@k`."
        ),
    ),
    "pr_curve": Lesson(
        key="pr_curve",
        title="R-precision and the precision-recall curve",
        intro=(
            "**What they measure:** how precision trades against recall as you read further down the list. Every "
            "rank adds a point (recall so far, precision so far); **interpolation** makes the curve fall "
            "monotonically so queries with different numbers of relevant documents can be averaged; **R-precision** "
            "reads the curve at one rank, R, where precision equals recall. **Use them when** the whole ranking "
            "matters (search evaluation campaigns, TREC), not just a fixed top k."
        ),
        traps=(
            (
                "**Interpolated precision is not precision.** At a recall level it can be higher than the precision "
                "at the rank where that recall was reached: it looks ahead for a better precision later."
            ),
            (
                "**Recall levels are rounded to whole documents.** With R = 2, levels 0.1 to 0.5 all ask for 1 "
                "relevant document. trec_eval 10.0 rounds ℓ·R half away from zero; trec_eval 9 (inside pytrec_eval "
                "and ir_measures) takes ⌊ℓ·R + 0.9⌋, so a few levels differ between versions: level 0.6 with R = 2 "
                "asks for 1 or 2."
            ),
            (
                "**R-precision adapts its cutoff to the query.** A query with 3 relevant documents is read at rank "
                "3, one with 50 at rank 50: unlike P@10, a perfect ranking always scores 1."
            ),
            (
                "**A relevant document never retrieved caps the curve.** Recall never reaches 1, so the high levels "
                "score 0, and so does R-precision's share of it."
            ),
        ),
        naming=(
            "Naming: trec_eval prints `iprec_at_recall_0.50`, `11pt_avg` and `Rprec`; ir_measures writes `IPrec@0.5` "
            "and `Rprec`. Here: IPrec@0.5, IPrec11 and Rprec, and any of them in the Playground's measure picker."
        ),
    ),
    "precision_recall": Lesson(
        key="precision_recall",
        title="Precision, recall, hit rate and F1 at k",
        intro=(
            "**What they measure:** how many relevant documents are in the top k, ignoring their order. Each counts "
            "the same hits@k and divides by something different. **Use them when** the reader looks at a fixed "
            "number of results as a set: a RAG prompt with k passages, a page of ten links."
        ),
        traps=(
            (
                "**P@k divides by k even when fewer than k documents were retrieved:** 2 relevant of 3 retrieved "
                'gives P@10 = 0.2, not 0.6667 (trec_eval: "nonrelevant docs fill in the rest").'
            ),
            (
                "**R counts every judged relevant document, retrieved or not.** The *Metrics for IR* post's R_cap "
                "example says 7 relevant but divides by 8: R@5 = 3/7 = 0.4286, not 0.38."
            ),
            (
                "**R = 0 gives 0, not NaN** (the *Metrics for IR* post wrote NaN for Q3, which in fact has R = 1 and "
                "R@2 = 0)."
            ),
            (
                "**The *Metrics for IR* post's P@2 summary (0.5, 0.5, 0) should be 1, 1, 0**: precision is relative "
                "to k, not to the length of the ranking."
            ),
            "**HitRate is not recall.** With R = 5 and one hit in the top 5, HitRate@5 = 1 but R@5 = 0.2.",
        ),
        naming=(
            'Naming: Recall@k here is trec_eval\'s `recall_k` (hits ÷ R). Many RAG tools say "recall@k" for *any* '
            "relevant document in the top k: that is HitRate@k, trec_eval's `success_k`, ir_measures' `Success@k`, "
            "BEIR's `Accuracy@k`. R_cap@k is BEIR's capped recall; trec_eval has none."
        ),
    ),
    "rr": Lesson(
        key="rr",
        title="Reciprocal rank (RR) and MRR",
        intro=(
            "**What it measures:** how soon the *first* relevant document appears. **Use it when one good answer is "
            "enough:** question answering, known-item and navigational search, a RAG pipeline that needs one "
            "supporting passage. It ignores everything after the first hit."
        ),
        traps=(
            (
                "**The word *relevant* matters.** *IR Metrics 102* defines RR as the reciprocal rank of the first "
                "document *in the retrieved set*: that would always be 1. It is the first **relevant** document."
            ),
            (
                "**MRR@k is not MRR.** A first hit beyond k scores 0: the *Metrics for IR* post's 0.78 for MRR@2 "
                "should be 0.6667."
            ),
            (
                "**RR ignores everything after the first hit.** Two lists with the first hit at rank 1 score 1.0 "
                "each, even if one has nine more relevant documents and the other none."
            ),
            ("**trec_eval's `recip_rank` has no cutoff.** RR@k equals `recip_rank` on the run truncated to its top k."),
            (
                "**Ties.** trec_eval orders tied scores by doc id descending, and other tools differ, so a tie at "
                "the top can change RR from 1 to 0.5 between tools."
            ),
        ),
        naming=(
            "Naming: RR is one query's score; MRR (mean reciprocal rank) is its mean over queries. trec_eval calls "
            "RR `recip_rank`, ranx `mrr`, ir_measures `RR` (alias `MRR`)."
        ),
    ),
    "unjudged": Lesson(
        key="unjudged",
        title="Unjudged is not non-relevant",
        intro=(
            "**The problem:** qrels are built by **pooling**: assessors judge only the top documents of the systems "
            "that took part. A document nobody judged has no qrels line, and P@k, AP and NDCG quietly count it as "
            "non-relevant. A new retriever, a dense one above all, surfaces documents the old pool never saw: many "
            "are relevant, and it is punished for finding them. **Measures for incomplete judgments** say how much "
            "was judged (Judged@k), ignore the unjudged (bpref, condensed lists) or estimate them (infAP)."
        ),
        traps=(
            (
                '**A missing judgment is not a "no".** P@k, AP and NDCG count an unjudged document as non-relevant. '
                "Compare a new retriever to the systems that built the pool and it loses for finding what they "
                "missed."
            ),
            (
                "**Look at Judged@k first.** When much of the top 10 is unjudged, the other numbers say more about "
                "the qrels than about the retriever: judge more, or report a measure for incomplete judgments beside "
                "them."
            ),
            (
                "**A condensed list reads further down.** P@10 with -J is precision over the first ten *judged* "
                "documents, wherever they sit in the real list, possibly far below rank 10."
            ),
            (
                "**bpref is not AP.** It ignores the unjudged, but it is another measure with its own scale: compare "
                "bpref with bpref. Sakai (*Alternatives to Bpref*, SIGIR 2007) found AP and NDCG computed on "
                "condensed lists to be better choices for incomplete judgments."
            ),
            (
                "**infAP needs a sampled pool.** Its estimate covers only documents in the pool that were not "
                "sampled (a negative grade); a document with no qrels line counts as non-relevant, as in AP."
            ),
        ),
    ),
    "user_models": Lesson(
        key="user_models",
        title="User models: RBP and ERR",
        intro=(
            "**What they measure:** the value of a ranking to a model of a reader. **RBP** (rank-biased precision) "
            "reads rank 1, then goes on to the next rank with probability p, its patience: the score is the gain per "
            "document read. **ERR** (expected reciprocal rank) reads down until a document satisfies it, and a "
            "better grade satisfies more often: the score is the expected 1/rank where the reader stops. **Use them "
            "when** you can say how your users read: a few impatient glances (small p) or a long scroll (p near 1)."
        ),
        traps=(
            (
                "**RBP is not normalised.** A perfect list scores at most 1 − p^n; with p = 0.9, ten relevant "
                "documents give 0.65, not 1. Compare RBP at the same p only."
            ),
            (
                "**ir_measures' RBP defaults to p = 0.8, trec_eval's rbp to p = 0.9**: the same name, two numbers. "
                "Write the p."
            ),
            (
                "**A residual of 0 does not mean certainty.** trec_eval computes rbp_resid only when the list has an "
                "unjudged document; otherwise it prints 0, though the ranks below the list are still unknown."
            ),
            (
                "**ERR rewards the first great document and little after it.** Once a grade-4 document has stopped "
                "15 of 16 readers, the rest of the list barely counts: ERR suits navigational queries, not result "
                "sets a user reads in full."
            ),
            (
                "**ERR's grades stop at 4** (gdeval's maximum): a grade 5 counts as 4. Grades are not scaled, so a "
                "binary qrels (grade 1) stops only 1 reader in 16."
            ),
        ),
    ),
    "diversity": Lesson(
        key="diversity",
        title="Diversity and novelty: alpha-nDCG and ERR-IA",
        intro=(
            "**The problem:** a question has several aspects, and a RAG retriever that returns five passages saying "
            "the same thing scores well on NDCG while the generator gets one aspect five times and the others never. "
            "**alpha-nDCG** (Clarke et al., SIGIR 2008) gives each document a gain per aspect it covers, and "
            "multiplies that gain by 1 − α every time the aspect comes back: the first passage on price is worth 1, "
            "the second 1 − α. **ERR-IA** (Chapelle et al., CIKM 2009, with Agrawal et al.'s intent-aware mean) "
            "is the mean over the aspects of each one's ERR. The TREC Web track scored diversity this way with "
            "ndeval from 2009 to 2014. **Use them when** the query is ambiguous or has many facets and the reader "
            "needs each aspect once."
        ),
        traps=(
            (
                "**NDCG cannot see repetition.** Five relevant passages on one aspect score NDCG@5 = 1 in this "
                "lesson's example, whatever the aspects they miss."
            ),
            (
                "**The ideal ordering is only approximated.** Finding the best ordering is NP-complete; ndeval "
                "builds it greedily (each rank takes the document that adds the most gain, ties to the id last in "
                "byte order), so a list can beat it and score alpha-nDCG above 1."
            ),
            (
                "**Write the α.** α = 0 ignores repetition (every aspect counts in full every time); α = 1 counts "
                "each aspect once only. ndeval and ir_measures default to 0.5."
            ),
            (
                "**Grades are a yes or no per aspect.** ndeval reads a judgment above 0 as covering the aspect; a "
                "grade 3 and a grade 1 document earn the same gain."
            ),
            (
                "**ERR-IA@1 is not divided.** ndeval divides by the ideal ideal only from rank 2 on (it reports 5, "
                "10 and 20), so at k = 1 ERR-IA is the number of aspects the first document covers."
            ),
        ),
    ),
}

# Each teaching notebook's worked example after its setup cells: (Markdown, code) pairs. The code reads SCENARIO, the
# Playground's default list, and ``ranking``, ``qrels`` and ``k`` taken from it
# (ir_metrics_lab.core.exports.teaching_notebooks writes them).
NOTEBOOK_STEPS: dict[str, tuple[tuple[str, str], ...]] = {
    "precision_recall": (
        (
            "## Your list at k\n\nThe five measures count the same hits@k and divide by something different.",
            "from metrics import capped_recall, f1, hit_rate, precision, recall\n\n"
            "for measure in (precision, recall, capped_recall, hit_rate, f1):\n"
            "    display(measure(ranking, qrels, k))",
        ),
        (
            "## Every k at once\n\nP@k falls when a non-relevant document enters the top k; R@k never falls as k "
            "grows.",
            "curve_charts.curves(numbers.curves(SCENARIO, ('P', 'R', 'R_cap', 'HitRate')), k)",
        ),
        (
            "## Short lists: P@k still divides by k\n\nThree documents retrieved, two of them relevant.",
            "precision(['a', 'x', 'b'], {'a': 1, 'b': 1}, 10)",
        ),
    ),
    "rr": (
        (
            "## Your list\n\nRR is 1 over the rank of the first relevant document; everything after it is ignored.",
            "from metrics import reciprocal_rank\n\n"
            "rr = reciprocal_rank(ranking, qrels)\n"
            "display(rank_charts.contributions(rr, titles=SCENARIO.titles))\nrr",
        ),
        (
            "## MRR over the *Metrics for IR* post's three queries, uncut and at k = 2",
            "from functools import partial\n\nfrom metrics import mean_over_queries\n"
            "from metrics.teaching.examples import CAT_DOG_PARROT\n\n"
            "run = {q: list(query.ranking) for q, query in CAT_DOG_PARROT.queries.items()}\n"
            "judged = {q: dict(query.qrels) for q, query in CAT_DOG_PARROT.queries.items()}\n"
            "display(mean_over_queries(reciprocal_rank, run, judged))\n"
            "mean_over_queries(partial(reciprocal_rank, k=2), run, judged)",
        ),
    ),
    "ap": (
        (
            "## Your list\n\nPrecision at each relevant document's rank, summed, divided by R (every relevant "
            "judged document, retrieved or not).",
            "from metrics import average_precision\n\n"
            "ap = average_precision(ranking, qrels)\n"
            "display(rank_charts.contributions(ap, titles=SCENARIO.titles))\n"
            "display(ap)\naverage_precision(ranking, qrels, k)",
        ),
        (
            "## MAP@2 over the *Metrics for IR* post's three queries: the mean of AP@2, not of P@2",
            "from functools import partial\n\nfrom metrics import mean_over_queries\n"
            "from metrics.teaching.examples import CAT_DOG_PARROT\n\n"
            "run = {q: list(query.ranking) for q, query in CAT_DOG_PARROT.queries.items()}\n"
            "judged = {q: dict(query.qrels) for q, query in CAT_DOG_PARROT.queries.items()}\n"
            "mean_over_queries(partial(average_precision, k=2), run, judged)",
        ),
    ),
    "ndcg": (
        (
            "## DCG, the ideal DCG and their ratio\n\nEach rank's gain, discounted by log₂(rank + 1); IDCG orders "
            "every judged document best first.",
            "from metrics import dcg, idcg, ndcg\n\n"
            "display(dcg(ranking, qrels, k), idcg(ranking, qrels, k))\n"
            "display(rank_charts.ideal_vs_actual(dcg(ranking, qrels, k), idcg(ranking, qrels, k)))\n"
            "ndcg(ranking, qrels, k)",
        ),
        (
            "## Exponential gain\n\n2^grade − 1 instead of the grade: the same list, another number.",
            "ndcg(ranking, qrels, k, conventions=Conventions(gain='exp'))",
        ),
    ),
    "pr_curve": (
        (
            "## R-precision and interpolated precision",
            "from metrics import eleven_point_average, interpolated_precision, r_precision\n\n"
            "display(r_precision(ranking, qrels))\n"
            "display(interpolated_precision(ranking, qrels, level=0.5))\n"
            "eleven_point_average(ranking, qrels)",
        ),
        (
            "## The curve\n\nOne point per rank, and trec_eval's interpolated precision at the 11 recall levels.",
            "curve_charts.precision_recall(*numbers.precision_recall(SCENARIO))",
        ),
    ),
    "unjudged": (
        (
            "## The list as judged\n\nJudged@k (the share of the top k with a qrels line), bpref and infAP over "
            "the whole list.",
            "from metrics import bpref, inferred_average_precision, judged\n\n"
            "display(judged(ranking, qrels, k), bpref(ranking, qrels))\ninferred_average_precision(ranking, qrels)",
        ),
        (
            "## Mark one document unjudged\n\nThe second document loses its qrels line: P@k and AP now read it as "
            "non-relevant, bpref skips it, and Judged@k counts it missing. Which numbers move, and how far?",
            "from metrics import average_precision, precision\n\n"
            "marked = SCENARIO.with_unjudged(SCENARIO.ranking[1:2])\n"
            "for measure in (precision, average_precision, bpref, inferred_average_precision, judged):\n"
            "    before = measure(ranking, qrels, k)\n"
            "    after = measure(list(marked.full_ranking), marked.qrels, k)\n"
            "    print(f'{before.metric:>10}  judged {before.value:.4f}  unjudged {after.value:.4f}')",
        ),
        ("## bpref's worked formula with the document unjudged", "bpref(list(marked.full_ranking), marked.qrels, k)"),
    ),
    "user_models": (
        (
            "## RBP at three patiences\n\nA patient reader (p near 1) reads far down; an impatient one stops early.",
            "from metrics import rank_biased_precision, rbp_residual\n\n"
            "for p in (0.5, 0.8, 0.95):\n"
            "    display(rank_biased_precision(ranking, qrels, p=p))\n"
            "rbp_residual(ranking, qrels)",
        ),
        (
            "## ERR: read down until a document satisfies",
            "from metrics import expected_reciprocal_rank\n\nexpected_reciprocal_rank(ranking, qrels, k)",
        ),
    ),
    "diversity": (
        (
            "## alpha-nDCG beside NDCG\n\nThe judgments as ndeval reads them: for each aspect, the grade of every "
            "document that covers it. NDCG reads the grades alone. α is 0.5 here (ndeval's default), as on the "
            "lesson's page until its slider moves: change `alpha=` to follow it.",
            "from ir_metrics_lab.core.lessons import diversity as dv\nfrom metrics import alpha_ndcg, err_ia, ndcg\n\n"
            "subtopics = SCENARIO.subtopic_qrels\n"
            "display(subtopics)\n"
            "display(ndcg(ranking, qrels, k, conventions=SCENARIO.conventions))\n"
            "alpha_ndcg(ranking, subtopics, k, alpha=0.5, conventions=SCENARIO.conventions)",
        ),
        (
            "## Rank by rank: new aspects and repeats\n\nEach aspect a document covers earns (1 − α)^n, n the "
            "documents above it that covered the aspect; the rank's gain is their sum, times NDCG's discount.",
            "d = dv.diversity(SCENARIO, alpha=0.5)\n"
            "print(dv.coverage(d))\n"
            "pd.DataFrame(\n"
            "    [\n"
            "        {'rank': r.rank, 'doc': r.doc, 'new aspects': ', '.join(r.new), 'repeats': dv.repeated_text(r),\n"
            "         'gain': dv.gain_text(r, d.alpha), 'discount': round(r.discount, 4),\n"
            "         'gain × discount': round(r.contribution, 4), 'alpha-DCG so far': round(r.running, 4)}\n"
            "        for r in d.rows\n"
            "    ]\n"
            ")",
        ),
        (
            "## The greedy ideal ordering\n\nndeval's ideal takes, rank after rank, the document that adds the "
            "most gain now (ties to the id last in byte order).",
            "print(d.ideal_order)\n"
            "print(dv.ideal_caption(d))\n"
            "rank_charts.ideal_vs_actual(d.alpha_ndcg, d.ideal_ndcg, 'alpha-DCG', 'greedy ideal alpha-DCG')",
        ),
        (
            "## ERR-IA: the mean of each aspect's ERR",
            "display(err_ia(ranking, subtopics, k, alpha=0.5, conventions=SCENARIO.conventions))\n"
            "print(dv.err_caption(d))\n"
            "pd.DataFrame({'aspect': list(d.per_aspect_err), 'ERR':\n"
            "    [round(b.value, 4) for b in d.per_aspect_err.values()]})",
        ),
        (
            "## Move the second document to the bottom\n\nThe same two numbers before and after: which one rises?",
            "for second in SCENARIO.ranking[1:2]:  # (a list of one has no second document)\n"
            "    after = dv.diversity(SCENARIO.moved(second, len(SCENARIO.ranking)), alpha=0.5)\n"
            "    print(f'NDCG        before {d.ndcg.value:.4f}  after {after.ndcg.value:.4f}')\n"
            "    print(f'alpha-nDCG  before {d.alpha_ndcg.value:.4f}  after {after.alpha_ndcg.value:.4f}')",
        ),
    ),
}

# The two notebooks that are not lessons: their title and introduction, then their steps as above.
GUIDES: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "evaluate_your_run": (
        "Evaluate your run",
        "Score a whole run file against its qrels, as trec_eval does, then read the numbers query by query. The "
        "sample is a BM25 run bundled with the app; put your own paths, or your own DataFrames "
        "with the columns `query_id`, `doc_id`, `score` and `query_id`, `doc_id`, `relevance`, in their place.",
        (
            (
                "## The means",
                "from metrics.evaluation.engine import evaluate\nfrom ir_metrics_lab.core.paths import SAMPLES_DIR\n\n"
                "RUN, QRELS = SAMPLES_DIR / 'bm25.run.gz', SAMPLES_DIR / 'qrels.txt.gz'\n"
                "MEASURES = ['nDCG@10', 'AP', 'RR', 'P@10', 'R@100']\n"
                "result = evaluate(RUN, QRELS, MEASURES)\n"
                "pd.DataFrame({'measure': list(result.means), 'mean': [f'{v:.4f}' for v in result.means.values()]})",
            ),
            (
                "## Query by query\n\nThe same values as a DataFrame with ir_measures' and ranx's column names, "
                "and the spread of NDCG@10 over the queries.",
                "from metrics.evaluation.dataframes import evaluate_frame\n\n"
                "per_query = evaluate_frame(RUN, QRELS, MEASURES)\n"
                "display(per_query.head(10))\n"
                "ndcg10 = dict(zip(result.queries, result.per_query['nDCG@10'].tolist()))\n"
                "query_charts.per_query_bars(ndcg10, result.means['nDCG@10'], 'nDCG@10')",
            ),
            (
                "## One query, worked\n\nThe query whose NDCG@10 is nearest the mean, and its worked formula.",
                "from metrics import ndcg\nfrom metrics.io import read_qrels, read_run\n\n"
                "typical = min(ndcg10, key=lambda q: abs(ndcg10[q] - result.means['nDCG@10']))\n"
                "run, judged = read_run(RUN), read_qrels(QRELS)\n"
                "print('query', typical)\n"
                "ndcg(run.ranking_of(typical), judged.grades_of(typical), 10)",
            ),
        ),
    ),
    "why_tools_differ": (
        "Why two tools disagree",
        "Two libraries can print different numbers for the same measure on the same run: each makes its own "
        "choices (gain, ideal ordering, which queries count, ties). `explain` scores the run under both tools' "
        "choices and splits the difference between the conventions that differ (exact Shapley values).",
        (
            (
                "## One small query\n\nscikit-learn's ndcg_score builds the ideal ordering from the retrieved "
                "list only; trec_eval from every judged document.",
                "from metrics.tools.explain import explain\n\n"
                "explain({'q1': ['d1', 'd2', 'd3']}, {'q1': {'d1': 1, 'd2': 0, 'd3': 2, 'd9': 3}}, 'NDCG@3', "
                "'trec_eval', 'sklearn')",
            ),
            (
                "## A whole run\n\ntrec_eval against ranx with Burges' (exponential) gain, on the sample BM25 run.",
                "from ir_metrics_lab.core.paths import SAMPLES_DIR\n\n"
                "explain(SAMPLES_DIR / 'bm25.run.gz', SAMPLES_DIR / 'qrels.txt.gz', 'NDCG@10', 'trec_eval', "
                "'ranx_burges')",
            ),
        ),
    ),
}

"""The pytrec_eval side of bench/library/compare_tools.py: what a pytrec_eval user writes for the benchmark's measures.

    python bench/library/reference_pytrec_eval.py QRELS RUN OUT

Writes `measure<TAB>qid<TAB>value` per query, then the means as qid `all`, with the benchmark's measure names.
trec_eval's recip_rank has no cutoff, so RR@10 is recip_rank on each ranking cut to its top 10 (trec_eval's order:
score descending, then doc id descending), scored by a second evaluator; that cut is part of the timed work.
"""

import heapq
import sys

import pytrec_eval

NAMES = {"ndcg_cut_10": "NDCG@10", "map": "AP", "recall_100": "R@100", "P_10": "P@10"}


def main() -> None:
    qrels_path, run_path, out_path = sys.argv[1:4]
    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, set(NAMES)).evaluate(run)
    top10 = {q: dict(heapq.nlargest(10, docs.items(), key=lambda kv: (kv[1], kv[0]))) for q, docs in run.items()}
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(top10)
    with open(out_path, "w") as out:
        sums: dict[str, float] = {}
        for q in sorted(per_query):
            values = {NAMES[m]: v for m, v in per_query[q].items()}
            values["RR@10"] = rr[q]["recip_rank"]
            for name, v in values.items():
                out.write(f"{name}\t{q}\t{v!r}\n")
                sums[name] = sums.get(name, 0.0) + v
        for name, total in sums.items():
            out.write(f"{name}\tall\t{total / max(len(per_query), 1)!r}\n")


if __name__ == "__main__":
    main()

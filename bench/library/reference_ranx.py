"""The ranx side of bench/library/compare_tools.py: Qrels/Run.from_file, then evaluate with the benchmark's measures.

    python bench/library/reference_ranx.py QRELS RUN OUT

Writes `measure<TAB>qid<TAB>value` per query, then the means as qid `all`. ranx compiles its numba kernels on first
use (~40 s) and caches them; compare_tools.py runs this once on a tiny file before timing so only warm runs count.
"""

import sys

from ranx import Qrels, Run, evaluate

NAMES = {"ndcg@10": "NDCG@10", "map": "AP", "mrr@10": "RR@10", "recall@100": "R@100", "precision@10": "P@10"}


def main() -> None:
    qrels_path, run_path, out_path = sys.argv[1:4]
    qrels = Qrels.from_file(qrels_path, kind="trec")
    run = Run.from_file(run_path, kind="trec")
    means = evaluate(qrels, run, list(NAMES), return_mean=True, save_results_in_run=True)
    with open(out_path, "w") as out:
        for metric, name in NAMES.items():
            for q, v in sorted(run.scores[metric].items()):
                out.write(f"{name}\t{q}\t{float(v)!r}\n")
            out.write(f"{name}\tall\t{float(means[metric])!r}\n")


if __name__ == "__main__":
    main()

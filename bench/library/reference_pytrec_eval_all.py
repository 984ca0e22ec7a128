"""The pytrec_eval side of bench/library/all_trec.py: every measure pytrec_eval supports, per query, as a pytrec_eval
user would compute trec_eval's all_trec.

    python bench/library/reference_pytrec_eval_all.py QRELS RUN OUT

Writes ``measure<TAB>qid<TAB>value`` per query (full precision).
"""

import sys

import pytrec_eval


def main() -> None:
    qrels_path, run_path, out_path = sys.argv[1:4]
    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
    with open(out_path, "w") as out:
        for q in sorted(per_query):
            for name, value in per_query[q].items():
                out.write(f"{name}\t{q}\t{value!r}\n")


if __name__ == "__main__":
    main()

"""One ranking, every readable metric with its per-rank breakdown: is it cheap enough for each UI interaction?

    python -m bench.library.ranking_microbench            # 20 docs, k=10
    python -m bench.library.ranking_microbench --docs 100 --k 10

Times the full set (precision, recall, capped_recall, hit_rate, f1, reciprocal_rank, average_precision, dcg, idcg,
ndcg at k) with timeit, then each function alone. Target: the full set well under 1 ms (a Streamlit rerun is
~10-100 ms). For context, pytrec_eval on the same single ranking (evaluator built per call, as a UI would) too.
"""

from __future__ import annotations

import argparse
import statistics
import time
import timeit

import numpy as np

import metrics

FUNCTIONS = (
    "precision", "recall", "capped_recall", "hit_rate", "f1",
    "reciprocal_rank", "average_precision", "dcg", "idcg", "ndcg",
)  # fmt: skip


def example(n_docs: int, seed: int) -> tuple[list[str], dict[str, int]]:
    """A ranking of n_docs with graded qrels: ~40% of retrieved docs judged (grades 0-3) plus unretrieved judgments."""
    rng = np.random.default_rng(seed)
    ranking = [f"d{i}" for i in rng.permutation(10 * n_docs)[:n_docs]]
    qrels = {doc: int(rng.integers(0, 4)) for doc in ranking if rng.random() < 0.4}
    qrels.update({f"u{i}": int(rng.integers(0, 4)) for i in range(max(2, n_docs // 5))})
    return ranking, qrels


def per_call_us(fn, repeat: int = 7) -> tuple[float, float]:
    """Median over `repeat` timeit batches (each ~0.2 s, autoranged) of (CPU, wall) microseconds per call.

    CPU time (process_time) barely moves when other processes share the cores; wall time does.
    """
    out = []
    for clock in (time.process_time, time.perf_counter):
        timer = timeit.Timer(fn, timer=clock)
        number, _ = timer.autorange()
        out.append(statistics.median(t / number * 1e6 for t in timer.repeat(repeat, number)))
    return out[0], out[1]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=20)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    ranking, qrels = example(args.docs, args.seed)
    k = args.k
    fns = [getattr(metrics, name) for name in FUNCTIONS]

    def full_set() -> list[metrics.Breakdown]:
        return [fn(ranking, qrels, k) for fn in fns]

    values = {b.metric: round(b.value, 4) for b in full_set()}
    total = per_call_us(full_set)
    print(f"One ranking of {args.docs} docs, {len(qrels)} judgments, k={k}: {values}\n")
    print("| metric | CPU us per call | wall us per call |\n|---|---:|---:|")
    parts = 0.0
    for name, fn in zip(FUNCTIONS, fns, strict=True):
        cpu, wall = per_call_us(lambda fn=fn: fn(ranking, qrels, k))
        parts += cpu
        print(f"| {name}@{k} | {cpu:.1f} | {wall:.1f} |")
    print(f"| **all {len(fns)} (one timed call)** | **{total[0]:.1f}** | **{total[1]:.1f}** |")
    verdict = "OK" if max(total) < 1000 else "MISSED"
    print(
        f"\nFull set: {total[0]:.1f} us CPU, {total[1]:.1f} us wall (target < 1 ms: {verdict}); "
        f"sum of the parts {parts:.1f} us CPU."
    )
    try:
        import pytrec_eval
    except ImportError:
        return
    measures = {f"P_{k}", f"recall_{k}", "recip_rank", "map", f"ndcg_cut_{k}", f"success_{k}"}
    run = {"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}}
    qrel = {"q": qrels}
    cpu, wall = per_call_us(lambda: pytrec_eval.RelevanceEvaluator(qrel, measures).evaluate(run))
    print(
        f"Context: pytrec_eval on the same ranking (values only, evaluator built per call): {cpu:.1f} us CPU, "
        f"{wall:.1f} us wall."
    )


if __name__ == "__main__":
    main()

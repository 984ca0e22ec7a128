"""Deterministic synthetic TREC runs and qrels for the benchmarks (written to bench/data/).

    python -m bench.generate                      # msmarco-like, dl-like and the scaling sizes
    python -m bench.generate --only scale --scale-queries 10,100
    python -m bench.generate --msmarco-queries 500 --out /tmp/data   # smaller variants

(--only small,trec,short: the CLI's other shapes (bench/library/cli_shapes.py): a 7-line run with its qrels; a
TREC-style run of 50 queries x 1,000 docs with ~200 pooled judgments each; many short queries, 30,000 x 100 docs with
~30 judgments each (3M and 900k lines); short20k, 20,000 x 100 docs with ~35 judgments each (2M and 700k lines),
all built as dl-like is but the first, which is written out. --only judged:
judged.run/.qrels, the shape of issue 21's all_trec goal: 2,000 queries x 1,000 docs with ~150 graded judgments each,
about 300k qrels lines, built as dl-like is. --only variants: msmarco-v1..v4.run, the same queries, docs and qrels as
msmarco-like, reordered with more and more noise: the leaderboard bench compares them with msmarco.run.)

msmarco-like: N queries x 1,000 docs, ~1.1 relevant (grade 1) per query, placed often in the top 10, sometimes deeper,
sometimes not retrieved. dl-like: 200 queries x 1,000 docs, ~200 graded judgments (0-3) per query, most on
retrieved docs. Scaling: 10 / 100 / 1,000 msmarco-like queries (10k / 100k / 1M rows); the msmarco-like file itself
is the ~7M point. Scores strictly decrease by rank within a query (no ties, so no tool's tie-breaking matters) and the
run is grouped by query, as real runs are. Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from bench.paths import DATA

MSMARCO_DOCS = 8_841_823  # passages in MS MARCO v1
MSMARCO_QIDS = 1_102_432  # qids in MS MARCO v1 range up to about this
SCALE_QUERIES = (10, 100, 1_000)  # x 1,000 docs: 10k, 100k, 1M rows; msmarco.run is the ~7M point


def _write(path: Path, columns: dict[str, pa.Array]) -> None:
    """One space-separated write through pyarrow: seconds for 7M lines, where Python formatting takes minutes."""
    table = pa.table(columns)
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none", batch_size=1 << 16)
    pacsv.write_csv(table, path, options)


def _const(value: str, n: int) -> pa.Array:
    # A dictionary column writes like a plain string column without materialising n Python strings.
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, dtype=np.int8)), pa.array([value]))


def _str(values: np.ndarray) -> pa.Array:
    return pa.array(values).cast(pa.string())


def _distinct_docs(rng: np.random.Generator, n_queries: int, depth: int) -> np.ndarray:
    """(n_queries, depth) doc ids, distinct within each query (redraw collisions until none remain)."""
    docs = rng.integers(0, MSMARCO_DOCS, size=(n_queries, depth), dtype=np.int64)
    while True:
        order = np.argsort(docs, axis=1, kind="stable")
        sorted_docs = np.take_along_axis(docs, order, axis=1)
        dup = np.zeros_like(docs, dtype=bool)
        dup_sorted = sorted_docs[:, 1:] == sorted_docs[:, :-1]
        if not dup_sorted.any():
            return docs
        np.put_along_axis(dup, order[:, 1:], dup_sorted, axis=1)
        docs[dup] = rng.integers(0, MSMARCO_DOCS, size=int(dup.sum()), dtype=np.int64)


def _not_in(rng: np.random.Generator, docs: np.ndarray, qidx: np.ndarray) -> np.ndarray:
    """A fresh doc id per entry of qidx that its query did not retrieve (an unretrieved judged doc)."""
    out = rng.integers(0, MSMARCO_DOCS, size=len(qidx), dtype=np.int64)
    retrieved = (np.arange(docs.shape[0])[:, None] * MSMARCO_DOCS + docs).ravel()
    while True:
        clash = np.isin(qidx * MSMARCO_DOCS + out, retrieved)
        # Two unretrieved judgments of one query could also collide; make them distinct too.
        key = qidx * MSMARCO_DOCS + out
        _, first = np.unique(key, return_index=True)
        repeat = np.ones(len(key), dtype=bool)
        repeat[first] = False
        bad = clash | repeat
        if not bad.any():
            return out
        out[bad] = rng.integers(0, MSMARCO_DOCS, size=int(bad.sum()), dtype=np.int64)


def _run(rng: np.random.Generator, n_queries: int, depth: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Query ids (sorted, as grouped runs are), docs (n, depth) and scores (n, depth), strictly decreasing."""
    qids = np.sort(rng.choice(MSMARCO_QIDS, size=n_queries, replace=False))
    docs = _distinct_docs(rng, n_queries, depth)
    # Integer micro-units so every score is exact with 6 decimals and gaps of >= 1e-6 survive formatting.
    top = rng.integers(15_000_000, 35_000_000, size=(n_queries, 1))
    scale = 200_000.0 / np.sqrt(np.arange(1, depth + 1))  # larger gaps near the top, like BM25
    gaps = 1 + np.floor(rng.exponential(1.0, size=(n_queries, depth)) * scale).astype(np.int64)
    gaps[:, 0] = 0
    scores = (top - np.cumsum(gaps, axis=1)) / 1e6
    return qids, docs, scores


def write_run(path: Path, qids: np.ndarray, docs: np.ndarray, scores: np.ndarray, tag: str) -> int:
    n_queries, depth = docs.shape
    n = n_queries * depth
    _write(
        path,
        {
            "qid": _str(np.repeat(qids, depth)),
            "q0": _const("Q0", n),
            "doc": _str(docs.ravel()),
            "rank": pa.array(np.tile(np.arange(1, depth + 1, dtype=np.int32), n_queries)),
            "score": pa.array(scores.ravel()),
            "tag": _const(tag, n),
        },
    )
    return n


def write_qrels(path: Path, qids: np.ndarray, docs: np.ndarray, grades: np.ndarray) -> int:
    order = np.lexsort((docs, qids))  # qrels files come sorted by query
    _write(
        path,
        {
            "qid": _str(qids[order]),
            "iter": _const("0", len(order)),
            "doc": _str(docs[order]),
            "grade": pa.array(grades[order].astype(np.int32)),
        },
    )
    return len(order)


def msmarco_like(out: Path, name: str, n_queries: int, depth: int, seed: int) -> tuple[int, int]:
    """~1.1 relevant per query: 45% in the top 10, 25% at 11-100, 12% at 101-1000, 18% not retrieved."""
    rng = np.random.default_rng(seed)
    qids, docs, scores = _run(rng, n_queries, depth)
    n_rel = 1 + (rng.random(n_queries) < 0.1)
    qidx = np.repeat(np.arange(n_queries), n_rel)
    band = rng.choice(4, size=len(qidx), p=[0.45, 0.25, 0.12, 0.18])
    lo = np.array([0, 10, 100, depth])[band]
    hi = np.array([10, 100, depth, depth + 1])[band]
    lo, hi = np.minimum(lo, depth), np.minimum(hi, depth + 1)
    rank0 = lo + np.floor(rng.random(len(qidx)) * (hi - lo)).astype(np.int64)  # depth means not retrieved
    # The second relevant doc of a query must not land on the first one's rank.
    second = np.r_[False, qidx[1:] == qidx[:-1]]
    clash = second & (rank0 == np.r_[-1, rank0[:-1]]) & (rank0 < depth)
    rank0[clash] = (rank0[clash] + 1) % depth
    retrieved = rank0 < depth
    rel_docs = np.empty(len(qidx), dtype=np.int64)
    rel_docs[retrieved] = docs[qidx[retrieved], rank0[retrieved]]
    rel_docs[~retrieved] = _not_in(rng, docs, qidx[~retrieved])
    rows = write_run(out / f"{name}.run", qids, docs, scores, "bm25")
    write_qrels(out / f"{name}.qrels", qids[qidx], rel_docs, np.ones(len(qidx)))
    return rows, len(qidx)


def msmarco_variants(out: Path, name: str, n_queries: int, depth: int, seed: int, count: int) -> tuple[int, int]:
    """``count`` more runs on msmarco-like's queries, docs and qrels (``{name}.qrels``), for the leaderboard bench:
    variant v reorders each query's docs by its score plus normal noise of sd v (scores keep their column, so
    they still decrease strictly): the larger v, the weaker the run."""
    qids, docs, scores = _run(np.random.default_rng(seed), n_queries, depth)  # msmarco_like's first draw
    rows = 0
    for v in range(1, count + 1):
        rng = np.random.default_rng(seed + 1_000 + v)
        order = np.argsort(-(scores + rng.normal(0.0, float(v), size=scores.shape)), axis=1, kind="stable")
        rows += write_run(out / f"{name}-v{v}.run", qids, np.take_along_axis(docs, order, axis=1), scores, f"v{v}")
    return rows, 0


def dl_like(out: Path, name: str, n_queries: int, depth: int, judged: int, seed: int) -> tuple[int, int]:
    """~judged judgments per query, 75% on retrieved docs (mostly high ranks, as pools are), grades 0-3."""
    rng = np.random.default_rng(seed)
    qids, docs, scores = _run(rng, n_queries, depth)
    n_judged = np.clip(rng.normal(judged, judged / 4, n_queries).round().astype(np.int64), 10, 3 * judged)
    n_ret = np.minimum((n_judged * 0.75).round().astype(np.int64), depth)
    # Gumbel top-k: sample ranks without replacement, weight falling with rank (pooled judgments).
    ranks = np.arange(depth)
    keys = -np.log(ranks + 10.0) + rng.gumbel(size=(n_queries, depth))
    picked = np.argsort(-keys, axis=1)
    take = ranks[None, :] < n_ret[:, None]
    q_ret = np.nonzero(take)[0]
    r_ret = picked[take]
    # Relevance probability falls with rank; grades among relevant: 1 > 2 > 3.
    p_rel = 0.75 / (1 + r_ret / 40)
    rel = rng.random(len(r_ret)) < p_rel
    g_ret = np.where(rel, rng.choice([1, 2, 3], size=len(r_ret), p=[0.5, 0.3, 0.2]), 0)
    q_un = np.repeat(np.arange(n_queries), n_judged - n_ret)
    d_un = _not_in(rng, docs, q_un)
    g_un = np.where(rng.random(len(q_un)) < 0.3, rng.choice([1, 2, 3], size=len(q_un), p=[0.5, 0.3, 0.2]), 0)
    rows = write_run(out / f"{name}.run", qids, docs, scores, "dense")
    q_all = np.r_[q_ret, q_un]
    write_qrels(out / f"{name}.qrels", qids[q_all], np.r_[docs[q_ret, r_ret], d_un], np.r_[g_ret, g_un])
    return rows, len(q_all)


SMALL_RUN = """\
q1 Q0 d3 1 2.5 small
q1 Q0 d1 2 1.5 small
q1 Q0 d7 3 1.5 small
q1 Q0 d2 4 0.5 small
q2 Q0 d4 1 3.0 small
q2 Q0 d5 2 2.0 small
q3 Q0 d9 1 1.0 small
"""
SMALL_QRELS = "q1 0 d1 1\nq1 0 d2 2\nq1 0 d8 1\nq2 0 d5 1\nq2 0 d6 0\nq3 0 d2 1\n"


def small(out: Path, name: str) -> tuple[int, int]:
    """The smallest run worth timing: 7 lines, 3 queries (one tie), and 6 judgments (every judged query is in the
    run: trec_eval 10.0 exits otherwise without -c)."""
    (out / f"{name}.run").write_text(SMALL_RUN)
    (out / f"{name}.qrels").write_text(SMALL_QRELS)
    return SMALL_RUN.count("\n"), SMALL_QRELS.count("\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DATA)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument(
        "--only",
        default="msmarco,dl,scale,judged",
        help="msmarco, dl, scale, variants, judged, small, trec, short, short20k",
    )
    ap.add_argument("--variants", type=int, default=4, help="msmarco-like variant runs for the leaderboard bench")
    ap.add_argument("--depth", type=int, default=1000, help="docs per query")
    ap.add_argument("--msmarco-queries", type=int, default=6980)
    ap.add_argument("--dl-queries", type=int, default=200)
    ap.add_argument("--dl-judged", type=int, default=200, help="judgments per query, on average")
    ap.add_argument("--judged-queries", type=int, default=2000, help="queries of judged.run (many judgments each)")
    ap.add_argument("--judged-per-query", type=int, default=150, help="judgments per query of judged.qrels, on average")
    ap.add_argument("--scale-queries", default=",".join(map(str, SCALE_QUERIES)))
    ap.add_argument("--short-queries", type=int, default=30_000, help="queries of short.run (100 docs each)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = []
    only = set(args.only.split(","))
    if "msmarco" in only:
        jobs.append(("msmarco", lambda: msmarco_like(args.out, "msmarco", args.msmarco_queries, args.depth, args.seed)))
    if "variants" in only:
        jobs.append(
            (
                "msmarco-v1",
                lambda: msmarco_variants(
                    args.out, "msmarco", args.msmarco_queries, args.depth, args.seed, args.variants
                ),
            )
        )
    if "dl" in only:
        jobs.append(("dl", lambda: dl_like(args.out, "dl", args.dl_queries, args.depth, args.dl_judged, args.seed + 1)))
    if "judged" in only:  # many judgments per query: trec_eval's all_trec costs most here (bench/library/all_trec.py)
        jobs.append(
            (
                "judged",
                lambda: dl_like(
                    args.out, "judged", args.judged_queries, args.depth, args.judged_per_query, args.seed + 2
                ),
            )
        )
    if "small" in only:
        jobs.append(("small", lambda: small(args.out, "small")))
    if "trec" in only:  # a TREC ad hoc track's shape: 50 topics x 1,000 docs, pooled judgments
        jobs.append(("trec", lambda: dl_like(args.out, "trec", 50, args.depth, 200, args.seed + 3)))
    if "short" in only:  # many short queries: per-query overhead costs most here
        jobs.append(("short", lambda: dl_like(args.out, "short", args.short_queries, 100, 30, args.seed + 4)))
    if "short20k" in only:  # issue 50's shape: 20,000 queries x 100 docs, ~35 judgments each (~700k qrels lines)
        jobs.append(("short20k", lambda: dl_like(args.out, "short20k", 20_000, 100, 35, args.seed + 5)))
    if "scale" in only:
        for nq in map(int, args.scale_queries.split(",")):
            rows = nq * args.depth
            name = f"scale-{rows // 1000}k" if rows < 1_000_000 else f"scale-{rows / 1e6:g}M"
            # Seed differs per size so small files are not prefixes of big ones.
            jobs.append((name, lambda name=name, nq=nq: msmarco_like(args.out, name, nq, args.depth, args.seed + nq)))
    for name, job in jobs:
        t0 = time.perf_counter()
        rows, judgments = job()
        size = (args.out / f"{name}.run").stat().st_size
        print(
            f"{name}: {rows:,} run rows ({size / 2**20:.0f} MiB), {judgments:,} judgments, "
            f"{time.perf_counter() - t0:.1f} s"
        )


if __name__ == "__main__":
    main()

"""Write the bundled sample data (data/samples/): graded qrels, two runs of different quality and their fusion.

Deterministic: numpy ``default_rng`` with a fixed seed and gzip with mtime 0, so the same code writes the same
bytes (tests/test_sample_data.py regenerates them and compares). Run from the repository root:

    python -m scripts.make_sample_data            # rewrites data/samples/
    python -m scripts.make_sample_data --out DIR

What is in it, and why (each is something real test collections have):
- 300 judged topics (ids 1001-1300) with graded judgments 0-3, pooled: the judged docs are docs some system
  retrieved, so judged non-relevant docs rank high too;
- 12 topics whose judgments are all grade 0 (no relevant document: every measure is 0 there);
- 6 judged topics that neither run answers (trec_eval skips them; -c counts them as 0);
- 4 topics in the runs that have no judgments (ignored by trec_eval);
- two systems with 100 docs per topic: "bm25" (weaker; 3-decimal scores, so some ties, broken by trec_eval's
  doc id order) and "dense" (stronger; 6-decimal scores);
- a third run, "rrf": reciprocal rank fusion of the two (Cormack, Clarke & Buettcher, SIGIR 2009), each doc scored
  sum 1 / (60 + rank) over the runs that retrieved it, top 100 kept. It uses no random numbers, so the other files'
  bytes do not depend on it.
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

import numpy as np

SEED = 20_260_611
DEPTH = 100
JUDGED_TOPICS = [str(t) for t in range(1001, 1301)]
NO_RELEVANT = 12  # judged topics whose judgments are all grade 0
MISSING_FROM_RUNS = 6  # judged topics no run answers
UNJUDGED_TOPICS = [str(t) for t in range(1301, 1305)]  # in the runs, not in the qrels
CORPUS_SIZE = 2_000_000
UNJUDGED_CANDIDATES = 300  # unjudged docs each system may retrieve, per topic
# (name, how strongly its score follows the grade, score = offset + scale * latent, decimals)
SYSTEMS = (("bm25", 0.8, 9.0, 2.5, 3), ("dense", 1.6, 0.62, 0.05, 6))
FUSED = "rrf"
RRF_K = 60  # the constant of Cormack et al.
FILES = ("qrels.txt.gz", "bm25.run.gz", "dense.run.gz", "rrf.run.gz")
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "samples"


def _doc_ids(numbers: np.ndarray) -> list[str]:
    return [f"D{n:07d}" for n in numbers.tolist()]


def generate(seed: int = SEED) -> dict[str, bytes]:
    """{file name: gzipped bytes} of the qrels and both runs."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(JUDGED_TOPICS))
    no_relevant = {JUDGED_TOPICS[i] for i in order[:NO_RELEVANT]}
    missing = {JUDGED_TOPICS[i] for i in order[NO_RELEVANT : NO_RELEVANT + MISSING_FROM_RUNS]}
    qrels_lines: list[str] = []
    run_lines: dict[str, list[str]] = {name: [] for name, *_ in SYSTEMS}

    for topic in [*JUDGED_TOPICS, *UNJUDGED_TOPICS]:
        judged = topic in JUDGED_TOPICS
        n_relevant = 0 if topic in no_relevant or not judged else 1 + int(rng.poisson(4))
        n_judged_nonrelevant = 10 + int(rng.poisson(20)) if judged else 0
        n_docs = n_relevant + n_judged_nonrelevant + UNJUDGED_CANDIDATES
        numbers = rng.choice(CORPUS_SIZE, size=n_docs, replace=False)
        grades = np.concatenate(
            [
                rng.choice([1, 2, 3], size=n_relevant, p=[0.5, 0.3, 0.2]),
                np.zeros(n_judged_nonrelevant + UNJUDGED_CANDIDATES, dtype=np.int64),
            ]
        ).astype(np.int64)
        is_judged = np.arange(n_docs) < n_relevant + n_judged_nonrelevant
        docs = _doc_ids(numbers)
        if judged:
            shown = rng.permutation(n_relevant + n_judged_nonrelevant)  # qrels files are not sorted by grade
            qrels_lines.extend(f"{topic} 0 {docs[i]} {grades[i]}" for i in shown.tolist())
        if topic in missing:
            continue
        difficulty = rng.uniform(0.2, 1.4)  # some topics are hard for every system
        pooled = 0.9 * is_judged  # pooled docs were retrieved by someone: they look relevant
        shared_noise = rng.normal(0, 0.7, n_docs)  # what both systems get wrong alike
        for name, strength, offset, scale, decimals in SYSTEMS:
            latent = strength * difficulty * grades + pooled + shared_noise + rng.normal(0, 1.0, n_docs)
            scores = np.round(offset + scale * latent, decimals)
            top = np.lexsort((np.array(docs), -scores))[:DEPTH]  # ties written in doc id ascending order
            run_lines[name].extend(
                f"{topic} Q0 {docs[i]} {rank} {scores[i]:.{decimals}f} {name}"
                for rank, i in enumerate(top.tolist(), start=1)
            )

    run_lines[FUSED] = reciprocal_rank_fusion([run_lines[name] for name, *_ in SYSTEMS])

    def pack(lines: list[str]) -> bytes:
        return gzip.compress(("\n".join(lines) + "\n").encode("ascii"), compresslevel=9, mtime=0)

    return {
        "qrels.txt.gz": pack(qrels_lines),
        "bm25.run.gz": pack(run_lines["bm25"]),
        "dense.run.gz": pack(run_lines["dense"]),
        "rrf.run.gz": pack(run_lines[FUSED]),
    }


def reciprocal_rank_fusion(runs: list[list[str]], k: int = RRF_K, depth: int = DEPTH) -> list[str]:
    """TREC lines of the fused run: per topic, each doc's sum of 1 / (k + rank) over the runs (rank as written),
    the top ``depth`` written in trec_eval's order (score descending, then doc id descending) with 6 decimals."""
    scores: dict[str, dict[str, float]] = {}
    for lines in runs:
        for line in lines:
            topic, _, doc, rank, *_ = line.split()
            per_topic = scores.setdefault(topic, {})
            per_topic[doc] = per_topic.get(doc, 0.0) + 1.0 / (k + int(rank))
    fused = []
    for topic, per_topic in scores.items():
        rounded = {doc: round(score, 6) for doc, score in per_topic.items()}
        top = sorted(rounded, key=lambda doc: (rounded[doc], doc), reverse=True)[:depth]
        fused.extend(f"{topic} Q0 {doc} {rank} {rounded[doc]:.6f} {FUSED}" for rank, doc in enumerate(top, start=1))
    return fused


def write(out: Path = DEFAULT_OUT, seed: int = SEED) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in generate(seed).items():
        path = out / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default data/samples)")
    parser.add_argument("--seed", type=int, default=SEED)
    options = parser.parse_args()
    for path in write(options.out, options.seed):
        print(f"{path}  {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()

"""Record ranx's Fisher randomization test on the sample runs (tests/data/ranx_fisher.json), for
tests/test_leaderboard.py.

ranx is numba code: compiled, its kernel takes about 14 s of CPU on a fresh environment; uncompiled, its 10,000
permutations per pair take as long. The test suite reads the p-values recorded here instead, next to a digest of
the per-query values each came from: if the engine's values for the samples ever change, the test says so and asks
for this script again. Run from the repository root:

    python -m scripts.make_ranx_reference
"""

from __future__ import annotations

import hashlib
import json
from importlib.metadata import version
from itertools import combinations
from pathlib import Path

import numpy as np

from metrics.compare.leaderboard import evaluate_runs, from_evaluations

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "data" / "samples"
QRELS = SAMPLES / "qrels.txt.gz"
RUNS = {name: SAMPLES / f"{name}.run.gz" for name in ("dense", "rrf", "bm25")}
MEASURES = ["NDCG@10", "AP", "RR@10", "P@10", "R@100"]
N_PERMUTATIONS = 10_000
SEED = 42
OUT = REPO / "tests" / "data" / "ranx_fisher.json"


def digest(x: np.ndarray, y: np.ndarray) -> str:
    """SHA-256 of the two per-query arrays as float64: the inputs a recorded p-value belongs to."""
    as_bytes = [np.ascontiguousarray(values, np.float64).tobytes() for values in (x, y)]
    return hashlib.sha256(b"|".join(as_bytes)).hexdigest()


def main() -> None:
    from ranx.statistical_tests import fisher_randomization_test  # here: tests import digest without ranx

    board = from_evaluations(evaluate_runs(list(RUNS.items()), QRELS, MEASURES), test="t-test")
    pairs = []
    for measure in MEASURES:
        for a, b in combinations(RUNS, 2):
            x, y = board.per_query[measure][a], board.per_query[measure][b]
            p_value, _ = fisher_randomization_test(x, y, N_PERMUTATIONS, 0.05, SEED)
            pairs.append({"measure": measure, "a": a, "b": b, "inputs": digest(x, y), "p_value": float(p_value)})
    record = {
        "tool": f"ranx {version('ranx')}",
        "call": f"ranx.statistical_tests.fisher_randomization_test(x, y, {N_PERMUTATIONS}, 0.05, {SEED})",
        "made_by": "scripts/make_ranx_reference.py",
        "pairs": pairs,
    }
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(REPO)}: {len(pairs)} pairs")


if __name__ == "__main__":
    main()

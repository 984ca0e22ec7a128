"""The golden cases computed by trec_eval (via pytrec_eval) and checked against ranx and BEIR."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[dict]:
    return json.loads((DATA / name).read_text())["cases"]


PUBLIC = load("golden_public.json")
TIES = load("golden_ties.json")
# The ranx twin scores an empty qrels dict as 0; we follow trec_eval, so that twin is not our spec.
TREC_PUBLIC = [case for case in PUBLIC if case["source"] != "ranx"]


def expectations(cases: list[dict]):
    """Yield (case id, measure name, per-query dict, mean) for every measure of every case."""
    for case in cases:
        for name, expected in case["expected"].items():
            yield case, name, expected["per_query"], expected["mean"]

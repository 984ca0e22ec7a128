"""The bundled sample data: reproducible from its script, shaped as documented, and scored by our engine exactly as
by trec_eval itself (pytrec_eval, run live here)."""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import pytest
import pytrec_eval

from metrics.evaluation.engine import evaluate
from scripts import make_sample_data

ROOT = Path(__file__).parents[1]
SAMPLES = ROOT / "data" / "samples"

# Our measure -> trec_eval's. RR@10 has no trec_eval name (recip_rank has no cutoff): RR is checked instead.
TREC_NAMES = {
    "NDCG@10": "ndcg_cut_10",
    "NDCG@100": "ndcg_cut_100",
    "AP": "map",
    "RR": "recip_rank",
    "R@100": "recall_100",
    "P@10": "P_10",
    "P@5": "P_5",
    "HitRate@10": "success_10",
}


def test_regenerating_gives_identical_bytes(tmp_path):
    written = make_sample_data.write(tmp_path)
    assert sorted(p.name for p in written) == sorted(make_sample_data.FILES)
    for path in written:
        assert path.read_bytes() == (SAMPLES / path.name).read_bytes(), f"{path.name} differs: rerun the script"


def test_samples_are_small():
    assert sum((SAMPLES / name).stat().st_size for name in make_sample_data.FILES) < 1.5 * 2**20


def _lines(name: str) -> list[list[str]]:
    with gzip.open(SAMPLES / name, "rt", encoding="ascii") as f:
        return [line.split() for line in f]


def test_shape_is_as_documented():
    qrels, bm25, dense, rrf = (_lines(name) for name in make_sample_data.FILES)
    judged = {q for q, *_ in qrels}
    assert len(judged) == 300
    assert {int(g) for *_, g in qrels} == {0, 1, 2, 3}
    relevant = {q for q, _, _, g in qrels if int(g) > 0}
    assert len(judged - relevant) == make_sample_data.NO_RELEVANT
    for run in (bm25, dense, rrf):
        topics = {q for q, *_ in run}
        assert len(judged - topics) == make_sample_data.MISSING_FROM_RUNS
        assert topics - judged == set(make_sample_data.UNJUDGED_TOPICS)
        assert len(run) == len(topics) * 100
    assert {r[5] for r in bm25} == {"bm25"} and {r[5] for r in dense} == {"dense"} and {r[5] for r in rrf} == {"rrf"}
    tied = {(q, s) for q, _, _, _, s, _ in bm25}
    assert len(tied) < len(bm25), "bm25 should have some tied scores (trec_eval's doc id tie-break matters)"


def _pytrec(run_name: str) -> dict[str, dict[str, float]]:
    with gzip.open(SAMPLES / "qrels.txt.gz", "rt") as f:
        qrels = pytrec_eval.parse_qrel(f)
    with gzip.open(SAMPLES / run_name, "rt") as f:
        run = pytrec_eval.parse_run(f)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_NAMES.values()))
    return evaluator.evaluate(run)


@pytest.mark.parametrize("run_name", ["bm25.run.gz", "dense.run.gz", "rrf.run.gz"])
def test_engine_equals_pytrec_eval(run_name):
    expected = _pytrec(run_name)
    ours = evaluate(SAMPLES / run_name, SAMPLES / "qrels.txt.gz", list(TREC_NAMES))
    assert list(ours.queries) == sorted(expected)
    assert ours.counts.evaluated == 294
    for measure, trec_name in TREC_NAMES.items():
        per_query = dict(zip(ours.queries, ours.per_query[measure].tolist(), strict=True))
        for query, values in expected.items():
            assert per_query[query] == pytest.approx(values[trec_name], abs=1e-9), (measure, query)
        trec_mean = math.fsum(values[trec_name] for values in expected.values()) / len(expected)
        assert ours.means[measure] == pytest.approx(trec_mean, abs=1e-12), measure


def test_dense_is_the_stronger_system():
    bm25 = evaluate(SAMPLES / "bm25.run.gz", SAMPLES / "qrels.txt.gz", ["NDCG@10", "AP"])
    dense = evaluate(SAMPLES / "dense.run.gz", SAMPLES / "qrels.txt.gz", ["NDCG@10", "AP"])
    assert dense.means["NDCG@10"] > bm25.means["NDCG@10"] + 0.1
    assert dense.means["AP"] > bm25.means["AP"] + 0.1


def test_rrf_fuses_the_two_runs_by_hand():
    """Topic 1001's top document in rrf, recomputed from the two runs' ranks: sum of 1 / (60 + rank)."""
    ranks = {
        name: {d: int(r) for q, _, d, r, *_ in _lines(f"{name}.run.gz") if q == "1001"} for name in ("bm25", "dense")
    }
    fused = [(d, float(s)) for q, _, d, _, s, _ in _lines("rrf.run.gz") if q == "1001"]
    for doc, score in fused[:5]:
        expected = sum(1 / (60 + r[doc]) for r in ranks.values() if doc in r)
        assert score == pytest.approx(expected, abs=5e-7)
    every = {d for r in ranks.values() for d in r}
    best = max(sum(1 / (60 + r[d]) for r in ranks.values() if d in r) for d in every)
    assert fused[0][1] == pytest.approx(best, abs=5e-7)


def test_the_pages_describe_the_samples_without_naming_a_file_a_wheel_lacks():
    # The installed wheel holds no scripts/ folder: the description says what the samples are instead.
    from ir_metrics_lab.session.datasets import SAMPLE_DESCRIPTION

    assert "scripts/" not in SAMPLE_DESCRIPTION and ".py" not in SAMPLE_DESCRIPTION
    assert "synthetic" in SAMPLE_DESCRIPTION

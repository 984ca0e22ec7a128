"""The Dask path (metrics.evaluation.distributed) on a LocalCluster of 2 worker processes: the same Evaluation as one
process, for every measure family, from a text run (blocks sent) and a Parquet dataset (files read by the workers); a
worker
killed mid-run is replaced and its tasks retried, with the same result; without Dask, --dask says how to install it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import signal
import sys
import threading
import time
from collections import Counter

import pyarrow.dataset as ds
import pytest
from distributed import Client, LocalCluster, get_task_stream
from pyarrow.parquet import read_table

from metrics.cli.ir_metrics import main
from metrics.cli.ir_metrics_compare import main as leaderboard_cli
from metrics.compare.leaderboard import evaluate_runs, from_evaluations
from metrics.evaluation.distributed import evaluate_dask
from metrics.evaluation.engine import evaluate
from metrics.evaluation.streaming import write_parquet
from tests.test_streaming import MEASURES, _large_run, _write_qrels, _write_trec, assert_same


@pytest.fixture(scope="module")
def client():
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=50
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def test_dask_equals_one_process_for_every_family(tmp_path, client):
    run, qrels = _large_run(tmp_path, queries=40, docs=30)
    whole = evaluate(run, qrels, MEASURES, complete=True)
    assert_same(whole, evaluate_dask(client, run, qrels, MEASURES, complete=True, piece_bytes=2000))
    write_parquet(run, tmp_path / "dataset", piece_bytes=700)
    assert_same(whole, evaluate_dask(client, tmp_path / "dataset", qrels, MEASURES, complete=True))
    hive = tmp_path / "hive"  # one directory per query: the query id is in the path, not in the files
    ds.write_dataset(
        read_table(tmp_path / "dataset"), hive, format="parquet", partitioning=["query"], partitioning_flavor="hive"
    )
    assert_same(whole, evaluate_dask(client, hive, qrels, MEASURES, complete=True))


def test_not_contiguous_run_on_dask(tmp_path, client):
    run, qrels = _large_run(tmp_path, queries=30, docs=20, shuffle=True)
    measures = MEASURES[:12]
    assert_same(evaluate(run, qrels, measures, max_docs=9), evaluate_dask(client, run, qrels, measures, max_docs=9))


def test_worker_killed_mid_run_is_replaced_and_the_result_is_the_same(tmp_path, client):
    run, qrels = _large_run(tmp_path, queries=80, docs=40)
    measures = MEASURES[:25]
    whole = evaluate(run, qrels, measures)
    before = client.run(os.getpid)
    killed: list[int] = []

    def kill_a_busy_worker() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            busy = [address for address, tasks in client.processing().items() if tasks and address in before]
            if busy:
                os.kill(before[busy[0]], signal.SIGKILL)
                killed.append(before[busy[0]])
                return
            time.sleep(0.005)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    result = evaluate_dask(client, run, qrels, measures, piece_bytes=1500)
    killer.join()
    assert killed, "no worker was busy to kill"
    assert_same(whole, result)
    client.wait_for_workers(2, timeout=60)  # the nanny started a new worker process
    assert killed[0] not in client.run(os.getpid).values()


def _runs_of_one_pool(tmp_path, runs: int, queries: int = 24, pool: int = 30):
    """Qrels of ``pool`` docs per query and ``runs`` runs ranking random subsets of them (ties included), so every
    measure has values to differ on."""
    rng = random.Random(11)
    qrels = {f"q{q}": {f"d{d}": rng.randrange(-1, 4) for d in rng.sample(range(pool), 12)} for q in range(queries)}
    _write_qrels(tmp_path / "qrels.txt", qrels)
    paths = []
    for number in range(runs):
        ranking = {
            f"q{q}": {f"d{d}": rng.choice([1.0, 0.5, round(rng.random(), 3)]) for d in rng.sample(range(pool), 20)}
            for q in range(2, queries + 3)  # q0, q1 missing from the runs (-c), q{queries} not judged
        }
        paths.append(tmp_path / f"run{number}.txt")
        _write_trec(paths[-1], ranking, random.Random(number) if number == 1 else None)  # run1: not contiguous
    return paths, tmp_path / "qrels.txt"


def test_leaderboard_on_dask_is_the_one_process_leaderboard(tmp_path, client):
    """ir-metrics-compare --dask: every run's partitions on the cluster at once (runs x partitions tasks), and the
    same leaderboard as one process, for every measure family: from text runs (one not contiguous: regrouped) and
    a Parquet dataset read by the workers."""
    paths, qrels = _runs_of_one_pool(tmp_path, runs=3)
    write_parquet(paths[2], tmp_path / "run2.d", piece_bytes=900)
    runs = [("a", paths[0]), ("b", paths[1]), ("c", tmp_path / "run2.d")]
    local = evaluate_runs(runs, qrels, MEASURES, complete=True)
    with get_task_stream(client) as tasks:
        on_dask = evaluate_runs(runs, qrels, MEASURES, complete=True, dask=client, piece_bytes=900)
    for name, _ in runs:
        assert_same(local[name], on_dask[name])
    assert from_evaluations(on_dask).to_json() == from_evaluations(local).to_json()
    run_of = {task["key"]: re.match(r"ir-metrics-run(\d+)-", task["key"]).group(1) for task in tasks.data}
    per_run = Counter(run_of.values())
    assert sorted(per_run) == ["0", "1", "2"] and per_run["0"] > 1, per_run  # run 0: a task per block
    times = {n: [t for task in tasks.data if run_of[task["key"]] == n for t in task["startstops"]] for n in per_run}
    assert min(t["start"] for t in times["2"]) < max(t["stop"] for t in times["0"])  # not one run after another

    some = [argument for name in ("AP", "NDCG@10", "P(rel=2)@5", "gm_map", "num_rel_ret") for argument in ("-m", name)]
    arguments = [qrels, *paths, "-c", *some, "--format", "json", "--quiet", "--block-bytes", "700"]
    one_process = _cli(leaderboard_cli, arguments)
    assert one_process[0] == 0 and len(json.loads(one_process[1])["measures"]) == 5, one_process[2]
    assert _cli(leaderboard_cli, [*arguments, "--dask", client.scheduler.address]) == one_process


def _cli(main, argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def test_dask_missing_says_how_to_install(tmp_path, capsys, monkeypatch):
    run, qrels = _large_run(tmp_path, queries=3, docs=3)
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    assert main([str(qrels), str(run), "--dask", "local:2"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: --dask needs Dask: pip install 'ir-metrics-lab[dask]' (dask and distributed)\n"


@pytest.mark.parametrize("address", ["local:0", "local:x", "nowhere"])
def test_bad_dask_address_is_one_line(tmp_path, capsys, address):
    run, qrels = _large_run(tmp_path, queries=3, docs=3)
    assert main([str(qrels), str(run), "--dask", address]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --dask {address}: expected local") and err.count("\n") == 1

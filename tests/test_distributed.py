"""The Dask path (metrics.distributed) on a LocalCluster of 2 worker processes: the same Evaluation as one process,
for every measure family, from a text run (blocks sent) and a Parquet dataset (files read by the workers); a worker
killed mid-run is replaced and its tasks retried, with the same result; without Dask, --dask says how to install it."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pyarrow.dataset as ds
import pytest
from distributed import Client, LocalCluster
from pyarrow.parquet import read_table

from metrics.__main__ import main
from metrics.distributed import evaluate_dask
from metrics.engine import evaluate
from metrics.leaderboard import evaluate_runs
from metrics.streaming import write_parquet
from tests.test_streaming import MEASURES, _large_run, assert_same


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
    ds.write_dataset(read_table(tmp_path / "dataset"), hive, format="parquet", partitioning=["query"],
                     partitioning_flavor="hive")
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


def test_leaderboard_on_dask_equals_one_process(tmp_path, client):
    run, qrels = _large_run(tmp_path, queries=20, docs=20)
    (tmp_path / "b").mkdir()
    other, _ = _large_run(tmp_path / "b", queries=20, docs=20, seed=9)
    runs = [("a", run), ("b", other)]
    local = evaluate_runs(runs, qrels, ["AP", "NDCG@10", "num_rel_ret"])
    on_dask = evaluate_runs(runs, qrels, ["AP", "NDCG@10", "num_rel_ret"], dask=client)
    for name in ("a", "b"):
        assert_same(local[name], on_dask[name])


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

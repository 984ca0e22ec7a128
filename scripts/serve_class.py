"""Serve a class from several app processes: N replicas of the app behind HAProxy, sharing one database.

Streamlit keeps a session (its state, its uploads) in the memory of the process serving it, so the balancer must keep a
browser on one replica: HAProxy pins each browser by a cookie it sets (``irml_replica``) on the first response; the
websocket, which carries the whole session, stays on the replica that accepted it. Polls and answers are in the shared
database (ir_metrics_lab.core.classroom.store), so a phone on one replica and the projector on another see the same
poll. HAProxy comes from Debian's package, installed here when it is missing (as scripts/test.sh installs Chromium and
PostgreSQL).

    .venv/bin/python -m scripts.serve_class --replicas 2 --port 8501 --address 0.0.0.0 \\
        --database-url postgresql+psycopg://user:pw@dbhost/irml

Without ``--database-url`` it starts a throwaway PostgreSQL (scripts/temporary_postgres.py) for a try-out. It prints
the balancer's address and runs until Ctrl-C, then stops the replicas and the balancer. ``serving()`` does the same
for the benchmark (bench/classroom/serve_class_phones.py) and the tests, on loopback ports.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scripts.temporary_postgres import temporary_postgres

REPO = Path(__file__).resolve().parents[1]
HEALTH_TIMEOUT_S = 60
HAPROXY = "haproxy"
ENV_URL = "IR_METRICS_LAB_DATABASE_URL"  # ir_metrics_lab.core.classroom.store reads it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_haproxy() -> str:
    """HAProxy's binary; Debian's package is installed first if it is missing."""
    found = shutil.which(HAPROXY) or (os.path.exists("/usr/sbin/haproxy") and "/usr/sbin/haproxy")
    if found:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True)
    subprocess.run(
        [*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "haproxy"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return shutil.which(HAPROXY) or "/usr/sbin/haproxy"


def haproxy_config(address: str, port: int, replicas: list[int], tls: Path | None = None) -> str:
    """Round robin for a new browser, then the replica its cookie names; websockets may stay open for hours. With
    ``tls`` (a PEM file: certificate and key) the phones speak HTTPS, and HTTP/2 where they can
    (docs/how-to/serve-a-class.md)."""
    bind = f"{address}:{port}" + (f" ssl crt {tls} alpn h2,http/1.1" if tls else "")
    servers = "\n".join(
        f"    server app{n} 127.0.0.1:{p} check cookie app{n} inter 2s" for n, p in enumerate(replicas, 1)
    )
    return f"""global
    maxconn 4000  # two file descriptors each: within a default limit of 20000 (or a few thousand phones)

defaults
    mode http
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    timeout tunnel 4h
    option http-server-close

frontend class
    bind {bind}
    default_backend replicas
    # Text gzipped on its way to the phones, at HAProxy's default level (1): the page itself, which Streamlit sends
    # uncompressed, and any of Streamlit's files a replica has not gzipped yet (the app gzips them itself once its
    # script has run, ir_metrics_lab/shell/compressed_static.py; HAProxy passes what comes compressed).
    compression algo gzip
    compression type text/html text/css text/javascript application/javascript application/json image/svg+xml

backend replicas
    balance roundrobin
    cookie irml_replica insert indirect nocache httponly
    option httpchk GET /_stcore/health
    # A dead replica's browsers: a refused connection goes to another replica at once, not after the health checks
    # (3 failures, 2 s apart) have marked it down.
    option redispatch
    retries 1
{servers}
"""


def wait_healthy(base: str, proc: subprocess.Popen, log: Path, cafile: Path | None = None) -> None:
    """Wait until ``base`` answers its health check (over HTTPS: trusting ``cafile``)."""
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    context = ssl.create_default_context(cafile=cafile) if cafile else None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with code {proc.returncode}:\n{log.read_text()[-3000:]}")
        health = f"{base}/_stcore/health"
        with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=2, context=context) as r:
            if r.status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"{base}/_stcore/health did not answer within {HEALTH_TIMEOUT_S} s")


def stop(proc: subprocess.Popen) -> None:
    """Terminate a started process and its children (each runs in its own process group)."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@dataclass(frozen=True)
class Served:
    base: str  # where browsers go: the balancer, or the one replica
    replicas: tuple[str, ...]  # each replica's own address
    app_pids: list[int]
    balancer_pid: int | None


@contextlib.contextmanager
def serving(
    replicas: int,
    database_url: str,
    *,
    balancer: bool = True,
    address: str = "127.0.0.1",
    port: int | None = None,
    logs: Path | None = None,
    tls: Path | None = None,
) -> Iterator[Served]:
    """``replicas`` app processes on loopback ports sharing ``database_url``, behind HAProxy on ``address:port``
    (when ``balancer``; with ``tls``, a PEM file of certificate and key, over HTTPS and HTTP/2); all stopped on
    exit."""
    started: list[subprocess.Popen] = []
    folder = Path(tempfile.mkdtemp(prefix="irml-serve-"))
    logs = logs or folder
    env = {**os.environ, ENV_URL: database_url}
    try:
        bases = []
        for n in range(1, replicas + 1):
            app_port = port if (replicas == 1 and not balancer and port) else free_port()
            log = logs / f"replica-{n}.log"
            command = [
                sys.executable, "-m", "streamlit", "run", "app.py",
                "--server.headless", "true",
                "--server.address", "127.0.0.1" if balancer else address,
                "--server.port", str(app_port),
                "--browser.gatherUsageStats", "false",
                "--server.fileWatcherType", "none",
            ]  # fmt: skip
            with open(log, "w") as out:
                app = subprocess.Popen(
                    command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                )
            started.append(app)
            bases.append(f"http://127.0.0.1:{app_port}")
        for base, proc in zip(bases, started, strict=True):
            wait_healthy(base, proc, logs / f"replica-{started.index(proc) + 1}.log")
        balancer_pid = None
        front = bases[0]
        if balancer:
            front_port = port or free_port()
            config = folder / "haproxy.cfg"
            config.write_text(haproxy_config(address, front_port, [int(b.rsplit(":", 1)[1]) for b in bases], tls))
            log = logs / "haproxy.log"
            with open(log, "w") as out:
                proxy = subprocess.Popen(
                    [ensure_haproxy(), "-db", "-f", str(config)], stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )  # fmt: skip
            started.append(proxy)
            scheme = "https" if tls else "http"
            front = f"{scheme}://{'127.0.0.1' if address in ('0.0.0.0', '::') else address}:{front_port}"
            wait_healthy(front, proxy, log, tls)
            balancer_pid = proxy.pid
        yield Served(front, tuple(bases), [p.pid for p in started[:replicas]], balancer_pid)
    finally:
        for proc in reversed(started):
            stop(proc)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--port", type=int, default=8501, help="the balancer's port")
    parser.add_argument("--address", default="127.0.0.1", help="the balancer's address (0.0.0.0 for phones on a LAN)")
    parser.add_argument("--database-url", help="a shared database (PostgreSQL); default: a throwaway one")
    args = parser.parse_args()
    if args.replicas < 1:
        parser.error("at least one replica")
    with contextlib.ExitStack() as stack:
        url = args.database_url
        if not url:
            url = stack.enter_context(temporary_postgres())
        served = stack.enter_context(serving(args.replicas, url, address=args.address, port=args.port))
        print(f"{args.replicas} replicas ({', '.join(served.replicas)}) behind {served.base}; Ctrl-C stops", flush=True)
        for stop_signal in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C or kill: the replicas and the balancer go too
            signal.signal(stop_signal, signal.default_int_handler)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return 0


if __name__ == "__main__":
    sys.exit(main())

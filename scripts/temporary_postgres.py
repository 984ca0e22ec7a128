"""A throwaway PostgreSQL server for the tests and the benchmark: Debian's postgresql binaries, a new cluster in a
temporary folder, listening only on a Unix socket in that folder (no TCP port), trust authentication (nobody else
can reach the socket: the folder is private to the user running the cluster). Stopped and deleted on exit.

PostgreSQL refuses to run as root; as root the cluster runs as the ``postgres`` system user (created by Debian's
package; scripts/test.sh installs it), otherwise as the current user.

    with temporary_postgres() as url:   # postgresql+psycopg://postgres@/irml?host=/tmp/...
        ...

Run as a script it starts a cluster, prints its URL and waits for Ctrl-C (handy for trying the app on PostgreSQL).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

DATABASE = "irml"


def postgres_bin() -> Path:
    """The newest installed /usr/lib/postgresql/<version>/bin with initdb."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not found:
        raise RuntimeError(
            "PostgreSQL's server binaries are missing (/usr/lib/postgresql/*/bin/initdb): "
            "`apt-get install postgresql` (scripts/test.sh does)"
        )
    return Path(found[-1]).parent


def _as_user(user: str | None, args: list[str], **kwargs) -> subprocess.CompletedProcess:
    command = ["runuser", "-u", user, "--", *args] if user else args
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


@contextlib.contextmanager
def temporary_postgres() -> Iterator[str]:
    bin_dir = postgres_bin()
    user = "postgres" if os.geteuid() == 0 else None
    role = user or pwd.getpwuid(os.geteuid()).pw_name
    root = Path(tempfile.mkdtemp(prefix="irml-pg-"))
    data, socket_dir = root / "data", root / "socket"
    socket_dir.mkdir()
    if user:
        record = pwd.getpwnam(user)
        for path in (root, socket_dir):
            os.chown(path, record.pw_uid, record.pw_gid)
    os.chmod(root, 0o700)
    os.chmod(socket_dir, 0o700)
    try:
        _as_user(
            user, [str(bin_dir / "initdb"), "-D", str(data), "-U", role, "--auth=trust", "-E", "UTF8", "--no-sync"]
        )
        options = f"-c listen_addresses='' -k {socket_dir} -c max_connections=200 -c fsync=on"
        _as_user(
            user, [str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]
        )
        # root (the test process) must reach the socket folder too: it owns nothing there, but may enter any folder
        _as_user(user, [str(bin_dir / "createdb"), "-h", str(socket_dir), "-U", role, DATABASE])
        yield f"postgresql+psycopg://{role}@/{DATABASE}?host={socket_dir}"
    finally:
        if (data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.CalledProcessError):
                _as_user(user, [str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"])
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    with temporary_postgres() as url:
        print(url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)

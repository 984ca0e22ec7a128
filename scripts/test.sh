#!/usr/bin/env bash
# Set up and run the whole test suite on a fresh machine: Debian's Chromium headless shell for the browser tests (and
# Chromium itself, which the benchmarks drive),
# Debian's PostgreSQL for the live-class store tests, Debian's HAProxy for the load-balancer test, Debian's Pango for
# the brief's PDF, a virtualenv with the package and its test extra, then pytest (doctests, golden, differential, app,
# browser).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
fi

# The live-class store's tests start a throwaway PostgreSQL cluster (scripts/temporary_postgres.py).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi

# The load-balancer test puts two app replicas behind HAProxy (scripts/serve_class.py).
if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi

# The brief's PDF (WeasyPrint, ir_metrics_lab/core/brief/html_page.py) draws its text with Pango.
if ! ls /usr/lib/*/libpangoft2-1.0.so.0 >/dev/null 2>&1; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 >/dev/null
fi

python3 -m venv .venv
# uv installs the test environment's ~120 packages in a fraction of pip's time (docs/performance.md, "The test
# command"). It compiles no bytecode at install: each module is compiled on its first import instead, and kept, so
# only what the tests import is compiled (this machine's environment may forbid writing it); compiling all of it at
# install (uv's --compile-bytecode) made a fresh clone's whole run slower.
.venv/bin/python -m pip install -q "uv>=0.13,<0.14"
.venv/bin/python -m uv pip install -q --python .venv/bin/python -e ".[test]"
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m ruff check .
.venv/bin/python -m ruff format --check --quiet .
# mypy (metrics/, [tool.mypy] in pyproject.toml) checks beside the tests, on the CPU the browser tests leave idle
# while they wait on the app and the browser; its verdict and output come after theirs.
mypy_out="$(mktemp)"
.venv/bin/python -m mypy >"$mypy_out" 2>&1 &
mypy_pid=$!
# One worker per core, at most 4: each browser-testing worker starts its own app server and Chromium. worksteal: a
# worker that runs out takes half of another's queue (with plain load scheduling the browser tests, collected first,
# all landed on one worker while the other finished early and sat idle).
status=0
.venv/bin/python -m pytest --numprocesses=auto --maxprocesses=4 --dist=worksteal "$@" || status=$?
mypy_status=0
wait "$mypy_pid" || mypy_status=$?
cat "$mypy_out"
rm -f "$mypy_out"
if [ "$mypy_status" -ne 0 ]; then
  echo "mypy found errors (above)" >&2
  [ "$status" -eq 0 ] && status=$mypy_status
fi
exit "$status"

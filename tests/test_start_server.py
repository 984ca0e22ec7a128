"""The browser tests' server starter (tests/browser/conftest.py): a free port taken by another process before the
server binds it (an outgoing connection's local port, another suite's server) costs a new port, not a failed test."""

from __future__ import annotations

import socket
import sys

from tests.browser import conftest

# Binds the port it is given, or exits 1 as a server does when its port is taken; then answers every GET with 200.
SERVER = """
import http.server, sys
class Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers()
    def log_message(self, *args):
        pass
try:
    server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Ok)
except OSError:
    sys.exit(1)
server.serve_forever()
"""


def command(port: int) -> list[str]:
    return [sys.executable, "-c", SERVER, str(port)]


def test_a_free_port_taken_before_the_server_binds_it_is_replaced(monkeypatch, tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        ports = iter([taken])
        free = conftest.free_port
        monkeypatch.setattr(conftest, "free_port", lambda: next(ports, None) or free())
        proc, base = conftest.start_server(tmp_path / "server.log", command=command, cwd=tmp_path)
        try:
            assert base.startswith("http://127.0.0.1:") and base != f"http://127.0.0.1:{taken}"
        finally:
            conftest.stop_server(proc)

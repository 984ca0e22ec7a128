"""Streamlit's frontend files sent gzipped (ir_metrics_lab.shell.compressed_static): what is gzipped, with which
headers, and what is left to Streamlit. On a real server: tests/test_streamlit_internals.py (the hook) and
tests/browser/test_light_phone_browser.py (a phone's first visit)."""

from __future__ import annotations

import asyncio
import gzip
from concurrent.futures import ThreadPoolExecutor

import pytest

from ir_metrics_lab.shell.compressed_static import GzipFiles

SCRIPT = b"export const answer = 42;\n" * 200
CACHE = "public, immutable, max-age=60"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "media").mkdir()
    (tmp_path / "js" / "index.abc.js").write_bytes(SCRIPT)
    (tmp_path / "media" / "icons.woff2").write_bytes(b"wOF2" + bytes(300))
    (tmp_path.parent / "secret.js").write_bytes(b"not served")
    return GzipFiles(tmp_path, CACHE)


def request(files, path, method="GET", **headers):
    """What ``files.respond`` answers: (True, the messages sent) or (False, [])."""
    sent = []

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
    }
    # In a thread of its own: a worker that has run a browser test keeps Playwright's event loop running in its main
    # thread, where asyncio.run refuses to start.
    with ThreadPoolExecutor(1) as apart:
        return apart.submit(asyncio.run, files.respond(path, scope, send)).result(), sent


def test_a_script_goes_out_gzipped_once_with_its_headers(files):
    answered, sent = request(files, "/static/js/index.abc.js", accept_encoding="gzip, deflate")
    assert answered
    start, body = sent
    assert start["status"] == 200
    headers = dict(start["headers"])
    assert gzip.decompress(body["body"]) == SCRIPT
    assert len(body["body"]) < len(SCRIPT) / 10
    assert headers == {
        b"content-type": b"text/javascript; charset=utf-8",
        b"content-encoding": b"gzip",
        b"content-length": str(len(body["body"])).encode(),
        b"vary": b"Accept-Encoding",
        b"cache-control": CACHE.encode(),
    }
    again = request(files, "/static/js/index.abc.js", accept_encoding="gzip")[1][1]["body"]
    assert again is body["body"]  # compressed once, kept


def test_head_sends_the_headers_and_no_body(files):
    answered, (start, body) = request(files, "/static/js/index.abc.js", "HEAD", accept_encoding="gzip")
    assert answered and body["body"] == b""
    assert dict(start["headers"])[b"content-length"] == str(len(files.gzipped("/static/js/index.abc.js"))).encode()


@pytest.mark.parametrize(
    ("path", "method", "headers"),
    [
        ("/static/media/icons.woff2", "GET", {"accept_encoding": "gzip"}),  # already compressed
        ("/static/js/index.abc.js", "GET", {}),  # a client that does not accept gzip
        ("/static/js/index.abc.js", "GET", {"accept_encoding": "br, gzip;q=0"}),
        ("/static/js/index.abc.js", "GET", {"accept_encoding": "gzip", "range": "bytes=0-9"}),
        ("/static/js/index.abc.js", "POST", {"accept_encoding": "gzip"}),
        ("/static/js/missing.js", "GET", {"accept_encoding": "gzip"}),
        ("/static/../secret.js", "GET", {"accept_encoding": "gzip"}),  # only the files listed at start
        ("/js/index.abc.js", "GET", {"accept_encoding": "gzip"}),
    ],
)
def test_what_is_left_to_streamlit(files, path, method, headers):
    assert request(files, path, method, **headers) == (False, [])

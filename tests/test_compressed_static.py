"""Streamlit's frontend files sent compressed (ir_metrics_lab.shell.compressed_static): brotli or gzip as the browser
weighs them, with which headers, and what is left to Streamlit; the phone page's HTML. On a real server:
tests/test_streamlit_internals.py (the hook) and tests/browser/test_light_phone_browser.py (a phone's first visit)."""

from __future__ import annotations

import asyncio
import gzip
from concurrent.futures import ThreadPoolExecutor

import brotli
import pytest

from ir_metrics_lab.shell import compressed_static
from ir_metrics_lab.shell.compressed_static import CompressedFiles, chosen_encoding

SCRIPT = b"export const answer = 42;\n" * 200
upgrades: list = []  # the brotli upgrades asked for, run by the test
CACHE = "public, immutable, max-age=60"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "media").mkdir()
    (tmp_path / "js" / "index.abc.js").write_bytes(SCRIPT)
    (tmp_path / "media" / "icons.woff2").write_bytes(b"wOF2" + bytes(300))
    (tmp_path.parent / "secret.js").write_bytes(b"not served")
    upgrades.clear()
    return CompressedFiles(tmp_path, CACHE, upgrades.append)


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
        return apart.submit(asyncio.run, files.respond(path, scope, None, send)).result(), sent


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
    assert (
        dict(start["headers"])[b"content-length"] == str(len(files.encoded("/static/js/index.abc.js", "gzip"))).encode()
    )


@pytest.mark.parametrize(
    ("path", "method", "headers"),
    [
        ("/static/media/icons.woff2", "GET", {"accept_encoding": "gzip"}),  # already compressed
        ("/static/js/index.abc.js", "GET", {}),  # a client that does not accept gzip
        ("/static/js/index.abc.js", "GET", {"accept_encoding": "deflate, zstd, gzip;q=0"}),
        ("/static/js/index.abc.js", "GET", {"accept_encoding": "br;q=0, gzip;q=0, *"}),
        ("/static/js/index.abc.js", "GET", {"accept_encoding": "gzip", "range": "bytes=0-9"}),
        ("/static/js/index.abc.js", "POST", {"accept_encoding": "gzip"}),
        ("/static/js/missing.js", "GET", {"accept_encoding": "gzip"}),
        ("/static/../secret.js", "GET", {"accept_encoding": "gzip"}),  # only the files listed at start
        ("/js/index.abc.js", "GET", {"accept_encoding": "gzip"}),
    ],
)
def test_what_is_left_to_streamlit(files, path, method, headers):
    assert request(files, path, method, **headers) == (False, [])


def test_a_browser_that_accepts_brotli_gets_it_then_its_best_level(files, monkeypatch):
    monkeypatch.setattr(compressed_static, "BROTLI_FIRST", 1)  # so the upgrade makes a visible difference
    answered, (start, body) = request(files, "/static/js/index.abc.js", accept_encoding="gzip, deflate, br, zstd")
    assert answered
    headers = dict(start["headers"])
    assert headers[b"content-encoding"] == b"br"
    assert headers[b"vary"] == b"Accept-Encoding"
    assert brotli.decompress(body["body"]) == SCRIPT
    assert upgrades, "no upgrade to the best level asked for"
    for upgrade in upgrades:
        upgrade()
    best = request(files, "/static/js/index.abc.js", accept_encoding="br")[1][1]["body"]
    assert brotli.decompress(best) == SCRIPT
    assert best == brotli.compress(SCRIPT, quality=11)
    assert len(best) < len(body["body"])


def _served_brotli(root, kept, asked: list) -> bytes:
    """A new process's first brotli answer for the script under ``root``, keeping best levels in ``kept``."""
    files = CompressedFiles(root, CACHE, asked.append, best=kept)
    return request(files, "/static/js/index.abc.js", accept_encoding="br")[1][1]["body"]


@pytest.fixture
def static_root(tmp_path, monkeypatch):
    monkeypatch.setattr(compressed_static, "BROTLI_FIRST", 1)  # so the first level and the best differ
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "index.abc.js").write_bytes(SCRIPT)
    return tmp_path / "static"


def test_the_best_level_is_kept_on_disk_and_served_by_the_next_process_at_once(static_root, tmp_path):
    kept = compressed_static.BestCompressed(tmp_path / "cache")
    asked: list = []
    assert _served_brotli(static_root, kept, asked) == brotli.compress(SCRIPT, quality=1)
    for upgrade in asked:
        upgrade()
    asked_next: list = []
    assert _served_brotli(static_root, kept, asked_next) == brotli.compress(SCRIPT, quality=11)
    assert asked_next == [], "the next process compressed the file again"
    assert [p.suffix for p in (tmp_path / "cache").rglob("*") if p.is_file()] == [".br"]  # no part left behind


def test_a_kept_file_that_is_not_the_files_bytes_is_not_served(static_root, tmp_path):
    kept = compressed_static.BestCompressed(tmp_path / "cache")
    asked: list = []
    _served_brotli(static_root, kept, asked)
    for upgrade in asked:
        upgrade()
    (kept_file,) = (tmp_path / "cache").rglob("*.br")
    kept_file.write_bytes(brotli.compress(b"alert('not the file');"))  # damaged, or another file's
    asked_next: list = []
    assert _served_brotli(static_root, kept, asked_next) == brotli.compress(SCRIPT, quality=1)
    kept_file.write_bytes(kept_file.read_bytes()[:5])  # cut short: not even brotli
    assert _served_brotli(static_root, kept, []) == brotli.compress(SCRIPT, quality=1)
    for upgrade in asked_next:
        upgrade()
    assert brotli.decompress(kept_file.read_bytes()) == SCRIPT  # made again


def test_a_folder_that_cannot_be_written_only_costs_the_compression(static_root, tmp_path):
    (tmp_path / "not-a-folder").write_text("a file where the folder would be")
    kept = compressed_static.BestCompressed(tmp_path / "not-a-folder")
    asked: list = []
    _served_brotli(static_root, kept, asked)
    for upgrade in asked:
        upgrade()
    assert _served_brotli(static_root, kept, []) == brotli.compress(SCRIPT, quality=1)


def test_the_cache_folder_is_the_configured_one_else_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(compressed_static.ENV_CACHE_DIR, str(tmp_path / "chosen"))
    assert compressed_static.cache_dir() == tmp_path / "chosen"
    monkeypatch.delenv(compressed_static.ENV_CACHE_DIR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert compressed_static.cache_dir() == tmp_path / "xdg" / "ir-metrics-lab"


@pytest.mark.parametrize(
    ("accept_encoding", "coding"),
    [
        ("gzip, deflate, br, zstd", "br"),  # Chromium's, over HTTP and HTTPS
        ("gzip, deflate", "gzip"),
        ("br;q=0.5, gzip;q=0.8", "gzip"),  # the browser's weights decide
        ("gzip;q=0.5, br;q=0.8", "br"),
        ("gzip;q=1.0, br;q=1", "br"),  # a tie: the smaller
        ("GZIP; Q=0.3", "gzip"),  # names and parameters are case-insensitive
        ("br;q=0, gzip", "gzip"),  # q=0 forbids
        ("br;q=0.000, gzip;q=0.001", "gzip"),
        ("br;q=0, gzip;q=0", None),
        ("*;q=0.1, gzip;q=0", "br"),  # "*": every coding not named
        ("identity", None),
        ("", None),
        ("br;q=abc, gzip;q=0.2", "gzip"),  # an unreadable weight counts as 0
        ("br;q=2", None),  # so does one out of 0..1
    ],
)
def test_the_coding_follows_the_browsers_weights(accept_encoding, coding):
    assert chosen_encoding(accept_encoding) == coding


# --- the phone page ------------------------------------------------------------------------------------------------

PAGE = "<html><head><title>Streamlit</title></head><body><div id=root></div></body></html>"


@pytest.fixture
def phone_page():
    return compressed_static.PhonePage(PAGE, compressed_static.phone_head("Icons"))


@pytest.mark.parametrize(
    ("accept_encoding", "coding", "decode"),
    [("gzip, deflate, br, zstd", b"br", brotli.decompress), ("gzip, deflate", b"gzip", gzip.decompress)],
)
def test_the_phone_page_is_streamlits_with_the_apps_script_compressed(phone_page, accept_encoding, coding, decode):
    answered, (start, body) = request(phone_page, "/join", accept_encoding=accept_encoding)
    assert answered and start["status"] == 200
    headers = dict(start["headers"])
    assert headers[b"content-encoding"] == coding
    assert headers[b"cache-control"] == b"no-cache" and headers[b"vary"] == b"Accept-Encoding"
    assert headers[b"content-type"] == b"text/html; charset=utf-8"
    html = decode(body["body"]).decode()
    assert html == PAGE.replace("</head>", compressed_static.phone_head("Icons") + "</head>")
    assert html.index('font.includes("Icons")') < html.index("</head>")


def test_the_phone_page_goes_out_plain_to_a_client_that_accepts_no_coding(phone_page):
    answered, (start, body) = request(phone_page, "/join")
    assert answered and b"content-encoding" not in dict(start["headers"])
    assert "BACKEND_BASE_URL" in body["body"].decode()


@pytest.mark.parametrize(
    ("path", "method", "headers"),
    [
        ("/", "GET", {"accept_encoding": "gzip"}),
        ("/ask-the-class", "GET", {"accept_encoding": "gzip"}),
        ("/join/_stcore/health", "GET", {"accept_encoding": "gzip"}),
        ("/joint", "GET", {"accept_encoding": "gzip"}),
        ("/join", "POST", {"accept_encoding": "gzip"}),
        ("/join", "GET", {"accept_encoding": "gzip", "range": "bytes=0-9"}),
    ],
)
def test_every_other_request_is_left_to_streamlit_by_the_phone_page(phone_page, path, method, headers):
    assert request(phone_page, path, method, **headers) == (False, [])

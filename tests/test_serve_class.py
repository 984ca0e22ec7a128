"""scripts/serve_class.py's HAProxy in front of one replica (SQLite store): the text it passes on to the phones goes
gzipped, whether or not the replica gzipped it (ir_metrics_lab/shell/compressed_static.py gzips Streamlit's files
once the app's script has run; Streamlit sends the page itself uncompressed)."""

from __future__ import annotations

import gzip
import re
import urllib.request

from ir_metrics_lab.core.classroom.store import default_sqlite_url, dispose_engine
from scripts.serve_class import serving

WAIT_S = 60  # a loaded 2-core box


def get(url: str, accept_encoding: str | None = None) -> tuple[dict[str, str], bytes]:
    headers = {"Accept-Encoding": accept_encoding} if accept_encoding else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=WAIT_S) as response:
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


def test_haproxy_gzips_the_page_and_the_files_a_replica_sends_plain(tmp_path):
    (tmp_path / "store").mkdir()
    url = default_sqlite_url(tmp_path / "store")
    try:
        with serving(1, url, logs=tmp_path) as served:
            replica = served.replicas[0]
            direct_page = get(f"{replica}/join")[1]
            main_js = re.search(rb'src="\./(static/js/index\.[\w-]+\.js)"', direct_page).group(1).decode()
            direct_headers, direct_js = get(f"{replica}/{main_js}", "gzip")  # no script run yet: not gzipped
            page_headers, page = get(f"{served.base}/", "gzip, deflate")
            js_headers, js = get(f"{served.base}/{main_js}", "gzip, deflate")
            plain_headers, plain_js = get(f"{served.base}/{main_js}")
    finally:
        dispose_engine(url)
    assert "content-encoding" not in direct_headers
    assert page_headers.get("content-encoding") == "gzip" and gzip.decompress(page) == direct_page
    assert js_headers.get("content-encoding") == "gzip" and gzip.decompress(js) == direct_js
    assert "content-encoding" not in plain_headers and plain_js == direct_js

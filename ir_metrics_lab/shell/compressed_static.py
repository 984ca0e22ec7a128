"""Streamlit's frontend files (its JavaScript and CSS under /static/) sent gzipped: 3.1 MB for a phone's first visit
to /join as Streamlit sends them, a third of that gzipped (docs/performance.md, A phone's first visit).

Streamlit 1.67 serves them uncompressed on purpose (its SelectiveGZipMiddleware skips /static/): its gzip would
compress each file again for every browser. Here each file is compressed once per process, on its first request
(in a worker thread, off the server's event loop), and kept in memory: the files are content-hashed and immutable, so
the same bytes serve every phone at the cost of a copy. A browser that does not accept gzip, a range request and
every other path get Streamlit's own answer. A reverse proxy in front (docs/how-to/serve-a-class.md) sees the
Content-Encoding and passes the bytes through.

``install`` hooks it into Streamlit's server (ir_metrics_lab.shell.streamlit_internals.serve_static_first): the
``ir-metrics-lab`` command before the server starts, app.py on each run (for ``streamlit run app.py``, whose first
page load, before the script's first run, goes out uncompressed).
"""

from __future__ import annotations

import asyncio
import gzip
import mimetypes
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from ir_metrics_lab.shell import streamlit_internals

# Formats that are already compressed (fonts as woff2, images) gain nothing and are left to Streamlit.
COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt", ".html", ".ttf", ".otf", ".wasm"})
LEVEL = 9  # once per file and process, so the smallest output is worth the CPU (protobuf.js: about 60 ms)
PREFIX = "/static/"

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header allows gzip (``q=0`` forbids it).

    >>> accepts_gzip("gzip, deflate"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip("*"), accepts_gzip("")
    (True, False, True, False)
    """
    for part in accept_encoding.split(","):
        name, *params = (p.strip() for p in part.split(";"))
        if name.lower() in ("gzip", "*"):
            return not any(p.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000") for p in params)
    return False


class GzipFiles:
    """The compressible files under ``root``, by URL path (``/static/js/x.js``), gzipped on first use."""

    def __init__(self, root: Path, cache_control: str):
        # Only the files present at start can be served: a request's path is looked up, never joined to a folder.
        self._paths = {
            PREFIX + p.relative_to(root).as_posix(): p
            for p in root.rglob("*")
            if p.suffix in COMPRESSIBLE and p.is_file()
        }
        self._cache_control = cache_control
        self._gzipped: dict[str, bytes] = {}

    def __contains__(self, path: str) -> bool:
        return path in self._paths

    def gzipped(self, path: str) -> bytes:
        """The gzipped bytes of the file at URL ``path`` (compressed now if not yet)."""
        if path not in self._gzipped:
            self._gzipped[path] = gzip.compress(self._paths[path].read_bytes(), LEVEL, mtime=0)
        return self._gzipped[path]

    async def respond(self, path: str, scope: MutableMapping[str, Any], send: Send) -> bool:
        """Send the gzipped file for this GET or HEAD request and return True, or return False (nothing sent)."""
        if path not in self._paths or scope.get("method") not in ("GET", "HEAD"):
            return False
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        if "range" in headers or not accepts_gzip(headers.get("accept-encoding", "")):
            return False
        body = self._gzipped.get(path) or await asyncio.to_thread(self.gzipped, path)
        media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
        if media_type.startswith("text/"):  # as Starlette says it for the same file
            media_type += "; charset=utf-8"
        response_headers = [
            (b"content-type", media_type.encode()),
            (b"content-encoding", b"gzip"),
            (b"content-length", str(len(body)).encode()),
            (b"vary", b"Accept-Encoding"),
            (b"cache-control", self._cache_control.encode()),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": response_headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
        return True


def install() -> None:
    """Serve Streamlit's frontend files gzipped from now on, in this process (again: nothing more happens)."""
    try:
        if streamlit_internals.static_first_installed():
            return
        files = GzipFiles(*streamlit_internals.frontend_static())
        streamlit_internals.serve_static_first(files.respond)
    except streamlit_internals.MissingHook as missing:
        streamlit_internals.warn_once(missing, "Streamlit's frontend files go out uncompressed")

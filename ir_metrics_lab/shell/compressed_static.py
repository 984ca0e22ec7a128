"""Streamlit's frontend files (its JavaScript and CSS under /static/) sent compressed, with brotli to a browser that
accepts it (every current one, over HTTP too), else gzip: 3.1 MB for a phone's first visit to /join as Streamlit
sends them, a third of that gzipped (docs/performance.md, A phone's first visit).

Streamlit 1.67 serves them uncompressed on purpose (its SelectiveGZipMiddleware skips /static/): its gzip would
compress each file again for every browser. Here each file is compressed once per process, on its first request
(in a worker thread, off the server's event loop), and kept in memory: the files are content-hashed and immutable, so
the same bytes serve every phone at the cost of a copy. Brotli's best level costs seconds of a core per large file
(Plotly's chunk: about 12 s), so what it makes is also kept on disk (``BestCompressed``): a restarted server or a
second replica serves it from the first request. A browser that accepts neither coding, a range request and
every other path get Streamlit's own answer. A reverse proxy in front (docs/how-to/serve-a-class.md) sees the
Content-Encoding and passes the bytes through.

The page phones open, /join (``PHONE_PAGE``), is Streamlit's page with a script of the app's (``phone_head``), sent
compressed too: it skips the frontend's preload of its icon font, which that page never draws (app.py), and tells
the frontend where the server is, sparing a round trip (docs/performance.md, A phone's first visit).

``install`` hooks it into Streamlit's server (ir_metrics_lab.shell.streamlit_internals.serve_http_first): the
``ir-metrics-lab`` command before the server starts, app.py on each run (for ``streamlit run app.py``, whose first
page load, before the script's first run, goes out uncompressed).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import mimetypes
import os
import queue
import tempfile
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import brotli

from ir_metrics_lab.shell import streamlit_internals

# Formats that are already compressed (fonts as woff2, images) gain nothing and are left to Streamlit.
COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt", ".html", ".ttf", ".otf", ".wasm"})
GZIP_LEVEL = 9  # once per file and process, so the smallest output is worth the CPU (protobuf.js: about 60 ms)
BROTLI_FIRST = 5  # about gzip's time, 13 % smaller (protobuf.js: 87 kB, gzip 100 kB)
BROTLI_BEST = 11
ENCODINGS = ("br", "gzip")  # the preferred first
PREFIX = "/static/"
PHONE_PAGE = "join"  # the url path of the page phones open (app.py: Join a class)
HOOK_NAME = "compressed static"

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def _weights(accept_encoding: str) -> dict[str, float]:
    """Each coding an Accept-Encoding header names, by its q-value (1 when none is given, 0 when unreadable)."""
    weights: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, *params = (p.strip() for p in part.split(";"))
        if not name:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.replace(" ", "").partition("=")
            if key.lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[name.lower()] = q if 0.0 <= q <= 1.0 else 0.0
    return weights


def chosen_encoding(accept_encoding: str) -> str | None:
    """The coding to send a browser that sent this Accept-Encoding: ``br`` or ``gzip``, whichever it weighs more
    (``br`` on a tie: smaller), None if it accepts neither (``q=0`` forbids a coding; ``*`` stands for those it does
    not name).

    >>> [chosen_encoding(h) for h in ("gzip, deflate, br, zstd", "gzip, deflate", "br;q=0.5, gzip", "*", "")]
    ['br', 'gzip', 'gzip', 'br', None]
    >>> [chosen_encoding(h) for h in ("br;q=1, gzip;q=0", "gzip;q=0, *", "br;q=0, gzip;q=0.0", "identity")]
    ['br', 'br', None, None]
    """
    weights = _weights(accept_encoding)
    anything = weights.get("*", 0.0)
    best = max(ENCODINGS, key=lambda coding: weights.get(coding, anything))  # ENCODINGS lists br first: ties go to it
    return best if weights.get(best, anything) > 0 else None


ENV_CACHE_DIR = "IR_METRICS_LAB_CACHE_DIR"


def cache_dir() -> Path:
    """Where the app keeps what it can make again: ``$IR_METRICS_LAB_CACHE_DIR``, else ``$XDG_CACHE_HOME`` or
    ~/.cache, under ir-metrics-lab."""
    configured = os.environ.get(ENV_CACHE_DIR)
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ir-metrics-lab"


class BestCompressed:
    """Files compressed at ``BROTLI_BEST``, kept in ``folder`` by the SHA-256 of their bytes, for every process on the
    machine: the frontend's files are the same for every server of one Streamlit release. A file is written whole
    under a temporary name and renamed, so a reader never sees half of one; one that does not decompress to the
    bytes it was made from is not served. A folder that cannot be read or written only costs the compression."""

    def __init__(self, folder: Path):
        self._folder = folder / f"brotli-{BROTLI_BEST}"

    def get(self, digest: str, data: bytes) -> bytes | None:
        """The best-level bytes of ``data`` (whose SHA-256 is ``digest``) kept here, or None."""
        try:
            compressed = (self._folder / f"{digest}.br").read_bytes()
            return compressed if brotli.decompress(compressed) == data else None
        except (OSError, brotli.error):
            return None

    def put(self, digest: str, compressed: bytes) -> None:
        part = None
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self._folder, suffix=".part", delete=False) as handle:
                part = Path(handle.name)
                handle.write(compressed)
            os.replace(part, self._folder / f"{digest}.br")
        except OSError:
            if part is not None:
                part.unlink(missing_ok=True)


class CompressedFiles:
    """The compressible files under ``root``, by URL path (``/static/js/x.js``), compressed on first use.

    Brotli at its best level takes seconds for the largest file (protobuf.js: 2 to 5 s, 18 % smaller than at
    ``BROTLI_FIRST``), too long for a phone to wait: the first request gets the file at ``BROTLI_FIRST`` (as fast as
    gzip) and ``upgrade(work)`` recompresses it at ``BROTLI_BEST`` apart (a daemon thread; the tests run it at once),
    keeping the result in ``best`` if given, where the next process finds it.
    """

    def __init__(
        self,
        root: Path,
        cache_control: str,
        upgrade: Callable[[Callable[[], None]], None] | None = None,
        best: BestCompressed | None = None,
    ):
        # Only the files present at start can be served: a request's path is looked up, never joined to a folder.
        self._paths = {
            PREFIX + p.relative_to(root).as_posix(): p
            for p in root.rglob("*")
            if p.suffix in COMPRESSIBLE and p.is_file()
        }
        self._cache_control = cache_control
        self._encoded: dict[tuple[str, str], bytes] = {}
        self._upgrade = upgrade or _in_background
        self._best = best

    def __contains__(self, path: str) -> bool:
        return path in self._paths

    def encoded(self, path: str, coding: str) -> bytes:
        """The file at URL ``path`` compressed with ``coding`` (``br`` or ``gzip``), compressed now if not yet."""
        key = (path, coding)
        if key not in self._encoded:
            data = self._paths[path].read_bytes()
            if coding == "gzip":
                self._encoded[key] = gzip.compress(data, GZIP_LEVEL, mtime=0)
            else:
                digest = hashlib.sha256(data).hexdigest()
                kept = self._best.get(digest, data) if self._best else None
                if kept is not None:
                    self._encoded[key] = kept
                    return kept
                self._encoded[key] = brotli.compress(data, quality=BROTLI_FIRST)

                def best() -> None:
                    compressed = brotli.compress(data, quality=BROTLI_BEST)
                    self._encoded[key] = compressed
                    if self._best:
                        self._best.put(digest, compressed)

                self._upgrade(best)
        return self._encoded[key]

    async def respond(self, path: str, scope: MutableMapping[str, Any], _receive: Any, send: Send) -> bool:
        """Send the compressed file for this GET or HEAD request and return True, or return False (nothing sent)."""
        if path not in self._paths or scope.get("method") not in ("GET", "HEAD"):
            return False
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        coding = chosen_encoding(headers.get("accept-encoding", ""))
        if "range" in headers or coding is None:
            return False
        body = self._encoded.get((path, coding)) or await asyncio.to_thread(self.encoded, path, coding)
        media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
        if media_type.startswith("text/"):  # as Starlette says it for the same file
            media_type += "; charset=utf-8"
        response_headers = [
            (b"content-type", media_type.encode()),
            (b"content-encoding", coding.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"vary", b"Accept-Encoding"),
            (b"cache-control", self._cache_control.encode()),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": response_headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
        return True


# The script the phone page runs before Streamlit's frontend (a classic script runs before a module one).
_PHONE_SCRIPT = """<script>
(() => {{
  // Streamlit's frontend preloads its icon font (375 kB) on every page; this one draws no icon (app.py). An icon drawn
  // later still fetches it, as the browser does for any font in use.
  const fonts = document.fonts, load = fonts.load.bind(fonts);
  fonts.load = (font, text) => font.includes({family}) ? Promise.resolve([]) : load(font, text);
  // The server's root, which the frontend otherwise looks for under the page's address first (/join/_stcore/health,
  // a 404): a round trip less. The phone page is the root's "join".
  window.__streamlit = {{ ...window.__streamlit, BACKEND_BASE_URL: new URL("./", location.href).href }};
}})();
</script>
"""


class PhonePage:
    """The HTML of the page phones open (``/PHONE_PAGE``): Streamlit's page with ``head`` added at the end of its
    ``<head>``, compressed once per coding. Every other address gets Streamlit's own answer."""

    def __init__(self, page: str, head: str):
        html = page.replace("</head>", head + "</head>", 1).encode()
        self.bodies = {
            "br": brotli.compress(html, quality=BROTLI_BEST),
            "gzip": gzip.compress(html, GZIP_LEVEL, mtime=0),
        }
        self.bodies[""] = html

    async def respond(self, path: str, scope: MutableMapping[str, Any], _receive: Any, send: Send) -> bool:
        """Send the phone page for this GET or HEAD request and return True, or return False (nothing sent)."""
        if path != "/" + PHONE_PAGE or scope.get("method") not in ("GET", "HEAD"):
            return False
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        if "range" in headers:
            return False
        coding = chosen_encoding(headers.get("accept-encoding", "")) or ""
        body = self.bodies[coding]
        response_headers = [
            (b"content-type", b"text/html; charset=utf-8"),
            *([(b"content-encoding", coding.encode())] if coding else []),
            (b"content-length", str(len(body)).encode()),
            (b"vary", b"Accept-Encoding"),
            (b"cache-control", b"no-cache"),  # as Streamlit sends its page: the chunks' names change with a release
        ]
        await send({"type": "http.response.start", "status": 200, "headers": response_headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
        return True


def phone_head(icon_font: str) -> str:
    """What the phone page adds to the end of Streamlit's ``<head>``: its script, for this icon font's family.

    >>> print(phone_head("Icons"))  # doctest: +ELLIPSIS
    <script>
    ...font.includes("Icons") ? Promise.resolve([]) : load(font, text);
    ...BACKEND_BASE_URL: new URL("./", location.href).href };
    })();
    </script>
    <BLANKLINE>
    """
    return _PHONE_SCRIPT.format(family=json.dumps(icon_font))


_upgrades: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
_upgrader_lock = threading.Lock()
_upgrader: list[threading.Thread] = []


def _in_background(work: Callable[[], None]) -> None:
    """Run ``work`` in the one upgrader thread, after what is queued: a daemon, so a stopping server does not wait
    for it, and one thread, so it takes at most one core from the phones."""
    _upgrades.put(work)
    with _upgrader_lock:
        if not _upgrader:
            _upgrader.append(threading.Thread(target=_upgrade_forever, name="brotli-upgrade", daemon=True))
            _upgrader[0].start()


def _upgrade_forever() -> None:
    while True:
        _upgrades.get()()


def install() -> None:
    """Serve Streamlit's frontend files compressed from now on, in this process, and the phone page with its
    preloads (again: nothing more happens)."""
    try:
        if streamlit_internals.http_first_installed(HOOK_NAME):
            return
        files = CompressedFiles(*streamlit_internals.frontend_static(), best=BestCompressed(cache_dir()))
    except streamlit_internals.MissingHook as missing:
        streamlit_internals.warn_once(missing, "Streamlit's frontend files go out uncompressed")
        return
    try:
        page = PhonePage(streamlit_internals.frontend_page(), phone_head(streamlit_internals.ICON_FONT))
    except streamlit_internals.MissingHook as missing:
        streamlit_internals.warn_once(missing, "the phone page fetches the icon font and probes for the server")
        respond = files.respond
    else:

        async def respond(path: str, scope: MutableMapping[str, Any], receive: Any, send: Send) -> bool:
            return await page.respond(path, scope, receive, send) or await files.respond(path, scope, receive, send)

    try:
        streamlit_internals.serve_http_first(HOOK_NAME, respond)
    except streamlit_internals.MissingHook as missing:
        streamlit_internals.warn_once(missing, "Streamlit's frontend files go out uncompressed")

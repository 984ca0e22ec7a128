"""A phone on a slow network, through the DevTools protocol: Chromium's own throttling (CDP
``Network.emulateNetworkConditions``) and the bytes on the wire (``encodedDataLength`` of each
``Network.loadingFinished``: headers and body as received, compressed or not). Used by
tests/browser/test_light_phone_browser.py and bench/app/phone_first_visit.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.browser.conftest import PHONE

# Chrome DevTools' "Fast 3G" preset: 1.6 Mbit/s down and 750 kbit/s up, each times 0.9 (bytes per second here), and
# 150 ms times 3.75 of latency added to each request.
FAST_3G = {
    "offline": False,
    "latency": 150 * 3.75,
    "downloadThroughput": 1.6e6 / 8 * 0.9,
    "uploadThroughput": 750e3 / 8 * 0.9,
}
PHONE_VIEWPORT = {"width": 390, "height": 844}


@dataclass
class Wire:
    """What came over the network since ``listen``: URL, bytes and content encoding of each finished request."""

    urls: dict[str, str] = field(default_factory=dict)
    encodings: dict[str, str] = field(default_factory=dict)
    received: dict[str, int] = field(default_factory=dict)

    def total(self) -> int:
        return sum(self.received.values())

    def rows(self) -> list[tuple[int, str, str]]:
        """(bytes, content encoding, URL) of each finished request, largest first."""
        rows = [(n, self.encodings.get(rid, ""), self.urls.get(rid, "?")) for rid, n in self.received.items()]
        return sorted(rows, reverse=True)


def phone_page(browser, throttle: dict | None = FAST_3G, accept_encoding: str | None = None, trust_any: bool = False):
    """A new phone (its own context: no cache, no cookies) and a Wire counting what it receives. ``accept_encoding``
    replaces the browser's header: Chromium offers brotli to HTTPS and localhost only, and a phone reaching a
    laptop's http://192.168.x.y gets ``gzip, deflate``. ``trust_any``: any certificate is taken (a benchmark's own,
    self-signed)."""
    headers = {"Accept-Encoding": accept_encoding} if accept_encoding else {}
    context = browser.new_context(
        viewport=PHONE_VIEWPORT,
        device_scale_factor=3,
        extra_http_headers=headers,
        ignore_https_errors=trust_any,
        **PHONE,
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    wire = Wire()
    cdp.on("Network.requestWillBeSent", lambda e: wire.urls.__setitem__(e["requestId"], e["request"]["url"]))
    cdp.on(
        "Network.responseReceived",
        lambda e: wire.encodings.__setitem__(
            e["requestId"], {k.lower(): v for k, v in e["response"]["headers"].items()}.get("content-encoding", "")
        ),
    )
    cdp.on("Network.loadingFinished", lambda e: wire.received.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.send("Network.enable")
    if throttle:
        cdp.send("Network.emulateNetworkConditions", throttle)
    return page, wire

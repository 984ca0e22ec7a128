"""A phone's first visit to Join a class on a slow network: how long until the Join button, then the answer buttons,
and how many bytes on the wire, beside a bare one-``st.metric`` Streamlit page (bench/app/bare_metric_page.py)
under the same throttling, served as Streamlit serves it and compressed as the app serves its files.

Each visit is a new phone (390x844, touch, no cache) in Debian's Chromium throttled through the DevTools protocol
to DevTools' Fast 3G (tests/browser/throttled.py: 180 kB/s down, 562.5 ms per request). Times are in the page's
clock (``performance.now()``, from the start of navigation), read in the first animation frame that shows the
element: the Join button, the bare page's metric; the answer buttons from the tap on Join (the poll is open, the
code typed). Bytes are the sum of ``encodedDataLength`` (headers and body as received) until the network is idle.
The servers: the app as ``ir-metrics-lab`` starts it (a store in a temporary folder, one poll open), the bare page
with ``streamlit run`` and with the app's compression installed the same way; with ``--against DIR`` (another
checkout, e.g. ``git archive main | tar -x -C DIR``) also that checkout's app (``streamlit run app.py``). Each app is
visited twice a round: with Chromium's own Accept-Encoding (brotli: the server is localhost) and with gzip only, as a
phone reaching a laptop over plain HTTP; and the app once more through HAProxy over HTTPS (scripts/serve_class.py,
a certificate made for the run, which the phone takes), where Chromium speaks HTTP/2. They are visited in rounds
after one warm-up visit each, in alternating order, so all see the same machine load.

Run from the repository root:  .venv/bin/python -m bench.app.phone_first_visit [--rounds 3] [--against DIR]
Nothing is written to the repository; the server logs go to a temporary directory.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import scripts.serve_class as cluster
from bench.paths import REPO
from ir_metrics_lab.core.classroom import questions
from ir_metrics_lab.core.classroom.store import Store, default_sqlite_url
from ir_metrics_lab.core.scenario import Scenario
from tests.browser import conftest as browser_tests
from tests.browser.throttled import phone_page

BARE_PAGE = Path(__file__).with_name("bare_metric_page.py")
TIMEOUT_MS = 180_000
# The first animation frame in which an element is in the DOM and visible: performance.now() then.
SHOWN_JS = """([kind, text]) => new Promise((resolve) => {
  const find = () => kind === "metric"
    ? document.querySelector('[data-testid="stMetricValue"]')
    : [...document.querySelectorAll("button")].find((b) => b.innerText.trim() === text && b.checkVisibility());
  const tick = () => {
    const el = find();
    el && el.checkVisibility() ? resolve(performance.now()) : requestAnimationFrame(tick);
  };
  tick();
})"""


def bare_command(gzipped: bool):
    def command(port: int) -> list[str]:
        plain = browser_tests.streamlit_run(port)
        plain[plain.index("app.py")] = str(BARE_PAGE)
        if not gzipped:
            return plain
        start = (
            "import sys; from ir_metrics_lab.shell import compressed_static, streamlit_internals; "
            "compressed_static.install(); sys.exit(streamlit_internals.run_command_line(sys.argv[1:]))"
        )
        return [sys.executable, "-c", start, *plain[3:]]

    return command


def self_signed(folder: Path) -> Path:
    """A certificate for 127.0.0.1 and its key, in one PEM file, made by openssl: HAProxy's HTTPS in front of the app,
    so the phone speaks HTTP/2 (browsers speak it over HTTPS only)."""
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    pem = folder / "class.pem"
    pem.write_text(cert.read_text() + key.read_text())
    return pem


def shown(page, kind: str, text: str = "") -> float:
    """Seconds from the start of navigation to the first frame showing the element."""
    page.wait_for_load_state("commit")
    return page.evaluate(SHOWN_JS, [kind, text]) / 1000


def visit(browser, base: str, poll: dict | None, accept_encoding: str | None = None) -> dict:
    """One new phone: the bare page's metric, or /join, the code typed and the answer buttons."""
    page, wire = phone_page(browser, accept_encoding=accept_encoding, trust_any=base.startswith("https:"))
    page.set_default_timeout(TIMEOUT_MS)
    try:
        if poll is None:
            page.goto(f"{base}/", wait_until="commit")
            result = {"first content": shown(page, "metric")}
        else:
            page.goto(f"{base}/join", wait_until="commit")
            result = {"first content": shown(page, "button", "Join")}
            browser_tests.wait_idle(page, TIMEOUT_MS)
            page.get_by_label("Join code").fill(poll["code"])
            tapped = page.evaluate("performance.now()") / 1000
            page.get_by_role("button", name="Join").tap()
            result["answer buttons after the tap"] = shown(page, "button", poll["first choice"]) - tapped
        page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)
        result["MB on the wire"] = wire.total() / 1e6
        result["requests"] = len(wire.received)
        protocols = page.evaluate("performance.getEntriesByType('resource').map((e) => e.nextHopProtocol)")
        result["share over HTTP/2"] = protocols.count("h2") / max(len(protocols), 1)
        return result
    finally:
        page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout of the app (its rows: [base])")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    logs = Path(tempfile.mkdtemp(prefix="phone-first-visit-"))
    stack = contextlib.ExitStack()
    data = logs / "store"
    data.mkdir()
    env = {**os.environ, "IR_METRICS_LAB_DATA_DIR": str(data)}
    store = Store(default_sqlite_url(data))
    scn = Scenario(("d1", "d2", "d3"), grades={"d1": 0, "d2": 1, "d3": 2})
    question = questions.pick_better(scn, "d3", 1, "NDCG")
    poll = {
        "code": store.create_poll(question).poll.code,
        "first choice": questions.choice_label(question, questions.choices(question)[0]),
    }
    servers = {
        "app": {"command": browser_tests.launcher, "env": env},
        "bare": {"command": bare_command(False)},
        "bare, compressed": {"command": bare_command(True)},
    }
    # Each row: its server, its poll (None: the bare page) and the Accept-Encoding it sends (None: Chromium's own,
    # which offers brotli to localhost and HTTPS only; a phone on a laptop's http://192.168.x.y offers gzip).
    rows = {
        "app /join, compressed (ir-metrics-lab)": ("app", poll, None),
        "app /join, gzip only (as over a LAN's http://)": ("app", poll, "gzip, deflate"),
        "bare st.metric page, as Streamlit serves it": ("bare", None, None),
        "bare st.metric page, compressed": ("bare, compressed", None, None),
    }
    rows["app /join over HTTPS and HTTP/2 (HAProxy)"] = ("https", poll, None)
    if args.against:
        servers["base"] = {"cwd": args.against, "env": env}
        rows["app /join [base] (streamlit run app.py)"] = ("base", poll, None)
        rows["app /join [base], gzip only"] = ("base", poll, "gzip, deflate")
    started = {}
    try:
        for index, (name, options) in enumerate(servers.items()):
            started[name] = browser_tests.start_server(logs / f"server{index}.log", **options)
        https = stack.enter_context(cluster.serving(1, store.url, logs=logs, tls=self_signed(logs)))
        started["https"] = (None, https.base)
        results: dict[str, list[dict]] = {name: [] for name in rows}
        with sync_playwright() as p:
            browser = browser_tests.launch_browser(p)
            for server, poll_of, accept in rows.values():  # warm-up: imports, first runs, compression caches
                visit(browser, started[server][1], poll_of, accept)
            for round_ in range(args.rounds):
                order = list(rows.items())
                for name, (server, poll_of, accept) in order if round_ % 2 == 0 else order[::-1]:  # alternating
                    results[name].append(visit(browser, started[server][1], poll_of, accept))
                print(f"round {round_ + 1}/{args.rounds} done, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
            browser.close()
    finally:
        for proc, _ in started.values():
            if proc is not None:
                browser_tests.stop_server(proc)
        stack.close()
    report(results, args.rounds)


def report(results: dict[str, list[dict]], rounds: int) -> None:
    load = os.getloadavg()
    print(f"\nDevTools' Fast 3G, {rounds} rounds, {os.cpu_count()} CPUs, load average {load[0]:.1f} / {load[1]:.1f}")
    bare = statistics.median(r["first content"] for r in results["bare st.metric page, as Streamlit serves it"])
    for name, rows in results.items():
        print(f"\n{name}")
        for key in rows[0]:
            values = [r[key] for r in rows]
            print(
                f"  {key:<30} median {statistics.median(values):7.2f}   (each: {', '.join(f'{v:.2f}' for v in values)})"
            )
        first = statistics.median(r["first content"] for r in rows)
        print(f"  {'first content / bare page':<30}        {first / bare:7.2f}x")
    print(f"\n(from {REPO})")


if __name__ == "__main__":
    main()

"""axe-core in the browser tests: the WCAG 2.0, 2.1 and 2.2 A and AA rules, every impact.

axe-core is the copy shipped in the ``axe-playwright-python`` package (axe 4.12 in 0.1.8); it is injected into the
page once per document and run there. ``audit`` returns axe's violations; ``report`` makes them readable in a
failure message (rule, impact, where, axe's own explanation).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from tests.browser.conftest import wait_idle

WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
_RUN = """async ([tags, extra, within]) => {
  // Playwright's evaluate has no timeout: each wait below gives up after 5 s (a paused animation never finishes).
  const atMost = (promise) => Promise.race([promise, new Promise((resolve) => setTimeout(resolve, 5000))]);
  // The app's accessibility script (shell/components/a11y.js) marks what scrolls after the page changes (a frame
  // later, or within a second when a font's arrival widens a formula): let it see the page as axe will.
  await atMost(document.fonts.ready);
  // Every page mounts that script (shell/layout.py), as a component: on a loaded machine it can arrive after the
  // page looks idle, and an audit before it would report the formulas it makes focusable.
  const mounted = new Promise((resolve) => {
    const poll = () => (window.__irlabA11yNow ? resolve() : setTimeout(poll, 50));
    poll();
  });
  await atMost(mounted);
  if (window.__irlabA11yNow) window.__irlabA11yNow();
  // A popup fading in is half transparent: wait for the transitions that end (not a spinner's endless one).
  const ending = document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity);
  await atMost(Promise.all(ending.map((a) => a.finished.catch(() => null))));
  const rules = Object.fromEntries(extra.map((rule) => [rule, { enabled: true }]));
  const options = { runOnly: { type: "tag", values: tags }, rules, resultTypes: ["violations"] };
  const results = await axe.run((within && document.getElementById(within)) || document, options);
  return { version: axe.version, violations: results.violations };
}"""
# Presenter mode promises text at 7:1 (WCAG AAA 1.4.6) for a projector: axe's AAA contrast rule, run there too.
ENHANCED_CONTRAST = "color-contrast-enhanced"


@cache
def axe_source() -> str:
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_version(page) -> str:
    _inject(page)
    return page.evaluate("axe.version")


def _inject(page) -> None:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())


def audit(page, *, enhanced_contrast: bool = False, within: str | None = None) -> list[dict]:
    """axe's violations of the WCAG A and AA rules on the page as it is now (and of AAA's 7:1 contrast if asked);
    ``within``: only the element with this id (a tab's panel just shown, when the rest was audited already)."""
    _inject(page)
    extra = [ENHANCED_CONTRAST] if enhanced_contrast else []
    return page.evaluate(_RUN, [WCAG_AA_TAGS, extra, within])["violations"]


def report(violations: list[dict], limit: int = 6) -> str:
    """One line per violation and node (the first ``limit`` nodes of each rule)."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}, {len(violation['nodes'])} nodes): {violation['help']}")
        for node in violation["nodes"][:limit]:
            why = " / ".join(check["message"] for check in node.get("any", []) + node.get("all", []))
            lines.append(f"    {node['target']}: {node['html'][:160]} -- {why[:240]}")
    return "\n".join(lines)


# Counts the script runs that start while axe looks: a run redraws the page (an element whose place changed is
# replaced for a moment), so such an audit saw no settled page.
_WATCH_RUNS = """() => {
  window.__irlabRuns = 0;
  const app = document.querySelector('[data-testid="stApp"]');
  if (window.__irlabRunWatch) window.__irlabRunWatch.disconnect();
  window.__irlabRunWatch = new MutationObserver(() => {
    if (app.getAttribute("data-test-script-state") === "running") window.__irlabRuns += 1;
  });
  window.__irlabRunWatch.observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
}"""


def assert_accessible(page, where: str, *, enhanced_contrast: bool = False, within: str | None = None) -> None:
    """No violation on ``page`` as it is now, settled: an audit during which the app ran its script again is
    repeated once it is idle. The failure names ``where`` (page, view, state) and every finding."""
    for _ in range(3):
        page.evaluate(_WATCH_RUNS)
        violations = audit(page, enhanced_contrast=enhanced_contrast, within=within)
        if not page.evaluate("window.__irlabRuns"):
            break
        wait_idle(page)
    assert not violations, f"{where}: axe {axe_version(page)} found\n{report(violations)}"

// Accessibility fixes on Streamlit's own markup, for every page (ir_metrics_lab/shell/a11y.py mounts this once per run).
// Streamlit 1.67 renders these parts itself and offers no attribute for them, so this script adds, and keeps adding
// as the page re-renders:
// - a keyboard stop (tabindex=0) and a name on every box that scrolls: display formulas (KaTeX), wide tables and
//   code, a tall popup, which a keyboard could not otherwise scroll (WCAG 2.1.1; axe's scrollable-region-focusable);
// - the navigation landmark around the app's own page links (ir_metrics_lab/shell/navigation.py), and aria-current on the link to the
//   page on screen (its title comes in `data.current`: st.page_link only makes that link bold); in presenter mode's
//   menu of pages, the focus on that link as the menu opens;
// - one polite live region for the app, outside Streamlit's markup so that it survives every rerun (a region made
//   with its text in it is not read): it reads `data.announce`, the numbers an edit changed, once.
// - the focus moved where a control's action took its subject (`data.focus`: a button's widget key, asked once per
//   action): "Move 3 up" leaves the focus on the button in its place, which is now another document's.
// It is installed once per document. The announcement is set as text (textContent), never as markup.

// [selector, name]: a box that scrolls gets tabindex=0 and, when it has no role of its own, role=group and the name.
const SCROLL_BOXES = [
  [".katex-display", "Formula, scrolls sideways"],
  ['[data-testid="stTable"] > div', "Table, scrolls sideways"],
  [".stCode pre", "Code, scrolls sideways"],
  ['[data-testid="stMarkdownContainer"]:has(> table)', "Table, scrolls sideways"],
  ['[data-testid="stPopoverBody"]', null], // a tall popup (a chart as text on a phone) is a named dialog already
];

function scrolls(box) {
  const style = getComputedStyle(box);
  const can = (overflow) => overflow === "auto" || overflow === "scroll";
  return (
    (can(style.overflowX) && box.scrollWidth > box.clientWidth + 1) ||
    (can(style.overflowY) && box.scrollHeight > box.clientHeight + 1)
  );
}

function scrollBoxes() {
  for (const [selector, name] of SCROLL_BOXES) {
    for (const box of document.querySelectorAll(selector)) {
      const marked = box.getAttribute("data-irlab-scroll") === "1";
      if (scrolls(box) && !marked) {
        box.setAttribute("data-irlab-scroll", "1");
        box.setAttribute("tabindex", "0");
        if (name) {
          box.setAttribute("role", "group");
          box.setAttribute("aria-label", name);
        }
      } else if (!scrolls(box) && marked) {
        box.removeAttribute("data-irlab-scroll");
        box.removeAttribute("tabindex");
        if (name) {
          box.removeAttribute("role");
          box.removeAttribute("aria-label");
        }
      }
    }
  }
}

function navigation() {
  const nav = document.querySelector(".st-key-irlab_nav");
  if (!nav) return;
  if (nav.getAttribute("role") !== "navigation") {
    nav.setAttribute("role", "navigation");
    nav.setAttribute("aria-label", "Pages");
  }
  for (const link of nav.querySelectorAll("a")) {
    const label = link.querySelector('[data-testid="stMarkdownContainer"]');
    const current = label !== null && label.textContent.trim() === window.__irlabCurrentTitle;
    if (current && link.getAttribute("aria-current") !== "page") link.setAttribute("aria-current", "page");
    else if (!current && link.hasAttribute("aria-current")) link.removeAttribute("aria-current");
  }
  // Presenter mode's "Pages" menu (a popover) opens with the focus left on its button, and its layer comes last in
  // the tab order, after the whole page: as it opens, the focus goes to the link to the page on screen.
  // While the layer fades in, focus() does nothing: try again on the next frames until it takes, for up to 10 s
  // (a loaded machine fades slowly: 2 s was too short), unless the person has moved the focus on by then.
  const menu = nav.closest('[data-testid="stPopoverBody"]');
  if (menu && !menu.hasAttribute("data-irlab-focused")) {
    const since = Number(menu.getAttribute("data-irlab-focus-since") || performance.now());
    menu.setAttribute("data-irlab-focus-since", String(since));
    const link = nav.querySelector('a[aria-current="page"]') || nav.querySelector("a");
    if (link) link.focus();
    const active = document.activeElement;
    const movedOn = active && active !== document.body && active.getAttribute("aria-expanded") !== "true";
    if (!menu.isConnected || menu.contains(active) || movedOn || performance.now() - since > 10000) {
      menu.setAttribute("data-irlab-focused", "");
    } else requestAnimationFrame(navigation);
  }
}

const ANNOUNCER_ID = "irlab-announcer";

function announcer() {
  let region = document.getElementById(ANNOUNCER_ID);
  if (!region) {
    region = document.createElement("div");
    region.id = ANNOUNCER_ID;
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    // visually hidden, still read
    region.style.cssText =
      "position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);border:0;";
    document.body.append(region);
  }
  return region;
}

function announce(sentence) {
  const region = announcer();
  if (!sentence || sentence === window.__irlabAnnounced) return;
  window.__irlabAnnounced = sentence;
  region.textContent = "";
  setTimeout(() => {
    region.textContent = sentence; // after the list's own "d3 moved to rank 1" (sortable.js), in the polite queue
  }, 100);
}

function focusAfterRun(request) {
  if (!request || request.count === window.__irlabFocusCount) return;
  window.__irlabFocusCount = request.count;
  const since = performance.now();
  const look = () => {
    // the run's new buttons may come a few frames after this component's data: look for up to 3 s
    const button = document.querySelector(`.st-key-${CSS.escape(request.key)} button:not([disabled])`);
    if (button) button.focus();
    else if (performance.now() - since < 3000) requestAnimationFrame(look);
  };
  look();
}

function fix() {
  scrollBoxes();
  navigation();
}

export default function (component) {
  // On window, not in this module: the observer installed by the first mount reads it.
  window.__irlabCurrentTitle = String((component.data && component.data.current) || "");
  announce(String((component.data && component.data.announce) || ""));
  focusAfterRun(component.data && component.data.focus);
  if (window.__irlabA11y) {
    window.__irlabA11y();
    return;
  }
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fix();
    });
  };
  window.__irlabA11y = later;
  window.__irlabA11yNow = fix; // the accessibility audit (tests/browser/axe_audit.py) runs it before it looks
  // A tab or an expander shows a formula by an attribute, not by adding it: watch those too.
  new MutationObserver(later).observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["hidden", "open", "aria-selected", "aria-expanded"],
  });
  window.addEventListener("resize", later);
  setInterval(later, 1000); // a formula's width changes when KaTeX's fonts arrive, which no mutation reports
  fix();
}

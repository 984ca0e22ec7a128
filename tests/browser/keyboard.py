"""Keyboard-only helpers for the browser tests: press Tab as a person would and read where focus went.

``focused(page)`` looks through shadow roots (the ranked list is a shadow-DOM component) and says whether the
element that just lost focus looks different now: focus was visible on it (WCAG 2.4.7). The look compared is the
element's, its ancestors' and its siblings' outline, shadow, border, background and colour, so a focus ring drawn
on a wrapper or beside a visually hidden input counts.
"""

from __future__ import annotations

from dataclasses import dataclass

_FOCUSED = """() => {
  const look = (el) => {
    if (!el || !el.isConnected) return null;
    const nodes = [el];
    for (let e = el.parentElement, i = 0; e && i < 3; e = e.parentElement, i += 1) nodes.push(e);
    if (el.parentElement) nodes.push(...[...el.parentElement.children].slice(0, 6));
    return nodes.map((node) => {
      const s = getComputedStyle(node);
      return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor,
              s.color].join(",");
    }).join("|");
  };
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  const previous = window.__kbPrevious;
  const previousLookNow = previous ? look(previous) : null;
  const previousChanged = previous && previousLookNow !== null ? previousLookNow !== window.__kbPreviousLook : null;
  const atBody = !active || active === document.body || active === document.documentElement;
  window.__kbPrevious = atBody ? null : active;
  window.__kbPreviousLook = atBody ? null : look(active);
  if (atBody) {
    return { tag: "BODY", name: "", doc: null, action: null, testid: null, previous_changed: previousChanged };
  }
  const box = active.getBoundingClientRect();
  return {
    tag: active.tagName,
    name: (active.getAttribute("aria-label") || active.innerText || active.value || "").trim().slice(0, 80),
    doc: active.getAttribute("data-doc-id"),
    action: active.getAttribute("data-action"),
    testid: active.getAttribute("data-testid"),
    list: active.closest("[data-list]") ? active.closest("[data-list]").getAttribute("data-list") : null,
    shown: box.width > 0 && box.height > 0,
    previous_changed: previousChanged,
  };
}"""


@dataclass(frozen=True)
class Stop:
    """Where focus is: the element's tag, accessible name (or text), doc id and action on a ranked-list card, its
    data-testid, the ranked list it is in; whether it has a box; whether the element focused before it changed its
    look when it lost focus (None when unknown: nothing was focused, or it was redrawn)."""

    tag: str
    name: str
    doc: str | None
    action: str | None
    testid: str | None
    list: str | None = None
    shown: bool = True
    previous_changed: bool | None = None

    @property
    def label(self) -> str:
        """The name without an icon's ligature text before it (a Material icon is text: "check\n\nCheck")."""
        return self.name.splitlines()[-1].strip() if self.name else ""

    @property
    def at_body(self) -> bool:
        return self.tag == "BODY"


def focused(page) -> Stop:
    return Stop(**page.evaluate(_FOCUSED))


NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"


def reset(page) -> None:
    """Start a walk from the top of the document, nothing focused. Transitions are switched off, so a focus ring is
    compared as it ends, not a few ms into its fade (Streamlit's inputs fade their border in)."""
    page.add_style_tag(content=NO_TRANSITIONS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.__kbPrevious = null; }")


def press(page, key: str) -> Stop:
    page.keyboard.press(key)
    return focused(page)


def tab_to(page, wanted, limit: int = 150, key: str = "Tab") -> tuple[Stop, list[Stop]]:
    """Press ``key`` (Tab) until ``wanted(stop)``; returns that stop and every stop on the way. Fails after
    ``limit`` presses."""
    stops = []
    for _ in range(limit):
        stop = press(page, key)
        stops.append(stop)
        if wanted(stop):
            return stop, stops
    raise AssertionError(f"not reached in {limit} presses of {key}; the last stops: {stops[-8:]}")

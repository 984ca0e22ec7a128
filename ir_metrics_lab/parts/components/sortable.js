// Ranked-list editor for IR Metrics Lab: HTML5 drag-and-drop, keyboard moves (Alt+Arrow), grade chips and
// per-card buttons. Python renders the canonical order into `data`; every user action sends the whole new state
// (order, grades, action, nonce) as the single state value "edit", so a stale field can never come back.
// User text (doc ids, titles) only ever goes through textContent / setAttribute, never innerHTML.

const FOCUS_MEMORY_MS = 8000; // a rerun takes ~0.1-1 s; older pending focus requests are stale

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function nonce() {
  return `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
}

export default function (component) {
  const { data, setStateValue, parentElement } = component;
  const listKey = String(data.list || "ranked-list");
  const items = Array.isArray(data.items) ? data.items : [];
  const scale = Number(data.scale) || 1;
  const k = Number(data.k) || 0;
  const threshold = Number(data.threshold) || 1;
  const canShelve = data.shelve !== false;
  const canGrade = data.gradeEdit !== false; // the quiz's reorder task: the grades are given, only the order moves

  // The root survives reruns when Streamlit reuses the element, so the live region keeps its node.
  let root = parentElement.querySelector(".rk-root");
  if (!root) {
    root = el("div", { class: "rk-root" });
    parentElement.appendChild(root);
  }
  root.replaceChildren();
  const live = el("div", { class: "rk-live", "aria-live": "polite", role: "status" });
  const list = el("ul", {
    class: "rk-list",
    "data-testid": "ranked-list",
    "data-list": listKey,
    "aria-label": String(data.label || "Ranked list"),
    "aria-describedby": `rk-help-${listKey}`,
  });
  const help = el(
    "p",
    { class: "rk-help", id: `rk-help-${listKey}` },
    `Drag a card, or focus it and press Alt+\u2191 / Alt+\u2193 to move it` +
      (canGrade ? `; keys 0\u2013${scale} set its grade.` : "."),
  );
  root.append(list, help, live);

  const order = items.map((item) => String(item.id));
  const grades = Object.fromEntries(items.map((item) => [String(item.id), Number(item.grade) || 0]));

  function send(newOrder, newGrades, action) {
    setStateValue("edit", { order: newOrder, grades: newGrades, action, nonce: nonce() });
  }

  function announce(text) {
    live.textContent = "";
    // A changed text node is what screen readers announce; the timeout makes a repeat text count as a change.
    setTimeout(() => {
      live.textContent = text;
    }, 30);
  }

  function rememberFocus(doc, target) {
    window.__irlPendingFocus = { list: listKey, doc, target, at: Date.now() };
  }

  function moveTo(doc, toIndex, how) {
    const from = order.indexOf(doc);
    const to = Math.max(0, Math.min(order.length - 1, toIndex));
    if (from < 0 || from === to) return;
    const next = order.filter((d) => d !== doc);
    next.splice(to, 0, doc);
    announce(`${doc} moved to rank ${to + 1} of ${next.length}`);
    rememberFocus(doc, how);
    send(next, grades, { type: "move", doc, to: to + 1 });
  }

  function setGrade(doc, grade) {
    if (!canGrade) return;
    if (grade < 0 || grade > scale || grades[doc] === grade) return;
    announce(`${doc} graded ${grade}`);
    rememberFocus(doc, "card");
    send(order, { ...grades, [doc]: grade }, { type: "grade", doc, grade });
  }

  function shelve(doc) {
    announce(`${doc} moved to the not-retrieved shelf`);
    const next = order.filter((d) => d !== doc);
    const neighbour = next[Math.min(order.indexOf(doc), next.length - 1)];
    if (neighbour !== undefined) rememberFocus(neighbour, "card");
    send(next, grades, { type: "shelve", doc });
  }

  // --- cards ---
  const cards = [];
  items.forEach((item, index) => {
    const doc = String(item.id);
    const grade = grades[doc];
    const rank = index + 1;
    const title = String(item.title || "");
    const relevant = grade >= threshold;
    const unjudged = Boolean(item.unjudged); // no qrels line: scored as non-relevant, but nobody judged it
    const aspects = Array.isArray(item.aspects) ? item.aspects.map(String) : [];
    const card = el("li", {
      class: `rk-card grade-${Math.min(grade, 4)}${relevant ? " relevant" : ""}${k && rank > k ? " beyond-k" : ""}`,
      "data-doc-id": doc,
      "data-rank": String(rank),
      "data-grade-value": String(grade),
      tabindex: "0",
      draggable: "true",
      "aria-label": cardName(doc, title, grade, relevant, unjudged, rank, aspects),
    });
    card.append(el("span", { class: "rk-handle", "aria-hidden": "true", title: "Drag to move" }, "\u2807"));
    card.append(el("span", { class: "rk-rank", "aria-hidden": "true" }, String(rank)));

    const text = el("div", { class: "rk-text" });
    const idLine = el("div", { class: "rk-idline" });
    idLine.append(el("span", { class: "rk-id" }, doc));
    idLine.append(el("span", { class: "rk-badge" }, unjudged ? "unjudged" : relevant ? "relevant" : "not relevant"));
    text.append(idLine);
    text.append(el("div", { class: "rk-title", title }, title || "(untitled)"));
    if (aspects.length) {
      // The aspects (subtopics) it covers, by name: plain text chips, read out in the card's name.
      const line = el("div", { class: "rk-aspects", "aria-hidden": "true" });
      for (const name of aspects) line.append(el("span", { class: "rk-aspect" }, name));
      text.append(line);
    }
    card.append(text);

    const chips = el("div", { class: "rk-chips", role: "group", "aria-label": `Grade of ${doc}` });
    for (let g = 0; g <= scale; g += 1) {
      const chip = el(
        "button",
        {
          type: "button",
          class: `rk-chip chip-${Math.min(g, 4)}`,
          "data-grade": String(g),
          "aria-pressed": String(g === grade),
          "aria-label": `Grade ${g}`,
          title: `Grade ${g} (key ${g})`,
        },
        String(g),
      );
      chip.addEventListener("click", (event) => {
        event.stopPropagation();
        setGrade(doc, g);
      });
      chips.append(chip);
    }
    if (canGrade) card.append(chips);

    const tools = el("div", { class: "rk-tools" });
    const up = el(
      "button",
      { type: "button", class: "rk-btn", "data-action": "up", "aria-label": `Move ${doc} up`, title: "Move up" },
      "\u25b2",
    );
    const down = el(
      "button",
      { type: "button", class: "rk-btn", "data-action": "down", "aria-label": `Move ${doc} down`, title: "Move down" },
      "\u25bc",
    );
    if (index === 0) up.disabled = true;
    if (index === items.length - 1) down.disabled = true;
    up.addEventListener("click", (event) => {
      event.stopPropagation();
      moveTo(doc, index - 1, "up");
    });
    down.addEventListener("click", (event) => {
      event.stopPropagation();
      moveTo(doc, index + 1, "down");
    });
    tools.append(up, down);
    if (canShelve) {
      const shelf = el(
        "button",
        {
          type: "button",
          class: "rk-btn rk-shelve",
          "data-action": "shelve",
          "aria-label": `Mark ${doc} as not retrieved`,
          title: "Not retrieved: move to the shelf (it stays judged)",
        },
        "\u2715",
      );
      shelf.addEventListener("click", (event) => {
        event.stopPropagation();
        shelve(doc);
      });
      tools.append(shelf);
    }
    card.append(tools);

    card.addEventListener("keydown", (event) => {
      if (event.target !== card && !(event.altKey && event.key.startsWith("Arrow"))) return;
      if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
        event.preventDefault();
        moveTo(doc, index + (event.key === "ArrowUp" ? -1 : 1), "card");
      } else if (!event.altKey && !event.ctrlKey && !event.metaKey && /^[0-9]$/.test(event.key)) {
        event.preventDefault();
        setGrade(doc, Number(event.key));
      } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
        event.preventDefault();
        const next = cards[index + (event.key === "ArrowUp" ? -1 : 1)];
        if (next) next.focus();
      }
    });

    cards.push(card);
    list.append(card);
    if (k && rank === k) list.append(cutoffLine(`cutoff k = ${k}`));
  });
  if (items.length === 0) {
    list.append(el("li", { class: "rk-empty" }, "Nothing retrieved. Put a document back from the shelf, or add one."));
  } else if (k > items.length) {
    list.append(cutoffLine(`cutoff k = ${k} (the list has ${items.length}; the rest count as non-relevant)`));
  }

  // The cutoff line is drawn for the eye only (a list may hold list items alone): each card's name says where it
  // stands against k instead.
  function cutoffLine(label) {
    const line = el("li", { class: "rk-cutoff", "aria-hidden": "true" });
    line.append(el("span", {}, label));
    return line;
  }

  function cardName(doc, title, grade, relevant, unjudged, rank, aspects) {
    const judged = `grade ${grade}${relevant ? ", relevant" : ""}${unjudged ? ", unjudged" : ""}`;
    const where = `rank ${rank} of ${items.length}${k && rank > k ? `, below the cutoff k = ${k}` : ""}`;
    const covers = aspects.length ? `, covers ${aspects.join(", ")}` : "";
    return `${doc}${title ? `, ${title}` : ""}${covers}, ${judged}, ${where}`;
  }

  // --- mouse drag-and-drop (HTML5) ---
  let dragged = null;
  let dropIndex = -1;

  function clearMarkers() {
    for (const card of cards) card.classList.remove("drop-before", "drop-after");
  }

  function indexAt(clientY) {
    for (let i = 0; i < cards.length; i += 1) {
      const box = cards[i].getBoundingClientRect();
      if (clientY < box.top + box.height / 2) return i;
    }
    return cards.length;
  }

  const onDragStart = (event) => {
    const card = event.target.closest && event.target.closest("li[data-doc-id]");
    if (!card) return;
    dragged = card.getAttribute("data-doc-id");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged);
    card.classList.add("dragging");
  };
  const onDragOver = (event) => {
    if (dragged === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    dropIndex = indexAt(event.clientY);
    clearMarkers();
    if (dropIndex < cards.length) cards[dropIndex].classList.add("drop-before");
    else if (cards.length) cards[cards.length - 1].classList.add("drop-after");
  };
  const onDrop = (event) => {
    if (dragged === null) return;
    event.preventDefault();
    const doc = dragged;
    const from = order.indexOf(doc);
    let to = indexAt(event.clientY);
    if (to > from) to -= 1; // the dragged card leaves its old slot first
    dragged = null;
    clearMarkers();
    moveTo(doc, to, "card");
  };
  const onDragEnd = () => {
    dragged = null;
    clearMarkers();
    for (const card of cards) card.classList.remove("dragging");
  };
  list.addEventListener("dragstart", onDragStart);
  list.addEventListener("dragover", onDragOver);
  list.addEventListener("drop", onDrop);
  list.addEventListener("dragend", onDragEnd);

  // --- touch and pen: drag a card by its handle (HTML5 drag-and-drop does not fire on most touch screens) ---
  // The handle has touch-action: none, so a finger on it drags the card instead of scrolling the page; anywhere
  // else on the card a finger still scrolls. A mouse keeps using HTML5 drag-and-drop above.
  let pointerDoc = null;
  let pointerId = null;
  const scroller = document.querySelector('[data-testid="stMain"]');
  const EDGE_PX = 56; // near the top or bottom of the screen, the page scrolls under the finger

  const onPointerDown = (event) => {
    if (event.pointerType === "mouse") return;
    const card = event.target.closest && event.target.closest("li[data-doc-id]");
    if (!card) return;
    event.preventDefault();
    pointerDoc = card.getAttribute("data-doc-id");
    pointerId = event.pointerId;
    event.target.setPointerCapture(event.pointerId);
    card.classList.add("dragging");
  };
  const onPointerMove = (event) => {
    if (pointerDoc === null || event.pointerId !== pointerId) return;
    event.preventDefault();
    if (scroller && event.clientY < EDGE_PX) scroller.scrollBy(0, -12);
    else if (scroller && event.clientY > window.innerHeight - EDGE_PX) scroller.scrollBy(0, 12);
    dropIndex = indexAt(event.clientY);
    clearMarkers();
    if (dropIndex < cards.length) cards[dropIndex].classList.add("drop-before");
    else if (cards.length) cards[cards.length - 1].classList.add("drop-after");
  };
  const endPointerDrag = (event, drop) => {
    if (pointerDoc === null || event.pointerId !== pointerId) return;
    const doc = pointerDoc;
    pointerDoc = null;
    pointerId = null;
    clearMarkers();
    for (const card of cards) card.classList.remove("dragging");
    if (!drop) return;
    const from = order.indexOf(doc);
    let to = indexAt(event.clientY);
    if (to > from) to -= 1; // the dragged card leaves its old slot first
    moveTo(doc, to, "card");
  };
  const onPointerUp = (event) => endPointerDrag(event, true);
  const onPointerCancel = (event) => endPointerDrag(event, false);
  const handles = [...list.querySelectorAll(".rk-handle")];
  for (const handle of handles) {
    handle.addEventListener("pointerdown", onPointerDown);
    handle.addEventListener("pointermove", onPointerMove);
    handle.addEventListener("pointerup", onPointerUp);
    handle.addEventListener("pointercancel", onPointerCancel);
  }

  // --- after a rerun: restore focus (Streamlit re-mounts the markup) and repeat the announcement ---
  const pending = window.__irlPendingFocus;
  if (pending && pending.list === listKey && Date.now() - pending.at < FOCUS_MEMORY_MS) {
    const card = cards.find((c) => c.getAttribute("data-doc-id") === pending.doc);
    if (card) {
      const target =
        pending.target === "up" || pending.target === "down"
          ? card.querySelector(`button[data-action="${pending.target}"]:not([disabled])`) || card
          : card;
      target.focus({ preventScroll: true });
      window.__irlPendingFocus = null;
    }
  }
  if (data.announce) announce(String(data.announce));

  return () => {
    list.removeEventListener("dragstart", onDragStart);
    list.removeEventListener("dragover", onDragOver);
    list.removeEventListener("drop", onDrop);
    list.removeEventListener("dragend", onDragEnd);
    for (const handle of handles) {
      handle.removeEventListener("pointerdown", onPointerDown);
      handle.removeEventListener("pointermove", onPointerMove);
      handle.removeEventListener("pointerup", onPointerUp);
      handle.removeEventListener("pointercancel", onPointerCancel);
    }
  };
}

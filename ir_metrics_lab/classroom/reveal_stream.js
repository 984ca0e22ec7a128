// The reveal sent to a phone without a rerun (ir_metrics_lab/classroom/reveal_stream.py): one stream per page, the
// message shown at once as text (textContent only, never markup), announced to a screen reader.
const STATE = "__irlabRevealStream";
// A stream the server refused or lost is opened again this much later, a few times: a restarted server answers
// streams once a phone's page has run there, and the page's rerun then names its new session anyway.
const RETRY_MS = 3000;
const RETRIES = 5;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function show(parent, message) {
  const kind = ["success", "warning", "error", "info"].includes(message.kind) ? message.kind : "info";
  const box = el("div", { class: "rv-box", role: "alert" });
  box.append(el("h3", { class: "rv-heading" }, String(message.heading || "")));
  box.append(el("p", { class: `rv-sentence rv-${kind}` }, String(message.sentence || "")));
  parent.replaceChildren(box);
}

export default function (component) {
  const { data, parentElement } = component;
  if (!data || !data.url) return;
  const url = new URL(data.url, document.baseURI).href;
  const held = window[STATE];
  if (held && held.url === url) {
    held.parent = parentElement; // a rerun of the same poll may draw a new element: the message goes there
    return;
  }
  if (held) {
    held.closed = true;
    held.source?.close();
    clearTimeout(held.timer);
  }
  const state = { url, parent: parentElement, source: null, timer: null, closed: false, retries: 0 };
  window[STATE] = state;
  const open = () => {
    if (state.closed) return;
    const source = new EventSource(url);
    state.source = source;
    const finish = () => {
      state.closed = true;
      source.close();
    };
    source.addEventListener("reveal", (event) => {
      finish();
      if (state.parent.isConnected) show(state.parent, JSON.parse(event.data));
    });
    source.addEventListener("changed", finish); // the page's own rerun shows what changed
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED || state.closed || state.retries >= RETRIES) return;
      state.retries += 1;
      state.timer = setTimeout(open, RETRY_MS);
    });
  };
  open();
}

"""Phones as Streamlit sessions without a browser: a client of the app's own websocket protocol.

A browser tab of a Streamlit app is one websocket to ``/_stcore/stream`` (subprotocol ``streamlit``) carrying
Streamlit's protobufs: the tab sends a ``BackMsg`` whose ``rerun_script`` (a ClientState: the page, its query string,
the widgets' values) asks for a run, and receives ``ForwardMsg``\\ s: ``new_session`` (the page's script hash),
``delta`` (each element drawn: its widget ids, its text), ``page_info_changed`` (the script wrote the address bar),
``auto_rerun`` (a fragment's ``run_every``: the browser's timer then asks for that fragment's rerun) and
``script_finished`` (of the whole page, or of fragments alone); a tap on a widget drawn by a fragment asks for that
fragment's rerun. :class:`Tab` does the same, so one asyncio process holds hundreds of phones (a headless Chromium
holds tens on this machine). It does not draw anything, load the frontend's bundles or run components' JavaScript.

Used by bench/classroom/serve_class_phones.py and tests/test_live_balancer.py. Loopback servers only: the caller gives
the address.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode, urljoin, urlsplit

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

TEXT_FIELDS = ("markdown", "heading", "alert", "metric", "text", "latex")
FIRST_PAINT = (
    "-first_paint_watch"  # ir_metrics_lab/shell/first_paint.py's component: a browser tells it the first screen painted
)


@dataclass
class Seen:
    """What a tab's latest runs drew, as far as a test or a benchmark reads it."""

    texts: list[str] = field(default_factory=list)  # text elements in arrival order (the latest 200)
    metrics: dict[str, str] = field(default_factory=dict)  # label -> shown value
    widgets: dict[str, str] = field(default_factory=dict)  # user key -> widget id
    arrived: dict[str, float] = field(default_factory=dict)  # user key -> when the widget was last drawn
    options: dict[str, list[str]] = field(default_factory=dict)  # user key -> a radio's options, as shown
    buttons: dict[str, str] = field(default_factory=dict)  # label -> widget id (form buttons have no user key)
    components: dict[str, str] = field(default_factory=dict)  # user key -> a v2 component's data (JSON)


class Tab:
    """One browser tab on one page of the app. ``await tab.open()``; then ``click(key)``, ``wait_for(...)``;
    ``await tab.close()``. ``on_metric(tab, label, value, at)`` is called as a metric arrives."""

    def __init__(
        self,
        base: str,
        page: str,
        query: dict[str, str] | None = None,
        *,
        on_metric: Callable[[Tab, str, str, float], None] | None = None,
    ):
        parts = urlsplit(base)
        self.host = parts.netloc
        self.stream = f"ws://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream"
        self.page = page
        self.address = f"http://{parts.netloc}{parts.path.rstrip('/')}/{page}"  # the page's, as a browser has it
        self.query_string = urlencode(query or {})
        self.page_script_hash = ""
        self.seen = Seen()
        self.runs_finished = 0
        self.fragment_runs_finished = 0  # of those, the runs of fragments alone
        self.running = False
        self.on_metric = on_metric
        self._ws = None
        self._reader: asyncio.Task | None = None
        self._timers: dict[str, asyncio.Task] = {}
        self._announced: set[str] = set()
        self._values: dict[str, WidgetState] = {}  # widget id -> its value, sent with every run as a browser does
        self._fragments: dict[str, str] = {}  # widget id -> the fragment that drew it
        self._paint_trigger: str | None = None  # the fragments this run asked to rerun by themselves
        self._changed = asyncio.Condition()
        self.closed = False
        self.replica: str | None = None
        self._cookie = ""

    # --- the connection -----------------------------------------------------------------------------------

    async def open(self, timeout: float = 60) -> None:
        """Connect and run the page once (as a browser does on load); returns when that run has finished."""
        self._ws = await websockets.connect(
            self.stream,
            subprotocols=["streamlit"],
            origin=f"http://{self.host}",
            max_size=None,
            ping_interval=None,  # a browser's websocket sends no pings either
            open_timeout=timeout,
        )
        cookie = self._ws.response.headers.get("Set-Cookie", "")
        self._cookie = cookie.split(";", 1)[0]
        self.replica = self._cookie.partition("=")[2] or None  # HAProxy's sticky cookie, if it set one
        self._reader = asyncio.create_task(self._read())
        await self._rerun()
        await self.wait_for(lambda: self.runs_finished > 0, timeout)
        if (
            self._paint_trigger
        ):  # ir_metrics_lab/shell/first_paint.py's script: "painted", and the app draws the rest in a second run
            trigger = WidgetState(id=self._paint_trigger, json_trigger_value='[{"event":"painted","value":true}]')
            await self._rerun([trigger])
            await self.wait_for(lambda: self.runs_finished > 1, timeout)

    async def close(self) -> None:
        self.closed = True
        for timer in self._timers.values():
            timer.cancel()
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader

    async def _send(self, msg: BackMsg) -> None:
        await self._ws.send(msg.SerializeToString())

    async def _rerun(self, triggers: list[WidgetState] = (), fragment_id: str = "", auto: bool = False) -> None:
        """Ask for a run as the frontend does: every widget's value, plus this interaction's one-shot triggers."""
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_script_hash
        if not self.page_script_hash:
            state.page_name = self.page  # the first run: the page by its address, as a browser opening /join does
        state.widget_states.widgets.extend([*self._values.values(), *triggers])
        info = state.context_info
        info.timezone, info.locale, info.color_scheme = "UTC", "en-US", "light"
        info.url = f"http://{self.host}/{self.page}" + (f"?{self.query_string}" if self.query_string else "")
        if fragment_id:
            state.fragment_id = fragment_id
        state.is_auto_rerun = auto
        await self._send(msg)

    async def click(self, key: str) -> None:
        """Press the button with this user key (a trigger, as a tap does)."""
        await self._press(self.seen.widgets[key])

    async def press(self, label: str) -> None:
        """Press the button (or a form's submit button, which has no user key) with this label."""
        await self._press(self.seen.buttons[label])

    async def _press(self, widget_id: str) -> None:
        widget = WidgetState(id=widget_id, trigger_value=True)
        await self._rerun([widget], fragment_id=self._fragments.get(widget.id, ""))

    def choose(self, key: str, option: int) -> None:
        """Pick a radio's option (by position), sent with the next run as a browser sends a form's values."""
        widget_id = self.seen.widgets[key]
        self._values[widget_id] = WidgetState(id=widget_id, string_value=self.seen.options[key][option])

    # --- what arrives ---------------------------------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for frame in self._ws:
                msg = ForwardMsg()
                msg.ParseFromString(frame)
                self._handle(msg)
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            async with self._changed:
                self._changed.notify_all()

    def _handle(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.running = True
            self._announced.clear()
        elif kind == "navigation":  # st.navigation's page: the one to rerun (new_session names app.py)
            self.page_script_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "delta":
            self._delta(msg)
        elif kind == "auto_rerun":
            fragment = msg.auto_rerun.fragment_id
            self._announced.add(fragment)
            if fragment not in self._timers:
                self._timers[fragment] = asyncio.create_task(self._auto(fragment, msg.auto_rerun.interval))
        elif kind == "stop_auto_rerun":
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()
        elif kind == "script_finished":
            if msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:  # a full run: its fragments are the live ones
                for fragment in set(self._timers) - self._announced:
                    self._timers.pop(fragment).cancel()
            if msg.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                self.fragment_runs_finished += 1
            self.running = False
            self.runs_finished += 1

    def _delta(self, msg: ForwardMsg) -> None:
        delta = msg.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        which = element.WhichOneof("type")
        if which is None:
            return
        body = getattr(element, which)
        widget_id = getattr(body, "id", "")
        if which == "text_input":
            self._values[widget_id] = WidgetState(id=widget_id, string_value=body.default)
        elif which == "checkbox":
            self._values[widget_id] = WidgetState(id=widget_id, bool_value=body.default)
        elif which == "bidi_component" and widget_id.endswith(FIRST_PAINT) and self.runs_finished == 0:
            self._paint_trigger = f"$$STREAMLIT_INTERNAL_KEY_{widget_id}__events"
        if which == "button":
            self._fragments[widget_id] = delta.fragment_id
            self.seen.buttons[body.label] = widget_id
        if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
            self._fragments[widget_id] = delta.fragment_id
            key = widget_id.split("-", 2)[2]  # "$$ID-<hash>-<user key>"
            self.seen.widgets[key], self.seen.arrived[key] = widget_id, time.time()
            if which == "radio":
                self.seen.options[key] = list(body.options)
            elif which == "bidi_component":
                self.seen.components[key] = body.json
        if which == "metric":
            self.seen.metrics[body.label] = body.body
            if self.on_metric:
                self.on_metric(self, body.label, body.body, time.time())
        if which in TEXT_FIELDS:
            self.seen.texts.append(body.body)
            del self.seen.texts[:-200]  # bounded: the latest runs are what is read

    async def _auto(self, fragment_id: str, interval: float) -> None:
        """A fragment's ``run_every``, as the browser's timer runs it."""
        with contextlib.suppress(asyncio.CancelledError, websockets.ConnectionClosed):
            while not self.closed:
                await asyncio.sleep(interval)
                await self._rerun(fragment_id=fragment_id, auto=True)

    async def wait_for(self, done: Callable[[], bool], timeout: float) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: done() or self.closed), timeout)
        if not done():
            raise ConnectionError(f"the server closed {self.page}'s websocket")

    async def follow(self, key: str, timeout: float, connected: asyncio.Event | None = None) -> tuple[str, dict]:
        """Do what the component ``key`` does with its data's ``url`` (ir_metrics_lab/classroom/reveal_stream.js):
        open that stream of server-sent events and return its first message, (event, data as JSON). ``connected`` is
        set once the server has answered."""
        target = urlsplit(urljoin(self.address, json.loads(self.seen.components[key])["url"]))
        reader, writer = await asyncio.open_connection(target.hostname, target.port)
        try:
            request = f"GET {target.path}?{target.query} HTTP/1.1\r\nHost: {target.netloc}\r\n"
            if self._cookie:  # HAProxy's: the stream goes to the replica that holds the session
                request += f"Cookie: {self._cookie}\r\n"
            writer.write((request + "Accept: text/event-stream\r\n\r\n").encode())
            async with asyncio.timeout(timeout):
                head = await reader.readuntil(b"\r\n\r\n")
                if not head.startswith(b"HTTP/1.1 200"):
                    raise ConnectionError(head.decode("latin-1").splitlines()[0])
                if connected is not None:
                    connected.set()
                event = ""
                while True:
                    line = (await reader.readline()).decode().rstrip("\r\n")
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                    elif line.startswith("data: "):
                        return event, json.loads(line.removeprefix("data: "))
                    elif not line and reader.at_eof():
                        raise ConnectionError("the stream ended without a message")
        finally:
            writer.close()

    def forget(self) -> None:
        """Drop the texts seen so far: ``shows`` then answers for what arrives next."""
        self.seen.texts.clear()

    def shows(self, fragment: str) -> bool:
        return any(fragment in text for text in self.seen.texts)

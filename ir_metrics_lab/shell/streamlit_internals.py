"""The private Streamlit hooks the app relies on: the one module that reaches into Streamlit's runtime, its
undocumented modules and its frontend's markup. Each hook is a small function or constant here.

None of these is Streamlit's API: a release may rename or drop any of them without a word, so pyproject.toml pins
Streamlit to the minor release they were checked on, and tests/test_streamlit_internals.py checks each against the
installed Streamlit, failing by the hook's name. docs/upgrading-streamlit.md lists them and says how to check a new
release.

A hook whose pieces are gone raises ``MissingHook``, which names the hook and the piece. The app's callers catch it,
``warn_once`` and fall back (the phones ask for the poll themselves; an upload is copied on each run); the contract
tests let it fail.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import Any, NamedTuple

import streamlit as st

_LOGGER = logging.getLogger(__name__)


class MissingHook(RuntimeError):
    """A private piece of Streamlit a hook needs is gone from the installed release."""

    def __init__(self, hook: str, piece: str):
        super().__init__(f"streamlit_internals.{hook}: {piece} is gone in streamlit {st.__version__}")
        self.hook = hook


_warned: set[str] = set()
_warned_lock = threading.Lock()


def warn_once(missing: MissingHook, instead: str) -> None:
    """Log ``missing`` and what the app does ``instead``, once per hook and process: the app goes on, and the log
    names the hook to look at (the contract tests fail on it)."""
    with _warned_lock:
        if missing.hook in _warned:
            return
        _warned.add(missing.hook)
    _LOGGER.warning("%s; %s (docs/upgrading-streamlit.md)", missing, instead)


def _piece(module: str, name: str, hook: str) -> Any:
    """``module.name``, or MissingHook naming it."""
    try:
        return getattr(import_module(module), name)
    except (ImportError, AttributeError):
        raise MissingHook(hook, f"{module}.{name}") from None


def _attribute(obj: object, name: str, hook: str, where: str) -> Any:
    """``obj.name``, or MissingHook naming ``where.name``."""
    try:
        return getattr(obj, name)
    except AttributeError:
        raise MissingHook(hook, f"{where}.{name}") from None


# --- the current script run ----------------------------------------------------------------------------------


class ScriptRun(NamedTuple):
    """A script run's session and page."""

    session_id: str
    page_script_hash: str


def script_run() -> ScriptRun | None:
    """The session and page of the script run on this thread (None outside one), which the live class's watcher
    reruns later (``rerun_session``). Streamlit's ScriptRunContext, from its private scriptrunner module: st.context
    does not say which session it is. Without it the phones cannot be pushed to, and ask for the poll themselves."""
    get_ctx = _piece("streamlit.runtime.scriptrunner", "get_script_run_ctx", "script_run")
    ctx = get_ctx()
    if ctx is None:
        return None
    return ScriptRun(
        _attribute(ctx, "session_id", "script_run", "ScriptRunContext"),
        _attribute(ctx, "page_script_hash", "script_run", "ScriptRunContext"),
    )


# --- rerunning another session (the live class's push to the phones) ------------------------------------------
# Streamlit has no public call to rerun a session from another thread; its own "rerun on save" does it through the
# runtime's session manager and each session's AppSession, as these do.


def _runtime(hook: str) -> Any | None:
    """The runtime that serves this process's sessions, or None: no runtime, or AppTest's stand-in (a mock), which
    serves none."""
    runtime_class = _piece("streamlit.runtime", "Runtime", hook)
    if not _attribute(runtime_class, "exists", hook, "Runtime")():
        return None
    runtime = _attribute(runtime_class, "instance", hook, "Runtime")()
    return runtime if type(runtime) is runtime_class else None


def _app_session(session_id: str, hook: str) -> Any | None:
    """The AppSession of ``session_id``, or None when no runtime serves it (it ended, or AppTest)."""
    runtime = _runtime(hook)
    if runtime is None:
        return None
    manager = _attribute(runtime, "_session_mgr", hook, "Runtime.instance()")
    info = _attribute(manager, "get_active_session_info", hook, "Runtime.instance()._session_mgr")(session_id)
    return None if info is None else _attribute(info, "session", hook, "SessionInfo")


# What rerun_session uses of a session, and of the ClientState it sends
_APP_SESSION_PIECES = (
    "_event_loop",
    "_client_state",
    "_scriptrunner",
    "request_rerun",
    "session_state",
    "has_fragment",
)
_RUN_CONTEXT = "streamlit.runtime.scriptrunner_utils.script_run_context"
_RUN_POLL_S = 0.05  # how often a push waits for the session's run to end
_END_POLL_S = 0.005  # and, once it has asked for its own, for that one to end
_RUN_WAIT_S = 60.0  # and for how long at most (then it reruns, stopping the run)
_CLIENT_STATE_FIELDS = ("page_script_hash", "fragment_id", "is_auto_rerun", "widget_states")


def can_rerun(session_id: str) -> bool:
    """Whether ``rerun_session`` can rerun this session from another thread: False where no runtime serves it
    (AppTest); MissingHook when this Streamlit lacks a piece ``rerun_session`` or ``session_alive`` uses. Without
    it each phone asks for its poll every few seconds (ir_metrics_lab.classroom.live_class.STUDENT_REFRESH_S)."""
    session = _app_session(session_id, "rerun_session")
    if session is None:
        return False
    for name in _APP_SESSION_PIECES:
        _attribute(session, name, "rerun_session", "AppSession")
    _attribute(session.session_state, "get_widget_states", "rerun_session", "AppSession.session_state")
    fields = _piece("streamlit.proto.ClientState_pb2", "ClientState", "rerun_session").DESCRIPTOR.fields_by_name
    for name in _CLIENT_STATE_FIELDS:
        if name not in fields:
            raise MissingHook("rerun_session", f"ClientState.{name}")
    _attribute(_runtime("session_alive"), "is_active_session", "session_alive", "Runtime.instance()")
    return True


def rerun_session(
    session_id: str,
    page_script_hash: str,
    fragment_id: str | None = None,
    done: Callable[[], None] | None = None,
) -> None:
    """Rerun a session's page as its browser last asked for it (its address, its widgets' values, no one-shot
    trigger such as a button's tap again), if it is still on that page; from any thread. With ``fragment_id``
    (``current_fragment``) only that fragment reruns, as a fragment's own timer asks, if the session still holds
    it; else the whole page. ``done()`` is called, on any thread, once that run has ended (or none was needed).
    The live class's watcher calls it when the teacher reveals, resets or re-asks: the phones need not ask."""
    client_state_class = _piece("streamlit.proto.ClientState_pb2", "ClientState", "rerun_session")
    finished = done or (lambda: None)
    session = _app_session(session_id, "rerun_session")
    if session is None:
        finished()
        return
    loop = _attribute(session, "_event_loop", "rerun_session", "AppSession")
    deadline = time.monotonic() + _RUN_WAIT_S

    def rerun() -> None:  # on the session's event loop, where its client state is read and written
        # While a run is under way the session's client state is the previous run's (an empty one during its first
        # run: no query string), and a rerun request would stop that run (Streamlit's fast reruns), a tap with it:
        # the push waits until the run is over.
        if session._scriptrunner is not None and time.monotonic() < deadline:
            loop.call_later(_RUN_POLL_S, rerun)
            return
        last = session._client_state
        if last.page_script_hash != page_script_hash:  # the student went to another page
            finished()
            return
        client = client_state_class()
        client.CopyFrom(last)
        client.ClearField("fragment_id")
        if fragment_id and session.has_fragment(fragment_id):  # a full run since may have dropped it
            client.fragment_id = fragment_id
        client.is_auto_rerun = False
        values = session.session_state.get_widget_states()
        client.widget_states.widgets.extend(w for w in values if "trigger" not in (w.WhichOneof("value") or ""))
        session.request_rerun(client)
        ended()

    def ended() -> None:  # the run ends when the session lets its script runner go
        if session._scriptrunner is not None and time.monotonic() < deadline:
            loop.call_later(_END_POLL_S, ended)
            return
        finished()

    try:
        loop.call_soon_threadsafe(rerun)
    except RuntimeError:  # the session's loop is closed: the server is stopping
        finished()


def current_fragment() -> str | None:
    """The id of the fragment running on this thread, None outside one (or outside a script run): what
    ``rerun_session`` reruns alone. Streamlit's ThreadState, from its private script_run_context module, the one
    place a fragment's id is kept while it runs. Without it the live class's watcher reruns the phones' whole
    pages."""
    thread_state = _piece(_RUN_CONTEXT, "ThreadState", "current_fragment")
    try:
        state = _attribute(thread_state, "get", "current_fragment", "ThreadState")()
    except RuntimeError:  # no script run on this thread
        return None
    return _attribute(state, "fragment_id", "current_fragment", "ThreadState.get()")


def session_alive(session_id: str) -> bool:
    """Whether the session is still connected (its browser tab open), so the live class's watcher drops a phone
    that left. Runtime.is_active_session; without it a closed phone would be watched for ever."""
    runtime = _runtime("session_alive")
    return runtime is not None and _attribute(runtime, "is_active_session", "session_alive", "Runtime.instance()")(
        session_id
    )


# --- uploaded files --------------------------------------------------------------------------------------------
# Streamlit's UploadedFile (a BytesIO) has no public constructor: it is built from an UploadedFileRec, in its private
# uploaded_file_manager module.
_UPLOADS = "streamlit.runtime.uploaded_file_manager"


def uploaded_file(file_id: str, name: str, mime_type: str, data: bytes) -> Any:
    """An UploadedFile as st.file_uploader returns one, over ``data`` (the upload hook's check, and the tests')."""
    record = _piece(_UPLOADS, "UploadedFileRec", "uploaded_file")(file_id, name, mime_type, data)
    return _piece(_UPLOADS, "UploadedFile", "uploaded_file")(record, None)


def uploaded_file_twin(file: Any) -> Any:
    """A new UploadedFile over the same bytes object as ``file``, at position 0: ir_metrics_lab.shell.upload_copy's
    deep copy, which spares each script run a copy of every upload. It passes on the file's URLs (its private
    ``_file_urls``). Without it each run copies every uploaded file."""
    record = _piece(_UPLOADS, "UploadedFileRec", "uploaded_file_twin")(
        file.file_id, file.name, file.type, file.getvalue()
    )
    urls = _attribute(file, "_file_urls", "uploaded_file_twin", "UploadedFile")
    return _piece(_UPLOADS, "UploadedFile", "uploaded_file_twin")(record, urls)


def set_uploaded_file_deepcopy(deepcopy: Callable[[Any, dict], Any]) -> None:
    """Make ``deepcopy`` Streamlit's UploadedFile.__deepcopy__, for the whole process: Streamlit deep-copies each
    widget's value for each script run, an upload included. Patching the class is the only way in."""
    _piece(_UPLOADS, "UploadedFile", "set_uploaded_file_deepcopy").__deepcopy__ = deepcopy


# --- errors and the command line -------------------------------------------------------------------------------


def _api_exception() -> type[Exception]:
    try:
        return _piece("streamlit.errors", "StreamlitAPIException", "StreamlitAPIException")
    except MissingHook as missing:
        warn_once(missing, "a page catches any error of st.switch_page and st.page_link")
        return Exception


#: What st.switch_page and st.page_link raise for a page outside the app's navigation (a page script run on its own):
#: the pages catch it and say where to go instead. In the undocumented streamlit.errors; without it they would catch
#: nothing and such a page would fail.
StreamlitAPIException: type[Exception] = _api_exception()


def run_command_line(arguments: Sequence[str]) -> int:
    """Run ``streamlit ARGUMENTS`` in this process, as the ``streamlit`` command does (the ``ir-metrics-lab``
    command, ir_metrics_lab.__main__). Its click command lives in the private streamlit.web.cli, and reads its own
    command line from sys.argv too; without it ``ir-metrics-lab`` cannot start the app (``streamlit run`` can)."""
    main = _piece("streamlit.web.cli", "main", "run_command_line")
    sys.argv = ["streamlit", *arguments]
    return main(args=list(arguments), prog_name="streamlit")


# --- Streamlit's frontend files ---------------------------------------------------------------------------------
# Streamlit 1.67 sends its JavaScript and CSS (/static/) uncompressed on purpose: its SelectiveGZipMiddleware, the
# server's one gzip layer, passes them by (ir_metrics_lab.shell.compressed_static sends them gzipped instead).

_GZIP_MODULE = "streamlit.web.server.starlette.starlette_gzip_middleware"
#: ``respond(path, scope, receive, send)``: an ASGI answer to one HTTP request, True once sent, False to pass it on.
HttpResponder = Callable[[str, Any, Any, Any], Awaitable[bool]]
_http_responders: dict[str, HttpResponder] = {}  # by name, asked in the order they were installed


def frontend_static() -> tuple[Path, str]:
    """The folder Streamlit serves /static/ from, and the Cache-Control it gives those (content-hashed) files."""
    get_static_dir = _piece("streamlit.file_util", "get_static_dir", "frontend_static")
    server_config = "streamlit.web.server.starlette.starlette_server_config"
    max_age = _piece(server_config, "STATIC_ASSET_CACHE_MAX_AGE_SECONDS", "frontend_static")
    return Path(get_static_dir()) / "static", f"public, immutable, max-age={max_age}"


def serve_http_first(name: str, respond: HttpResponder) -> None:
    """Give each HTTP request to ``respond(path, scope, receive, send)`` first, the path without the server's base
    URL: it answers and returns True, or returns False and the next responder (then Streamlit) answers. ``name``
    names it: installing a name again replaces its responder. Streamlit's gzip middleware is the layer every HTTP
    request passes through after the path security checks; its __call__ is replaced on the class, and is looked up
    at each request, so this works before the server starts (``ir-metrics-lab``) or after (app.py)."""
    middleware = _piece(_GZIP_MODULE, "SelectiveGZipMiddleware", "serve_http_first")
    route_path = _piece(_GZIP_MODULE, "_route_path", "serve_http_first")
    strip_base_url = _piece(_GZIP_MODULE, "_strip_base_url", "serve_http_first")
    _http_responders[name] = respond
    if hasattr(middleware.__call__, "streamlit_call"):
        return
    streamlit_call = middleware.__call__

    async def __call__(self: Any, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            base_url = _attribute(self, "_base_url", "serve_http_first", "SelectiveGZipMiddleware")
            path = strip_base_url(route_path(scope), base_url)
            for responder in tuple(_http_responders.values()):
                if await responder(path, scope, receive, send):
                    return
        await streamlit_call(self, scope, receive, send)

    __call__.streamlit_call = streamlit_call  # type: ignore[attr-defined]
    middleware.__call__ = __call__


def http_first_installed(name: str) -> bool:
    """Whether ``serve_http_first`` has hooked Streamlit's server in this process with a responder named ``name``."""
    middleware = _piece(_GZIP_MODULE, "SelectiveGZipMiddleware", "serve_http_first")
    return name in _http_responders and hasattr(middleware.__call__, "streamlit_call")


#: The icon font's family: the frontend preloads it on every page (``document.fonts.load`` as its main script starts),
#: and its icons use it. The phone page skips that preload (ir_metrics_lab.shell.compressed_static).
ICON_FONT = "Material Symbols Rounded"


def frontend_page() -> str:
    """The HTML Streamlit serves at every page's address (its index.html), as Streamlit sends it. The phone page adds
    a script to its ``<head>`` that sets ``window.__streamlit.BACKEND_BASE_URL``, the frontend's setting for where the
    server is (for a frontend hosted elsewhere; unset, the frontend probes the page's address first)."""
    index = Path(_piece("streamlit.file_util", "get_static_dir", "frontend_page")()) / "index.html"
    try:
        page = index.read_text(encoding="utf-8")
    except OSError:
        raise MissingHook("frontend_page", str(index)) from None
    if "</head>" not in page:
        raise MissingHook("frontend_page", "the </head> of index.html")
    return page


# --- the frontend's markup -------------------------------------------------------------------------------------
# The names in Streamlit's frontend markup that the app's CSS and scripts select (ir_metrics_lab/shell/layout.py,
# presenter.py, css.py, first_paint.py, components/a11y.js; ir_metrics_lab/classroom/live_class.py;
# ir_metrics_lab/parts/components/sortable.js). Streamlit's own tests use them; they are not its API. A rule whose
# name is gone matches nothing, silently: the tests check that each name is in the installed frontend's bundle, and
# that the app's CSS and scripts select no name missing here.

#: data-testid values: what the app selects each for.
TEST_IDS = {
    "stApp": "the app's root, whose data-test-script-state the first paint's script reads",
    "stSkeleton": "a placeholder still loading: the first paint waits until none is left (or 4 s)",
    "stMain": "the main area: its focus ring; the ranked list scrolls it while dragging",
    "stMainBlockContainer": "presenter mode's page width and padding",
    "stSidebar": "hidden in presenter mode",
    "stExpandSidebarButton": "hidden in presenter mode",
    "stHeader": "presenter mode's shorter header, which clears the presenter bar and its focus ring",
    "stMainMenuPopover": "the main menu's text colour (contrast)",
    "stCaptionContainer": "captions' colour (contrast); the navigation's section headings",
    "stMarkdownContainer": "wide Markdown tables scroll with a keyboard stop; labels wrap; the current page's link",
    "stTable": "st.table scrolls with a keyboard stop; presenter mode's header colour",
    "stPopoverBody": "a tall popup's keyboard stop; presenter mode's menu of pages",
    "stWidgetLabel": "labels wrap instead of being cut",
    "stMetric": "presenter mode's metric cards",
    "stMetricLabel": "labels wrap; presenter mode's label size",
    "stMetricValue": "values wrap; presenter mode's and the projector's answer count's value size",
    "stButtonGroup": "a segmented control's options wrap; presenter mode's chosen option colour",
    "stSliderThumbValue": "presenter mode's slider value colour",
    "stMultiSelectTagsContainer": "presenter mode's multiselect chip colour",
}
#: data-testid prefixes (``[data-testid^="..."]``): a button's is stBaseButton- and its type.
TEST_ID_PREFIXES = {"stBaseButton-": "presenter mode's primary buttons' colour (stBaseButton-primary)"}
#: class names Streamlit (and the KaTeX it bundles) give its elements.
CLASSES = {
    "stElementContainer": "the box around each element: hidden around a style block; presenter mode's metric row",
    "stCode": "a code block scrolls with a keyboard stop",
    "katex": "a formula: presenter mode's size",
    "katex-display": "a display formula scrolls sideways with a shadow and a keyboard stop",
}
#: The class of an element given ``key=K`` is st-key-K: every rule on an element the app keyed hangs on it.
KEY_CLASS_PREFIX = "st-key-"
#: The app's root says whether a script runs: the first paint's script reruns the app only once none does (a rerun
#: asked for during the first run would interrupt it, and the numbers would come with the charts).
SCRIPT_STATE = {"data-test-script-state": "the root's attribute", "notRunning": "its value when no script runs"}

#: Every markup name above, with what the app selects it for: the list the contract tests check against the bundle.
MARKUP = {
    **TEST_IDS,
    **TEST_ID_PREFIXES,
    **CLASSES,
    KEY_CLASS_PREFIX: "every rule on an element the app keyed",
    **{name: f"the first paint: {what}" for name, what in SCRIPT_STATE.items()},
}

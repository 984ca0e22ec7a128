"""The private Streamlit hooks the app relies on (ir_metrics_lab.shell.streamlit_internals), checked against the
installed Streamlit: each test exercises its hook for real where it can (a ``streamlit run`` server, AppTest, the
frontend's shipped bundle) and fails naming the hook. docs/upgrading-streamlit.md says when to run them: with a new
Streamlit, before the browser tests.

Also the fence itself: no other module of the app imports Streamlit's private modules, and the app's CSS and scripts
select no Streamlit markup the hooks' table does not list."""

from __future__ import annotations

import ast
import copy
import gzip
import inspect
import logging
import re
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import streamlit
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.testing.v1 import AppTest
from websockets.sync.client import connect

from ir_metrics_lab.classroom import live_class
from ir_metrics_lab.shell import compressed_static, upload_copy
from ir_metrics_lab.shell import streamlit_internals as internals
from tests.browser.conftest import start_server, stop_server

REPO = Path(__file__).resolve().parents[1]
VERSION = f"streamlit {streamlit.__version__}"
WAIT_S = 60  # a loaded 2-core box


# --- rerunning another session: the live class's push to the phones -------------------------------------------

# The test apps' say(run, line): the line on the page, and in runs.txt under its run's number, which _runs_written
# reads back (the page's deltas of a run still queued when a new run starts are dropped).
RUN_LOG = """
from pathlib import Path

import streamlit as st


def say(run, line):
    st.text(line)
    with Path("runs.txt").open("a", encoding="utf-8") as log:
        log.write(f"{run}\\t{line}\\n")
"""

# A one-page app whose first run asks, from another thread and while it is still running, for a rerun of its own
# session, as the live class's watcher does for a phone that is mid-run; the second run comes with nothing sent by
# the browser, after the first has ended.
PUSHED_APP = (
    RUN_LOG
    + """
import threading

from ir_metrics_lab.shell import streamlit_internals as internals

runs = st.session_state["runs"] = st.session_state.get("runs", 0) + 1
run = internals.script_run()
say(runs, f"run {runs} of {run.session_id}, q={st.query_params.get('q')}")
say(runs, f"can rerun: {internals.can_rerun(run.session_id)}")
say(runs, f"alive: {internals.session_alive(run.session_id)}, one that never was: {internals.session_alive('no-such')}")
if runs == 1:
    pushed = threading.Thread(target=internals.rerun_session, args=run)
    pushed.start()
    pushed.join()  # the push is asked for before this run ends
say(runs, "end of run")
"""
)


def _server_command(script: Path):
    def command(port: int) -> list[str]:
        return [
            sys.executable, "-m", "streamlit", "run", str(script),
            "--server.headless", "true",
            "--server.address", "127.0.0.1",
            "--server.port", str(port),
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
        ]  # fmt: skip

    return command


def _one_tab(base: str, wanted: int = 2) -> tuple[list[list[str]], list[str]]:
    """Open the app as a browser tab does (one rerun request, ?q=kept) and send nothing more: the text of each run
    that comes (up to ``wanted``, or WAIT_S), and the exceptions shown."""
    host = base.removeprefix("http://")
    runs: list[list[str]] = []
    errors: list[str] = []
    with connect(f"ws://{host}/_stcore/stream", subprotocols=["streamlit"], origin=base, max_size=None) as ws:
        hello = BackMsg()
        hello.rerun_script.query_string = "q=kept"
        ws.send(hello.SerializeToString())
        deadline = time.monotonic() + WAIT_S
        finished = 0
        while finished < wanted and not errors and time.monotonic() < deadline:
            try:
                msg = ForwardMsg.FromString(ws.recv(timeout=deadline - time.monotonic()))
            except TimeoutError:
                break
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                runs.append([])
            elif kind == "script_finished":
                finished += 1
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                if element.WhichOneof("type") == "text":
                    runs[-1].append(element.text.body)
                elif element.WhichOneof("type") == "exception":
                    errors.append(element.exception.message)
    return runs, errors


def _runs_written(folder: Path) -> list[list[str]]:
    """The lines each of runs 1-3 wrote to ``folder``/runs.txt, as the server ran them: under load, the page's deltas
    of a run still queued when the next run starts are dropped (Streamlit clears a session's queue at each run's
    start), so the deltas the browser got cannot tell."""
    path = folder / "runs.txt"
    written = path.read_text(encoding="utf-8") if path.exists() else ""
    return [[line.split("\t", 1)[1] for line in written.splitlines() if line.startswith(f"{n}\t")] for n in (1, 2, 3)]


def test_rerun_session_can_rerun_and_session_alive_on_a_real_server(tmp_path):
    """script_run, can_rerun, rerun_session and session_alive on a ``streamlit run`` server: the session is pushed
    a rerun of its page as its browser last asked for it (the same query string), from another thread, during its
    first run; that run ends whole first (a push used to stop it and lose its query string: q=None)."""
    script = tmp_path / "pushed_app.py"
    script.write_text(PUSHED_APP, encoding="utf-8")
    log = tmp_path / "server.log"
    proc, base = start_server(log, command=_server_command(script), cwd=tmp_path)
    try:
        _, errors = _one_tab(base)
    finally:
        stop_server(proc)
    runs = _runs_written(tmp_path)
    shown = f"runs {runs}; server log:\n{log.read_text()[-3000:]}"
    assert errors == [], f"{errors[0]} ({shown})"
    assert runs[0], f"streamlit_internals: the app never ran ({shown})"
    first = runs[0]
    session_id = first[0].split(" of ")[1].split(",")[0]
    assert first == [
        f"run 1 of {session_id}, q=kept",
        "can rerun: True",
        "alive: True, one that never was: False",
        "end of run",
    ], f"streamlit_internals.can_rerun or session_alive: no longer as on a live session in {VERSION} ({shown})"
    assert runs[1][:1] == [f"run 2 of {session_id}, q=kept"] and not runs[2], (
        f"streamlit_internals.rerun_session: no pushed rerun of the page in {VERSION} ({shown})"
    )


# A page with a fragment whose first run asks, from another thread, for a rerun of that fragment alone (its id from
# current_fragment), as the live class's watcher does on a reveal; the second, once that push says it is done, for
# a third.
PUSHED_FRAGMENT_APP = (
    RUN_LOG
    + """
import threading

from ir_metrics_lab.shell import streamlit_internals as internals

done = st.session_state.setdefault("done", threading.Event())
say(st.session_state.get("runs", 0) + 1, f"page, fragment {internals.current_fragment()}")


@st.fragment
def part():
    runs = st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    fragment = internals.current_fragment()
    say(runs, f"part {runs}, in a fragment: {bool(fragment)}, the first run's done: {done.is_set()}")
    run = internals.script_run()
    if runs == 1:
        threading.Thread(target=internals.rerun_session, args=(*run, fragment, done.set)).start()
    elif runs == 2:
        threading.Thread(target=lambda: done.wait(30) and internals.rerun_session(*run, fragment)).start()


part()
"""
)


def test_rerun_session_reruns_the_current_fragment_alone_on_a_real_server(tmp_path):
    """current_fragment names the fragment running (None outside one); rerun_session with it reruns that fragment
    alone, pushed from another thread: the next run draws the fragment and nothing else of the page; ``done`` is
    called once that run has ended (the watcher's bound on the reruns under way rests on it)."""
    script = tmp_path / "pushed_fragment_app.py"
    script.write_text(PUSHED_FRAGMENT_APP, encoding="utf-8")
    log = tmp_path / "server.log"
    proc, base = start_server(log, command=_server_command(script), cwd=tmp_path)
    try:
        _, errors = _one_tab(base, wanted=3)
    finally:
        stop_server(proc)
    runs = _runs_written(tmp_path)
    shown = f"runs {runs}; server log:\n{log.read_text()[-3000:]}"
    assert errors == [], f"{errors[0]} ({shown})"
    assert runs[:1] == [["page, fragment None", "part 1, in a fragment: True, the first run's done: False"]], (
        f"streamlit_internals.current_fragment: no longer as in a run of a fragment in {VERSION} ({shown})"
    )
    assert runs[1:] == [
        ["part 2, in a fragment: True, the first run's done: False"],
        ["part 3, in a fragment: True, the first run's done: True"],
    ], f"streamlit_internals.rerun_session: no pushed rerun of the fragment alone, or no done, in {VERSION} ({shown})"


def test_script_run_names_the_session_and_page_and_apptest_is_not_pushed_to(caplog):
    """script_run in AppTest; AppTest's stand-in runtime serves no session: can_rerun says so, and warns of
    nothing (the app's AppTest suites go on with the phones' own timer)."""
    at = AppTest.from_string(
        "import streamlit as st\n"
        "from ir_metrics_lab.shell import streamlit_internals as internals\n"
        "run = internals.script_run()\n"
        "st.text(f'{bool(run.session_id)} {bool(run.page_script_hash)} {internals.can_rerun(run.session_id)}')\n"
    )
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        at.run()
    assert not at.exception, at.exception[0].message  # MissingHook names the hook and the piece
    assert [t.value for t in at.text] == ["True True False"], f"streamlit_internals.script_run: changed in {VERSION}"
    assert [r for r in caplog.records if r.name == internals.__name__] == []


def test_a_missing_push_hook_leaves_the_phones_polling_with_one_warning(monkeypatch, caplog):
    """Production's fallback: the phones ask for the poll themselves, and the log names the hook, once."""

    def gone(session_id: str) -> bool:
        raise internals.MissingHook("rerun_session", "Runtime.instance()._session_mgr")

    monkeypatch.setattr(internals, "_warned", set())
    monkeypatch.setattr(internals, "script_run", lambda: internals.ScriptRun("s", "h"))
    monkeypatch.setattr(internals, "can_rerun", gone)
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        assert live_class.push_available() is False
        assert live_class.push_available() is False
    assert [r.getMessage() for r in caplog.records] == [
        f"streamlit_internals.rerun_session: Runtime.instance()._session_mgr is gone in {VERSION}; each phone asks "
        "for its poll every 2 s instead (docs/upgrading-streamlit.md)"
    ]


# --- uploaded files ---------------------------------------------------------------------------------------------


def test_uploaded_file_twin_and_the_deepcopy_share_a_real_uploads_bytes():
    """uploaded_file and uploaded_file_twin, then set_uploaded_file_deepcopy (through upload_copy.install): a deep
    copy of an UploadedFile is a new file at the same read position over the same bytes object."""
    data = b"q1 Q0 d1 1 1.0 run\n" * 1000
    uploaded = internals.uploaded_file("id-1", "run.txt", "text/plain", data)
    uploaded.seek(7)
    twin = internals.uploaded_file_twin(uploaded)  # a MissingHook here names the piece
    assert twin.getvalue() is data and twin.tell() == 0, f"streamlit_internals.uploaded_file_twin: {VERSION}"
    upload_copy.install()
    copied = copy.deepcopy(uploaded)
    assert copied is not uploaded and copied.getvalue() is data, (
        f"streamlit_internals.set_uploaded_file_deepcopy: a deep copy copies the bytes in {VERSION}"
    )
    assert (copied.file_id, copied.name, copied.type, copied.size, copied.tell()) == (
        ("id-1", "run.txt", "text/plain", len(data), 7)
    )


def test_each_script_run_of_an_upload_shares_its_bytes_in_apptest():
    """What the hook is for: Streamlit hands each run a deep copy of the uploader's value; with the app's deep copy
    the run's file and the one session_state holds share one bytes object."""
    at = AppTest.from_string(
        "import streamlit as st\n"
        "from ir_metrics_lab.shell import upload_copy\n"
        "upload_copy.install()\n"
        "f = st.file_uploader('f', key='f')\n"
        "if f is not None:\n"
        "    st.text(f\"{f is st.session_state['f']} {f.getvalue() is st.session_state['f'].getvalue()}\")\n"
    ).run()
    at.file_uploader(key="f").set_value(("run.txt", b"q1 Q0 d1 1 1.0 run\n" * 1000, "text/plain")).run()
    assert not at.exception, f"streamlit_internals.uploaded_file_twin: {at.exception[0].message} ({VERSION})"
    assert [t.value for t in at.text] == ["False True"], (
        f"streamlit_internals.uploaded_file_twin, set_uploaded_file_deepcopy: a run's upload is copied in {VERSION}"
    )


def test_a_missing_upload_hook_keeps_streamlits_own_copy_with_one_warning(monkeypatch, caplog):
    uploads = sys.modules[internals._UPLOADS]
    monkeypatch.setattr(internals, "_warned", set())
    monkeypatch.setattr(uploads.UploadedFile, "__deepcopy__", None, raising=False)
    monkeypatch.delattr(uploads, "UploadedFileRec")
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        upload_copy.install()
        upload_copy.install()
    assert uploads.UploadedFile.__deepcopy__ is None  # not installed
    assert [r.getMessage() for r in caplog.records] == [
        f"streamlit_internals.uploaded_file: streamlit.runtime.uploaded_file_manager.UploadedFileRec is gone in "
        f"{VERSION}; each script run copies every uploaded file (docs/upgrading-streamlit.md)"
    ]


# --- errors and the command line ----------------------------------------------------------------------------------


def test_streamlit_api_exception_is_what_a_page_link_outside_the_navigation_raises():
    """A page run on its own (no st.navigation) links to another page: Streamlit raises StreamlitAPIException, which
    the pages catch."""
    page = REPO / "app_pages" / "reference" / "errata.py"
    at = AppTest.from_string(
        "import streamlit as st\n"
        "from ir_metrics_lab.shell.streamlit_internals import StreamlitAPIException\n"
        "try:\n"
        f"    st.page_link({str(page)!r}, label='Errata')\n"
        "except StreamlitAPIException:\n"
        "    st.text('caught')\n"
    ).run()
    assert internals.StreamlitAPIException is not Exception, f"streamlit_internals.StreamlitAPIException: {VERSION}"
    assert not at.exception and [t.value for t in at.text] == ["caught"], (
        f"streamlit_internals.StreamlitAPIException: st.page_link no longer raises it in {VERSION}"
    )


def test_run_command_line_runs_streamlits_own_command(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    with pytest.raises(SystemExit) as done:
        internals.run_command_line(["version"])
    assert done.value.code in (0, None), f"streamlit_internals.run_command_line: exit {done.value.code} ({VERSION})"
    assert f"version {streamlit.__version__}" in capsys.readouterr().out, (
        f"streamlit_internals.run_command_line: {VERSION}"
    )


# --- Streamlit's frontend files ------------------------------------------------------------------------------------

# A page that hooks the server on its first run, as app.py does under ``streamlit run app.py``.
GZIPPED_APP = """
import streamlit as st

from ir_metrics_lab.shell import compressed_static

compressed_static.install()
st.text("hooked")
"""


def _get(url: str, **headers: str) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={k.replace("_", "-"): v for k, v in headers.items()})
    with urllib.request.urlopen(request, timeout=WAIT_S) as response:
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


def test_serve_http_first_gzips_streamlits_files_on_a_real_server(tmp_path):
    """frontend_static, serve_http_first and http_first_installed on a ``streamlit run`` server hooked by its
    script's first run: the frontend's main script goes out gzipped, the same bytes as Streamlit's own answer with
    its headers, to a browser that accepts gzip, after that run (not before); a font and a plain client get
    Streamlit's answer."""
    script = tmp_path / "gzipped_app.py"
    script.write_text(GZIPPED_APP, encoding="utf-8")
    log = tmp_path / "server.log"
    proc, base = start_server(log, command=_server_command(script), cwd=tmp_path)
    try:
        page = _get(base)[1].decode()
        main_js = base + "/" + re.search(r'src="\./(static/js/index\.[\w-]+\.js)"', page).group(1)
        before = _get(main_js, accept_encoding="gzip")[0]
        runs, errors = _one_tab(base, wanted=1)
        plain_headers, plain = _get(main_js)
        gzipped_headers, gzipped = _get(main_js, accept_encoding="gzip, deflate")
        font = re.search(r'href="\./(static/media/[\w.-]+\.woff2)"', page).group(1)
        font_headers = _get(f"{base}/{font}", accept_encoding="gzip")[0]
    finally:
        stop_server(proc)
    shown = f"runs {runs}; server log:\n{log.read_text()[-3000:]}"
    assert errors == [] and runs and runs[0] == ["hooked"], shown
    assert "content-encoding" not in before  # Streamlit's own answer until the hook is in
    assert "content-encoding" not in plain_headers and "content-encoding" not in font_headers, shown
    assert gzipped_headers.get("content-encoding") == "gzip", f"streamlit_internals.serve_http_first: {VERSION}"
    assert (
        gzip.decompress(gzipped)
        == plain
        == (internals.frontend_static()[0] / main_js.split("/static/")[1]).read_bytes()
    )
    for header in ("content-type", "cache-control"):
        assert gzipped_headers[header] == plain_headers[header], f"streamlit_internals.frontend_static: {header}"
    assert len(gzipped) < len(plain) / 2


def test_a_missing_static_hook_leaves_streamlits_files_uncompressed_with_one_warning(monkeypatch, caplog):
    gzip_module = sys.modules[internals._GZIP_MODULE]
    middleware = gzip_module.SelectiveGZipMiddleware
    streamlit_call = getattr(middleware.__call__, "streamlit_call", None)
    if streamlit_call is not None:  # an earlier test in this process ran app.py, which installs the hook
        monkeypatch.setattr(middleware, "__call__", streamlit_call)
    monkeypatch.setattr(internals, "_warned", set())
    monkeypatch.delattr(gzip_module, "_route_path")
    with caplog.at_level(logging.WARNING, logger=internals.__name__):
        compressed_static.install()
        compressed_static.install()
    assert not internals.http_first_installed(compressed_static.HOOK_NAME)
    assert [r.getMessage() for r in caplog.records] == [
        f"streamlit_internals.serve_http_first: {internals._GZIP_MODULE}._route_path is gone in {VERSION}; "
        "Streamlit's frontend files go out uncompressed (docs/upgrading-streamlit.md)"
    ]


def test_frontend_page_and_what_the_phone_pages_script_relies_on():
    """frontend_page is the page Streamlit serves at a page's address; the frontend still reads
    window.__streamlit.BACKEND_BASE_URL and preloads ICON_FONT with document.fonts.load as it starts, which the
    phone page's script (ir_metrics_lab.shell.compressed_static) sets and skips."""
    page = internals.frontend_page()
    main_js = re.search(r'src="\./(static/js/index\.[\w-]+\.js)"', page)
    assert main_js and "</head>" in page, f"streamlit_internals.frontend_page: {VERSION}"
    code = (internals.frontend_static()[0].parent / main_js.group(1)).read_text(encoding="utf-8")
    for name in ("window.__streamlit", "BACKEND_BASE_URL", "document.fonts.load("):
        assert name in code, f"streamlit_internals.frontend_page: {name} is gone from the frontend in {VERSION}"
    css = "".join(p.read_text(encoding="utf-8") for p in (internals.frontend_static()[0] / "css").glob("*.css"))
    assert f"font-family:{internals.ICON_FONT}" in css, f"streamlit_internals.ICON_FONT: {VERSION}"


# --- the frontend's markup ---------------------------------------------------------------------------------------

STATIC = Path(streamlit.__file__).parent / "static"


@pytest.fixture(scope="module")
def bundle_words() -> set[str]:
    """Every word (letters, digits, _ and -) of the installed frontend's shipped JavaScript and CSS."""
    files = sorted(path for path in STATIC.rglob("*") if path.suffix in {".js", ".css"})
    assert files, f"no frontend bundle under {STATIC}"
    return {
        word for path in files for word in re.findall(r"[\w-]+", path.read_text(encoding="utf-8", errors="replace"))
    }


@pytest.mark.parametrize("name", sorted(internals.MARKUP))
def test_each_markup_name_is_in_streamlits_frontend_bundle(bundle_words, name):
    """A grep of the shipped bundle for each name of the table, as a whole word (a prefix such as st-key- ends where
    the bundle adds the key): a release that renames one fails here by name, where the app's rule would silently
    match nothing."""
    assert name in bundle_words, (
        f"streamlit_internals.MARKUP[{name!r}] ({internals.MARKUP[name]}): not in {VERSION}'s frontend"
    )


def _app_sources() -> list[Path]:
    """The app's files that may hold CSS or browser scripts: its package, app.py and the pages (not the table)."""
    files = [
        path
        for path in (REPO / "ir_metrics_lab").rglob("*")
        if path.suffix in {".py", ".js", ".css"} and path.name != "streamlit_internals.py"
    ]
    return sorted([*files, REPO / "app.py", *(REPO / "app_pages").glob("*.py")])


_TEST_ID = re.compile(r"data-testid([\^$*]?)=\\?[\"']([^\"'\\]+)")
_CLASS = re.compile(r"(?<![\w-])\.(st[A-Z][\w-]*|katex[\w-]*)")
_KEY_CLASS = re.compile(r"(?<![\w-])st-key-")
_DATA_ATTRIBUTE = re.compile(r"(?<![\w-])data-test-[\w-]+")
_HASHED_CLASS = re.compile(r"st-emotion-cache")  # a class Streamlit's styles hash: it changes with any release


def _selected(text: str) -> tuple[set[str], set[str]]:
    """(the Streamlit markup names ``text`` selects that the table lacks, the table's names it selects)."""
    unlisted, used = set(), set()
    for operator, value in _TEST_ID.findall(text):
        if operator == "^":
            listed = {prefix for prefix in internals.TEST_ID_PREFIXES if value.startswith(prefix)}
            used |= listed
            if not listed:
                unlisted.add(f'data-testid^="{value}"')
        elif value in internals.TEST_IDS:
            used.add(value)
        else:
            unlisted.add(f'data-testid="{value}"')
    for name in _CLASS.findall(text):
        if name in internals.CLASSES:
            used.add(name)
        else:
            unlisted.add(f".{name}")
    if _KEY_CLASS.search(text):
        used.add(internals.KEY_CLASS_PREFIX)
    for name in _DATA_ATTRIBUTE.findall(text):
        if name in internals.SCRIPT_STATE:
            used.add(name)
        else:
            unlisted.add(name)
    unlisted.update(_HASHED_CLASS.findall(text))
    used.update(name for name in internals.SCRIPT_STATE if f'"{name}"' in text)
    return unlisted, used


def test_the_markup_check_finds_what_it_should():
    sample = (
        '[data-testid="stMain"] a, [data-testid^="stBaseButton-primary"], .st-key-x .stCode, .katex-display\n'
        "document.querySelector('[data-testid=\"stBogus\"]'); .stVerticalBlock; .st-emotion-cache-1abc2de\n"
        'app.getAttribute("data-test-script-state") !== "notRunning"; data-test-bogus-state\n'
    )
    unlisted, used = _selected(sample)
    assert unlisted == {'data-testid="stBogus"', ".stVerticalBlock", "st-emotion-cache", "data-test-bogus-state"}
    assert used == {"stMain", "stBaseButton-", "st-key-", "stCode", "katex-display", *internals.SCRIPT_STATE}


def test_the_apps_css_and_scripts_select_only_the_tables_markup_and_all_of_it():
    """One list of every Streamlit markup name the app depends on: a selector of a name the table lacks fails here
    (add it to the table, which the bundle test then checks); a name no rule selects any more leaves the table."""
    unlisted: dict[str, set[str]] = {}
    used: set[str] = set()
    for path in _app_sources():
        missing, found = _selected(path.read_text(encoding="utf-8"))
        used |= found
        if missing:
            unlisted[str(path.relative_to(REPO))] = missing
    assert unlisted == {}, "Streamlit markup selected but not in streamlit_internals' table"
    assert set(internals.MARKUP) - used == set(), "in streamlit_internals' table but selected nowhere"


# --- the fence: nothing else reaches into Streamlit -------------------------------------------------------------

_PRIVATE_ST_ATTRIBUTES = {"runtime", "web", "proto", "elements", "errors", "delta_generator", "testing"}


def _private_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) of each use of a private Streamlit module in ``source`` that runs (not under ``if
    TYPE_CHECKING:``, an annotation's import): ``import streamlit.x``, ``from streamlit.x import y``, ``st._x`` and
    ``st.runtime``-like attributes."""
    tree = ast.parse(source)
    skipped = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}
        for statement in node.body
        for child in ast.walk(statement)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("streamlit.")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit."):
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.ImportFrom) and node.module == "streamlit":
            found += [(node.lineno, f"streamlit.{a.name}") for a in node.names if a.name in _PRIVATE_ST_ATTRIBUTES]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in {"st", "streamlit"}
            and (node.attr.startswith("_") or node.attr in _PRIVATE_ST_ATTRIBUTES)
        ):
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return sorted(found)


def test_only_streamlit_internals_uses_streamlits_private_modules():
    sample = (
        "import streamlit as st\nfrom streamlit.runtime import Runtime\nimport streamlit.web.cli\n"
        "from streamlit import errors\nst.components.v2.component\nst._config\nst.runtime.exists()\n"
        "if TYPE_CHECKING:\n    from streamlit.delta_generator import DeltaGenerator\n"
    )
    assert _private_uses(sample) == [
        (2, "streamlit.runtime"),
        (3, "streamlit.web.cli"),
        (4, "streamlit.errors"),
        (6, "st._config"),
        (7, "st.runtime"),
    ]  # the check finds them, and lets public and annotation-only uses be
    uses = {
        str(path.relative_to(REPO)): found
        for path in _app_sources()
        if path.suffix == ".py" and (found := _private_uses(path.read_text(encoding="utf-8")))
    }
    assert uses == {}, "use ir_metrics_lab.shell.streamlit_internals (add the hook there, with its contract test)"


def test_the_upgrade_page_lists_every_hook():
    """docs/upgrading-streamlit.md names each hook of the module and its contract test, and nothing the module lacks."""
    page = (REPO / "docs" / "upgrading-streamlit.md").read_text(encoding="utf-8")
    functions = {
        name
        for name, value in vars(internals).items()
        if inspect.isfunction(value) and value.__module__ == internals.__name__ and not name.startswith("_")
    }
    hooks = functions - {"warn_once"} | {"StreamlitAPIException", "MARKUP"}
    named = set(re.findall(r"^\| `(\w+)`", page, re.MULTILINE))
    assert named == hooks
    tests = set(re.findall(r"`(test_\w+)`", page))
    defined = {name for name in globals() if name.startswith("test_")}
    assert tests and tests <= defined

"""Loading runs and qrels in the app: uploads, the bundled samples and files given on the command line, cached by
content, with every failure turned into a one-line message (never a traceback). Shared by "Your data" and the
compare page.

Memory (a classroom server: many sessions, each may upload a 7M-row run, ~250 MB of text, ~110 MB parsed): an upload is
parsed once per upload, from the uploader's own bytes (no copy), and the parsed Run lives only in that session's state
(ir_metrics_lab.session.dataset_state), not in a server-wide cache: it is freed when the session replaces or removes the
file, or ends. After each parse, Arrow's allocator gives the parser's freed pages back to the system (release_memory).
Files on the server's disk (the samples, ``--run``/``--qrels``) are shared by every session: they are cached with
``st.cache_resource`` (one shared object; ``st.cache_data`` would keep a pickled copy and hand each caller another
unpickled one), and parsed from the file itself (pyarrow reads ahead in parallel). Evaluations, which are small
(one float per query and measure), go through ``st.cache_data``, bounded by entries and age.

Identity (for the evaluation cache): uploads by a blake2b digest of their bytes, computed once per upload; paths by
(path, size, mtime).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from ir_metrics_lab.core import numbers, words
from ir_metrics_lab.core.exports import notebook_files
from ir_metrics_lab.core.figures import query_charts
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.paths import SAMPLES_DIR
from ir_metrics_lab.session import dataset_state
from ir_metrics_lab.shell import upload_copy
from metrics.catalog.measure_lists import measure_names
from metrics.catalog.measures import parse_measure
from metrics.compare import leaderboard
from metrics.compare.leaderboard import Leaderboard
from metrics.core.errors import pointer
from metrics.evaluation.engine import Evaluation, evaluate
from metrics.evaluation.judged_coverage import JudgedCoverage, judged_coverage
from metrics.io import InputError, Qrels, Run, read_qrels, read_run
from metrics.io.subtopic_qrels import SubtopicQrels, read_subtopic_qrels

upload_copy.install()  # each script run would otherwise copy every uploaded file

SAMPLES = SAMPLES_DIR  # the clone's data/samples/, or the installed package's copy
SAMPLE_QRELS = SAMPLES / "qrels.txt.gz"
SAMPLE_RUNS = {  # strongest first
    "dense": SAMPLES / "dense.run.gz",
    "rrf": SAMPLES / "rrf.run.gz",
    "bm25": SAMPLES / "bm25.run.gz",
}
SAMPLE_ROLES = {"dense": "stronger", "rrf": "fusion of both", "bm25": "weaker"}
SAMPLE_DESCRIPTION = (
    "300 judged topics with grades 0-3 (12 with no relevant document, 6 that no run answers) and three runs "
    "retrieving 100 documents per topic (plus 4 unjudged topics): *dense* is the stronger system, *bm25* the weaker, "
    "and *rrf* fuses the two (reciprocal rank fusion). The files are synthetic, made for this app from a fixed "
    "random seed: judgments pooled from what the runs retrieved, as in real test collections, but no real queries."
)
FORMATS_HELP = (
    "TREC format (run: `qid Q0 docid rank score tag`; qrels: `qid iter docid grade`), or CSV/TSV with a header "
    "naming query, doc and score (or grade) columns; gzipped files (.gz) too."
)
SUBTOPIC_HELP = (
    "ndeval's subtopic qrels: `topic subtopic docno judgment`, numbers for topic, subtopic and judgment (above 0: "
    "the document covers that subtopic), as the TREC Web track's qrels for ndeval; gzipped files (.gz) too. They have "
    "four columns as plain qrels do, so they get their own box."
)
_MB = 1 << 20


@dataclass(frozen=True, eq=False)
class Loaded:
    """The outcome of loading one file: the parsed Run or Qrels, or a one-line error naming file, line and problem."""

    kind: str  # "run", "qrels" or "subtopics" (ndeval's subtopic qrels)
    name: str  # as shown to the user: the uploaded file's name or the path's base name
    key: tuple  # cache identity (content digest, or path, size and mtime)
    value: Run | Qrels | SubtopicQrels | None = None
    error: str | None = None
    seconds: float = 0.0
    # an uploaded file's bytes, kept when it is small enough to embed in a notebook
    # (ir_metrics_lab.core.exports.notebook_files.EMBED_BYTES)
    embeddable: bytes | None = None

    @property
    def ok(self) -> bool:
        return self.value is not None

    def summary(self) -> str:
        """One line for the page, e.g. ``bm25.run.gz: 29,800 lines, 298 queries``."""
        if self.value is None:
            return self.error or f"{self.name}: not loaded"
        if isinstance(self.value, Run):
            lines, queries = self.value.num_rows, len(self.value.query_ids)
        elif isinstance(self.value, SubtopicQrels):
            lines, queries = self.value.judgments, len(self.value.topics)
            subtopics = len({(t, s) for t, judged in self.value.topics.items() for s, _, j in judged if j > 0})
            took = f" (read in {self.seconds:.1f} s)" if self.seconds >= 0.5 else ""
            return (
                f"{self.name}: {words.count(lines, 'judgment')}, {words.count(queries, 'topic')}, "
                f"{words.count(subtopics, 'subtopic')} judged relevant{took}"
            )
        else:
            lines, queries = len(self.value.grade), len(self.value.query.unique())
        noun = "judgment" if self.kind == "qrels" else "line"
        took = f" (read in {self.seconds:.1f} s)" if self.seconds >= 0.5 else ""
        return f"{self.name}: {words.count(lines, noun)}, {words.count(queries, 'query')}{took}"


# --- loading (no widgets; tested directly) ------------------------------------------------------------------------


def upload_limit_mb() -> int:
    """server.maxUploadSize (MB): Streamlit's uploader enforces it; files given as paths are held to it here."""
    return int(st.get_option("server.maxUploadSize"))


def release_memory() -> None:
    """Give freed memory back to the system: the pages Arrow's pool keeps for reuse and glibc's free heap (an upload
    arrives in many small pieces). After a large file is parsed or replaced, the server's RSS goes back down."""
    pa.default_memory_pool().release_unused()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc (musl): nothing to trim
        return None


_LIBC = _libc()

# The app's Arrow buffers come from malloc, not from pyarrow's bundled mimalloc: a large buffer is then its own
# mapping, returned when freed, also when a session ends and no script runs to release anything. Measured with
# bench/app/app_large_run.py (7M-row run): 88 MiB rather than 165 MiB left above idle once an ended session is dropped,
# 58 MiB less held while the scores are shown, and the upload parsed in 1.04 s rather than 1.28 s. The CLI (which
# never imports this module) keeps pyarrow's default pool.
pa.set_memory_pool(pa.system_memory_pool())


def content_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def _too_big(name: str, size: int, limit_mb: int | None) -> str | None:
    if limit_mb is not None and size > limit_mb * _MB:
        return (
            f"{name}: the file is {size / _MB:,.1f} MB, over the {limit_mb} MB limit "
            "(server.maxUploadSize in .streamlit/config.toml; raise it to load larger files) "
            f"{pointer('upload-too-large')}"
        )
    return None


def _read(kind: str, source, name: str) -> Run | Qrels | SubtopicQrels:
    if kind == "subtopics":
        return read_subtopic_qrels(source if isinstance(source, str) else bytes(source), name=name)
    return read_run(source, name=name) if kind == "run" else read_qrels(source, name=name)


def _guarded(kind: str, name: str, key: tuple, read) -> Loaded:
    """Run ``read()`` and turn any failure into a Loaded with a one-line error."""
    started = time.perf_counter()
    try:
        value = read()
    except InputError as error:
        return Loaded(kind, name, key, error=str(error).splitlines()[0])
    except (ValueError, OSError, EOFError, UnicodeError) as error:
        return Loaded(kind, name, key, error=f"{name}: cannot be read as a {kind} file ({_one_line(error)})")
    except MemoryError:
        return Loaded(kind, name, key, error=f"{name}: not enough memory to load this {kind} file")
    except Exception as error:  # a bug of ours must not show the user a traceback
        return Loaded(
            kind, name, key, error=f"{name}: unexpected error while reading ({type(error).__name__}); please report it"
        )
    return Loaded(kind, name, key, value=value, seconds=time.perf_counter() - started)


def _one_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@st.cache_resource(max_entries=4, ttl=3600, show_spinner=False)
def _load_path_cached(kind: str, name: str, path: str, size: int, mtime_ns: int) -> Loaded:
    loaded = _guarded(kind, name, ("path", path, size, mtime_ns), lambda: _read(kind, path, name))
    release_memory()
    return loaded


def load_bytes(kind: str, name: str, data: bytes | memoryview, *, limit_mb: int | None = None) -> Loaded:
    """Parse uploaded bytes (any bytes-like object, read in place). Never raises. Not cached across sessions: the
    caller keeps the result in its session."""
    problem = _too_big(name, memoryview(data).nbytes, limit_mb)
    if problem:
        return Loaded(kind, name, ("bytes", None), error=problem)
    release_memory()  # what receiving the upload freed (Streamlit's request buffers) goes back before parsing
    loaded = _guarded(kind, name, ("bytes", content_digest(data)), lambda: _read(kind, data, name))
    release_memory()
    if loaded.ok and memoryview(data).nbytes <= notebook_files.EMBED_BYTES:
        loaded = dataclasses.replace(loaded, embeddable=bytes(data))
    return loaded


def load_path(kind: str, path: str | os.PathLike, *, limit_mb: int | None = None) -> Loaded:
    """Parse a file on disk (cached by path, size and mtime). Never raises."""
    path = Path(path).expanduser()
    name = path.name or str(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        return Loaded(kind, name, ("path", str(path)), error=f"{path}: no such file {pointer('file-missing')}")
    except OSError as error:
        return Loaded(kind, name, ("path", str(path)), error=f"{path}: cannot be read ({_one_line(error)})")
    if path.is_dir():
        return Loaded(kind, name, ("path", str(path)), error=f"{path}: is a directory, not a file")
    problem = _too_big(name, info.st_size, limit_mb)
    if problem:
        return Loaded(kind, name, ("path", str(path)), error=problem)
    return _load_path_cached(kind, name, str(path.resolve()), info.st_size, info.st_mtime_ns)


# --- measures and evaluation ----------------------------------------------------------------------------------


def parse_measures(chosen: Sequence[str], extra: str) -> tuple[list[str], list[str]]:
    """The measures to compute: the chosen names, then the typed ones ("P@5, nDCG@20"), one per canonical measure
    (the first spelling wins). Returns (names, one error per bad typed name)."""
    names: list[str] = []
    errors: list[str] = []
    seen: set[str] = set()
    typed = [item for item in re.split(r"[,;\s]+", extra or "") if item]
    for text in [*chosen, *typed]:
        try:  # trec_eval's bare names and nicknames expand as in the CLI: P is P_5 ... P_1000
            expanded = [name for name in measure_names([text]) if name.lower() != "runid"]
        except ValueError as error:
            errors.append(str(error))
            continue
        for name in expanded:
            try:
                canonical = parse_measure(name).canonical
            except ValueError as error:
                errors.append(str(error))
                continue
            if canonical not in seen:
                seen.add(canonical)
                names.append(name.strip())
    return names, errors


numeric_names = numbers.numeric_names  # shared with the notebooks (ir_metrics_lab.core.numbers)
summary_labels = numbers.summary_labels


@st.cache_data(max_entries=32, ttl=3600, show_spinner=False)
def _evaluate_cached(
    run_key: tuple, qrels_key: tuple, subtopics_key, measures: tuple[str, ...], complete: bool, _run, _qrels, _subtopics
):
    return evaluate(_run, _qrels, measures, complete=complete, subtopic_qrels=_subtopics)


def subtopics_in_use(subtopics: Loaded | None) -> SubtopicQrels | None:
    """The subtopic qrels the measures read, when loaded without error."""
    return subtopics.value if subtopics is not None and isinstance(subtopics.value, SubtopicQrels) else None


def evaluate_loaded(
    run: Loaded, qrels: Loaded | None, measures: Sequence[str], complete: bool, subtopics: Loaded | None = None
) -> Evaluation:
    """The Evaluation of two loaded files (and the subtopic qrels the diversity measures read, if loaded; ``qrels``
    None: those alone), cached by their identities. Raises ValueError for bad measures."""
    judged = subtopics_in_use(subtopics)
    key = subtopics.key if judged is not None and subtopics is not None else None
    plain_key, plain = (qrels.key, qrels.value) if qrels is not None else (None, None)
    return _evaluate_cached(run.key, plain_key, key, tuple(measures), complete, run.value, plain, judged)


def subtopic_overlap_message(run: Loaded, subtopics: Loaded | None) -> str | None:
    """Say so when no run query is a topic of the subtopic qrels (ndeval's topics are numbers)."""
    judged = subtopics_in_use(subtopics)
    if judged is None or not judged.topics:
        return None
    run_ids = [str(q) for q in run.value.query_ids.to_pylist()]
    if not run_ids or any(judged.topic_of(q) is not None for q in run_ids):
        return None
    return (
        f"None of the {words.count(len(run_ids), 'query')} in {run.name} is a topic of {subtopics.name} (the run has "
        f"e.g. {run_ids[0]!r}, the subtopic qrels topic {next(iter(judged.topics))!r}), so every diversity measure "
        "is 0: are these the right files?"
    )


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def _coverage_cached(run_key: tuple, qrels_key: tuple, _run, _qrels) -> JudgedCoverage:
    return judged_coverage(_run, _qrels)


def coverage(run: Loaded, qrels: Loaded) -> JudgedCoverage:
    """How many retrieved documents of the shared queries are judged (metrics.evaluation.judged_coverage), cached."""
    return _coverage_cached(run.key, qrels.key, run.value, qrels.value)


def no_overlap_message(run: Loaded, qrels: Loaded) -> str | None:
    """Say so when no run query has judgments: the files are likely mismatched (or their ids spelled differently)."""
    run_ids, judged = run.value.query_ids, qrels.value.query
    if len(run_ids) == 0 or len(judged) == 0:
        return None
    if pc.any(pc.is_in(run_ids, value_set=judged.unique())).as_py():
        return None
    n = len(run_ids)
    return (
        f"None of the {n:,} quer{'y' if n == 1 else 'ies'} in {run.name} has judgments in {qrels.name} "
        f"(the run has e.g. {run_ids[0].as_py()!r}, the qrels {judged[0].as_py()!r}): are these the right files?"
    )


# --- charts -----------------------------------------------------------------------------------------------------


# ir_metrics_lab.core.figures draws every chart (no Streamlit)
distribution_figure = query_charts.distribution


# --- widgets ----------------------------------------------------------------------------------------------------


def upload_input(slot: str, kind: str, label: str, *, key: str, formats: str | None = None) -> Loaded | None:
    """A file uploader whose file is parsed once per upload and kept in ``slot`` (ir_metrics_lab.session.dataset_state):
    it survives page switches, although Streamlit empties the uploader widget then. Removing the file (×) clears the
    slot."""
    uploaded = st.file_uploader(
        label, key=key, on_change=dataset_state.mark_upload_changed, args=(slot,), help=formats or FORMATS_HELP
    )
    if dataset_state.upload_changed(slot):
        if uploaded is None:
            dataset_state.clear_loaded_file(slot)
            release_memory()
        else:
            with st.spinner(plain(f"Reading {uploaded.name}…"), show_time=True):
                dataset_state.clear_loaded_file(slot)  # the old file's Run goes before the new one is parsed
                # getvalue() hands over the uploader's own bytes object (BytesIO shares it); getbuffer() would copy it
                loaded = load_bytes(kind, uploaded.name, uploaded.getvalue(), limit_mb=upload_limit_mb())
            dataset_state.set_loaded_file(slot, loaded)
        dataset_state.upload_handled(slot)
    loaded = dataset_state.loaded_file(slot)
    if loaded is not None and uploaded is None:  # the uploader was emptied by a page switch, not by the user
        note_col, remove_col = st.columns([4, 1], vertical_alignment="center")
        note_col.caption(f"Still loaded from before: **{plain(loaded.name)}**. Upload another file to replace it.")
        remove_col.button(
            "Remove",
            key=f"{key}_remove",
            on_click=dataset_state.clear_loaded_file,
            args=(slot,),
            icon=":material/close:",
        )
    return loaded


def upload_runs(slot: str, label: str, *, key: str) -> list[Loaded]:
    """A multi-file uploader for runs. Each file is parsed once, one at a time with a progress bar, and the list is kept
    in ``slot`` (ir_metrics_lab.session.dataset_state), so it survives page switches although Streamlit empties the
    uploader then."""
    uploaded = st.file_uploader(
        label,
        key=key,
        accept_multiple_files=True,
        on_change=dataset_state.mark_upload_changed,
        args=(slot,),
        help=FORMATS_HELP,
    )
    if dataset_state.upload_changed(slot):
        if not uploaded:
            dataset_state.clear_loaded_file(slot)
        else:
            bar = st.progress(0.0)
            loaded = []
            for index, file in enumerate(uploaded):
                bar.progress(
                    index / len(uploaded), text=plain(f"Reading run {index + 1} of {len(uploaded)}: {file.name}")
                )
                loaded.append(load_bytes("run", file.name, file.getvalue(), limit_mb=upload_limit_mb()))
            bar.empty()
            dataset_state.set_loaded_file(slot, tuple(loaded))
        dataset_state.upload_handled(slot)
    loaded = list(dataset_state.loaded_file(slot) or ())
    if loaded and not uploaded:  # the uploader was emptied by a page switch, not by the user
        note_col, remove_col = st.columns([4, 1], vertical_alignment="center")
        names = ", ".join(item.name for item in loaded)
        note_col.caption(f"Still loaded from before: **{plain(names)}**. Upload files to replace them.")
        remove_col.button(
            "Remove",
            key=f"{key}_remove",
            on_click=dataset_state.clear_loaded_file,
            args=(slot,),
            icon=":material/close:",
        )
    return loaded


@dataclass(frozen=True, eq=False)
class RunSource:
    """One run of the compare page: its name, its cache identity, and where its rankings come from. Samples and
    uploads keep their parsed Run (``loaded``); files given on the command line are only evaluated (one at a time,
    keeping per-query values) and read again, uncached, when a query of theirs is opened (``path``)."""

    name: str
    key: tuple
    loaded: Loaded | None = None
    path: str | None = None

    def ranking_of(self, query_id: str) -> list[str]:
        """The run's ranking of one query (what ir_metrics_lab.session.drilldown needs to open it)."""
        return read_run(self.run_input).ranking_of(query_id)

    @property
    def run_input(self) -> Run | str:
        """What metrics.io.read_run reads: the parsed Run, or the file's path (read again when needed)."""
        return self.loaded.value if self.loaded is not None else self.path

    @property
    def file_name(self) -> str:
        """The file's name as the user gave it (an upload's name, or the path's last part)."""
        return self.loaded.name if self.loaded is not None else Path(self.path).name


def loaded_source(name: str, loaded: Loaded) -> RunSource:
    return RunSource(name, loaded.key, loaded=loaded)


def path_source(name: str, path: str) -> RunSource:
    """A run file on disk, identified by path, size and mtime (a missing file gets a key that never matches)."""
    try:
        info = Path(path).expanduser().stat()
        key = ("path", str(Path(path).expanduser().resolve()), info.st_size, info.st_mtime_ns)
    except OSError:
        key = ("path", str(path), None, None)
    return RunSource(name, key, path=str(Path(path).expanduser()))


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _evaluate_path_cached(
    run_key: tuple, qrels_key: tuple, subtopics_key, measures: tuple[str, ...], _path: str, _qrels, _subtopics
):
    """Read one run file, evaluate it and let the parsed rows go: only the per-query values are kept."""
    return evaluate(read_run(_path), _qrels, measures, subtopic_qrels=_subtopics)


def evaluate_sources(
    sources: Sequence[RunSource], qrels: Loaded, measures: Sequence[str], subtopics: Loaded | None = None
) -> tuple[dict[str, Evaluation], dict[str, str]]:
    """({name: Evaluation} of every run that could be read, {name: why not} of the others), with a progress bar
    while files on disk are read one at a time. A file that cannot be read (a duplicate doc, a bad line) is skipped
    with its message, as an upload is; the bar is gone when this returns. The diversity measures read ``subtopics``
    when loaded. Raises ValueError for bad measures."""
    judged = subtopics_in_use(subtopics)
    judged_key = subtopics.key if judged is not None and subtopics is not None else None
    on_disk = [source for source in sources if source.path is not None]
    bar = st.progress(0.0) if on_disk else None
    evaluations, skipped = {}, {}
    done = 0
    try:
        for source in sources:
            if source.loaded is not None:
                evaluations[source.name] = evaluate_loaded(source.loaded, qrels, measures, False, subtopics)
                continue
            text = plain(f"Reading run {done + 1} of {len(on_disk)}: {source.name}")
            bar.progress(done / len(on_disk), text=text)
            done += 1
            try:
                evaluations[source.name] = _evaluate_path_cached(
                    source.key, qrels.key, judged_key, tuple(measures), source.path, qrels.value, judged
                )
            except InputError as error:  # the file's own problem, named by file and line
                skipped[source.name] = _one_line(error)
            except (OSError, EOFError, UnicodeError) as error:
                skipped[source.name] = f"{source.path}: cannot be read ({_one_line(error)})"
    finally:
        if bar is not None:
            bar.empty()
    return evaluations, skipped


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def _leaderboard_cached(keys: tuple, test: str, correction: str, _evaluations: dict) -> Leaderboard:
    return leaderboard.from_evaluations(_evaluations, test=test, correction=correction)


def leaderboard_of(
    sources: Sequence[RunSource],
    qrels: Loaded,
    evaluations: dict[str, Evaluation],
    test: str,
    correction: str,
    subtopics: Loaded | None = None,
) -> Leaderboard:
    """The leaderboard of evaluated runs, cached by the runs' identities, the qrels (and subtopic qrels), the
    measures, the test and the correction."""
    measures = tuple(next(iter(evaluations.values())).per_query) if evaluations else ()
    judged_key = subtopics.key if subtopics_in_use(subtopics) is not None and subtopics is not None else None
    keys = (tuple((source.name, source.key) for source in sources), qrels.key, judged_key, measures)
    return _leaderboard_cached(keys, test, correction, evaluations)


def path_input(slot: str, kind: str, path: str) -> Loaded:
    """A file given on the command line, loaded (and kept in ``slot``) when the path or the file changes."""
    with st.spinner(plain(f"Reading {Path(path).name}…"), show_time=True):
        loaded = load_path(kind, path, limit_mb=upload_limit_mb())
    dataset_state.set_loaded_file(slot, loaded)
    return loaded


def show_status(loaded: Loaded | None) -> None:
    """A loaded file's one-line summary, or its error (the file, the line and the problem), as plain text."""
    if loaded is None:
        return
    if loaded.ok:
        st.success(plain(loaded.summary()), icon=":material/check_circle:")
    else:
        st.error(plain(loaded.error), icon=":material/error:")

"""A notebook's data files: the app's bundled samples, a user's uploads read from beside the notebook, or uploads
carried inside it (gzip, base64) and written out by the notebook itself; and the notebook's words on where its data
is. Pure (no Streamlit).

A file's name reaches a code cell only as a literal (ir_metrics_lab.core.exports.notebook_cells.literal) and a
Markdown cell only through ir_metrics_lab.core.markdown.plain; an embedded file is written under the last part of its
name, never a path.
"""

from __future__ import annotations

import base64
import gzip
from collections.abc import Mapping, Sequence
from pathlib import PurePath

from ir_metrics_lab.core.exports.notebook_cells import literal
from ir_metrics_lab.core.markdown import plain

EMBED_BYTES = 5 << 20  # an uploaded file up to this size can travel inside the notebook (the pages offer it)


def embedded_name(file_name: str) -> str:
    """The name an embedded file is written under, beside the notebook: the uploaded name's last part, never a path.

    >>> embedded_name("../../etc/passwd"), embedded_name(".."), embedded_name("run.txt")
    ('passwd', 'uploaded-file', 'run.txt')
    """
    name = PurePath(str(file_name).replace("\\", "/")).name
    return name if name not in ("", ".", "..") else "uploaded-file"


def _embedding(files: Sequence[tuple]) -> list[str]:
    """Lines that write each embedded file (("embedded", name, bytes)) beside the notebook unless one is there."""
    embedded = {embedded_name(source[1]): source[2] for source in files if source[0] == "embedded"}
    if not embedded:
        return []
    lines = [
        "import base64",
        "import gzip",
        "",
        "# Your uploaded files travel inside this notebook (gzip, base64): each is written beside it unless a file of",
        "# that name is already there.",
        "EMBEDDED = {",
    ]
    for name, data in embedded.items():
        packed = base64.b64encode(gzip.compress(data, mtime=0)).decode("ascii")
        lines.append(f"    {literal(name)}: {packed!r},")
    lines += [
        "}",
        "for name, packed in EMBEDDED.items():",
        "    if not pathlib.Path(name).exists():",
        "        pathlib.Path(name).write_bytes(gzip.decompress(base64.b64decode(packed)))",
        "",
    ]
    return lines


def data_files_source(files: Mapping[str, tuple]) -> str:
    """``NAME = path`` for each input: ("sample", file name) is one of the app's bundled samples, ("upload", file
    name) a file the user puts beside the notebook (the kernel's working folder), checked before it is read, and
    ("embedded", file name, bytes) an uploaded file the notebook carries and writes there itself."""
    lines = [
        "import pathlib",
        "",
        "from ir_metrics_lab.core.paths import SAMPLES_DIR",
        "",
        *_embedding(list(files.values())),
    ]
    uploads = []
    for name, source in files.items():
        if source[0] == "sample":
            lines.append(f"{name} = SAMPLES_DIR / {literal(source[1])}  # bundled with the app")
        elif source[0] == "embedded":
            lines.append(f"{name} = pathlib.Path({literal(embedded_name(source[1]))})  # embedded above")
        else:
            lines.append(
                f"{name} = pathlib.Path({literal(source[1])})  # the uploaded file: put it beside this notebook"
            )
            uploads.append(name)
    if uploads:
        lines += [
            "",
            f"for path in ({', '.join(uploads)},):",
            "    if not path.is_file():",
            "        raise FileNotFoundError(f'put {path.name!r} in {pathlib.Path.cwd()} and run again')",
        ]
    return "\n".join(lines)


def data_section(files: Sequence[tuple], what: str) -> str:
    """The notebook's words on its data: the samples, files carried inside it, or files to put beside it."""
    uploaded = [plain(source[1], one_line=True) for source in files if source[0] == "upload"]
    embedded = [plain(embedded_name(source[1]), one_line=True) for source in files if source[0] == "embedded"]
    if not uploaded and not embedded:
        return f"## The data\n\nThe sample {what} bundled with the app."
    said = []
    if embedded:
        said.append(
            "Your files (" + ", ".join(embedded) + ") travel inside this notebook: the next cell writes them beside it."
        )
    if uploaded:
        said.append(
            "Your files (" + ", ".join(uploaded) + ") are read from this notebook's folder: put them beside it."
        )
    return "## The data\n\n" + " ".join(said)


def _path(kind: str, file_name: str, *_: object) -> str:
    if kind == "sample":
        return f"SAMPLES_DIR / {literal(file_name)}"
    if kind == "embedded":
        return f"pathlib.Path({literal(embedded_name(file_name))})"
    return f"pathlib.Path({literal(file_name)})"


def run_files_source(runs: Mapping[str, tuple], qrels: tuple) -> str:
    """``RUN_FILES = {name: path}`` and ``QRELS = path`` (each source as for data_files_source), checked before they
    are read."""
    files = [
        "import pathlib",
        "",
        "from ir_metrics_lab.core.paths import SAMPLES_DIR",
        "",
        *_embedding([*runs.values(), qrels]),
    ]
    files += ["RUN_FILES = {"]
    files += [f"    {literal(name)}: {_path(*source)}," for name, source in runs.items()]
    files += ["}", f"QRELS = {_path(*qrels)}"]
    files += [
        "for path in (*RUN_FILES.values(), QRELS):",
        "    if not path.is_file():",
        "        raise FileNotFoundError(f'put {path.name!r} in {pathlib.Path.cwd()} and run again')",
    ]
    return "\n".join(files)

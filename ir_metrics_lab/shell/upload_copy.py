"""An uploaded file's bytes shared, not copied, on each script run.

Streamlit hands every script run a deep copy of each widget's value, so that user code cannot change the stored
one. For an uploaded file (an ``io.BytesIO``) ``copy.deepcopy`` writes the whole upload into a new buffer: a second
copy of a 250 MB run in server memory before the script reads a byte of it (measured: +243 MiB, 1x the file). Its
bytes are immutable, so a copy that shares them is as safe: a new file object, its own read position, the same bytes.
Building that copy and installing it take Streamlit's private pieces (ir_metrics_lab.shell.streamlit_internals).
"""

from __future__ import annotations

from typing import Any

from ir_metrics_lab.shell import streamlit_internals


def _deepcopy_sharing_bytes(self: Any, memo: dict) -> Any:
    # getvalue() returns the buffer's own bytes object while the file is unmodified (CPython's BytesIO shares it)
    twin = streamlit_internals.uploaded_file_twin(self)
    twin.seek(self.tell())
    return twin


def install() -> None:
    """Give Streamlit's UploadedFile the sharing deep copy (idempotent). If this Streamlit cannot build the copy,
    its own copying one stays, with a warning."""
    try:
        streamlit_internals.uploaded_file_twin(streamlit_internals.uploaded_file("probe", "probe", "", b"probe"))
        streamlit_internals.set_uploaded_file_deepcopy(_deepcopy_sharing_bytes)
    except streamlit_internals.MissingHook as missing:
        streamlit_internals.warn_once(missing, "each script run copies every uploaded file")

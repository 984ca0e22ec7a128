"""An uploaded file's bytes shared, not copied, on each script run.

Streamlit hands every script run a deep copy of each widget's value, so that user code cannot change the stored
one. For an uploaded file (an ``io.BytesIO``) ``copy.deepcopy`` writes the whole upload into a new buffer: a second
copy of a 250 MB run in server memory before the script reads a byte of it (measured: +243 MiB, 1x the file). Its
bytes are immutable, so a copy that shares them is as safe: a new file object, its own read position, the same bytes.
"""

from __future__ import annotations

from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec


def _deepcopy_sharing_bytes(self: UploadedFile, memo: dict) -> UploadedFile:
    # getvalue() returns the buffer's own bytes object while the file is unmodified (CPython's BytesIO shares it)
    record = UploadedFileRec(self.file_id, self.name, self.type, self.getvalue())
    twin = UploadedFile(record, self._file_urls)
    twin.seek(self.tell())
    return twin


def install() -> None:
    """Give Streamlit's UploadedFile the sharing deep copy (idempotent)."""
    UploadedFile.__deepcopy__ = _deepcopy_sharing_bytes

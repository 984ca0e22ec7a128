"""The run's tag (trec_eval's runid): the 6th column of a TREC run file's last line that is neither blank nor a
comment (trec_eval keeps the tag of the last line it reads, without checking that the lines agree)."""

from __future__ import annotations

import gzip
import io
import os
from typing import IO

from metrics.io.text.layout import is_content

_GZIP_MAGIC = b"\x1f\x8b"
_TAIL_BYTES = 1 << 16


def run_tag(source) -> str | None:
    """The tag of the last line of a TREC run (a path or bytes, gzip decided by content), or None when the input
    is not a TREC run file of six or more columns (a CSV with a header, a DataFrame, a dict).

    >>> run_tag(b"q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1.5 bm25-rerank\\n# the end\\n")
    'bm25-rerank'
    """
    stream: IO[bytes]
    if isinstance(source, (bytes, bytearray, memoryview)):
        stream = io.BytesIO(bytes(source))
    elif isinstance(source, (str, os.PathLike)):
        stream = open(source, "rb")  # noqa: SIM115 - closed below
    else:
        return None
    with stream:
        if stream.read(2) == _GZIP_MAGIC:
            stream.seek(0)
            with gzip.GzipFile(fileobj=stream) as lines:  # no seeking back in gzip: read it through
                last = None
                for raw in lines:
                    last = raw if is_content(raw) else last
            return _tag(last)
        return _tag(_last_content_line(stream))


def _last_content_line(stream) -> bytes | None:
    """The last line that is neither blank nor a comment, read from the end backwards a block at a time."""
    end = stream.seek(0, io.SEEK_END)
    tail = b""
    while end > 0:
        start = max(0, end - _TAIL_BYTES)
        stream.seek(start)
        tail = stream.read(end - start) + tail
        end = start
        lines = tail.split(b"\n")
        complete = lines if start == 0 else lines[1:]  # the first piece may be the end of a longer line
        for raw in reversed(complete):
            if is_content(raw):
                return raw
        tail = lines[0] if start else b""
    return None


def _tag(line: bytes | None) -> str | None:
    if line is None:
        return None
    fields = line.decode("utf-8", errors="replace").split()
    return fields[5] if len(fields) >= 6 else None

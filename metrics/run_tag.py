"""The run's tag (trec_eval's runid): the 6th column of a TREC run file's first line."""

from __future__ import annotations

import gzip
import io
import os

_GZIP_MAGIC = b"\x1f\x8b"


def run_tag(source) -> str | None:
    """The tag of the first line of a TREC run (a path or bytes, gzip decided by content), or None when the input
    is not a six-column TREC file (a CSV with a header, a DataFrame, a dict).

    >>> run_tag(b"q1 Q0 d1 1 2.5 bm25\\n")
    'bm25'
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        stream = io.BytesIO(bytes(source))
    elif isinstance(source, (str, os.PathLike)):
        stream = open(source, "rb")  # noqa: SIM115 - closed below
    else:
        return None
    with stream:
        if stream.read(2) == _GZIP_MAGIC:
            stream.seek(0)
            stream = gzip.GzipFile(fileobj=stream)
        else:
            stream.seek(0)
        for raw in stream:
            line = raw.decode("utf-8", errors="replace").strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            return fields[5] if len(fields) >= 6 else None
    return None

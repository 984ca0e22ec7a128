"""Where the bytes come from (a path or bytes in memory), gzip decided by the content (its magic bytes), and the
lines of the slow path."""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from metrics.io.rules import InputError

HEAD_BYTES = 1 << 16
BLOCK_BYTES = 1 << 22  # pyarrow parses this much at a time; a longer line cannot be parsed
PIECE_BYTES = 64 << 20  # a streamed run's text read and parsed at a time (metrics.io.text.stream): ~1.7M TREC lines


@dataclass
class TextSource:
    name: str
    path: str | None
    data: bytes | memoryview | None
    gz: bool
    head: bytes  # the first bytes (decompressed), BOM removed, for sniffing the layout

    @classmethod
    def open(cls, source, name: str | None) -> TextSource:
        if isinstance(source, bytes | bytearray | memoryview):
            data = source if isinstance(source, bytes) else memoryview(source).cast("B")  # read in place, no copy
            gz = bytes(data[:2]) == b"\x1f\x8b"
            if gz:
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError, gzip.BadGzipFile) as error:
                    raise InputError("gzip-invalid", f"not a valid gzip file ({error})", name or "input") from None
            return cls(name or "input", None, data, False, strip_bom(bytes(data[:HEAD_BYTES])))
        path = os.fspath(source)
        display = name or os.path.basename(path) or path
        try:
            with open(path, "rb") as raw:
                gz = raw.read(2) == b"\x1f\x8b"
            with gzip.open(path, "rb") if gz else open(path, "rb") as stream:
                head = stream.read(HEAD_BYTES)
        except FileNotFoundError:
            raise InputError("file-missing", "no such file", display) from None
        except (gzip.BadGzipFile, EOFError, zlib.error) as error:  # (only a gzip file raises these)
            raise InputError("gzip-invalid", f"not a valid gzip file ({error})", display) from None
        except IsADirectoryError:
            raise InputError("file-unreadable", "is a directory, not a file", display) from None
        except PermissionError:
            raise InputError("file-unreadable", "permission denied", display) from None
        except OSError as error:
            problem = f"cannot be read ({error.__class__.__name__}: {error})"
            raise InputError("file-unreadable", problem, display) from None
        return cls(display, path, None, gz, strip_bom(head))

    def read_all(self) -> bytes:
        if self.data is not None:
            return bytes(self.data)  # a copy only for a memoryview (the rare whitespace-squeezing path)
        assert self.path is not None  # a source without data is a file
        try:
            with gzip.open(self.path, "rb") if self.gz else open(self.path, "rb") as stream:
                return stream.read()
        except (gzip.BadGzipFile, EOFError, zlib.error) as error:  # a gzip file cut short or damaged further on
            raise InputError("gzip-invalid", f"not a valid gzip file ({error})", self.name) from None
        except OSError as error:
            problem = f"cannot be read ({error.__class__.__name__}: {error})"
            raise InputError("file-unreadable", problem, self.name) from None

    def arrow_input(self):
        import pyarrow as pa  # here: a file read in plain Python (metrics.io.text.plain) never loads it

        if self.data is not None:
            return pa.BufferReader(pa.py_buffer(self.data))  # py_buffer: no copy, 2-4x faster than bytes
        if self.gz:
            return pa.input_stream(self.path, compression="gzip")
        # A file, not its path: given a path, pyarrow picks a decompressor by the name (a plain run.gz would fail);
        # the content decided (self.gz). Same speed: pyarrow opens the path as this same file.
        return pa.OSFile(self.path)

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """(line number, raw line without its newline), BOM removed from line 1."""
        stream: IO[bytes] | gzip.GzipFile
        if self.data is not None:
            stream = io.BytesIO(self.data)
        else:
            assert self.path is not None  # a source without data is a file
            stream = gzip.open(self.path, "rb") if self.gz else open(self.path, "rb")  # noqa: SIM115
        with stream:
            for number, line in enumerate(stream, start=1):
                if number == 1:
                    line = strip_bom(line)
                yield number, line.rstrip(b"\r\n")


def strip_bom(data: bytes) -> bytes:
    return data[3:] if data[:3] == b"\xef\xbb\xbf" else data


def is_parquet(source) -> bool:
    """A directory (a dataset), a .parquet / .pq file, or a file that starts with Parquet's magic bytes."""
    if not isinstance(source, str | os.PathLike):
        return False
    path = os.fspath(source)
    if os.path.isdir(path):  # a dataset when it holds a Parquet file (else: "is a directory, not a file")
        return any(name.lower().endswith((".parquet", ".pq")) for _, _, names in os.walk(path) for name in names)
    if path.lower().endswith((".parquet", ".pq")):
        return True
    try:
        with open(path, "rb") as stream:
            return stream.read(4) == b"PAR1"
    except OSError:
        return False


def rows_per_query(path, sample_bytes: int = 1 << 18) -> float | None:
    """About how many rows a query has in a plain text run file, from its first ``sample_bytes`` (whole lines, the
    first field taken as the query; a header line counts as one more query): a hint for how to read the file, never
    a check. None for a gzip, Parquet or unreadable file, one with fewer than two lines in the sample, or one whose
    queries are not contiguous there (a query's rows in two places: reading it in blocks would regroup it on disk)."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(sample_bytes)
    except (OSError, TypeError):
        return None
    if head[:2] == b"\x1f\x8b" or head[:4] == b"PAR1":
        return None
    lines = strip_bom(head).split(b"\n")[:-1]  # the last piece may be a cut line
    if len(lines) < 2:
        return None
    seen: set[bytes] = set()
    previous = None
    for line in lines:
        fields = line.replace(b",", b" ").split(None, 1)
        query = fields[0] if fields else b""
        if query != previous:
            if query in seen:
                return None
            seen.add(query)
            previous = query
    return len(lines) / len(seen)

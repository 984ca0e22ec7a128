"""What a value of a run or qrels must be: the one statement of each rule, and the error every reader raises.

The line scanner (scan.py) applies a rule to one token (``id_problem``, ``score_problem``, ``grade_problem``); the
fast path (fast.py) applies the same rule to whole columns (``ids_ok``, ``values_ok``) and, when a column breaks one,
hands over to the scanner: both paths refuse the same values with the same message. ``InputError`` (metrics.core.errors)
is imported from here by the readers.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from metrics.core.errors import InputError as InputError  # the readers import it from here
from metrics.io.arrays.parallel import by_halves

if TYPE_CHECKING:
    import pyarrow as pa

MAPPING_ADVICE = "map scores to integer grades explicitly, e.g. 1 if score >= 0.5 else 0, or round(10 * score)"
MAX_GRADE = 2**31 - 1  # grades are small integers (trec_eval reads them as C ints); beyond this: a score column
MAX_ID_BYTES = 4096  # a query or doc id; real ids (even URLs) are far shorter
SHOWN_CHARS = 40  # a bad token is quoted up to this many characters


def quoted(token: str) -> str:
    """A token of the input as an error message quotes it: whole if short, else its first characters and length."""
    if len(token) <= SHOWN_CHARS:
        return repr(token)
    return f"{token[:SHOWN_CHARS]!r}… ({len(token):,} characters)"


class Problem(NamedTuple):
    """Why a value is refused: an InputError's code and problem (``InputError(*problem, path=..., line=...)``)."""

    code: str
    text: str


def id_problem(role: str, value: str) -> Problem | None:
    """Why a query or doc id (``role``: "query" or "doc") is refused, or None."""
    if value == "":
        return Problem("id-empty", f"the {role} id is empty")
    size = len(value.encode("utf-8", "surrogatepass"))
    if size > MAX_ID_BYTES:
        text = f"the {role} id {quoted(value)} is {size:,} bytes long; ids are at most {MAX_ID_BYTES:,} bytes"
        return Problem("id-too-long", text)
    return None


def score_problem(token: str, role: str = "score") -> Problem | None:
    """Why a score (or another number, named by ``role``) is refused (it must be a number, not NaN), or None."""
    try:
        number = float(token)
    except ValueError:
        number = math.nan
    return Problem("not-a-number", f"{role} {quoted(token)} is not a number") if math.isnan(number) else None


def grade_problem(token: str) -> Problem | None:
    """Why a grade is refused (an integer, 1.0 read as 1, of at most MAX_GRADE in size), or None."""
    number: float
    not_integer = Problem("grade-not-integer", f"grade {quoted(token)} is not an integer; {MAPPING_ADVICE}")
    try:
        number = int(token)
    except ValueError:
        try:
            number = float(token)
        except ValueError:
            return not_integer
        if not (math.isfinite(number) and number == math.floor(number)):
            return not_integer
    if abs(number) > MAX_GRADE:
        text = f"grade {quoted(token)} is out of range: grades are integers from -{MAX_GRADE:,} to {MAX_GRADE:,}"
        return Problem("grade-out-of-range", text)
    return None


def ids_ok(column: pa.ChunkedArray) -> bool:
    """id_problem's rules for a whole column (no id empty or over MAX_ID_BYTES), and valid UTF-8 without NUL bytes
    (trec_eval would cut a string at a NUL). ASCII is checked with two numpy reductions per chunk; only a chunk with
    other bytes needs Arrow's full UTF-8 validation."""
    import pyarrow as pa  # here: the plain-Python reader (metrics.io.text.plain) checks ids itself

    from metrics.io.arrays.conversions import string_views

    def clean(first: int, stop: int) -> bool:
        for chunk in column.chunks[first:stop]:
            offsets, values = string_views(chunk)
            if len(offsets) > 1:
                lengths = np.diff(offsets)
                if lengths.min() == 0 or lengths.max() > MAX_ID_BYTES:
                    return False
            if not len(values):
                continue
            if not values.min():
                return False
            if values.max() >= 0x80:
                try:
                    chunk.validate(full=True)
                except pa.ArrowInvalid:
                    return False
        return True

    return all(by_halves(clean, column.num_chunks, len(column)))


def values_ok(column: pa.ChunkedArray, kind: str) -> bool:
    """score_problem's and grade_problem's rules for a whole column: scores not NaN, grades integers (1.0 is read
    as 1) of at most MAX_GRADE in size."""
    from metrics.io.arrays.conversions import float64_parts, float_numpy

    if column.null_count:
        return False
    if kind == "run":  # chunk by chunk: no concatenated copy of 7M scores
        return not any(np.isnan(part).any() for part in float64_parts(column, 0, len(column)))
    values = float_numpy(column)
    return bool(np.all((values == np.floor(values)) & (np.abs(values) <= MAX_GRADE)))

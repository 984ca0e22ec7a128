"""InputError: the one error every refusal of bad input raises (a file's line, a command-line option, a value typed in
the app), with a stable code whose page in the docs says what it means and how to fix it.

Its str() is one line: where (``run.txt, line 17: ``, when there is a file), the problem, then the page, e.g.
``run.txt, line 17: score 'abc' is not a number (see errors/not-a-number in the docs)``. The codes, their titles and
advice are in metrics.core.error_codes, from which the docs pages are generated.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input, refused: ``code`` (a key of metrics.core.error_codes.CODES), ``problem`` (what is wrong), and where
    when a file is read: ``path`` (the name the file is shown by) and ``line`` (1-based) or ``where`` (``"row 3"`` of a
    table, ``"line 4"`` when the line is known but named otherwise, ...).

    >>> str(InputError("not-a-number", "score 'x' is not a number", path="run.txt", line=3))
    "run.txt, line 3: score 'x' is not a number (see errors/not-a-number in the docs)"
    """

    def __init__(
        self,
        code: str,
        problem: str,
        path: str | None = None,
        line: int | None = None,
        where: str | None = None,
    ) -> None:
        from metrics.core.error_codes import CODES  # here: only an error pays for reading the registry

        if code not in CODES:
            raise KeyError(f"unregistered error code {code!r}: add it to metrics.core.error_codes")
        if line is None and where is not None and where.startswith("line ") and where[5:].isdigit():
            line = int(where[5:])  # a reader's row names ("line 7"): the line is the same fact
        self.code, self.problem, self.path, self.line, self.where = code, problem, path, line, where
        super().__init__(self._text())

    def _text(self) -> str:
        place = self.where or (f"line {self.line}" if self.line is not None else None)
        if self.path is not None:
            prefix = f"{self.path}, {place}: " if place else f"{self.path}: "
        else:
            prefix = f"{place}: " if place else ""
        return f"{prefix}{self.problem} {pointer(self.code)}"

    def __reduce__(self):  # pickled by position (dask sends a worker's errors back)
        return (type(self), (self.code, self.problem, self.path, self.line, self.where))


def pointer(code: str) -> str:
    """What ends every message: the page of the docs that explains ``code``."""
    return f"(see errors/{code} in the docs)"

"""What a brief holds: its charts, its table, its sections (``Brief``), where its numbers come from (``Inputs``),
and the file name and page address of each kind of brief. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

import plotly.graph_objects as go

PAGES = {  # app.py's paths
    "pair": "compare",
    "leaderboard": "compare",
    "tools": "why-tools-differ",
    "ab": "a-vs-b",
    "task": "shared-task",
}


@dataclass(frozen=True)
class Chart:
    title: str
    figure: go.Figure
    caption: str  # one sentence: what to see in it
    alt: str  # what it shows, with its key numbers, for a reader who cannot see it


@dataclass(frozen=True)
class Table:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    strong: frozenset[tuple[int, int]] = frozenset()  # (row, column) cells in bold: the best per column
    numeric: frozenset[int] = frozenset()  # columns aligned right
    title: str = "The numbers"


@dataclass(frozen=True)
class Brief:
    kind: str  # "pair", "leaderboard", "tools", "ab", "task"
    title: str
    headline: str  # the plain-words verdict
    numbers: str  # the number that matters and how sure we are of it
    story: tuple[str, ...]
    charts: tuple[Chart, ...]
    measures: tuple[str, ...]  # what each measure rewards, one line each
    caveats: tuple[str, ...]  # what this does not tell, computed for this data
    made: tuple[tuple[str, str], ...]  # (what, how): conventions, statistics, tools, inputs, date, command line
    links: tuple[tuple[str, str], ...] = ()  # (text, absolute address) back to the app
    table: Table | None = None
    tables: tuple[Table, ...] = ()  # more tables, after ``table``

    @property
    def file_name(self) -> str:
        return file_name(self.kind)


@dataclass(frozen=True)
class Inputs:
    """Where the numbers come from, for the brief's last section: file names as the user gave them (shown as they
    are), the day, and the app's address for links back (None: no link, e.g. a test)."""

    qrels: str = ""
    runs: Mapping[str, str] = field(default_factory=dict)  # run name -> its file's name
    made_on: date = field(default_factory=date.today)
    app_url: str | None = None


def file_name(kind: str, extension: str = "html") -> str:
    """The downloaded file's name: ``brief-compare.html``, ``brief-a-vs-b.pdf``, ... (no user text in it)."""
    return f"brief-{PAGES[kind]}.{extension}"


def app_url(page_address: str | None, kind: str) -> str | None:
    """The app's root address from a page's own (``st.context.url`` on that page): without the page's path.

    >>> app_url("http://127.0.0.1:8501/compare", "pair"), app_url(None, "ab")
    ('http://127.0.0.1:8501', None)
    """
    if not page_address:
        return None
    return page_address.rstrip("/").removesuffix("/" + PAGES[kind]) or None

"""A run as ndeval 4.5 reads it: six fields per line (more are ignored), the topic a natural number, possibly after
a task prefix ending in "-" (``wt09-12``), the rank a natural number; by default each topic ordered by rank (with
-traditional: score, descending, then docno, descending, as trec_eval). ndeval refuses a rank or (after its depth
cut, -M) a docno that a topic repeats; so does this reader, naming both lines.

One of ndeval's defects is kept: a topic field with no digit first and no "-" makes ndeval read past the field's end,
into the next field when a single character separates them (``abc 7 doc 1 2 run`` is topic 7), else it refuses the
line; and one is refused where ndeval reads memory it never wrote: with -traditional, a score C's sscanf cannot read.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from dataclasses import dataclass

from metrics.io.rules import InputError, quoted
from metrics.io.subtopic_qrels import file_lines, natural_number, number_problem, text_of

_TOKEN = re.compile(rb"[^ \t\n\r\x0b\x0c]+")
_FLOAT = re.compile(
    rb"[+-]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
    rb"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)",
    re.IGNORECASE,
)


def c_double(token: bytes) -> float | None:
    """What C's sscanf("%lf") reads from the start of ``token``, or None when it reads nothing."""
    found = _FLOAT.match(token)
    if not found:
        return None
    text = found.group().decode("ascii")
    # a prefix such as "1e" or "0x" is cut back by strtod to its longest number
    while text:
        try:
            if "x" in text.lower() and "n" not in text.lower():
                return float.fromhex(text)
            return float(text.split("(")[0])
        except ValueError:
            text = text[:-1]
    return None


@dataclass(frozen=True, slots=True)
class RunLine:
    topic: int
    doc: bytes  # as read: ndeval compares docnos with strcmp
    rank: int
    score_token: bytes
    line: int


def parse_topic(line: bytes) -> int:
    """ndeval's parseTopic on the line's first field (see the module's note)."""
    first = _TOKEN.search(line)
    token = first.group() if first else b""
    if token[:1].isdigit():
        return natural_number(token)
    dash = token.find(b"-")
    if dash >= 0:
        return natural_number(token[dash + 1 :])
    following = _TOKEN.match(line, first.end() + 1) if first else None  # C reads on past the field's end
    return natural_number(following.group()) if following else -1


def read_ndeval_run(source: str | os.PathLike | bytes, name: str | None = None) -> tuple[str, str, list[RunLine]]:
    """(the file's name, the run id of its first line, its lines)."""
    display, lines = file_lines(source, name, "run file")
    parsed: list[RunLine] = []
    run_id = ""
    for number, line in enumerate(lines, start=1):
        fields = line.split()  # bytes split at C's isspace characters, as ndeval's split
        if len(fields) < 6:
            raise InputError(
                "line-columns",
                f"{len(fields)} field(s); ndeval's runs have 6: topic Q0 docno rank score runid",
                path=display,
                line=number,
            )
        topic = natural_number(fields[0]) if fields[0][:1].isdigit() else parse_topic(line)
        if topic < 0:
            raise InputError("ndeval-number", number_problem("topic", fields[0]), path=display, line=number)
        rank = natural_number(fields[3])
        if rank < 0:
            raise InputError("ndeval-number", number_problem("rank", fields[3]), path=display, line=number)
        if not parsed:
            run_id = text_of(fields[5])
        parsed.append(RunLine(topic, fields[2], rank, fields[4], number))
    return display, run_id, parsed


def _traditional(display: str, lines: list[RunLine]) -> list[RunLine]:
    """-traditional: ranks 1, 2, ... per topic by score, descending, then docno, descending."""
    scores = {}
    for line in lines:
        score = c_double(line.score_token)
        if score is None or math.isnan(score):
            raise InputError(
                "not-a-number",
                f"score {quoted(text_of(line.score_token))} is not a number (-traditional orders by score)",
                path=display,
                line=line.line,
            )
        scores[line.line] = score
    ordered = sorted(lines, key=lambda r: r.doc, reverse=True)
    ordered.sort(key=lambda r: (r.topic, -scores[r.line]))
    out, rank, topic = [], 0, None
    for line in ordered:
        rank = rank + 1 if line.topic == topic else 1
        topic = line.topic
        out.append(RunLine(line.topic, line.doc, rank, line.score_token, line.line))
    return out


def _first_repeat(ordered: list[RunLine], key) -> tuple[RunLine, RunLine] | None:
    """The first two neighbours of ``ordered`` with the same key (the earlier line, the later), if any."""
    for before, line in itertools.pairwise(ordered):
        if key(before) == key(line):
            return before, line
    return None


def ndeval_rankings(
    display: str, lines: list[RunLine], traditional: bool = False, depth: int = 0
) -> dict[int, list[str]]:
    """Each topic's ranking (topics in numeric order), as ndeval orders, checks and cuts (-M ``depth``; 0: no cut)
    them: ranks repeated within a topic are refused before the cut, docnos after it."""
    if traditional:
        lines = _traditional(display, lines)
    ordered = sorted(lines, key=lambda r: (r.topic, r.rank))
    if repeat := _first_repeat(ordered, lambda r: (r.topic, r.rank)):
        before, line = repeat
        problem = f"topic {line.topic} repeats rank {line.rank} (line {before.line} too); ndeval refuses it"
        raise InputError("rank-repeated", problem, path=display, line=line.line)
    rankings: dict[int, list[RunLine]] = {}
    for line in ordered:
        ranking = rankings.setdefault(line.topic, [])
        if depth <= 0 or len(ranking) < depth:
            ranking.append(line)
    kept = sorted((r for ranking in rankings.values() for r in ranking), key=lambda r: (r.topic, r.doc))
    if repeat := _first_repeat(kept, lambda r: (r.topic, r.doc)):
        before, line = repeat
        problem = (
            f"topic {line.topic} repeats docno {quoted(text_of(line.doc))} (line {before.line} too); ndeval refuses it"
        )
        raise InputError("duplicate-doc", problem, path=display, line=line.line)
    return {topic: [text_of(r.doc) for r in ranking] for topic, ranking in rankings.items()}

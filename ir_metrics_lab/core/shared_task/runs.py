"""A team's run checked on arrival: read by metrics.io's run reader (whose refusals name the line), then every line
checked against the task: its topic and document exist, each rank once per topic, at most DEPTH_MAX documents per
topic, at most BYTES_MAX bytes. Each refusal is an InputError naming the line.

A shared task takes TREC run files (``topic Q0 doc rank score tag``, optionally gzipped). The ranking is the one the
run is scored with, trec_eval's (score descending, ties by doc id descending; the rank column is checked, not used),
so the pool takes the top k of the very ranking the leaderboard scores.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ir_metrics_lab.core.words import count
from metrics.core.errors import InputError
from metrics.io.rules import quoted
from metrics.io.text.layout import is_content

BYTES_MAX = 2 * 2**20  # a run of 50 topics x 1000 documents is about 2.5 MB; a class's runs are far smaller
DEPTH_MAX = 1000  # documents per topic, trec_eval's usual depth
GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True, slots=True)
class CheckedRun:
    """A run that passed: its text (decompressed, as uploaded) and its rankings, best first, per topic."""

    name: str
    text: str
    rankings: Mapping[str, tuple[str, ...]]


def check_run(
    data: bytes | str,
    name: str,
    topics: Collection[str],
    documents: Collection[str],
    *,
    depth_max: int = DEPTH_MAX,
) -> CheckedRun:
    """Check an uploaded run against the task's topics and documents.

    Raises
    ------
    metrics.core.errors.InputError
        ``task-too-large`` (over BYTES_MAX or ``depth_max`` lines for a topic), the run reader's codes (columns,
        scores, a document twice in a topic, ...), ``line-columns`` for a line without TREC's six columns,
        ``task-unknown-id`` for a topic or document the task does not have, ``rank-repeated`` for a rank given twice
        in a topic; each naming the line.
    """
    from metrics.io.readers import read_run  # pyarrow, loaded when a run arrives

    raw = _decompressed(data.encode("utf-8") if isinstance(data, str) else data, name)
    run = read_run(raw, name)  # the format's refusals first, each naming its line
    _check_lines(raw, name, frozenset(topics), frozenset(documents), depth_max)
    rankings = {topic: tuple(docs) for topic, docs in run.to_rankings().items()}
    return CheckedRun(name, raw.decode("utf-8"), rankings)


def _decompressed(data: bytes, name: str) -> bytes:
    if len(data) > BYTES_MAX:
        raise InputError("task-too-large", f"the run is {len(data):,} bytes, over {BYTES_MAX:,}", name)
    if not data.startswith(GZIP_MAGIC):
        return data
    inflater = zlib.decompressobj(wbits=31)  # gzip; bounded, so a small bomb cannot fill the memory
    try:
        raw = inflater.decompress(data, BYTES_MAX + 1)
    except zlib.error:
        raise InputError("gzip-invalid", "the file is not a valid gzip file (truncated or damaged)", name) from None
    if len(raw) > BYTES_MAX:
        raise InputError("task-too-large", f"the run unpacks to over {BYTES_MAX:,} bytes", name)
    return raw


def _check_lines(raw: bytes, name: str, topics: frozenset, documents: frozenset, depth_max: int) -> None:
    ranks: dict[str, dict[str, int]] = {}  # topic -> rank as written -> its line
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not is_content(line):
            continue
        fields = line.decode("utf-8").split()
        if len(fields) != 6:
            problem = f"{count(len(fields), 'column')}; a shared task's run has TREC's six: topic Q0 doc rank score tag"
            raise InputError("line-columns", problem, name, number)
        topic, _, doc, rank = fields[:4]
        if topic not in topics:
            raise InputError("task-unknown-id", f"the task has no topic {quoted(topic)}", name, number)
        if doc not in documents:
            raise InputError("task-unknown-id", f"the collection has no document {quoted(doc)}", name, number)
        seen = ranks.setdefault(topic, {})
        key = rank.lstrip("0") or "0"  # 01 and 1 are one rank
        if key in seen:
            problem = f"rank {quoted(rank)} of topic {quoted(topic)} is given twice (first on line {seen[key]})"
            raise InputError("rank-repeated", problem, name, number)
        if len(seen) == depth_max:
            problem = f"topic {quoted(topic)} has more than {depth_max:,} documents, the task's most"
            raise InputError("task-too-large", problem, name, number)
        seen[key] = number


def run_text(rankings: Mapping[str, Sequence[str]], tag: str = "by-hand") -> str:
    """A run built by hand (documents picked and put in order on a phone) as a TREC run file, scores descending in
    the order given, so it is checked, pooled and scored as an uploaded run is.

    >>> print(run_text({"t1": ["d3", "d1"]}), end="")
    t1 Q0 d3 1 2 by-hand
    t1 Q0 d1 2 1 by-hand
    """
    return "".join(
        f"{topic} Q0 {doc} {rank} {len(docs) - rank + 1} {tag}\n"
        for topic, docs in rankings.items()
        for rank, doc in enumerate(docs, start=1)
    )

"""The checks every diversity family's test file runs (tests/families/test_<family>.py for ERR_IA ... StRecall):
its readable function against ndeval 4.5's recorded output (tests/data/ndeval45/corpus.jsonl.gz, printed with 6
decimals), against pyndeval (ndeval's C code as a Python module) on generated topics, and its kernel against its
readable function (tests.families.check) on plain qrels."""

from __future__ import annotations

import functools
import gzip
import json
import math
from pathlib import Path

import pyndeval
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from metrics import Conventions, parse_measure
from metrics.cli.ir_ndeval import COLUMNS, Options, format_value, parse
from metrics.io.ndeval_run import ndeval_rankings, read_ndeval_run
from metrics.io.subtopic_qrels import read_subtopic_lines

CORPUS = Path(__file__).parent.parent / "data" / "ndeval45" / "corpus.jsonl.gz"
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
DOCS = ("a", "b", "B", "d1", "D1", "doc9", "doc10", "z", "x_1", "y")


@functools.cache
def _corpus() -> list[tuple[Options, dict, dict, dict[int, dict[str, str]], set[int]]]:
    """(options, {topic: {subtopic: {doc: judgment}}}, {topic: ranking}, {topic: {column: printed}}, the topics
    whose qrels judge a (subtopic, doc) pair twice) of each recorded case ndeval answered without -M or
    -traditional."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    inputs = {r["id"]: r for r in rows if r["kind"] == "input"}
    found = []
    for case in (r for r in rows if r["kind"] == "case" and r["rc"] == 0):
        parsed = parse([*case["args"], "q", "r"])
        if isinstance(parsed, str) or parsed[0].depth or parsed[0].traditional:
            continue
        source = inputs[case["input"]]
        _, lines_ = read_subtopic_lines(source["qrels"].encode())
        judged: dict = {}
        pairs = [(line.topic, line.subtopic, line.doc) for line in lines_]
        repeated = {topic for topic, *_ in pairs if pairs.count((topic, *_)) > 1}
        for line in lines_:  # the last line of a (subtopic, doc) decides, as in ndeval
            judged.setdefault(line.topic, {}).setdefault(str(line.subtopic), {})[line.doc] = line.judgment
        display, _, run_lines = read_ndeval_run(source["run"].encode())
        rankings = ndeval_rankings(display, run_lines)
        printed = {}
        for row in case["stdout"].splitlines()[1:-1]:
            cells = row.split(",")
            printed[int(cells[1])] = dict(zip(COLUMNS, cells[2:], strict=True))
        found.append((parsed[0], judged, rankings, printed, repeated))
    return found


def equals_ndeval45(name: str, column: str) -> None:
    """``name`` (a measure, e.g. "alpha_nDCG@10") on every recorded topic printed as ndeval printed ``column``.
    Topics whose qrels repeat a (subtopic, doc) pair are left out: a dict holds one judgment per pair (MAP-IA
    counts both lines; the CLI's corpus replay checks those)."""
    checked = 0
    for options, judged, rankings, printed, repeated in _corpus():
        measure = parse_measure(name)
        params = {p.name: getattr(options, p.name) for p in measure.record.params}
        for topic, ranking in rankings.items():
            if topic not in judged or topic in repeated:
                continue
            value = measure.record.function(ranking, judged[topic], measure.k, **params).value
            assert format_value(value) == printed[topic][column], (name, options, topic)
            checked += 1
    assert checked > 300


@st.composite
def topics(draw) -> tuple[dict[str, dict[str, int]], list[str]]:
    """One topic: {subtopic: {doc: grade}} and a ranking drawn from the same documents and some unjudged ones."""
    subtopics = draw(st.lists(st.sampled_from("123456"), min_size=1, max_size=5, unique=True))
    qrels = {s: draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 3), max_size=6)) for s in subtopics}
    ranking = draw(st.lists(st.sampled_from((*DOCS, "u1", "u2", "u3")), max_size=25, unique=True))
    return qrels, ranking


def equals_pyndeval(name: str, theirs: str) -> None:
    """``name`` against pyndeval's ``theirs`` on generated topics, under generated alpha, beta and threshold."""

    @SETTINGS
    @given(topics(), st.sampled_from((0.0, 0.25, 0.5, 0.9, 1.0)), st.sampled_from((0.1, 0.5, 0.8)), st.integers(1, 2))
    def check(topic, alpha, beta, rel):
        qrels, ranking = topic
        assume(ranking and any(qrels.values()))
        lines = [("1", s, d, g) for s, docs in qrels.items() for d, g in docs.items()]
        run = [("1", doc, float(len(ranking) - i)) for i, doc in enumerate(ranking)]
        evaluator = pyndeval.RelevanceEvaluator(lines, [theirs], relevance_level=rel, alpha=alpha, beta=beta)
        expected = evaluator.evaluate(run)
        measure = parse_measure(name)
        params = {p.name: {"alpha": alpha, "beta": beta}[p.name] for p in measure.record.params}
        got = measure.record.function(ranking, qrels, measure.k, conventions=Conventions(threshold=rel), **params)
        want = expected["1"][theirs]
        # pyndeval numbers subtopics in the order it meets them (ndeval: by number): sums may differ in the last bit
        assert got.value == pytest.approx(want, rel=1e-12, abs=1e-12) or (math.isnan(got.value) and math.isnan(want))

    check()

"""The checks every family's test file runs (tests/families/test_<family>.py): the engine's kernel equals the
readable function bit for bit on generated runs; both equal trec_eval 10.0's recorded outputs where it has the
measure (equals_trec_eval10), and pytrec_eval (trec_eval 9.0.x, taking trec_eval's own measure strings) on
generated runs as an extra check."""

from __future__ import annotations

import functools
import gzip
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
import pytrec_eval_ext
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from metrics import TREC_EVAL, Conventions, parse_measure
from metrics.catalog import registry
from metrics.evaluation.engine import evaluate
from metrics.io.readers import read_qrels, read_run
from tests.strategies import runs

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-9
# Generated whole runs (rankings as lists, best first; any grade from -2) and a relevance threshold.
RUNS = runs(min_grade=-2, max_grade=4)
THRESHOLDS = st.integers(1, 3)


def kernel_equals_readable(
    names: Sequence[str], run: Mapping[str, list[str]], qrels: Mapping[str, Mapping[str, int]], conventions: Conventions
) -> None:
    """Every query's engine value (the family's kernel) == its readable function's value, bit for bit; the string
    too for a text family (relstring)."""
    result = evaluate(run, qrels, names, conventions=conventions)
    for name in names:
        measure = parse_measure(name)
        text = registry.family(measure.family).values.text
        for index, query in enumerate(result.queries):
            readable = measure.compute(run.get(query, []), qrels[query], conventions)
            if text:
                assert result.texts[name][index] == readable.text, (name, query)
            else:
                got, expected = result.per_query[name][index], readable.value
                # == on floats: bit for bit; NaN where trec_eval divides 0 by 0 (both must give it)
                assert got == expected or (math.isnan(got) and math.isnan(expected)), (name, query)


def _scores(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores, so trec_eval ranks the documents in the given order."""
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def equals_trec_eval(
    names: Mapping[str, str],
    run: Mapping[str, list[str]],
    qrels: Mapping[str, Mapping[str, int]],
    level: int = 1,
    requested: set[str] | None = None,
) -> None:
    """Our per-query values (engine and readable) == trec_eval's, for ``names`` {ours: trec_eval's printed name};
    ``requested`` are the measure strings handed to trec_eval (default: the printed names). Queries with no qrels
    lines are left out, as pytrec_eval's wrapper does (its issue 57); so are queries with no ranking, which
    trec_eval never sees."""
    judged = {q: dict(g) for q, g in qrels.items() if g}
    ranked = {q: r for q, r in run.items() if r and q in judged}
    assume(ranked)  # trec_eval scores nothing
    evaluator = pytrec_eval_ext.RelevanceEvaluator(judged, requested or set(names.values()), level)
    expected = evaluator.evaluate({q: _scores(r) for q, r in ranked.items()})
    conventions = Conventions(threshold=level, recall_rounding="plus_0.9")  # pytrec_eval runs trec_eval 9.0.x
    ours = evaluate(ranked, {q: judged[q] for q in ranked}, list(names), conventions=conventions)
    for name, trec_name in names.items():
        measure = parse_measure(name)
        for index, query in enumerate(ours.queries):
            want = expected[query][trec_name]
            value = ours.per_query[name][index]
            readable = measure.compute(ranked[query], judged[query], conventions).value
            if math.isnan(want):  # trec_eval 9's 0 / 0 where 10.0 and we give 0 (thresholds here are 1 and up)
                assert value == readable == 0.0, (name, query)
            else:
                assert value == pytest.approx(want, abs=TOL), (name, query, value, want)
                assert readable == pytest.approx(want, abs=TOL), (name, query, readable, want)


# --- trec_eval 10.0 itself: its recorded outputs (tests/data/trec_eval10/corpus.jsonl.gz, made by
# scripts/make_trec_eval_corpus.py with the real binary), where it was asked for one measure alone with -q ---

CORPUS = Path(__file__).resolve().parents[1] / "data" / "trec_eval10" / "corpus.jsonl.gz"


@functools.cache
def _corpus() -> tuple[dict[str, dict], dict[str, list[tuple[str, str]]]]:
    """The inputs by id, and for each measure asked alone with -q: (input id, the stdout we must match)."""
    inputs, alone = {}, {}
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record["kind"] == "input":
                inputs[record["id"]] = record
            elif record["kind"] == "case" and len(record["args"]) == 3 and record["args"][:2] == ["-q", "-m"]:
                answer = record.get("expected", record)  # a defect's row: trec_eval's answer on the repaired input
                if answer["rc"] == 0:
                    alone.setdefault(record["args"][2], []).append((record["input"], answer["stdout"]))
    return inputs, alone


def equals_trec_eval10(trec_measure: str) -> int:
    """Every per-query value trec_eval 10.0 printed for ``-q -m trec_measure`` (alone) over the corpus's inputs ==
    the readable function's and the kernel's, printed as trec_eval prints (4 decimals; counts whole; relstring as
    text). Returns how many values were compared."""
    inputs, alone = _corpus()
    compared = 0
    for input_id, stdout in alone[trec_measure]:
        record = inputs[input_id]
        run, qrels = read_run(record["run"].encode()), read_qrels(record["qrels"].encode())
        rows = [line.split("\t") for line in stdout.splitlines()]
        per_query = [(name.strip(), query, value) for name, query, value in rows if query != "all"]
        names = sorted({name for name, _, _ in per_query})
        rankings = {q: run.ranking_of(q) for q in {query for _, query, _ in per_query}}
        judged = {q: qrels.grades_of(q) for q in rankings}
        engine = evaluate(rankings, judged, names)
        for name, query, printed in per_query:
            measure = parse_measure(name)
            readable = measure.compute(rankings[query], judged[query], TREC_EVAL)
            kernel_index = engine.queries.index(query)
            if registry.family(measure.family).values.text:  # printed between quotes
                got = [f"'{readable.text}'", f"'{engine.texts[name][kernel_index]}'"]
            elif "." in printed:
                got = [f"{readable.value:.4f}", f"{engine.per_query[name][kernel_index]:.4f}"]
            else:
                got = [str(int(readable.value)), str(int(engine.per_query[name][kernel_index]))]
            assert got == [printed, printed], (trec_measure, input_id, name, query, got, printed)
            compared += 1
        for name, query, printed in rows:  # the summary of a count (a sum, num_q's number of queries) or a gm_
            measure = parse_measure(name.strip())  # measure (a geometric mean)
            summary = registry.family(measure.family).values.summary
            if query != "all" or summary not in ("sum", "queries", "geometric"):
                continue
            scored = [q for q in run.to_rankings() if qrels.grades_of(q)]  # trec_eval without -c
            values = [measure.compute(run.ranking_of(q), qrels.grades_of(q)).value for q in scored]
            if summary == "queries":
                assert str(len(scored)) == printed, (trec_measure, input_id, name, scored, printed)
            elif summary == "sum":
                assert str(int(sum(values))) == printed, (trec_measure, input_id, name, values, printed)
            else:  # trec_eval's gm_: exp(mean(log(max(value, 0.00001))))
                mean = math.exp(sum(math.log(max(v, 0.00001)) for v in values) / len(values))
                assert f"{mean:.4f}" == printed, (trec_measure, input_id, name, mean, printed)
            compared += 1
    return compared


# --- judgment groups (trec_eval -R qrels_jg): each query judged by several groups, a measure averaged over them ---

GROUPS = ("u1", "u2", "u3")


@st.composite
def grouped_runs(draw):
    """A generated run and judgment groups {query: {group: {doc: grade}}}: the run's qrels as one group's, and one or
    two more groups who regrade some of the same documents and judge others."""
    run, qrels = draw(RUNS)
    groups: dict[str, dict[str, dict[str, int]]] = {}
    for query, grades in qrels.items():
        chosen = draw(st.lists(st.sampled_from(GROUPS), min_size=1, max_size=3, unique=True))
        groups[query] = {}
        for group in chosen:
            regraded = {d: draw(st.integers(-1, 3)) if draw(st.booleans()) else grade for d, grade in grades.items()}
            extra = draw(st.dictionaries(st.sampled_from(["x1", "x2", *run.get(query, [])]), st.integers(-1, 3)))
            groups[query][group] = {**regraded, **extra}
    return run, groups


def groups_equal_readable(
    names: Sequence[str], run: Mapping[str, list[str]], groups: Mapping[str, Mapping], conventions: Conventions
) -> None:
    """metrics.preferences.runs.judgment_group_runs' per-query values == the readable functions' on each query's groups,
    bit for bit (with -c: a query missing from the run is scored on an empty ranking)."""
    from metrics.preferences.runs.judgment_group_runs import evaluate_judgment_groups

    judged = {q: g for q, g in groups.items() if any(g.values())}
    assume(judged)
    scored = {q: {d: float(len(r) - i) for i, d in enumerate(r)} for q, r in run.items()}
    result = evaluate_judgment_groups(scored, judged, names, conventions=conventions, complete=True)
    for name in names:
        measure = parse_measure(name)
        for index, query in enumerate(result.queries):
            kept = {group: grades for group, grades in judged[query].items() if grades}
            readable = measure.compute(run.get(query, []), kept, conventions).value
            assert result.per_query[name][index] == readable, (name, query)


def equals_trec_eval10_groups(names: Mapping[str, str]) -> int:
    """trec_eval 10.0's per-query values for ``-q -R qrels_jg -m qrels_jg`` on every judgment-group input of the corpus
    == our readable functions' and metrics.preferences.runs.judgment_group_runs' (``names``: ours -> the printed name,
    e.g. {"P_avgjg@10": "P_avgjg_10"}). Returns how many values were compared."""
    from metrics.preferences.qrels_jg_file import read_qrels_jg
    from metrics.preferences.runs.judgment_group_runs import evaluate_judgment_groups

    inputs, _ = _corpus()
    compared = 0
    for case in _cases(["-q", "-R", "qrels_jg", "-m", "qrels_jg"]):
        record = inputs[case["input"]]
        run, groups = read_run(record["run"].encode()), read_qrels_jg(record["qrels"].encode())
        printed = {tuple(line.split("\t")[:2]): line.split("\t")[2] for line in case["stdout"].splitlines()}
        engine = evaluate_judgment_groups(run, groups, list(names))
        by_query = groups.to_dict()
        for name, trec_name in names.items():
            for index, query in enumerate(engine.queries):
                want = printed[f"{trec_name:<22}", query]
                readable = parse_measure(name).compute(run.ranking_of(query), by_query[query]).value
                assert [f"{readable:.4f}", f"{engine.per_query[name][index]:.4f}"] == [want, want], (name, query)
                compared += 1
    return compared


@functools.cache
def _all_cases() -> tuple[dict, ...]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        return tuple(record for line in handle if (record := json.loads(line))["kind"] == "case")


def _cases(args: list[str]) -> list[dict]:
    """The corpus's cases run with exactly these arguments where trec_eval answered (its answer on the repaired
    input where it has a defect; "unchecked": the [measure, query] of the values it read from memory, left out)."""
    found = []
    for case in _all_cases():
        answer = case.get("expected", case)
        if case["args"] == args and answer["rc"] == 0:
            found.append({**case, "stdout": answer["stdout"], "unchecked": answer.get("unchecked", [])})
    return found


# --- preferences (trec_eval -R prefs, -R qrels_prefs): groups of subgroups, each ordering some documents ---

LEVELS = st.sampled_from([0.0, 0.0, 1.0, 2.0, 3.0, 0.5, -1.0])


@st.composite
def preference_runs(draw):
    """A run {query: {doc: score}} (ties among the scores) and preferences {query: {group: {subgroup: {doc:
    level}}}}: each group gives its documents one level each (so it never contradicts itself), stated in one to
    three subgroups of some of them; levels below 0 too."""
    run, prefs = {}, {}
    for query in draw(st.lists(st.sampled_from(["q1", "q2", "q10"]), min_size=1, max_size=3, unique=True)):
        pool = [f"d{i}" for i in range(draw(st.integers(2, 9)))]
        prefs[query] = {}
        for group in draw(st.lists(st.sampled_from(GROUPS), min_size=1, max_size=3, unique=True)):
            mind = draw(st.dictionaries(st.sampled_from(pool), LEVELS, min_size=1))
            subgroups = draw(st.lists(st.sampled_from(["s1", "s2", "s3"]), min_size=1, max_size=3, unique=True))
            stated = {
                s: {d: mind[d] for d in draw(st.sets(st.sampled_from(sorted(mind)), min_size=1))} for s in subgroups
            }
            prefs[query][group] = stated
        if draw(st.booleans()) or query == "q1":
            run[query] = draw(
                st.dictionaries(st.sampled_from([*pool, "x1", "x2"]), st.sampled_from([0.0, 1.0, 2.0, 3.5]))
            )
    return run, prefs


def preferences_equal_readable(names: Sequence[str], run: Mapping, prefs: Mapping, complete: bool = False) -> None:
    """metrics.preferences.runs.preference_runs' per-query values == the readable functions' on each query's
    preferences, bit for bit, the ranking as trec_eval ranks it for preferences (ties by doc id ascending).
    preference_runs' groups never contradict themselves (each gives a document one level), so both must answer (the
    refusals: tests/test_trec_eval_options.py)."""
    from metrics.preferences.runs.preference_runs import evaluate_preferences

    result = evaluate_preferences(run, prefs, names, complete=complete)
    for name in names:
        measure = parse_measure(name)
        for index, query in enumerate(result.queries):
            ranking = sorted(run.get(query, {}), key=lambda d: (-run[query][d], d.encode()))
            readable = measure.compute(ranking, prefs[query]).value
            assert result.per_query[name][index] == readable, (name, query, result.per_query[name][index], readable)


PREFERENCE_CASES = (["-q", "-R", "prefs", "-m", "all_prefs"], ["-q", "-R", "qrels_prefs", "-m", "all_prefs"])


def equals_trec_eval10_prefs(names: Mapping[str, str]) -> int:
    """trec_eval 10.0's per-query values for ``-q -R prefs -m all_prefs`` and ``-q -R qrels_prefs -m all_prefs`` on
    every preference input of the corpus == our readable functions' and metrics.preferences.runs.preference_runs'
    (``names``: ours -> the printed name). Returns how many values were compared."""
    from metrics.preferences.prefs_file import read_prefs, read_qrels_prefs
    from metrics.preferences.runs.preference_runs import evaluate_preferences, ranked_run

    inputs, _ = _corpus()
    compared = 0
    for args in PREFERENCE_CASES:
        read = read_prefs if args[2] == "prefs" else read_qrels_prefs
        for case in _cases(args):
            record = inputs[case["input"]]
            run, prefs = ranked_run(record["run"].encode()), read(record["qrels"].encode())
            printed = {tuple(line.split("\t")[:2]): line.split("\t")[2] for line in case["stdout"].splitlines()}
            engine = evaluate_preferences(run, prefs, list(names))
            by_query = prefs.to_dict()
            for name, trec_name in names.items():
                for index, query in enumerate(engine.queries):
                    if [trec_name, query] in case["unchecked"]:
                        continue
                    want = printed[f"{trec_name:<22}", query]
                    ranking = run.ranking_of(query)
                    readable = parse_measure(name).compute(ranking, by_query[query]).value
                    values = [readable, engine.per_query[name][index]]
                    got = [f"{v:.4f}" if "." in want else str(int(v)) for v in values]
                    assert got == [want, want], (name, query, got, want)
                    compared += 1
    return compared


def preference_checks(*names: str):
    """The three checks of a preference family's test file, run for each family spelled in ``names`` (the variants
    its module's table declares): its kernel equals its readable function on plain qrels and on random preferences,
    and both equal trec_eval 10.0's recorded values. Its test file binds them to test names and adds its own worked
    examples."""
    each = pytest.mark.parametrize("name", names)

    @each
    @SETTINGS
    @given(RUNS, THRESHOLDS)
    def kernel(name, data, threshold):
        """On plain qrels: each query one judgment group, its grades the levels."""
        kernel_equals_readable([name, f"{name}@3"], *data, Conventions(threshold=threshold))

    @each
    @SETTINGS
    @given(preference_runs(), st.booleans())
    def preferences(name, data, complete):
        preferences_equal_readable([name, f"{name}@3"], *data, complete)

    @each
    def trec_eval_10(name):
        """trec_eval 10.0's own values: -q -R prefs (and qrels_prefs) -m all_prefs on every preference input of its
        recorded corpus."""
        assert equals_trec_eval10_prefs({name: name}) > 0

    return kernel, preferences, trec_eval_10


def judgment_group_checks(names: Sequence[str], printed: Mapping[str, str]):
    """The three checks of a judgment-group family's test file (``names``: spellings to compute, ``printed``: ours ->
    trec_eval's printed name): its kernel equals its readable function on plain qrels (one group per query, where the
    family is the measure it averages) and on random judgment groups, and both equal trec_eval 10.0's recorded
    values. Its test file binds them to test names and adds its own worked example."""

    @SETTINGS
    @given(RUNS, THRESHOLDS)
    def kernel(data, threshold):
        """On plain qrels (one group per query) the family is the measure it averages."""
        kernel_equals_readable(names, *data, Conventions(threshold=threshold))

    @SETTINGS
    @given(grouped_runs(), THRESHOLDS)
    def groups(data, threshold):
        groups_equal_readable(names, *data, Conventions(threshold=threshold))

    def trec_eval_10():
        """trec_eval 10.0's own values: -q -R qrels_jg -m qrels_jg on every judgment-group input of its corpus."""
        assert equals_trec_eval10_groups(printed) > 0

    return kernel, groups, trec_eval_10

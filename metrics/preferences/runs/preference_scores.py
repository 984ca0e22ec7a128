"""The preference measures' Evaluation from tables of judgments (metrics.preferences.preference_table), a block of
queries at a time, without pyarrow: metrics.preferences.runs.preference_runs builds the tables of any run with Arrow,
and :func:`plain_preferences` builds the one table of a small plain run and judgments file in plain Python (pyarrow's
import would cost more than their whole evaluation, as for qrels: metrics.io.text.plain).
"""

from __future__ import annotations

from collections.abc import Iterable

from metrics.catalog import registry
from metrics.catalog.family import Measure
from metrics.catalog.measures import parse_measures
from metrics.core.errors import InputError
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.evaluation.engine import Evaluation, QueryCounts, summaries
from metrics.evaluation.options import EvaluationOptions
from metrics.preferences.preference_kernels import group_counts
from metrics.preferences.preference_table import PREPARED_KEY, PreferenceTable, table_of

READS = "prefs"  # the -R format whose measures this scores (TrecEval.reads)


def preference_measures(measures: Iterable[str | Measure]) -> list[Measure]:
    """The measures, refused unless computed from preferences (the preference families and num_q)."""
    parsed = parse_measures(measures)
    for measure in parsed:
        if READS not in registry.family(measure.family).trec_eval.reads:
            raise InputError("option-conflict", f"{measure.name} is not computed from preferences (trec_eval -R prefs)")
    return parsed


def scored(
    tables: Iterable[tuple[int, PreferenceTable]],
    judged: list[str],
    in_run: set[str],
    evaluated: list[str],
    parsed: list[Measure],
    options: EvaluationOptions,
) -> Evaluation:
    """The Evaluation of the ``evaluated`` queries from their tables ((first query, table), in query order), the
    queries ``judged`` and those the run has (``in_run``) giving the counts."""
    parts: dict[str, list[np.ndarray]] = {measure.name: [] for measure in parsed}
    relevant_parts = []
    for first, table in tables:
        prepared = Prepared()  # what a kernel takes: the table, where the preference kernels look for it
        prepared.size, prepared.conventions = table.size, options.conventions
        prepared.queries = tuple(evaluated[first : first + table.size])
        prepared.shared(PREPARED_KEY, lambda table=table: table)
        for measure in parsed:
            parts[measure.name].append(registry.family(measure.family).kernel(prepared, measure))
        counted = group_counts(table).counts["rel"]
        relevant_parts.append(np.bincount(table.group_slot, weights=counted, minlength=table.size))
        del prepared, table
    per_query = {name: np.concatenate(values) for name, values in parts.items()}
    by_name = {measure.name: measure for measure in parsed}
    only_in_run = tuple(sorted(in_run - set(judged)))
    only_in_qrels = tuple(query for query in judged if query not in in_run)
    relevant = np.concatenate(relevant_parts)
    counts = QueryCounts(len(evaluated), len(only_in_run), len(only_in_qrels), int((relevant == 0).sum()))
    return Evaluation(
        tuple(evaluated),
        tuple(parsed),
        per_query,
        summaries(per_query, by_name),
        counts,
        only_in_run,
        only_in_qrels,
        options.conventions,
        options.complete,
    )


def plain_preferences(run_path: str, judgments_path: str, rel_format: str, measures, options, only: str | None = None):
    """(Evaluation, run name, judgments name) of a small plain run and prefs file (``rel_format`` "prefs") or qrels file
    read as preferences ("qrels_prefs"), as metrics.preferences.runs.preference_runs scores them; ``only``: trec_eval
    -D's one query. None when either file is not small and plain, or breaks a rule (a doc given twice): the Arrow
    readers read them then, and name the line."""
    from metrics.io.text.fields import ONE_SUBGROUP, PREFS_FIELDS, QRELS_PREFS_FIELDS
    from metrics.io.text.plain import read_plain_fields, read_plain_run_rows

    read = read_plain_fields(judgments_path, PREFS_FIELDS if rel_format == "prefs" else QRELS_PREFS_FIELDS)
    if read is None:
        return None
    found = read_plain_run_rows(run_path)
    if found is None:
        return None
    judgments_name, lines = read
    if rel_format != "prefs":
        lines = [(query, group, ONE_SUBGROUP, doc, level) for query, group, doc, level in lines]
    if len(set((query, group, subgroup, doc) for query, group, subgroup, doc, _ in lines)) < len(lines):
        return None  # a doc given twice in a subgroup
    run_name, rows = found
    in_run = {query for query, _, _ in rows}
    rankings: dict[str, dict[str, int]] = {}
    scored_docs: dict[str, list[tuple[float, str]]] = {}
    for query, doc, score in rows:
        scored_docs.setdefault(query, []).append((-score, doc))
    for query, docs in scored_docs.items():
        docs.sort()  # score descending, then doc id ascending (form_prefs_counts.c)
        rankings[query] = {doc: rank for rank, (_, doc) in enumerate(docs, 1)}
        if len(rankings[query]) < len(docs):
            return None  # a doc given twice for a query
    if only is not None:  # -D LEVEL.QID: that query alone
        lines = [line for line in lines if line[0] == only]
        if not lines or not (only in in_run or options.complete):
            raise InputError("debug-query", f"-D ...{only}: query {only!r} is not in both the run and the judgments")
    parsed = preference_measures(measures)
    judged = sorted({line[0] for line in lines})  # byte order (ASCII): trec_eval's order of the queries
    evaluated = [query for query in judged if options.complete or query in in_run]
    table = _table(lines, evaluated, rankings, options.max_docs)
    return scored([(0, table)], judged, in_run, evaluated, parsed, options), run_name, judgments_name


def _table(lines, evaluated: list[str], rankings: dict[str, dict[str, int]], max_docs: int | None) -> PreferenceTable:
    """The one table of the evaluated queries' judgments (file order), coded as metrics.preferences.runs.preference_runs
    codes them: groups and subgroups by their ids' byte order, documents by first appearance (by byte order when a
    group has several subgroups, where the order of the unretrieved ones counts)."""
    slot_of = {query: slot for slot, query in enumerate(evaluated)}
    kept = [line for line in lines if line[0] in slot_of]
    first_seen: dict[str, int] = {}
    for line in lines:
        first_seen.setdefault(line[3], len(first_seen))
    by_group: dict[tuple[str, str], set[str]] = {}
    for query, group, subgroup, _, _ in kept:
        by_group.setdefault((query, group), set()).add(subgroup)
    if any(len(subgroups) > 1 for subgroups in by_group.values()):
        first_seen = {doc: code for code, doc in enumerate(sorted(first_seen))}
    group_code = {group: code for code, group in enumerate(sorted({line[1] for line in kept}))}
    subgroup_code = {subgroup: code for code, subgroup in enumerate(sorted({line[2] for line in kept}))}
    top = max_docs if max_docs is not None else float("inf")

    def rank(query: str, doc: str) -> int:
        found = rankings.get(query, {}).get(doc, 0)
        return found if found <= top else 0

    def column(values, dtype=np.int64) -> np.ndarray:
        return np.array(list(values), dtype=dtype).reshape(-1)

    return table_of(
        len(evaluated),
        column(slot_of[line[0]] for line in kept),
        column(group_code[line[1]] for line in kept),
        column(subgroup_code[line[2]] for line in kept),
        column((line[4] for line in kept), np.float64),
        column(first_seen[line[3]] for line in kept),
        column(rank(line[0], line[3]) for line in kept),
    )

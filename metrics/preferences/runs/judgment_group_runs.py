"""A run scored against judgment groups (trec_eval -R qrels_jg): every measure on each (query, group), then each
query's groups averaged, as m_P_avgjg.c, m_map_avgjg.c and m_Rprec_mult_avgjg.c average them.

The engine (metrics.evaluation.engine) scores the groups as queries of their own: the qrels of query q's group g
become those of a query "q<NUL>g" (NUL sorts before every other byte, so q's groups stay together, in their order, and
before any longer query id that starts with q), ranked by q's ranking. -c, -M and -J apply per group as trec_eval's
form_res_rels_jg.c applies them. Each query's value is then its groups' values added in order, divided by their number
when there are several (metrics.preferences.judgment_groups.averaged, vectorized).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np
import pyarrow as pa

from metrics.catalog.family import Measure
from metrics.catalog.measures import parse_measures
from metrics.evaluation.engine import Evaluation, QueryCounts, join, score, summaries
from metrics.evaluation.options import EvaluationOptions, given
from metrics.io import Qrels, Run, read_run
from metrics.io.arrays.conversions import arrow_strings, take
from metrics.io.arrays.hashing import encode_strings
from metrics.preferences.qrels_jg_file import JudgmentGroups, read_qrels_jg

SEPARATOR = "\x00"  # between a query id and a group id (ids never hold a NUL byte: the readers refuse one)


def evaluate_judgment_groups(
    run,
    groups,
    measures: Iterable[str | Measure],
    *,
    options: EvaluationOptions | None = None,
    **keywords,
) -> Evaluation:
    """Score a run against judgment groups: ``groups`` is a qrels_jg file (a path or bytes), a dict {query: {group:
    {doc: grade}}} or metrics.preferences.qrels_jg_file.JudgmentGroups; ``run`` anything metrics.io.read_run reads;
    ``options`` (metrics.evaluation.options.EvaluationOptions) or its fields as keywords, as for the engine's evaluate.
    The measures are any of the engine's; trec_eval computes only P_avgjg, map_avgjg, Rprec_mult_avgjg and num_q from
    judgment groups (TrecEval.reads), and on a query judged by one group each is the measure it averages. ``options``
    (metrics.evaluation.options.EvaluationOptions), or its fields as keywords, as for
    metrics.evaluation.engine.evaluate; how a large run is read does not apply (the run is read whole).

    >>> run = {"q1": {"a": 2.0, "b": 1.0}}
    >>> groups = {"q1": {"u1": {"a": 1}, "u2": {"b": 1, "z": 1}}}
    >>> evaluate_judgment_groups(run, groups, ["map_avgjg", "P_avgjg_2"]).per_query["map_avgjg"].tolist()
    [0.625]
    """
    options = given(options, keywords)
    complete = options.complete
    parsed = parse_measures(measures)
    run, groups = read_run(run, max_docs=options.cut()), read_qrels_jg(groups)
    queries_of_run = set(run.query_ids.to_pylist())
    qrels, real_of, pairs = _group_qrels(groups)
    judged = sorted(set(real_of.values()))
    evaluated = [q for q in judged if complete or q in queries_of_run]
    by_group = score(join(_group_run(run, pairs, evaluated), qrels, parsed, options=options))
    position = {query: index for index, query in enumerate(evaluated)}
    query_of_slot = np.array([position[real_of[pseudo]] for pseudo in by_group.queries], dtype=np.int64)
    groups_per_query = np.bincount(query_of_slot, minlength=len(evaluated))
    per_query = {}
    for name, values in by_group.per_query.items():
        total = np.bincount(query_of_slot, weights=values, minlength=len(evaluated))  # in group order, from 0
        per_query[name] = np.where(groups_per_query > 1, total / np.maximum(groups_per_query, 1), total)
    only_in_run = tuple(sorted(queries_of_run - set(judged)))
    only_in_qrels = tuple(q for q in judged if q not in queries_of_run)
    relevant = {q for q, grade in zip(groups.query.to_pylist(), groups.grade.tolist(), strict=True)
                if grade >= options.conventions.threshold}  # fmt: skip
    no_relevant = sum(q not in relevant for q in evaluated)
    counts = QueryCounts(len(evaluated), len(only_in_run), len(only_in_qrels), no_relevant)
    by_name = {measure.name: measure for measure in parsed}
    return dataclasses.replace(
        by_group,
        queries=tuple(evaluated),
        per_query=per_query,
        means=summaries(per_query, by_name),
        counts=counts,
        only_in_run=only_in_run,
        only_in_qrels=only_in_qrels,
    )


def _group_qrels(groups: JudgmentGroups) -> tuple[Qrels, dict[str, str], list[tuple[str, str]]]:
    """The judgments as qrels of one query per (query, group), each such query's real query, and the (query, group)
    pairs. Python strings for the pairs only, not per line: 240,000 lines' worth took 90 MB at the peak."""
    query_codes, group_codes = (encode_strings(column)[1] for column in (groups.query, groups.group))
    pair_codes = query_codes * (int(group_codes.max(initial=0)) + 1) + group_codes
    _, first, row_pair = np.unique(pair_codes, return_index=True, return_inverse=True)
    pairs = list(zip(take(groups.query, first).to_pylist(), take(groups.group, first).to_pylist(), strict=True))
    pseudo = [f"{q}{SEPARATOR}{g}" for q, g in pairs]
    real_of = {name: q for name, (q, _) in zip(pseudo, pairs, strict=True)}
    pseudo_of_row = take(arrow_strings(pseudo), row_pair.reshape(-1))
    qrels = Qrels(groups.name, pa.chunked_array([pseudo_of_row]), pa.chunked_array([groups.doc]), groups.grade)
    return qrels, real_of, pairs


def _group_run(run: Run, pairs: list[tuple[str, str]], evaluated: list[str]) -> Run:
    """The run with each evaluated query's ranking repeated for each of its groups (``pairs``: (query, group)),
    under the group's query id."""
    index_of = {query: i for i, query in enumerate(run.query_ids.to_pylist())}
    wanted = set(evaluated)
    pairs = [(q, g) for q, g in sorted(pairs) if q in wanted and q in index_of]
    order = np.arange(run.num_rows, dtype=np.int64)  # trec_eval's order of the rows: position -> row
    if run.moved is not None:
        moved_rows, moved_to = run.moved
        order[moved_to] = moved_rows
    starts = [int(run.starts[index_of[q]]) for q, _ in pairs]
    lengths = [int(run.starts[index_of[q] + 1]) - first for (q, _), first in zip(pairs, starts, strict=True)]
    positions = np.concatenate([np.arange(s, s + n, dtype=np.int64) for s, n in zip(starts, lengths, strict=True)]
                               or [np.zeros(0, dtype=np.int64)])  # fmt: skip
    rows = order[positions]
    ids = arrow_strings([f"{q}{SEPARATOR}{g}" for q, g in pairs])
    bounds = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)
    return Run(run.name, ids, bounds, pa.chunked_array([take(run.doc, rows)]), run.doc_hash[rows])

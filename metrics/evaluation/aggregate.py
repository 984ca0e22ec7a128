"""Means over queries (MRR, MAP, mean NDCG) and trec_eval's rule for which queries count."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from metrics.catalog import registry
from metrics.core.checks import count_relevant
from metrics.core.conventions import TREC_EVAL
from metrics.core.types import Breakdown, Judgments, Ranking

Metric = Callable[[Ranking, Judgments], Breakdown]


@dataclass(frozen=True, slots=True)
class QuerySetResult:
    """Per-query values of one metric, their mean, and the queries left out or counted as 0.

    What :func:`mean_over_queries` returns; in Jupyter it shows as a table.

    Parameters
    ----------
    per_query : Mapping of str to float
        Query id -> value, for the queries that count in the mean.
    mean : float
        Their mean, as trec_eval's ``all`` line forms it (see :func:`mean`).
    run_only : tuple of str
        The queries in the run but not in the qrels: never scored.
    qrels_only : tuple of str
        The judged queries missing from the run: skipped, or scored 0 with ``complete=True``.

    Examples
    --------
    >>> from metrics import reciprocal_rank
    >>> mean_over_queries(reciprocal_rank, {"q1": ["a", "b"], "q3": ["e"]}, {"q1": {"b": 1}, "q4": {"z": 1}})
    QuerySetResult(per_query={'q1': 0.5}, mean=0.5, run_only=('q3',), qrels_only=('q4',))
    """

    per_query: Mapping[str, float]  # the queries that count in the mean
    mean: float
    run_only: tuple[str, ...]  # in the run, not in the qrels: never scored
    qrels_only: tuple[str, ...]  # judged, not in the run: skipped, or 0 with complete=True


def counted_queries(
    run_queries: Sequence[str], qrels: Mapping[str, Judgments], *, complete: bool = False
) -> tuple[list[str], tuple[str, ...], tuple[str, ...]]:
    """Which queries count in a mean, as trec_eval decides.

    Parameters
    ----------
    run_queries : Sequence of str
        The run's query ids, in order.
    qrels : Mapping of str to Judgments
        Every query's judgments, query id -> {doc id: grade}.
    complete : bool, optional
        trec_eval ``-c``: every judged query counts, one missing from the run included (False by default).

    Returns
    -------
    counted : list of str
        The queries that count, in the qrels' order.
    run_only : tuple of str
        The run's queries without a qrels line, in the run's order.
    qrels_only : tuple of str
        The judged queries missing from the run, in the qrels' order.

    Notes
    -----
    A query counts if it is in the run and has at least one qrels line; one whose grades are all 0 counts
    (and scores 0). A query with no qrels lines does not exist for trec_eval. With ``complete`` (trec_eval
    ``-c``), every judged query counts, and one missing from the run scores 0.

    Examples
    --------
    >>> run, qrels = ["q1", "q2", "q3"], {"q1": {"b": 1}, "q2": {"c": 0}, "q4": {"z": 1}}
    >>> counted_queries(run, qrels)
    (['q1', 'q2'], ('q3',), ('q4',))
    >>> counted_queries(run, qrels, complete=True)[0]
    ['q1', 'q2', 'q4']
    """
    judged_queries = [q for q, grades in qrels.items() if grades]
    in_run = set(run_queries)
    qrels_only = tuple(q for q in judged_queries if q not in in_run)
    judged_set = set(judged_queries)
    run_only = tuple(q for q in run_queries if q not in judged_set)
    counted = judged_queries if complete else [q for q in judged_queries if q in in_run]
    return counted, run_only, qrels_only


@dataclass(frozen=True, slots=True)
class QueryStatus:
    """Whether one query counts in the mean, and which of trec_eval's rules decided it (``reason``)."""

    query: str
    counts: bool
    reason: str  # one of QUERY_RULES


QUERY_RULES = (
    "no judgments",  # in the run, no qrels line: trec_eval does not know the query; skipped
    "not in run",  # judged, absent from the run: skipped (without complete)
    "missing counts 0",  # judged, absent from the run, complete (-c): counts, scoring 0
    "nothing relevant",  # judged, in the run, no document relevant: counts, scoring 0
    "counts",  # judged, in the run, something relevant
)


def query_statuses(
    run: Mapping[str, Ranking],
    qrels: Mapping[str, Judgments],
    *,
    complete: bool = False,
    threshold: int = TREC_EVAL.threshold,
) -> list[QueryStatus]:
    """Every query of the qrels and the run (qrels' first, in order), with why it counts in the mean or not: the
    rule of :func:`counted_queries`, one reason per query.

    >>> run, qrels = {"q1": ["a"], "q2": ["b"], "q3": ["c"]}, {"q1": {"a": 1}, "q2": {"b": 0}, "q4": {"d": 1}}
    >>> for status in query_statuses(run, qrels):
    ...     print(status.query, status.counts, status.reason)
    q1 True counts
    q2 True nothing relevant
    q4 False not in run
    q3 False no judgments
    """
    counted = set(counted_queries(list(run), qrels, complete=complete)[0])
    statuses = []
    for q in dict.fromkeys([*qrels, *run]):
        if not qrels.get(q):
            reason = "no judgments"
        elif q not in run:
            reason = "missing counts 0" if complete else "not in run"
        elif count_relevant(qrels[q], threshold) == 0:
            reason = "nothing relevant"
        else:
            reason = "counts"
        statuses.append(QueryStatus(q, q in counted, reason))
    return statuses


def mean_over_queries(
    metric: Metric, run: Mapping[str, Ranking], qrels: Mapping[str, Judgments], *, complete: bool = False
) -> QuerySetResult:
    """Score every counted query with a readable metric and average: trec_eval's ``all`` line (MRR, MAP, ...).

    Parameters
    ----------
    metric : callable
        A readable function taking (ranking, qrels) and returning a Breakdown: :func:`metrics.reciprocal_rank`, or
        one with its cutoff bound, ``functools.partial(metrics.ndcg, k=10)``, or ``parse_measure("nDCG@10").compute``.
    run : Mapping of str to Ranking
        Query id -> doc ids, best first (``Run.to_rankings()`` gives it for a run file).
    qrels : Mapping of str to Judgments
        Query id -> {doc id: grade} (``Qrels.to_dict()`` gives it for a qrels file).
    complete : bool, optional
        trec_eval ``-c``: the judged queries missing from the run count too, each scored on an empty ranking (0 for
        P, R, AP, NDCG, RR and the like); False by default.

    Returns
    -------
    QuerySetResult
        The per-query values, their mean, and the queries only in the run or only in the qrels.

    Raises
    ------
    ValueError
        As ``metric``: a ranking holding a doc id twice, a grade that is not an integer, ...

    See Also
    --------
    counted_queries : which queries count.
    evaluate : every measure over a whole run at once, the same numbers.

    Notes
    -----
    The queries are those of :func:`counted_queries`; the mean adds their values in query-id order, as trec_eval does
    (:func:`mean`).

    Examples
    --------
    >>> from metrics.families.reciprocal_rank import reciprocal_rank
    >>> run = {"q1": ["a", "b"], "q2": ["c", "d"], "q3": ["e"]}
    >>> qrels = {"q1": {"b": 1}, "q2": {"c": 1}, "q4": {"z": 1}}
    >>> mean_over_queries(reciprocal_rank, run, qrels).mean
    0.75
    >>> mean_over_queries(reciprocal_rank, run, qrels, complete=True).mean
    0.5
    >>> from functools import partial
    >>> from metrics import precision
    >>> mean_over_queries(partial(precision, k=1), run, qrels).per_query
    {'q1': 0.0, 'q2': 1.0}
    """
    counted, run_only, qrels_only = counted_queries(list(run), qrels, complete=complete)
    per_query = {q: metric(run.get(q, ()), qrels[q]).value for q in counted}
    in_trec_eval_order = (per_query[q] for q in sorted(per_query))  # trec_eval adds queries up by id
    return QuerySetResult(per_query, mean(in_trec_eval_order), run_only, qrels_only)


def mean(values) -> float:
    """Arithmetic mean as trec_eval forms it: the values added one by one in the order given, then divided.

    Parameters
    ----------
    values : iterable of float
        The values, in trec_eval's query order (ids in byte order) to reproduce its sums.

    Returns
    -------
    float
        Their mean, in double precision; 0.0 if there is none.

    Notes
    -----
    Not math.fsum: an exact sum rounds an exact half the other way now and then (P_200 0.0088 where trec_eval prints
    0.0087). Not sum() either: Python 3.12's compensates.

    Examples
    --------
    >>> mean([0.1, 0.2, 0.3]) == (0.1 + 0.2 + 0.3) / 3
    True
    >>> mean([])
    0.0
    """
    values = list(values)
    return _in_order(values) / len(values) if values else 0.0


def _in_order(values: list[float]) -> float:
    total = 0.0
    for value in values:  # a loop, not sum(): Python 3.12's sum() compensates, trec_eval does not
        total += value
    return total


# With -c, trec_eval scores a query missing from the run on a stand-in ranking of one unjudged document (trec_eval.c's
# bogus_ranking; -J drops it), then sets some measures to 0 ("clean up leftovers"): each family declares whether
# (Family.trec_eval.zero_when_missing).
STAND_IN_DOC = "ceci_nest_pas_un_docno"  # trec_eval's name for it


def zero_when_missing(measure) -> bool:
    """Does trec_eval -c set this measure to 0 for a query missing from the run (else: its stand-in's value)?"""
    rule = registry.family(measure.family).trec_eval.zero_when_missing
    return rule(measure) if callable(rule) else rule


GEOMETRIC_FLOOR = 0.00001  # trec_eval's MIN_GEO_MEAN: a query scoring 0 counts as 0.00001 in gm_map, gm_bpref


def summarize(values, summary: str = "mean") -> float:
    """The ``all`` value over the counted queries, as trec_eval forms it for the measure: the mean; the sum (num_ret,
    num_rel, num_rel_ret, ...); the geometric mean with zeros floored at 0.00001 (gm_map, gm_bpref); or how many
    queries there are (num_q).

    >>> summarize([0.5, 0.0], "geometric") == math.exp((math.log(0.5) + math.log(0.00001)) / 2)
    True
    """
    values = list(values)
    if summary == "none":  # no summary line (trec_eval relstring: per query only, and not a number)
        return math.nan
    if summary == "sum":
        return _in_order(values)
    if summary == "queries":  # num_q: how many queries, whatever their values
        return float(len(values))
    if summary == "geometric":
        return math.exp(mean(math.log(max(v, GEOMETRIC_FLOOR)) for v in values)) if values else 0.0
    return mean(values)

"""Every measure for every query of a whole run at once, with numpy: the same numbers, bit for bit, as the
readable functions (``Measure.compute`` per query, ``mean`` over queries), at a fraction of the cost.

Sparse arithmetic: every measure follows from the judged retrieved rows (query, rank,
grade) plus per-query counts (R, list length) and the ideal gains; unjudged rows only ever add 0.0. Sums run
in rank order with ``np.bincount(weights=...)``, which accumulates sequentially like the readable loops' ``+=``
(``np.add.reduceat`` and ``np.sum`` sum pairwise and would differ in the last bit).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from metrics.catalog import registry
from metrics.catalog.family import Measure
from metrics.catalog.measures import DEFAULT_MEASURES, parse_measures
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.errors import InputError
from metrics.core.tables import html_table, markdown_table, number
from metrics.evaluation.aggregate import summarize, zero_when_missing
from metrics.evaluation.options import EvaluationOptions, given
from metrics.evaluation.slots import QueryCounts, QuerySlots

if TYPE_CHECKING:
    from metrics.io import Qrels, Run


@dataclass(frozen=True, eq=False)
class Evaluation:
    """Per-query values (numpy, one array per measure) and means, as trec_eval -q prints them."""

    queries: tuple[str, ...]  # the evaluated queries, sorted by id in byte order (trec_eval -q's order)
    measures: tuple[Measure, ...]
    per_query: dict[str, np.ndarray]  # measure name as spelled -> float64 value per query, aligned with queries
    # measure name -> mean over the evaluated queries (added in query order, as trec_eval adds), or the family's
    # summary (sum, geometric); NaN for a family with no summary (relstring)
    means: dict[str, float]
    counts: QueryCounts
    only_in_run: tuple[str, ...]
    only_in_qrels: tuple[str, ...]
    conventions: Conventions = TREC_EVAL
    complete: bool = False
    # a measure whose value is a string (trec_eval relstring) -> one string per query; its per_query values are 0.0,
    # as trec_eval stores them
    texts: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    def _table(self) -> tuple[list[str], list[list[object]]]:
        """Each query's values then the means (or summaries), 4 decimals: what Jupyter shows."""
        names = list(self.per_query)

        def cell(name: str, index: int | None) -> object:
            if index is None:
                return number(self.means[name])
            return self.texts[name][index] if name in self.texts else number(float(self.per_query[name][index]))

        rows = [[query, *(cell(n, i) for n in names)] for i, query in enumerate(self.queries)]
        return ["query", *names], [*rows, ["all", *(cell(n, None) for n in names)]]

    def _repr_html_(self) -> str:
        header, rows = self._table()
        return html_table(header, rows, caption=f"{self.counts.evaluated} queries evaluated; the last row: all")

    def _repr_markdown_(self) -> str:
        return markdown_table(*self._table())

    def to_frame(self):
        """One row per query (index ``query``), one column per measure as spelled: its values, or its strings for a
        measure whose value is a string (relstring). Imports pandas."""
        import pandas as pd  # lazily: the CLI never pays pandas' import time

        columns = {name: self.texts.get(name, values) for name, values in self.per_query.items()}
        frame = pd.DataFrame(columns, index=list(self.queries))
        frame.index.name = "query"
        return frame


def evaluate(
    run,
    qrels,
    measures: Iterable[str | Measure] = DEFAULT_MEASURES,
    *,
    options: EvaluationOptions | None = None,
    subtopic_qrels=None,
    **keywords,
) -> Evaluation:
    r"""Score every query of a run (trec_eval's query set) on every measure, with numpy.

    The numbers equal the readable functions' (``Measure.compute`` per query, :func:`metrics.mean` over queries) bit
    for bit, and trec_eval 10.0's.

    Parameters
    ----------
    run : str, os.PathLike, bytes, DataFrame, Mapping or Run
        Anything :func:`metrics.read_run` accepts (a TREC, CSV/TSV or Parquet file, optionally .gz; its bytes; a
        DataFrame; a dict ``{query: {doc: score}}`` or ``{query: [doc, ...]}``, best first) or what it returns.
    qrels : str, os.PathLike, bytes, DataFrame, Mapping, Qrels or None
        Anything :func:`metrics.read_qrels` accepts (a dict ``{query: {doc: grade}}``...) or what it returns. None
        only with ``subtopic_qrels`` and diversity measures alone.
    measures : iterable of str or Measure, optional
        Each a name, ours, trec_eval's or ir_measures' (``NDCG@10``, ``ndcg_cut_10``, ``nDCG@10``, ``map``,
        ``P_5``; see :func:`metrics.parse_measure`), or a Measure. Default: ``DEFAULT_MEASURES``. A measure named
        twice is scored once.
    subtopic_qrels : str, os.PathLike, bytes, Mapping or SubtopicQrels, optional
        ndeval's subtopic qrels (``topic subtopic docno judgment``; a dict ``{topic: {subtopic: {doc: judgment}}}``;
        :func:`metrics.read_subtopic_qrels`): the diversity measures (alpha_nDCG@k, ERR_IA@k, nERR_IA@k,
        alpha_DCG@k, NRBP, nNRBP, AP_IA, P_IA@k, StRecall@k, with ``alpha=``, ``beta=``) are scored against them,
        as ndeval 4.5 scores them, the other measures against ``qrels``. Never guessed from a file: ndeval's files
        and trec_eval's both have four columns. See Notes for the query set and the run's order.
    options : EvaluationOptions, optional
        How the run is evaluated (:class:`metrics.evaluation.options.EvaluationOptions`); trec_eval's defaults when
        None.
    **keywords
        The fields of ``options``, each replacing the one given: ``conventions`` (a Conventions); ``complete``
        (trec_eval ``-c``: judged queries missing from the run are scored too); ``max_docs`` keeps the top
        ``max_docs`` of each ranking (trec_eval ``-M``); ``judged_only`` then drops the documents without a
        judgment of 0 or more and ranks the rest 1, 2, 3... (trec_eval ``-J``).

    Returns
    -------
    Evaluation
        ``queries``: the evaluated queries, by id in byte order (trec_eval ``-q``'s order); ``per_query``: measure
        name as spelled -> a float64 numpy array aligned with ``queries``; ``means``: measure name -> its mean over
        the queries (or the family's summary: a sum for num_ret, a geometric mean for gm_map; NaN for relstring,
        whose strings are in ``texts``); ``only_in_run``, ``only_in_qrels``: the queries left out; ``counts``.
        ``to_frame()`` gives a pandas DataFrame, one row per query.

    Raises
    ------
    metrics.io.InputError
        If the run or the qrels cannot be read (a ValueError naming the file, the line and the problem).
    ValueError
        If a measure name is unknown or malformed, or ``max_docs`` is not a positive integer.
    TypeError
        If a keyword is not a field of EvaluationOptions.

    See Also
    --------
    metrics.mean_over_queries : the same mean, one readable function over a dict of rankings.

    Notes
    -----
    A query counts if it is in the run and has a qrels line, as in trec_eval; with ``complete=True`` every judged
    query counts, and one missing from the run is scored as trec_eval ``-c`` scores it.

    With ``subtopic_qrels`` and no ``qrels``, the query set is ndeval's: the run's queries whose topic the subtopic
    qrels judge (a query ``012`` or ``wt09-12`` is topic 12, as ndeval reads it), in topic order; ``complete`` is
    ndeval's ``-c``. With both, it is trec_eval's, from ``qrels``, and a query the subtopic qrels lack scores 0 on
    the diversity measures (ndeval's row for such a topic). Every measure reads the run in trec_eval's order (score,
    then doc id, descending), which is ndeval's ``-traditional``; ndeval (and ``ir-ndeval``) by default orders by
    the rank column. They agree whenever the ranks follow the scores. ``judged_only`` (``-J``) is refused: ndeval
    has no ``-J``.

    Examples
    --------
    >>> result = evaluate({"q1": ["a", "b"], "q2": ["c"]}, {"q1": {"b": 1}, "q2": {"z": 1}}, ["RR", "P@1"])
    >>> result.per_query["RR"].tolist(), result.means["RR"]
    ([0.5, 0.0], 0.25)

    A TREC run and qrels (here as bytes; a path reads the file), measures spelled as trec_eval spells them:

    >>> run = b"q1 Q0 a 1 2.0 bm25\nq1 Q0 b 2 1.0 bm25\n"
    >>> evaluate(run, b"q1 0 b 1\n", ["map", "ndcg_cut_10"]).means
    {'map': 0.5, 'ndcg_cut_10': 0.6309297535714575}
    """
    # Here: pyarrow, which the CLI's small files never load (plain_join).
    from metrics.io.readers import read_qrels, read_run

    options = given(options, keywords)
    if subtopic_qrels is not None:
        return _with_subtopics(run, qrels, measures, subtopic_qrels, options)
    return score(join(read_run(run, max_docs=options.cut()), read_qrels(qrels), measures, options=options))


def _with_subtopics(run, qrels, measures, subtopic_qrels, options: EvaluationOptions) -> Evaluation:
    """:func:`evaluate` with subtopic qrels: the diversity measures from them (metrics.evaluation.subtopics), the
    others from ``qrels``, in the order given."""
    from metrics.evaluation import subtopics as diversity
    from metrics.io.readers import read_qrels, read_run
    from metrics.io.subtopic_qrels import read_subtopic_qrels

    parsed = {measure.name: measure for measure in parse_measures(measures)}
    diverse, plain = diversity.split(parsed)
    diversity.check_options(options, plain, qrels is not None)
    judged = read_subtopic_qrels(subtopic_qrels)
    read = read_run(run, max_docs=options.cut())
    if qrels is None:
        check_max_docs(options.max_docs)
        found = diversity.on_ndeval_topics(read, judged, diverse, options)
        assert found.counts is not None  # ndeval's query set brings its counts
        base_queries, counts, only = found.queries, found.counts, (found.only_in_run, found.only_in_qrels)
        plain_values: dict[str, np.ndarray] = {}
        texts: dict[str, tuple[str, ...]] = {}
    else:
        base = score(join(read, read_qrels(qrels), list(plain.values()), options=options))
        found = diversity.on_queries(read, judged, diverse, base.queries, options)
        base_queries, counts, only = base.queries, base.counts, (base.only_in_run, base.only_in_qrels)
        plain_values, texts = base.per_query, base.texts
    per_query = {name: plain_values[name] if name in plain else found.per_query[name] for name in parsed}
    return Evaluation(
        base_queries,
        tuple(parsed.values()),
        per_query,
        summaries(per_query, parsed),
        counts,
        *only,
        options.conventions,
        options.complete,
        texts,
    )


@dataclass(frozen=True, eq=False)
class Joined:
    """A run joined with its qrels for the given measures: all that scoring reads, so that the Run and Qrels (a
    large run's doc ids above all) can be freed before it (the CLI does)."""

    measures: dict[str, Measure]  # name as spelled -> Measure
    prepared: dict[int, QuerySlots]  # one per relevance threshold (a measure may bring its own, P(rel=2)@5)
    options: EvaluationOptions
    positive_judgments: int | None  # with complete: the qrels lines with a grade above 0 (num_rel's 'all')


def join(
    run: Run,
    qrels: Qrels,
    measures: Iterable[str | Measure] = DEFAULT_MEASURES,
    *,
    options: EvaluationOptions | None = None,
    **keywords,
) -> Joined:
    """The first half of :func:`evaluate` (its options too): the run joined with its qrels at every threshold the
    measures use."""
    from metrics.evaluation.arrow_join import ArrowSlots

    options = given(options, keywords)
    return joined_by(lambda at: ArrowSlots(run, qrels, at), qrels.grade, measures, options)


def joined_by(
    prepare: Callable[[EvaluationOptions], QuerySlots],
    grade: np.ndarray,
    measures: Iterable[str | Measure],
    options: EvaluationOptions,
) -> Joined:
    """The Joined of ``measures``: ``prepare(options at one threshold)`` once per relevance threshold they use.
    ``grade``: every qrels line's grade. One statement for the Arrow join (:func:`join`) and the plain-Python one
    (metrics.evaluation.plain_join)."""
    parsed = {measure.name: measure for measure in parse_measures(measures)}
    conventions = options.conventions
    check_max_docs(options.max_docs)
    thresholds = [measure.conventions_under(conventions).threshold for measure in parsed.values()]
    prepared: dict[int, QuerySlots] = {}
    for threshold in thresholds or [conventions.threshold]:
        if threshold not in prepared:
            at_threshold = dataclasses.replace(conventions, threshold=threshold)
            prepared[threshold] = prepare(dataclasses.replace(options, conventions=at_threshold))
    positive = int(np.count_nonzero(grade > 0)) if options.complete else None
    return Joined(parsed, prepared, options, positive)


def check_max_docs(max_docs) -> None:
    if max_docs is not None and (isinstance(max_docs, bool) or not isinstance(max_docs, int) or max_docs < 1):
        raise InputError(
            "option-max-docs", f"the largest number of documents per query must be a positive integer, got {max_docs!r}"
        )


def score(joined: Joined, *, summarized: bool = True) -> Evaluation:
    """The second half of :func:`evaluate`: every measure's per-query values and summaries (``summarized=False``:
    no summaries, ``means`` empty: a part of a run, which metrics.evaluation.combine summarizes whole)."""
    options = joined.options
    conventions, complete, judged_only = options.conventions, options.complete, options.judged_only
    cache: dict[tuple, np.ndarray] = {}
    per_query = {}
    for name, measure in joined.measures.items():
        under = measure.conventions_under(conventions)
        key = (measure.family, measure.k, measure.params, under)
        if key not in cache:
            data = joined.prepared[under.threshold]
            family = registry.family(measure.family)
            values = family.kernel(data, measure)
            if complete and zero_when_missing(measure):
                values = np.where(data.in_run, values, 0.0)  # -c: trec_eval's values for a query missing from the run
            elif complete and (stand_in := family.trec_eval.stand_in) and not judged_only:  # -J drops the stand-in
                values = stand_in(values, data, measure)
            cache[key] = values
        per_query[name] = cache[key]
    texts = {name: tuple(values.tolist()) for name, values in per_query.items() if values.dtype == object}
    per_query.update((name, np.zeros(len(values))) for name, values in per_query.items() if name in texts)
    data = joined.prepared.get(conventions.threshold) or next(iter(joined.prepared.values()))
    means = summaries(per_query, joined.measures, positive_judgments=joined.positive_judgments) if summarized else {}
    return Evaluation(
        data.queries,
        tuple(joined.measures.values()),
        per_query,
        means,
        data.counts,
        data.only_in_run,
        data.only_in_qrels,
        conventions,
        complete,
        texts,
    )


def summaries(
    per_query: dict[str, np.ndarray], measures: dict[str, Measure], *, positive_judgments: int | None = None
) -> dict[str, float]:
    """The 'all' value of each measure from its per-query values (in trec_eval -q's query order): the one place
    summaries are formed, for a whole run and for one evaluated in parts (metrics.evaluation.combine: streamed,
    distributed). ``positive_judgments`` (-c only): the qrels lines with a grade above 0, which trec_eval -c prints as
    num_rel's 'all', whatever -l says (m_num_rel.c)."""
    means = {
        name: summarize(values.tolist(), registry.family(measures[name].family).values.summary)
        for name, values in per_query.items()
    }
    if positive_judgments is not None:
        for name, measure in measures.items():
            if registry.family(measure.family).trec_eval.counts_positive_judgments:
                means[name] = float(positive_judgments)
    return means

"""Recall (R). Recall@k: the share of all relevant docs (retrieved or not) found in the top k.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import TREC_CUTOFFS, Default, Family, Names, Teaching, TrecEval
from metrics.core.checks import count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._hits import _hits_breakdown
from metrics.families.num_rel import NUM_REL
from metrics.teaching.latex import (
    aligned_block,
    at_cut,
    decimal,
    defined,
    hits_line,
    measure_symbol,
    whole,
    zero_R_line,
)

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Recall at cutoff k: the share of all relevant docs, retrieved or not, found in the top k.

    trec_eval ``recall_k``; ir_measures ``R@k``; ranx ``recall@k``.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: only the top k ranks count. None (the default) looks at the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is R@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, each relevant one
        contributing 1/R; ``terms`` holds the hits (``Term.HITS``) and R (``Term.R``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    capped_recall : divides by min(R, k), so it can reach 1 when R > k.
    hit_rate : 1 if any relevant doc is in the top k.

    Notes
    -----
    .. math:: R@k = \frac{hits@k}{R}

    Conventions (trec_eval): R counts every judged doc with grade >= threshold, **retrieved or not**.
    R = 0 gives 0.0, not NaN (``m_recall.c``).
    Naming: some people say "recall@k" for "any relevant doc in the top k"; that is HitRate@k here.

    Examples
    --------
    >>> round(recall(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).value, 4)
    0.6667
    >>> recall(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).terms
    {'hits': 2, 'R': 3}
    """
    R = count_relevant(qrels, conventions.threshold)
    hits, steps = _hits_breakdown(ranking, qrels, k, R, conventions)
    value = hits / R if R else 0.0
    return Breakdown("R", k, value, tuple(steps), {Term.HITS: hits, Term.R: R}, conventions)


def recall_definition(c: Conventions) -> str:
    return rf"{defined('R')} = \frac{{\mathrm{{hits@}}k}}{{R}}"


def recall_worked(b: Breakdown) -> str:
    s, R, hits = measure_symbol("R", b.k), whole(b.terms[Term.R]), whole(b.terms[Term.HITS])
    last = zero_R_line(s) if not b.terms[Term.R] else rf"{s} &= \frac{{{hits}}}{{{R}}} = {decimal(b.value)}"
    return aligned_block([rf"{s} &= \frac{{\mathrm{{hits{at_cut(b.k)}}}}}{{R}}", hits_line(b), last])


def recall_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.R)


RECALL = Family(
    key="R",
    title="Recall",
    help="Recall@k: the share of all relevant docs (retrieved or not) found in the top k.",
    function=recall,
    kernel=recall_kernel,
    kind="set",
    teaching=Teaching(
        recall_definition,
        recall_worked,
        terms=(Term.HITS, Term.R),
        plain=(
            "rewards finding the relevant documents the judges know of: the share of them that appear"
            " in {top}, in any order"
        ),
    ),
    names=Names(spellings=("recall",), ir_measures="R", tools={"ranx": "recall@k", "BEIR": "Recall@k"}),
    trec_eval=TrecEval("recall", defaults=TREC_CUTOFFS),
    default=Default(4, cutoff=100),
    normaliser=lambda k, conventions: NUM_REL.key,
    order=20,
)

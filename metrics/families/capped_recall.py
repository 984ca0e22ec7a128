"""Capped recall (R_cap). Capped recall@k (BEIR): divides by min(R, k), so 1.0 is reachable when R > k.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import TREC_CUTOFFS, Default, Family, Names, Teaching, TrecEval
from metrics.core.checks import check_k, count_relevant
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._hits import _hits_breakdown
from metrics.families.recall import RECALL
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

CAP = Term("min(R, k)")


def capped_recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Capped recall at cutoff k: recall divided by min(R, k), so it can reach 1 even when R > k.

    BEIR ``R_cap@k``; trec_eval and ranx have no such measure.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: only the top k ranks count, and the divisor is min(R, k). None (the default) looks at the whole
        list and caps R at its length.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here: ``threshold``, the lowest grade that
        counts as relevant (a doc is relevant if it is judged and its grade >= threshold).

    Returns
    -------
    Breakdown
        ``value`` is R_cap@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, each relevant
        one contributing 1 / min(R, k); ``terms`` holds the hits (``Term.HITS``), R (``Term.R``) and the divisor
        (``"min(R, k)"``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    recall : divides by R.

    Notes
    -----
    .. math:: R_{cap}@k = \frac{hits@k}{\min(R, k)}

    Conventions: BEIR's definition (``beir/retrieval/custom_metrics.py::recall_cap``); R as in recall.
    R = 0 gives 0.0 (BEIR itself raises ZeroDivisionError). k=None caps at the length of the list.

    Examples
    --------
    >>> capped_recall(["r1", "r2", "r3", "n1", "n2"], {f"r{i}": 1 for i in range(1, 8)}, k=5).value
    0.6
    """
    check_k(k)  # k is used below before _hits_breakdown checks it
    R = count_relevant(qrels, conventions.threshold)
    cap = min(R, len(ranking) if k is None else k)
    hits, steps = _hits_breakdown(ranking, qrels, k, cap, conventions)
    value = hits / cap if cap else 0.0
    return Breakdown("R_cap", k, value, tuple(steps), {Term.HITS: hits, Term.R: R, CAP: cap}, conventions)


_SUBSCRIPT = r"{\mathrm{cap}}"  # R_cap is recall's symbol with this subscript


def capped_recall_definition(c: Conventions) -> str:
    return rf"{defined(RECALL.key, subscript=_SUBSCRIPT)} = \frac{{\mathrm{{hits@}}k}}{{\min(R,\ k)}}"


def capped_recall_worked(b: Breakdown) -> str:
    s, R, cap, hits = (
        measure_symbol(RECALL.key, b.k, subscript=_SUBSCRIPT),
        whole(b.terms[Term.R]),
        whole(b.terms[CAP]),
        whole(b.terms[Term.HITS]),
    )
    k_shown = str(b.k) if b.k is not None else str(len(b.steps))
    if not b.terms[Term.R]:
        last = zero_R_line(s)
    else:
        last = (
            rf"{s} &= \frac{{{hits}}}{{\min({R},\ {k_shown})}} = \frac{{{hits}}}"
            rf"{{{cap}}} = {decimal(b.value)}"
        )
    return aligned_block([rf"{s} &= \frac{{\mathrm{{hits{at_cut(b.k)}}}}}{{\min(R,\ k)}}", hits_line(b), last])


def capped_recall_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return ratio(data.hits(measure.k), np.minimum(data.R, data.cutoff_divisor(measure.k)))


CAPPED_RECALL = Family(
    key="R_cap",
    title="Capped recall",
    help="Capped recall@k (BEIR): divides by min(R, k), so 1.0 is reachable when R > k.",
    function=capped_recall,
    kernel=capped_recall_kernel,
    kind="set",
    teaching=Teaching(
        capped_recall_definition,
        capped_recall_worked,
        terms=(Term.HITS, Term.R, CAP),
        plain=(
            "rewards finding relevant documents in {top}, like recall, but a query with more relevant"
            " documents than fit there can still score 1"
        ),
    ),
    names=Names(spellings=("rcap", "capped_recall", "relative_P", "set_relative_P"), tools={"BEIR": "R_cap@k"}),
    trec_eval=TrecEval(
        name="relative_P",  # m_rel_P.c: hits@k / min(k, R), the same number
        uncut="set_relative_P",  # m_set_rel_P.c: relevant retrieved / min(retrieved, R)
        defaults=TREC_CUTOFFS,
    ),
    default=Default(5, cutoff=100),
    order=30,
)

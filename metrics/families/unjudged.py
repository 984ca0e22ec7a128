"""Unjudged at k (unj). unj@k: the share of the top k with no judgment (no qrels line or a grade below 0), divided by k.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Teaching, TrecEval
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import NOT_IN_POOL, POOL_UNJUDGED, level
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._judged_ranks import _share_steps
from metrics.teaching.latex import aligned_block, plain, share_line, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def unjudged(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Unjudged at k: the share of the top k with no judgment.

    trec_eval 10 ``unj_k`` (default cutoffs 5, 10, 20).

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff, and the divisor: only the top k ranks count. None (the default) divides by the length of the
        list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). None changes the value; ``threshold``
        marks the steps' relevant docs (``RankStep.relevant``).

    Returns
    -------
    Breakdown
        ``value`` is unj@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, each unjudged
        one contributing 1/k; ``terms`` holds the unjudged docs (``Term.UNJUDGED``) and the divisor
        (``Term.CUTOFF``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    judged : ir_measures' ``Judged@k``.

    Notes
    -----
    .. math:: \mathrm{unj@}k = \frac{\#\{i \leq k : d_i \text{ not in the qrels, or graded below 0}\}}{k}

    Conventions (trec_eval ``m_unjudged.c``): a negative grade ("in the pool, not judged") is unjudged; the divisor
    is always k ("irrelevant, not unjudged, docs fill in the rest"); k=None divides by the list length (0 if
    empty). A red flag: a high value at small k means the qrels barely cover the run.

    Examples
    --------
    >>> unjudged(["a", "x", "b", "y"], {"a": 1, "b": -1}, k=5).value
    0.6
    """
    top = checked(ranking, qrels, k)
    divisor = len(ranking) if k is None else k
    unjudged_levels = (NOT_IN_POOL, POOL_UNJUDGED)
    count, steps = _share_steps(top, qrels, lambda doc: level(qrels, doc) in unjudged_levels, divisor, conventions)
    value = count / divisor if divisor else 0.0
    return Breakdown("unj", k, value, tuple(steps), {Term.UNJUDGED: count, Term.CUTOFF: divisor}, conventions)


def unjudged_definition(c: Conventions) -> str:
    return r"\mathrm{unj@}k = \frac{\#\{i \leq k : d_i \text{ unjudged}\}}{k}"


def unjudged_worked(b: Breakdown) -> str:
    s, count, divisor = plain("unj", b.k), whole(b.terms[Term.UNJUDGED]), whole(b.terms[Term.CUTOFF])
    zero = "nothing retrieved" if not b.terms[Term.CUTOFF] else None
    return aligned_block(
        [
            rf"{s} &= \frac{{\#\,\text{{unjudged in the top k}}}}{{k}}"
            r" \quad \text{(no qrels line, or a grade below 0)}",
            share_line(s, count, divisor, b.value, zero),
        ]
    )


def unjudged_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    slot, _, grade = data.within(measure.k)
    judged_count = np.bincount(slot[grade >= 0], minlength=data.size)
    divisor = data.n if measure.k is None else np.full(data.size, measure.k, dtype=np.int64)
    return ratio(data.retrieved(measure.k) - judged_count, divisor)


UNJUDGED = Family(
    key="unj",
    title="Unjudged at k",
    help="unj@k: the share of the top k with no judgment (no qrels line or a grade below 0), divided by k.",
    function=unjudged,
    kernel=unjudged_kernel,
    kind="set",
    teaching=Teaching(
        unjudged_definition,
        unjudged_worked,
        terms=(Term.UNJUDGED, Term.CUTOFF),
        plain="is no score of quality: it is the share of {top} that nobody judged",
    ),
    trec_eval=TrecEval("unj", defaults=(5, 10, 20), zero_when_missing=True),
    order=290,
)

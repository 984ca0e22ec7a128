"""Judgment rate (Judged). Judged@k: the share of the top k that has a judgment (any qrels line); a short list divides
by its length.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, ratio
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families._judged_ranks import _share_steps
from metrics.teaching.latex import aligned_block, plain, share_line, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

JUDGED_DOCUMENTS = Term("judged")


def judged(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Judgment rate at k: the share of the top k that has a qrels line.

    ir_measures ``Judged@k``. trec_eval's ``unj_k`` (:func:`unjudged`) counts negative grades as unjudged and divides
    by k.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: the share of the top k, divided by the docs shown, min(k, n). None (the default) looks at the
        whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). None changes the value; ``threshold``
        marks the steps' relevant docs (``RankStep.relevant``).

    Returns
    -------
    Breakdown
        ``value`` is Judged@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, each judged
        one contributing 1 / min(k, n); ``terms`` holds the judged docs (``"judged"``) and the divisor
        (``Term.DENOMINATOR``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    unjudged : trec_eval's ``unj_k``.

    Notes
    -----
    .. math:: \mathrm{Judged@}k = \frac{\#\{i \leq k : d_i \text{ in the qrels}\}}{\min(k,\ n)}

    Conventions (ir_measures' judged provider): any qrels line counts as judged, a negative grade too; the divisor
    is the number of documents shown, min(k, n), so a short list is not penalised; an empty list gives 0. k=None
    looks at the whole list. trec_eval's ``unj_k`` counts negative grades as unjudged and divides by k.

    Examples
    --------
    >>> judged(["a", "x", "b"], {"a": 1, "b": 0}, k=10).value == 2 / 3
    True
    """
    top = checked(ranking, qrels, k)
    divisor = len(top)
    count, steps = _share_steps(top, qrels, lambda doc: doc in qrels, divisor, conventions)
    value = count / divisor if divisor else 0.0
    return Breakdown(
        "Judged", k, value, tuple(steps), {JUDGED_DOCUMENTS: count, Term.DENOMINATOR: divisor}, conventions
    )


def judged_definition(c: Conventions) -> str:
    return r"\mathrm{Judged@}k = \frac{\#\{i \leq k : d_i \text{ judged}\}}{\min(k,\ n)}"


def judged_worked(b: Breakdown) -> str:
    s, count, divisor = plain("Judged", b.k), whole(b.terms[JUDGED_DOCUMENTS]), whole(b.terms[Term.DENOMINATOR])
    zero = "nothing retrieved" if not b.terms[Term.DENOMINATOR] else None
    return aligned_block(
        [
            rf"{s} &= \frac{{\#\,\text{{judged in the top {'k' if b.k else 'n'}}}}}{{\min(k,\ n)}}",
            share_line(s, count, divisor, b.value, zero),
        ]
    )


def judged_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    slot, _, _ = data.within(measure.k)
    return ratio(np.bincount(slot, minlength=data.size), data.retrieved(measure.k))


JUDGED = Family(
    key="Judged",
    title="Judgment rate",
    help="Judged@k: the share of the top k that has a judgment (any qrels line); a short list divides by its length.",
    function=judged,
    kernel=judged_kernel,
    kind="set",
    teaching=Teaching(
        judged_definition,
        judged_worked,
        terms=(JUDGED_DOCUMENTS, Term.DENOMINATOR),
        plain=(
            "is no score of quality: it is the share of {top} that someone judged; where it is low, "
            "the other measures are unsure"
        ),
    ),
    names=Names(ir_measures="Judged"),
    order=280,
)

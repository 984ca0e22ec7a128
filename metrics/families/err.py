"""Expected reciprocal rank (ERR). ERR@k: the expected 1/rank where a user stops, satisfied with probability (2^grade -
1) / 16 at each rank.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching
from metrics.core.checks import checked
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared, position_within
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, decimal, elided_sum, plain

if TYPE_CHECKING:
    from metrics.catalog.family import Measure

STILL_READING = Term("P(still reading)")  # the chance the user reads past the last rank

ERR_MAX_GRADE = 4  # gdeval's MAX_JUDGMENT: a grade-4 document satisfies the user with probability 15/16


@dataclass(frozen=True, slots=True)
class CascadeStep:
    """One rank of ERR's cascade."""

    rank: int
    doc_id: str
    grade: int
    reach: float  # the chance the user reads this far: the product of (1 - R_j) above
    stop: float  # R_i = (2^g - 1) / 2^4: the chance a reader stops here, satisfied
    contribution: float  # reach * stop / rank


def err_cascade(ranking: Ranking, qrels: Judgments, k: int | None = None) -> list[CascadeStep]:
    """ERR's cascade rank by rank (gdeval's conventions, see :func:`expected_reciprocal_rank`, which sums it).

    >>> [(s.reach, s.stop, s.contribution) for s in err_cascade(["a", "b"], {"a": 4, "b": 1})]
    [(1.0, 0.9375, 0.9375), (0.0625, 0.0625, 0.001953125)]
    """
    still_reading, steps = 1.0, []
    for rank, doc in enumerate(checked(ranking, qrels, k), start=1):
        grade = int(qrels.get(doc, 0))
        satisfied = (2 ** min(max(grade, 0), ERR_MAX_GRADE) - 1) / 2**ERR_MAX_GRADE
        steps.append(CascadeStep(rank, doc, grade, still_reading, satisfied, satisfied * still_reading / rank))
        still_reading *= 1 - satisfied
    return steps


def expected_reciprocal_rank(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Expected reciprocal rank at k: 1 / the rank where a cascading user stops, satisfied, in expectation.

    ir_measures ``ERR@k``, computed there by gdeval. Chapelle et al., CIKM 2009.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        The cutoff: only the top k ranks count. None (the default) looks at the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). None changes the value (the relevance
        threshold is ignored); ``threshold`` marks the steps' relevant docs (``RankStep.relevant``).

    Returns
    -------
    Breakdown
        ``value`` is ERR@k, from 0 to 1; ``steps`` has one RankStep per retrieved rank of the top k, contributing
        R_i / i times the chance the user reads that far; ``terms`` holds the chance the user is still reading after
        the last rank (``"P(still reading)"``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    reciprocal_rank, rank_biased_precision

    Notes
    -----
    .. math:: \mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j < i} (1 - R_j),
        \qquad R_i = \frac{2^{g_i} - 1}{2^{4}}

    A cascade: the user stops at rank i, satisfied, with probability R_i, else reads on. Conventions (gdeval, as
    ir_measures runs it): the highest grade is 4, so a grade-4 document stops the user with probability 15/16;
    grades above 4, which gdeval refuses, count as 4; unjudged documents and grades <= 0 have R = 0; the relevance
    threshold is ignored. gdeval prints 5 decimals.

    Examples
    --------
    >>> expected_reciprocal_rank(["a", "b"], {"a": 1, "b": 4}, k=10).value == 1 / 16 + (15 / 16) * (15 / 16) / 2
    True
    """
    total, still_reading, steps = 0.0, 1.0, []
    for s in err_cascade(ranking, qrels, k):
        total += s.contribution
        still_reading = s.reach * (1 - s.stop)
        steps.append(RankStep(s.rank, s.doc_id, s.grade, s.grade >= conventions.threshold, s.contribution, total))
    return Breakdown("ERR", k, total, tuple(steps), {STILL_READING: still_reading}, conventions)


def err_definition(c: Conventions) -> str:
    return (
        r"\mathrm{ERR@}k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j<i} (1 - R_j), \quad "
        r"R_i = \frac{2^{g_i} - 1}{2^4}"
    )


def err_worked(b: Breakdown) -> str:
    s = plain("ERR", b.k)
    lines = [rf"{s} &= \sum_i \frac{{R_i}}{{i}} \prod_{{j<i}} (1 - R_j), \quad R_i = \frac{{2^{{g_i}} - 1}}{{16}}"]
    stops = [st for st in b.steps if st.contribution]
    if stops:
        lines.append(rf"&= {elided_sum([decimal(st.contribution) for st in stops], [st.contribution for st in stops])}")
    past = decimal(b.terms[STILL_READING])
    lines.append(rf"&= {decimal(b.value)} \quad \text{{(reads past the end with probability {past})}}")
    return aligned_block(lines)


def expected_reciprocal_rank_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
    positive = grade > 0
    slot, rank, grade = slot[positive], rank[positive], grade[positive]
    satisfied = np.array([(2 ** min(g, ERR_MAX_GRADE) - 1) / 2**ERR_MAX_GRADE for g in range(ERR_MAX_GRADE + 1)])
    chance = satisfied[np.minimum(grade, ERR_MAX_GRADE)]
    total, still_reading = np.zeros(data.size), np.ones(data.size)
    position = position_within(slot) - 1
    for nth in range(int(position.max()) + 1 if len(position) else 0):  # the nth positive row of every query at once
        rows = position == nth
        at = slot[rows]
        total[at] += chance[rows] * still_reading[at] / rank[rows]
        still_reading[at] *= 1 - chance[rows]
    return total


EXPECTED_RECIPROCAL_RANK = Family(
    key="ERR",
    title="Expected reciprocal rank",
    help="ERR@k: the expected 1/rank where a user stops, satisfied with probability (2^grade - 1) / 16 at each rank.",
    function=expected_reciprocal_rank,
    kernel=expected_reciprocal_rank_kernel,
    kind="order",
    teaching=Teaching(
        err_definition,
        err_worked,
        terms=(STILL_READING,),
        plain=(
            "rewards satisfying the reader early in {top}: a reader reads down and stops at the first"
            " very relevant document, so one excellent document at the top is worth more than several"
            " partly relevant ones below it"
        ),
    ),
    names=Names(ir_measures="ERR"),
    order=320,
)

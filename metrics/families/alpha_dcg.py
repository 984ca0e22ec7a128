"""alpha-DCG@k, ndeval 4.5's: each rank's novelty gain times ndeval's log discount, summed, over the same sum for a
ranking that covers every subtopic at every rank ("ideal ideal" normalisation).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching, Values
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Ranking
from metrics.diversity import arithmetic as a
from metrics.diversity.readable import ALPHA, IDEAL_IDEAL, SUBTOPICS, SubtopicJudgments, steps_of, walk
from metrics.diversity.worked import GAIN, GAIN_WHERE, summed
from metrics.families._novelty_curves import novelty_values
from metrics.teaching.latex import plain

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def alpha_dcg(
    ranking: Ranking, qrels: SubtopicJudgments, k: int | None = None, *, alpha: float = 0.5,
    conventions: Conventions = TREC_EVAL,
) -> Breakdown:  # fmt: skip
    r"""alpha-DCG@k as ndeval 4.5 computes it: novelty gains discounted by 1 / log2(rank + 1), summed to k, over that
    sum for every subtopic covered at every rank.

    ndeval ``alpha-DCG@k``, ir_measures ``alpha_DCG@k``. Clarke et al., SIGIR 2008.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first; distinct strings.
    qrels : mapping
        One topic's judgments ``{subtopic: {doc: grade}}``, or plain qrels ``{doc: grade}`` (one subtopic).
    k : int
        The cutoff (ndeval reports 5, 10 and 20); None: the whole list.
    alpha : float, optional
        Redundancy intolerance, 0 to 1 (ndeval's default 0.5).
    conventions : Conventions, optional
        ``threshold``: the grade that makes a document cover a subtopic (ndeval: 1).

    Returns
    -------
    Breakdown
        ``value`` is alpha-DCG@k; ``steps`` are AspectSteps (subtopics covered, times seen above, gains, discount)
        contributing g_i times the discount; ``terms`` hold the subtopics counted and the "ideal ideal" divisor.

    Raises
    ------
    ValueError
        As :func:`metrics.families.err_ia.err_ia`.

    Notes
    -----
    .. math:: \alpha\mathrm{\text{-}DCG@}k = \frac{\sum_{i \le k} g_i / \log_2(i+1)}
        {\sum_{i \le k} N (1-\alpha)^{i-1} / \log_2(i+1)}

    N counts the subtopics some document is relevant to; 0 when there are none. As ndeval, the value at k = 1 is
    not divided.

    Examples
    --------
    >>> alpha_dcg(["a"], {"1": {"a": 1}, "2": {"b": 1}}, 1).value  # rank 1 undivided, as ndeval
    1.0
    """
    w = walk(ranking, qrels, k, alpha, conventions)
    n, depth = w.aspects.subtopics, k or len(w.ranking)
    value = a.last(a.dcg_curve(w.scores, n, alpha, depth))
    steps = steps_of(w, [score * a.discount(i) for i, score in enumerate(w.scores)], a.discount)
    terms = {SUBTOPICS: float(n), IDEAL_IDEAL: a.ideal_ideal(n, alpha, depth, discounted=True)}
    return Breakdown("alpha_DCG", k, value, steps, terms, conventions)


def alpha_dcg_definition(c: Conventions) -> str:
    return (
        r"\mathrm{\alpha\text{-}DCG@}k = \frac{\sum_{i=1}^{k} g_i / \log_2(i+1)}"
        r"{\sum_{i=1}^{k} N (1-\alpha)^{i-1} / \log_2(i+1)}, \quad " + GAIN + GAIN_WHERE
    )


def alpha_dcg_worked(b: Breakdown) -> str:
    return summed(
        plain("alpha_DCG", b.k),
        b,
        f"{b.terms[IDEAL_IDEAL]:.4f}",
        r"\frac{\sum_i g_i / \log_2(i+1)}{\text{ideal ideal}}",
    )


def alpha_dcg_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return novelty_values(data, measure, a.dcg_curve)


ALPHA_DCG = Family(
    key="alpha_DCG",
    title="alpha-DCG (novelty-aware discounted cumulative gain)",
    help="alpha-DCG@k (ndeval): discounted novelty gains over the same for every subtopic covered at every rank.",
    function=alpha_dcg,
    kernel=alpha_dcg_kernel,
    kind="order",
    teaching=Teaching(
        alpha_dcg_definition,
        alpha_dcg_worked,
        terms=(SUBTOPICS, IDEAL_IDEAL),
        plain="rewards covering many subtopics high in {top}, each subtopic worth less each time it is covered again",
    ),
    params=(ALPHA,),
    values=Values(range=None),
    names=Names(spellings=("alpha-DCG",), ir_measures="alpha_DCG"),
    order=760,
)

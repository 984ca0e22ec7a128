"""Discounted cumulative gain (DCG). Discounted cumulative gain: each grade's gain divided by log2(rank + 1).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from math import log2

from metrics.catalog.family import GAINS, Family
from metrics.core.checks import checked, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.judgments import Gains
from metrics.core.lazy_numpy import np
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.families._dcg_sums import _dcg_terms, _defined, _row_dcg_terms, _symbol, _within, gain, gain_symbol
from metrics.families._gain_map_sums import dcg_with_gains, dcg_with_gains_kernel
from metrics.teaching.latex import aligned_block, decimal


def dcg(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL, gains: Gains = ()
) -> Breakdown:
    r"""Discounted cumulative gain at cutoff k (trec_eval ``dcg`` uncut; ranx ``dcg@k``; ``dcg_burges@k`` with
    exponential gain).

    .. math:: DCG@k = \sum_{i=1}^{k} \frac{g(d_i)}{\log_2(i + 1)}

    Conventions (trec_eval >= 9.0.4): discount log2(rank + 1), so rank 1 is undiscounted; gain = grade (linear)
    or 2^grade - 1 (``gain="exp"``); unjudged, zero and negative grades gain 0. The threshold is ignored.

    >>> round(dcg(["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}, k=4).value, 4)
    5.7619

    ``gains`` maps levels to gains as trec_eval's ``dcg.1=3,2=9`` does (metrics.families._gain_map_sums).
    """
    if gains:
        return dcg_with_gains(ranking, qrels, k, conventions, gains)
    top = checked(ranking, qrels, k)
    total, steps = 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = gain(grade, conventions.gain) / log2(rank + 1)
        total += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, total))
    return Breakdown("DCG", k, total, tuple(steps), {Term.DCG: total}, conventions, graded=True)


def dcg_definition(c: Conventions) -> str:
    return rf"{_defined('DCG', c)} = \sum_{{i=1}}^{{k}} \frac{{{gain_symbol('g_i', c)}}}{{\log_2(i+1)}}"


def dcg_worked(b: Breakdown) -> str:
    s = _symbol(b.family, b.k, b.conventions.gain)
    upper = b.k if b.k is not None else "n"
    g = "g^*_i" if b.family == "IDCG" else "g_i"
    gain = g if b.conventions.gain == "linear" else rf"\left(2^{{{g}}} - 1\right)"
    lines = [rf"{s} &= \sum_{{i=1}}^{{{upper}}} \frac{{{gain}}}{{\log_2(i+1)}}"]
    if b.family == "IDCG":
        source = "all judged grades" if b.conventions.idcg == "all" else "retrieved grades only"
        lines[0] += rf" \quad (g^* = \text{{{source}, best first}})"
    if b.steps:
        lines.append(rf"&= {_dcg_terms(b)}")
    else:
        lines.append(r"&= 0 \quad \text{(nothing to sum)}")
    lines.append(rf"&= {decimal(b.value)}")
    return aligned_block(lines)


def dcg_kernel(data, measure) -> np.ndarray:
    if measure.param("gains"):
        return dcg_with_gains_kernel(data, measure)
    kind = measure.gain_under(data.conventions)
    return _within(data, data.slot, data.rank, _row_dcg_terms(data, kind), measure.k)


DCG = Family(
    key="DCG",
    title="Discounted cumulative gain",
    function=dcg,
    kernel=dcg_kernel,
    kind="order",
    help="Discounted cumulative gain: each grade's gain divided by log2(rank + 1).",
    definition=dcg_definition,
    worked=dcg_worked,
    terms=(Term.DCG,),
    graded=True,
    params=(GAINS,),
    trec_eval="dcg",
    tools={"ranx": "dcg@k"},
    card=4,
    value_range=None,
    lists={"swap_heatmap": 6},
    order=80,
)

"""Hit rate (HitRate). HitRate@k (trec_eval success): 1 if any relevant doc is in the top k, else 0.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.catalog.family import Family, Names, Teaching, TrecEval
from metrics.core.checks import checked, judged
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.lazy_numpy import np
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep, Term
from metrics.teaching.latex import aligned_block, at_cut, defined, measure_symbol, whole

if TYPE_CHECKING:
    from metrics.catalog.family import Measure


def hit_rate(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Hit rate at cutoff k: 1 if any relevant doc is in the top k, else 0.

    trec_eval ``success_k``; ir_measures ``Success@k``; BEIR ``Accuracy@k``; some RAG tools' "recall@k".

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
        ``value`` is 1.0 or 0.0; ``steps`` has one RankStep per retrieved rank of the top k, the first relevant one
        contributing the whole 1; ``terms`` holds the relevant docs in the top k (``Term.HITS``).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    reciprocal_rank : 1 / the first relevant rank, rather than 1.
    recall : the share of the relevant docs found.

    Notes
    -----
    .. math:: HitRate@k = [\, hits@k \geq 1 \,]

    Conventions (trec_eval): the first relevant rank <= k contributes the whole 1; R = 0 gives 0.
    Naming: ir_measures calls it ``Success@k``, BEIR ``Accuracy@k``, some RAG tools "recall@k".

    Examples
    --------
    >>> hit_rate(["x", "y", "a"], {"a": 1}, k=2).value, hit_rate(["x", "y", "a"], {"a": 1}, k=3).value
    (0.0, 1.0)
    """
    top = checked(ranking, qrels, k)
    hit, steps = 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = 1.0 if relevant and not hit else 0.0
        hit += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, hit))
    return Breakdown("HitRate", k, hit, tuple(steps), {Term.HITS: sum(s.relevant for s in steps)}, conventions)


def hit_rate_definition(c: Conventions) -> str:
    return (
        rf"{defined('HitRate')} = \begin{{cases}} 1 & \text{{if }} \mathrm{{hits@}}k \geq 1 \\ 0 & "
        r"\text{otherwise} \end{cases}"
    )


def hit_rate_worked(b: Breakdown) -> str:
    s = measure_symbol("HitRate", b.k)
    hits = whole(b.terms[Term.HITS])
    first = next((st.rank for st in b.steps if st.relevant), None)
    where = rf"\quad \text{{(first relevant at rank {first})}}" if first is not None else ""
    return aligned_block(
        [
            rf"{s} &= [\,\mathrm{{hits{at_cut(b.k)}}} \geq 1\,]",
            rf"&= [\,{hits} \geq 1\,] = {whole(b.value)}{where}",
        ]
    )


def hit_rate_kernel(data: Prepared, measure: Measure) -> np.ndarray:
    return (data.hits(measure.k) > 0).astype(np.float64)


HIT_RATE = Family(
    key="HitRate",
    title="Hit rate",
    help="HitRate@k (trec_eval success): 1 if any relevant doc is in the top k, else 0.",
    function=hit_rate,
    kernel=hit_rate_kernel,
    kind="set",
    teaching=Teaching(
        hit_rate_definition,
        hit_rate_worked,
        terms=(Term.HITS,),
        plain=(
            "rewards finding at least one relevant document in {top}: 1 if there is one, 0 if not; "
            "how many, and where, does not matter"
        ),
    ),
    names=Names(
        spellings=("hit_rate", "success"), ir_measures="Success", tools={"ranx": "hit_rate@k", "BEIR": "Accuracy@k"}
    ),
    trec_eval=TrecEval("success", defaults=(1, 5, 10)),
    order=40,
)

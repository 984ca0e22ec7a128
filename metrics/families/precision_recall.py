"""Order-unaware metrics at a cutoff: P@k, R@k, R_cap@k, HitRate@k and F1@k.

Each counts hits@k, the relevant docs among the top k, and divides by something different.
"""

from __future__ import annotations

from metrics._checks import check_k, checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.family import TREC_CUTOFFS, Family
from metrics.latex import aligned_block, at_cut, decimal, defined, hits_line, measure_symbol, whole, zero_R_line
from metrics.lazy_numpy import np
from metrics.prepared import ratio
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _hits_breakdown(
    ranking: Ranking, qrels: Judgments, k: int | None, divisor: int, conventions: Conventions
) -> tuple[int, list[RankStep]]:
    """Walk the top k; every hit contributes 1/divisor. Returns hits@k and the steps."""
    top = checked(ranking, qrels, k)
    hits, running, steps = 0, 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        contribution = 1 / divisor if relevant and divisor else 0.0
        hits += relevant
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return hits, steps


def precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Precision at cutoff k (trec_eval ``P_k``): the share of the top k that is relevant.

    .. math:: P@k = \frac{hits@k}{k}

    Conventions (trec_eval): relevant means grade >= threshold; unjudged docs are non-relevant. **The divisor is
    always k**, even when fewer than k docs were retrieved ("nonrelevant docs fill in the rest", ``m_P.c``).
    k=None divides by the length of the list (ranx ``precision``); an empty list gives 0.0.

    >>> precision(["d1", "d2", "d3"], {"d1": 1, "d3": 2}, k=10).value
    0.2
    """
    divisor = len(ranking) if k is None else k
    hits, steps = _hits_breakdown(ranking, qrels, k, divisor, conventions)
    value = hits / divisor if divisor else 0.0
    return Breakdown("P", k, value, tuple(steps), {Term.HITS: hits, Term.CUTOFF: divisor}, conventions)


def recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Recall at cutoff k (trec_eval ``recall_k``): the share of all relevant docs found in the top k.

    .. math:: R@k = \frac{hits@k}{R}

    Conventions (trec_eval): R counts every judged doc with grade >= threshold, **retrieved or not**.
    R = 0 gives 0.0, not NaN (``m_recall.c``).
    Naming: some people say "recall@k" for "any relevant doc in the top k"; that is HitRate@k here.

    >>> round(recall(["a", "b", "c"], {"a": 1, "b": 2, "c": 0, "z": 1}, k=10).value, 4)
    0.6667
    """
    R = count_relevant(qrels, conventions.threshold)
    hits, steps = _hits_breakdown(ranking, qrels, k, R, conventions)
    value = hits / R if R else 0.0
    return Breakdown("R", k, value, tuple(steps), {Term.HITS: hits, Term.R: R}, conventions)


def capped_recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Capped recall at cutoff k (BEIR ``R_cap@k``): recall that can reach 1 even when R > k.

    .. math:: R_{cap}@k = \frac{hits@k}{\min(R, k)}

    Conventions: BEIR's definition (``beir/retrieval/custom_metrics.py::recall_cap``); R as in recall.
    R = 0 gives 0.0 (BEIR itself raises ZeroDivisionError). k=None caps at the length of the list.
    trec_eval and ranx have no such measure.

    >>> capped_recall(["r1", "r2", "r3", "n1", "n2"], {f"r{i}": 1 for i in range(1, 8)}, k=5).value
    0.6
    """
    check_k(k)  # k is used below before _hits_breakdown checks it
    R = count_relevant(qrels, conventions.threshold)
    cap = min(R, len(ranking) if k is None else k)
    hits, steps = _hits_breakdown(ranking, qrels, k, cap, conventions)
    value = hits / cap if cap else 0.0
    return Breakdown("R_cap", k, value, tuple(steps), {Term.HITS: hits, Term.R: R, Term.CAP: cap}, conventions)


def hit_rate(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Hit rate at cutoff k (trec_eval ``success_k``): 1 if any relevant doc is in the top k, else 0.

    .. math:: HitRate@k = [\, hits@k \geq 1 \,]

    Conventions (trec_eval): the first relevant rank <= k contributes the whole 1; R = 0 gives 0.
    Naming: ir_measures calls it ``Success@k``, BEIR ``Accuracy@k``, some RAG tools "recall@k".

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


def f1(ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL) -> Breakdown:
    r"""F1 at cutoff k (ranx ``f1@k``): the harmonic mean of P@k and R@k.

    .. math:: F_1@k = \frac{2 \cdot P@k \cdot R@k}{P@k + R@k}

    Conventions (ranx): P@k divides by k and R@k by R, as above; 0.0 when P@k + R@k = 0 or R = 0.
    trec_eval has no F1 at a cutoff (its ``set_F`` scores the whole retrieved set): combine ``P_k`` and ``recall_k``.
    A rank's contribution is how much F1 rises when the list is extended to that rank.

    >>> round(f1(["a", "x", "b"], {"a": 1, "b": 1, "c": 1, "d": 1}, k=3).value, 4)
    0.5714
    """
    top = checked(ranking, qrels, k)
    divisor = len(ranking) if k is None else k
    R = count_relevant(qrels, conventions.threshold)
    hits, previous, steps = 0, 0.0, []
    for rank, doc, grade, relevant in judged(top, qrels, conventions.threshold):
        hits += relevant
        running = _f1(hits, divisor, R)
        steps.append(RankStep(rank, doc, grade, relevant, running - previous, running))
        previous = running
    p = hits / divisor if divisor else 0.0
    r = hits / R if R else 0.0
    terms = {Term.HITS: hits, Term.PRECISION: p, Term.RECALL: r, Term.R: R}
    return Breakdown("F1", k, _f1(hits, divisor, R), tuple(steps), terms, conventions)


def _f1(hits: int, divisor: int, R: int) -> float:
    p = hits / divisor if divisor else 0.0
    r = hits / R if R else 0.0
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


# --- definitions and worked formulas (LaTeX) ---

_CAP = r"{\mathrm{cap}}"  # R_cap's subscript


def precision_definition(c: Conventions) -> str:
    return rf"{defined('P')} = \frac{{\mathrm{{hits@}}k}}{{k}}"


def recall_definition(c: Conventions) -> str:
    return rf"{defined('R')} = \frac{{\mathrm{{hits@}}k}}{{R}}"


def capped_recall_definition(c: Conventions) -> str:
    return rf"{defined('R', subscript=_CAP)} = \frac{{\mathrm{{hits@}}k}}{{\min(R,\ k)}}"


def hit_rate_definition(c: Conventions) -> str:
    return (
        rf"{defined('HitRate')} = \begin{{cases}} 1 & \text{{if }} \mathrm{{hits@}}k \geq 1 \\ 0 & "
        r"\text{otherwise} \end{cases}"
    )


def f1_definition(c: Conventions) -> str:
    p_k, r_k = r"\mathrm{P@}k", r"\mathrm{R@}k"
    return rf"{defined('F', subscript='1')} = \frac{{2 \cdot {p_k} \cdot {r_k}}}{{{p_k} + {r_k}}}"


def precision_worked(b: Breakdown) -> str:
    s, divisor = measure_symbol("P", b.k), whole(b.terms[Term.CUTOFF])
    return aligned_block(
        [
            rf"{s} &= \frac{{\mathrm{{hits{at_cut(b.k)}}}}}{{{'k' if b.k is not None else 'n'}}}",
            hits_line(b),
            rf"{s} &= \frac{{{whole(b.terms[Term.HITS])}}}{{{divisor}}} = {decimal(b.value)}",
        ]
    )


def recall_worked(b: Breakdown) -> str:
    s, R, hits = measure_symbol("R", b.k), whole(b.terms[Term.R]), whole(b.terms[Term.HITS])
    last = zero_R_line(s) if not b.terms[Term.R] else rf"{s} &= \frac{{{hits}}}{{{R}}} = {decimal(b.value)}"
    return aligned_block([rf"{s} &= \frac{{\mathrm{{hits{at_cut(b.k)}}}}}{{R}}", hits_line(b), last])


def capped_recall_worked(b: Breakdown) -> str:
    s, R, cap, hits = (
        measure_symbol("R", b.k, subscript=_CAP),
        whole(b.terms[Term.R]),
        whole(b.terms[Term.CAP]),
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


def f1_worked(b: Breakdown) -> str:
    s = measure_symbol("F", b.k, subscript="1")
    p, r = b.terms[Term.PRECISION], b.terms[Term.RECALL]
    cut = at_cut(b.k)
    lines = [
        rf"{s} &= \frac{{2 \cdot \mathrm{{P{cut}}} \cdot \mathrm{{R{cut}}}}}{{\mathrm{{P{cut}}} + \mathrm{{R{cut}}}}}",
    ]
    if p + r == 0:
        lines.append(rf"&= 0 \quad \text{{(}}\mathrm{{P{cut}}} + \mathrm{{R{cut}}} = 0\text{{)}}")
    else:
        lines.append(
            rf"&= \frac{{2 \cdot {decimal(p)} \cdot {decimal(r)}}}{{{decimal(p)} + {decimal(r)}}} = {decimal(b.value)}"
        )
    return aligned_block(lines)


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def precision_kernel(data, measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.cutoff_divisor(measure.k))


def recall_kernel(data, measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.R)


def capped_recall_kernel(data, measure) -> np.ndarray:
    return ratio(data.hits(measure.k), np.minimum(data.R, data.cutoff_divisor(measure.k)))


def hit_rate_kernel(data, measure) -> np.ndarray:
    return (data.hits(measure.k) > 0).astype(np.float64)


def f1_kernel(data, measure) -> np.ndarray:
    hits = data.hits(measure.k)
    p, r = ratio(hits, data.cutoff_divisor(measure.k)), ratio(hits, data.R)
    return ratio(2 * p * r, p + r)  # the readable f1: 2 * p * r / (p + r), 0 when p + r = 0


# --- the families' declarations (metrics.registry collects them) ---

PRECISION = Family(
    "P",
    "Precision",
    precision,
    precision_kernel,
    "set",
    "Precision@k: the share of the top k that is relevant (divides by k even if fewer were retrieved).",
    precision_definition,
    precision_worked,
    (Term.HITS, Term.CUTOFF),
    spellings=("precision",),
    trec_eval="P",
    ir_measures="P",
    trec_defaults=TREC_CUTOFFS,
    tools={"ranx": "precision@k", "BEIR": "P@k"},
    card=1,
    curve=1,
    default=6,
    default_cutoff=10,
    pinned=4,
    order=10,
)

RECALL = Family(
    "R",
    "Recall",
    recall,
    recall_kernel,
    "set",
    "Recall@k: the share of all relevant docs (retrieved or not) found in the top k.",
    recall_definition,
    recall_worked,
    (Term.HITS, Term.R),
    spellings=("recall",),
    trec_eval="recall",
    ir_measures="R",
    trec_defaults=TREC_CUTOFFS,
    tools={"ranx": "recall@k", "BEIR": "Recall@k"},
    card=2,
    curve=2,
    default=4,
    default_cutoff=100,
    pinned=5,
    order=20,
)

CAPPED_RECALL = Family(
    "R_cap",
    "Capped recall",
    capped_recall,
    capped_recall_kernel,
    "set",
    "Capped recall@k (BEIR): divides by min(R, k), so 1.0 is reachable when R > k.",
    capped_recall_definition,
    capped_recall_worked,
    (Term.HITS, Term.R, Term.CAP),
    spellings=("rcap", "capped_recall", "relative_P", "set_relative_P"),
    trec_eval="relative_P",  # m_rel_P.c: hits@k / min(k, R), the same number
    trec_eval_uncut="set_relative_P",  # m_set_rel_P.c: relevant retrieved / min(retrieved, R)
    tools={"BEIR": "R_cap@k"},
    card=3,
    curve=3,
    trec_defaults=TREC_CUTOFFS,
    default=5,
    default_cutoff=100,
    order=30,
)

HIT_RATE = Family(
    "HitRate",
    "Hit rate",
    hit_rate,
    hit_rate_kernel,
    "set",
    "HitRate@k (trec_eval success): 1 if any relevant doc is in the top k, else 0.",
    hit_rate_definition,
    hit_rate_worked,
    (Term.HITS,),
    spellings=("hit_rate", "success"),
    trec_eval="success",
    ir_measures="Success",
    trec_defaults=(1, 5, 10),
    tools={"ranx": "hit_rate@k", "BEIR": "Accuracy@k"},
    card=5,
    order=40,
)

F1 = Family(
    "F1",
    "F1",
    f1,
    f1_kernel,
    "set",
    "F1@k: the harmonic mean of P@k and R@k.",
    f1_definition,
    f1_worked,
    (Term.HITS, Term.PRECISION, Term.RECALL, Term.R),
    tools={"ranx": "f1@k"},
    card=4,
    order=50,
)

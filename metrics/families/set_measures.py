"""trec_eval's set measures: the retrieved list taken as a set, with no cutoff (set_P, set_recall, set_F, set_map).

They equal P, R and F1 at k = the list length. trec_eval computes them from three counts: documents retrieved
(num_ret), relevant (R) and relevant retrieved (hits); so do we, and each relevant rank's step adds its share.
"""

from __future__ import annotations

from metrics._checks import checked, count_relevant, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.family import Family, Param
from metrics.latex import aligned_block, decimal, whole, zero_R_line
from metrics.lazy_numpy import np
from metrics.prepared import ratio
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _set_counts(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions):
    """(the top-k rows as (rank, doc, grade, relevant), retrieved, R, hits)."""
    rows = list(judged(checked(ranking, qrels, k), qrels, conventions.threshold))
    R = count_relevant(qrels, conventions.threshold)
    return rows, len(rows), R, sum(relevant for *_, relevant in rows)


def _steps(rows, share: float) -> tuple[RankStep, ...]:
    """Each relevant rank adds ``share``."""
    steps, running = [], 0.0
    for rank, doc, grade, relevant in rows:
        contribution = share if relevant else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return tuple(steps)


def set_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Precision of the whole retrieved set (trec_eval ``set_P``; ir_measures ``SetP``): hits / retrieved.

    .. math:: \mathrm{set\_P} = \frac{\mathrm{hits}}{\mathrm{retrieved}}

    An empty list gives 0.0.

    >>> set_precision(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value
    0.5
    """
    rows, retrieved, _, hits = _set_counts(ranking, qrels, k, conventions)
    value = hits / retrieved if retrieved else 0.0
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved}
    return Breakdown("SetP", k, value, _steps(rows, 1 / retrieved if retrieved else 0.0), terms, conventions)


def set_recall(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Recall of the whole retrieved set (trec_eval ``set_recall``; ir_measures ``SetR``): hits / R.

    .. math:: \mathrm{set\_recall} = \frac{\mathrm{hits}}{R}

    R = 0 gives 0.0.

    >>> round(set_recall(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value, 4)
    0.6667
    """
    rows, _, R, hits = _set_counts(ranking, qrels, k, conventions)
    value = hits / R if R else 0.0
    return Breakdown("SetR", k, value, _steps(rows, 1 / R if R else 0.0), {Term.HITS: hits, Term.R: R}, conventions)


def set_f(
    ranking: Ranking,
    qrels: Judgments,
    k: int | None = None,
    *,
    conventions: Conventions = TREC_EVAL,
    beta: float = 1.0,
) -> Breakdown:
    r"""Weighted harmonic mean of set precision and set recall (trec_eval ``set_F``; ir_measures ``SetF``).

    .. math:: \mathrm{set\_F} = \frac{(\beta + 1)\, P\, R}{\beta P + R}

    Conventions (trec_eval ``m_set_F.c``): ``beta`` is the weight of recall against precision and enters as is,
    not squared as in the textbook F_beta (so trec_eval's set_F.0.25 is the textbook F at beta = 0.5). 0.0 when
    nothing relevant was retrieved, or nothing was retrieved, or R = 0. A rank's step is how much set_F rises when
    the list is extended to that rank.

    >>> round(set_f(["a", "x"], {"a": 1, "b": 1, "c": 1, "d": 1}, beta=0.5).value, 4)
    0.375
    """
    rows, retrieved, R, hits = _set_counts(ranking, qrels, k, conventions)
    steps, previous, so_far = [], 0.0, 0
    for index, (rank, doc, grade, relevant) in enumerate(rows, start=1):
        so_far += relevant
        running = _f(so_far, index, R, beta)
        steps.append(RankStep(rank, doc, grade, relevant, running - previous, running))
        previous = running
    p = hits / retrieved if retrieved else 0.0
    r = hits / R if R else 0.0
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved, Term.R: R, Term.SET_PRECISION: p, Term.SET_RECALL: r}
    terms[Term.BETA] = beta
    return Breakdown("SetF", k, _f(hits, retrieved, R, beta), tuple(steps), terms, conventions)


def _f(hits: int, retrieved: int, R: int, beta: float) -> float:
    if not (hits and retrieved and R):
        return 0.0
    p, r = hits / retrieved, hits / R
    return (beta + 1.0) * p * r / (beta * p + r)


def set_average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Set precision times set recall (trec_eval ``set_map``), the area of the one-point precision-recall "curve".

    .. math:: \mathrm{set\_map} = \mathrm{set\_P} \cdot \mathrm{set\_recall}

    >>> round(set_average_precision(["a", "x", "b", "y"], {"a": 1, "b": 1, "c": 1}).value, 4)
    0.3333
    """
    rows, retrieved, R, hits = _set_counts(ranking, qrels, k, conventions)
    p = hits / retrieved if retrieved else 0.0
    r = hits / R if R else 0.0
    share = 1 / retrieved * r if retrieved else 0.0  # each hit adds 1/retrieved to set_P, times set_recall
    terms = {Term.HITS: hits, Term.RETRIEVED: retrieved, Term.R: R, Term.SET_PRECISION: p, Term.SET_RECALL: r}
    return Breakdown("SetAP", k, p * r, _steps(rows, share), terms, conventions)


# --- definitions and worked formulas (LaTeX) ---


_SET_P = r"\mathrm{set\_P}"
_SET_RECALL = r"\mathrm{set\_recall}"
_SET_F = r"\mathrm{set\_F}"
_SET_MAP = r"\mathrm{set\_map}"


def set_precision_definition(c: Conventions) -> str:
    return rf"{_SET_P} = \frac{{\mathrm{{hits}}}}{{\mathrm{{retrieved}}}}"


def set_precision_worked(b: Breakdown) -> str:
    s, hits, retrieved = _SET_P, whole(b.terms[Term.HITS]), whole(b.terms[Term.RETRIEVED])
    if not b.terms[Term.RETRIEVED]:
        return aligned_block([rf"{s} &= 0 \quad \text{{(nothing retrieved)}}"])
    fraction = r"\frac{\mathrm{hits}}{\mathrm{retrieved}}"
    return aligned_block([rf"{s} &= {fraction} = \frac{{{hits}}}{{{retrieved}}} = {decimal(b.value)}"])


def set_recall_definition(c: Conventions) -> str:
    return rf"{_SET_RECALL} = \frac{{\mathrm{{hits}}}}{{R}}"


def set_recall_worked(b: Breakdown) -> str:
    s = _SET_RECALL
    if not b.terms[Term.R]:
        return aligned_block([zero_R_line(s)])
    hits, R = whole(b.terms[Term.HITS]), whole(b.terms[Term.R])
    return aligned_block([rf"{s} &= \frac{{\mathrm{{hits}}}}{{R}} = \frac{{{hits}}}{{{R}}} = {decimal(b.value)}"])


def set_f_definition(c: Conventions) -> str:
    return rf"{_SET_F} = \frac{{(\beta + 1)\, P\, R}}{{\beta P + R}}"


def set_f_worked(b: Breakdown) -> str:
    s = _SET_F
    beta, p, r = b.terms[Term.BETA], b.terms[Term.SET_PRECISION], b.terms[Term.SET_RECALL]
    lines = [rf"{s} &= \frac{{(\beta + 1)\, P\, R}}{{\beta P + R}} \quad (\beta = {beta:g})"]
    if not b.value:
        lines.append(r"&= 0 \quad \text{(nothing relevant retrieved)}")
    else:
        lines.append(
            rf"&= \frac{{{beta + 1:g} \cdot {decimal(p)} \cdot {decimal(r)}}}"
            rf"{{{beta:g} \cdot {decimal(p)} + {decimal(r)}}} = {decimal(b.value)}"
        )
    return aligned_block(lines)


def set_average_precision_definition(c: Conventions) -> str:
    return rf"{_SET_MAP} = \mathrm{{set\_P}} \cdot \mathrm{{set\_recall}}"


def set_average_precision_worked(b: Breakdown) -> str:
    s, p, r = _SET_MAP, b.terms[Term.SET_PRECISION], b.terms[Term.SET_RECALL]
    return aligned_block(
        [rf"{s} &= {_SET_P} \cdot {_SET_RECALL} = {decimal(p)} \cdot {decimal(r)} = {decimal(b.value)}"]
    )


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def set_precision_kernel(data, measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.retrieved(measure.k))


def set_recall_kernel(data, measure) -> np.ndarray:
    return ratio(data.hits(measure.k), data.R)


def set_f_kernel(data, measure) -> np.ndarray:
    hits, beta = data.hits(measure.k), measure.param("beta")
    p, r = ratio(hits, data.retrieved(measure.k)), ratio(hits, data.R)
    scored = (hits > 0) & (data.retrieved(measure.k) > 0) & (data.R > 0)
    values = np.zeros(data.size)
    values[scored] = (beta + 1.0) * p[scored] * r[scored] / (beta * p[scored] + r[scored])
    return values


def set_average_precision_kernel(data, measure) -> np.ndarray:
    hits = data.hits(measure.k)
    return ratio(hits, data.retrieved(measure.k)) * ratio(hits, data.R)


# --- the families' declarations (metrics.registry collects them) ---

SET_PRECISION = Family(
    "SetP",
    "Set precision",
    set_precision,
    set_precision_kernel,
    "set",
    "Precision of the whole retrieved list: relevant retrieved / retrieved.",
    set_precision_definition,
    set_precision_worked,
    (Term.HITS, Term.RETRIEVED),
    trec_eval="set_P",
    ir_measures="SetP",
    usually_cut=False,
    order=210,
)

SET_RECALL = Family(
    "SetR",
    "Set recall",
    set_recall,
    set_recall_kernel,
    "set",
    "Recall of the whole retrieved list: relevant retrieved / R.",
    set_recall_definition,
    set_recall_worked,
    (Term.HITS, Term.R),
    trec_eval="set_recall",
    ir_measures="SetR",
    usually_cut=False,
    order=220,
)

SET_F = Family(
    "SetF",
    "Set F",
    set_f,
    set_f_kernel,
    "set",
    "Weighted harmonic mean of set precision and set recall (trec_eval's beta enters unsquared).",
    set_f_definition,
    set_f_worked,
    (Term.HITS, Term.RETRIEVED, Term.R, Term.SET_PRECISION, Term.SET_RECALL, Term.BETA),
    trec_eval="set_F",
    ir_measures="SetF",
    params=(Param("beta", 1.0, 0.0, 1000.0, "the weight of recall against precision (trec_eval's, unsquared)"),),
    trec_param="beta",
    usually_cut=False,
    order=230,
)

SET_AVERAGE_PRECISION = Family(
    "SetAP",
    "Set average precision",
    set_average_precision,
    set_average_precision_kernel,
    "set",
    "Set precision times set recall.",
    set_average_precision_definition,
    set_average_precision_worked,
    (Term.HITS, Term.RETRIEVED, Term.R, Term.SET_PRECISION, Term.SET_RECALL),
    trec_eval="set_map",
    usually_cut=False,
    order=240,
)

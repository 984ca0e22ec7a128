"""Measures for incomplete judgments: bpref and infAP (judged documents only), Judged@k and unj (how much of the top
k was judged at all).

trec_eval's view of a retrieved document (``metrics.judgments``): judged relevant (grade >= threshold), judged
non-relevant (0 <= grade < threshold), in the pool but not judged (a negative grade) or not in the pool (no qrels
line). P@k and AP count both kinds of unjudged document as non-relevant; bpref and infAP do not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from metrics._checks import checked, count_relevant
from metrics.conventions import TREC_EVAL, Conventions
from metrics.family import Family
from metrics.judgments import NOT_IN_POOL, POOL_UNJUDGED, level
from metrics.latex import aligned_block, decimal, elided_sum, plain, share_line, whole
from metrics.lazy_numpy import np
from metrics.prepared import count_before, ratio
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term

INFAP_EPSILON = 0.00001  # trec_eval.h: keeps infAP's estimated precision defined when nothing above was judged


def condensed(ranking: Ranking, qrels: Judgments) -> list[str]:
    """The condensed list (trec_eval ``-J``, Sakai 2007): the ranking with its unjudged documents dropped, the judged
    ones moving up. Unjudged means no qrels line or a negative grade, as ``-J`` drops both. Any measure computed on
    it is that measure "on judged documents only"; bpref equals bpref on the full list, since it skips them anyway.

    >>> condensed(["a", "x", "b", "y", "c"], {"a": 1, "b": 0, "y": -1, "c": 2})
    ['a', 'b', 'c']
    """
    return [doc for doc in ranking if level(qrels, doc) >= 0]


Judgment = Literal["relevant", "non-relevant", "unjudged"]


@dataclass(frozen=True, slots=True)
class JudgedRank:
    """One retrieved document as bpref sees it."""

    rank: int
    doc_id: str
    judgment: Judgment  # unjudged: no qrels line, or a negative grade
    nonrelevant_above: int  # judged non-relevant documents ranked above it: bpref's n_i


def judged_ranks(ranking: Ranking, qrels: Judgments, *, conventions: Conventions = TREC_EVAL) -> list[JudgedRank]:
    """Each retrieved document's judgment and the judged non-relevant documents above it (bpref's n_i).

    >>> [(j.doc_id, j.judgment, j.nonrelevant_above) for j in judged_ranks(["n", "x", "r"], {"n": 0, "r": 2})]
    [('n', 'non-relevant', 0), ('x', 'unjudged', 1), ('r', 'relevant', 1)]
    """
    above, rows = 0, []
    for rank, doc in enumerate(ranking, start=1):
        value = level(qrels, doc)
        relevant = value >= conventions.threshold
        judgment: Judgment = "unjudged" if value < 0 else "relevant" if relevant else "non-relevant"
        rows.append(JudgedRank(rank, doc, judgment, above))
        above += judgment == "non-relevant"
    return rows


def in_pool_unjudged(qrels: Judgments, docs: Iterable[str]) -> dict[str, int]:
    """The qrels with ``docs`` marked as in the pool but not judged (grade -1), as a sampled pool for infAP marks
    the documents it did not sample, instead of having no qrels line.

    >>> in_pool_unjudged({"a": 1}, ["x"])
    {'a': 1, 'x': -1}
    """
    return {**qrels, **dict.fromkeys(docs, -1)}


def _share_steps(
    top: Ranking, qrels: Judgments, counted: Callable[[str], bool], divisor: int, conventions: Conventions
) -> tuple[int, list[RankStep]]:
    """How many of ``top`` are ``counted``, and the steps: each counted document contributes 1 / divisor (Judged@k
    and unj@k, the share of the top k that is, or is not, judged)."""
    count, steps = 0, []
    for rank, doc in enumerate(top, start=1):
        is_counted = counted(doc)
        count += is_counted
        contribution = 1 / divisor if is_counted else 0.0
        running = (steps[-1].running if steps else 0.0) + contribution
        grade = int(qrels.get(doc, 0))
        steps.append(RankStep(rank, doc, grade, grade >= conventions.threshold, contribution, running))
    return count, steps


def _judged_nonrelevant(qrels: Judgments, threshold: int) -> int:
    return sum(1 for grade in qrels.values() if 0 <= grade < threshold)


def bpref(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Binary preference (trec_eval ``bpref``, ir_measures ``Bpref``): how many judged non-relevant documents
    each retrieved relevant document is ranked below, ignoring unjudged documents.

    .. math:: \mathrm{bpref} = \frac{1}{R} \sum_{d_i \text{ relevant}}
        \left(1 - \frac{\min(n_i,\ R)}{\min(N,\ R)}\right)

    where n_i counts the judged non-relevant documents ranked above d_i and N all judged non-relevant documents
    (0 <= grade < threshold). Conventions (trec_eval ``m_bpref.c``): unjudged documents, negative grades included,
    are skipped; a relevant document with no judged non-relevant one above it adds 1 (even when N = 0); R = 0
    gives 0. k keeps only the top k (as ``-M k``). Buckley and Voorhees, SIGIR 2004.

    >>> round(bpref(["r1", "n1", "x", "r2"], {"r1": 1, "r2": 1, "r3": 1, "n1": 0}).value, 4)
    0.3333
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    N = _judged_nonrelevant(qrels, conventions.threshold)
    nonrelevant_above, preferences, steps = 0, 0.0, []
    for rank, doc in enumerate(top, start=1):
        value = level(qrels, doc)
        relevant = value >= conventions.threshold
        contribution = 0.0
        if relevant:
            share = 1.0 - min(nonrelevant_above, R) / min(N, R) if nonrelevant_above > 0 else 1.0
            preferences += share
            contribution = share / R
        elif value >= 0:
            nonrelevant_above += 1
        running = (steps[-1].running if steps else 0.0) + contribution
        steps.append(RankStep(rank, doc, int(qrels.get(doc, 0)), relevant, contribution, running))
    value = preferences / R if R else 0.0
    terms = {Term.PREFERENCE_SUM: preferences, Term.R: R, Term.NONRELEVANT: N}
    return Breakdown("bpref", k, value, tuple(steps), terms, conventions)


def gm_bpref(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""bpref summarised by the geometric mean over queries (trec_eval ``gm_bpref``): this query's bpref, which
    enters :math:`\exp(\frac{1}{Q}\sum_q \log \max(\mathrm{bpref}_q,\ 10^{-5}))`. trec_eval prints only the summary.

    >>> gm_bpref(["r1"], {"r1": 1}).value
    1.0
    """
    b = bpref(ranking, qrels, k, conventions=conventions)
    return Breakdown("gm_bpref", k, b.value, b.steps, b.terms, conventions)


def inferred_average_precision(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Inferred AP (trec_eval ``infAP``, ir_measures ``infAP``): AP estimated from a sampled judgment pool.

    .. math:: \mathrm{infAP} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left( \frac{1}{i} + \frac{i-1}{i}
        \cdot \frac{r + n + u}{i - 1} \cdot \frac{r + \varepsilon}{r + n + 2\varepsilon} \right)

    at the i-th rank, where r, n and u count the relevant, judged non-relevant and pool-unjudged (negative grade)
    documents above d_i, and ε = 0.00001; the relevant document at rank 1 adds exactly 1. Documents with no qrels
    line (not in the pool) count as zeros in the expected precision; pool-unjudged ones are assumed to be relevant
    in the same proportion as the judged ones. Conventions (trec_eval ``m_infap.c``): R = 0 gives 0; k keeps the
    top k. Yilmaz and Aslam, CIKM 2006.

    >>> round(inferred_average_precision(["r1", "x", "r2"], {"r1": 1, "r2": 1, "n": 0}).value, 4)
    0.8333
    """
    top = checked(ranking, qrels, k)
    R = count_relevant(qrels, conventions.threshold)
    relevant_above = nonrelevant_above = unjudged_above = 0
    total, steps = 0.0, []
    for rank, doc in enumerate(top, start=1):
        value = level(qrels, doc)
        relevant = value >= conventions.threshold
        contribution = 0.0
        if value == POOL_UNJUDGED:
            unjudged_above += 1
        elif value >= 0 and not relevant:
            nonrelevant_above += 1
        elif relevant:
            above = rank - 1
            if above == 0:
                estimate = 1.0
            else:
                fj = float(above)
                estimate = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (
                    (relevant_above + nonrelevant_above + unjudged_above) / fj
                ) * ((relevant_above + INFAP_EPSILON) / (relevant_above + nonrelevant_above + 2 * INFAP_EPSILON))
            relevant_above += 1
            total += estimate
            contribution = estimate / R
        running = (steps[-1].running if steps else 0.0) + contribution
        steps.append(RankStep(rank, doc, int(qrels.get(doc, 0)), relevant, contribution, running))
    value = total / R if R else 0.0
    return Breakdown("infAP", k, value, tuple(steps), {Term.ESTIMATE_SUM: total, Term.R: R}, conventions)


def judged(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Judgment rate at k (ir_measures ``Judged@k``): the share of the top k that has a qrels line.

    .. math:: \mathrm{Judged@}k = \frac{\#\{i \leq k : d_i \text{ in the qrels}\}}{\min(k,\ n)}

    Conventions (ir_measures' judged provider): any qrels line counts as judged, a negative grade too; the divisor
    is the number of documents shown, min(k, n), so a short list is not penalised; an empty list gives 0. k=None
    looks at the whole list. trec_eval's ``unj_k`` counts negative grades as unjudged and divides by k.

    >>> judged(["a", "x", "b"], {"a": 1, "b": 0}, k=10).value == 2 / 3
    True
    """
    top = checked(ranking, qrels, k)
    divisor = len(top)
    count, steps = _share_steps(top, qrels, lambda doc: doc in qrels, divisor, conventions)
    value = count / divisor if divisor else 0.0
    return Breakdown("Judged", k, value, tuple(steps), {Term.JUDGED: count, Term.DENOMINATOR: divisor}, conventions)


def unjudged(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Unjudged at k (trec_eval 10 ``unj_k``; default cutoffs 5, 10, 20): the share of the top k with no judgment.

    .. math:: \mathrm{unj@}k = \frac{\#\{i \leq k : d_i \text{ not in the qrels, or graded below 0}\}}{k}

    Conventions (trec_eval ``m_unjudged.c``): a negative grade ("in the pool, not judged") is unjudged; the divisor
    is always k ("irrelevant, not unjudged, docs fill in the rest"); k=None divides by the list length (0 if
    empty). A red flag: a high value at small k means the qrels barely cover the run.

    >>> unjudged(["a", "x", "b", "y"], {"a": 1, "b": -1}, k=5).value
    0.6
    """
    top = checked(ranking, qrels, k)
    divisor = len(ranking) if k is None else k
    unjudged_levels = (NOT_IN_POOL, POOL_UNJUDGED)
    count, steps = _share_steps(top, qrels, lambda doc: level(qrels, doc) in unjudged_levels, divisor, conventions)
    value = count / divisor if divisor else 0.0
    return Breakdown("unj", k, value, tuple(steps), {Term.UNJUDGED: count, Term.CUTOFF: divisor}, conventions)


# --- definitions and worked formulas (LaTeX) ---


def bpref_definition(c: Conventions) -> str:
    return (
        r"\mathrm{bpref} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(1 - "
        r"\frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    )


def gm_bpref_definition(c: Conventions) -> str:
    return r"\mathrm{gm\_bpref} = \exp\Bigl(\frac{1}{Q} \sum_q \log \max(\mathrm{bpref}_q,\ 10^{-5})\Bigr)"


def bpref_worked(b: Breakdown) -> str:
    R, N = whole(b.terms[Term.R]), whole(b.terms[Term.NONRELEVANT])
    s = plain("bpref")
    share = r"\left(1 - \frac{\min(n_i,\ R)}{\min(N,\ R)}\right)"
    lines = [rf"{s} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} {share}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return aligned_block(lines)
    shares = [s_.contribution * b.terms[Term.R] for s_ in b.steps if s_.relevant]
    lines.append(rf"&\quad (R = {R},\ N = {N}\ \text{{judged non-relevant; unjudged documents skipped}})")
    written = elided_sum([decimal(v) for v in shares], shares) if shares else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr) = {decimal(b.value)}")
    if b.family == "gm_bpref":
        lines.append(r"&\quad \text{(this query's bpref; the summary is the geometric mean over queries)}")
    return aligned_block(lines)


def infap_definition(c: Conventions) -> str:
    return (
        r"\mathrm{infAP} = \frac{1}{R} \sum_{d_i \text{ relevant}} \left(\frac{1}{i} + \frac{i-1}{i} \cdot "
        r"\frac{r + n + u}{i-1} \cdot \frac{r + \varepsilon}{r + n + 2\varepsilon}\right)"
    )


def infap_worked(b: Breakdown) -> str:
    R = whole(b.terms[Term.R])
    lines = [rf"{plain('infAP')} &= \frac{{1}}{{R}} \sum_{{d_i \text{{ relevant}}}} \widehat{{\mathrm{{P@}}i}}"]
    if not b.terms[Term.R]:
        lines.append(r"&= 0 \quad \text{(no judged relevant document: } R = 0\text{)}")
        return aligned_block(lines)
    estimates = [(st.rank, st.contribution * b.terms[Term.R]) for st in b.steps if st.relevant]
    terms = [rf"\underbrace{{{decimal(v)}}}_{{{rank}}}" for rank, v in estimates]
    written = elided_sum(terms, [v for _, v in estimates]) if terms else "0"
    lines.append(rf"&= \frac{{1}}{{{R}}} \Bigl( {written} \Bigr)")
    lines.append(rf"&= \frac{{{decimal(b.terms[Term.ESTIMATE_SUM])}}}{{{R}}} = {decimal(b.value)}")
    return aligned_block(lines)


def judged_definition(c: Conventions) -> str:
    return r"\mathrm{Judged@}k = \frac{\#\{i \leq k : d_i \text{ judged}\}}{\min(k,\ n)}"


def judged_worked(b: Breakdown) -> str:
    s, count, divisor = plain("Judged", b.k), whole(b.terms[Term.JUDGED]), whole(b.terms[Term.DENOMINATOR])
    zero = "nothing retrieved" if not b.terms[Term.DENOMINATOR] else None
    return aligned_block(
        [
            rf"{s} &= \frac{{\#\,\text{{judged in the top {'k' if b.k else 'n'}}}}}{{\min(k,\ n)}}",
            share_line(s, count, divisor, b.value, zero),
        ]
    )


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


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def bpref_kernel(data, measure) -> np.ndarray:
    slot, _, grade = data.within(measure.k)
    threshold = data.conventions.threshold
    relevant = grade >= threshold
    above = count_before(slot, (grade >= 0) & ~relevant)[relevant]
    slot = slot[relevant]
    R, N = data.R[slot], data.nonrel[slot]
    share = np.ones(len(slot))
    some = above > 0
    share[some] = 1.0 - np.minimum(above[some], R[some]) / np.minimum(N[some], R[some])
    return ratio(np.bincount(slot, weights=share, minlength=data.size), data.R)


def inferred_average_precision_kernel(data, measure) -> np.ndarray:
    slot, rank, grade = data.within(measure.k)
    threshold = data.conventions.threshold
    relevant = grade >= threshold
    relevant_above = count_before(slot, relevant)[relevant]
    nonrelevant_above = count_before(slot, (grade >= 0) & ~relevant)[relevant]
    unjudged_above = count_before(slot, grade < 0)[relevant]
    above = rank[relevant] - 1
    estimate = np.ones(len(above))
    some = above > 0
    fj = above[some].astype(np.float64)
    ra, na, ua = relevant_above[some], nonrelevant_above[some], unjudged_above[some]
    estimate[some] = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((ra + na + ua) / fj) * (
        (ra + INFAP_EPSILON) / (ra + na + 2 * INFAP_EPSILON)
    )
    return ratio(np.bincount(slot[relevant], weights=estimate, minlength=data.size), data.R)


def judged_kernel(data, measure) -> np.ndarray:
    slot, _, _ = data.within(measure.k)
    return ratio(np.bincount(slot, minlength=data.size), data.retrieved(measure.k))


def unjudged_kernel(data, measure) -> np.ndarray:
    slot, _, grade = data.within(measure.k)
    judged_count = np.bincount(slot[grade >= 0], minlength=data.size)
    divisor = data.n if measure.k is None else np.full(data.size, measure.k, dtype=np.int64)
    return ratio(data.retrieved(measure.k) - judged_count, divisor)


# --- the families' declarations (metrics.registry collects them) ---

BPREF = Family(
    "bpref",
    "Binary preference",
    bpref,
    bpref_kernel,
    "order",
    "bpref: how few judged non-relevant documents each relevant one is ranked below; unjudged ones are skipped.",
    bpref_definition,
    bpref_worked,
    (Term.PREFERENCE_SUM, Term.R, Term.NONRELEVANT),
    usually_cut=False,
    cutoff="none",
    trec_eval="bpref",
    ir_measures="Bpref",
    order=250,
)

GM_BPREF = Family(
    "gm_bpref",
    "Binary preference, geometric mean",
    gm_bpref,
    bpref_kernel,
    "order",
    "gm_bpref: bpref summarised by the geometric mean over queries (a query at 0 counts as 0.00001).",
    gm_bpref_definition,
    bpref_worked,
    (Term.PREFERENCE_SUM, Term.R, Term.NONRELEVANT),
    usually_cut=False,
    cutoff="none",
    trec_eval="gm_bpref",
    summary="geometric",
    per_query=False,
    order=260,
)

INFERRED_AP = Family(
    "infAP",
    "Inferred average precision",
    inferred_average_precision,
    inferred_average_precision_kernel,
    "order",
    "infAP: AP estimated from a sampled pool; documents graded below 0 are in the pool but not judged.",
    infap_definition,
    infap_worked,
    (Term.ESTIMATE_SUM, Term.R),
    usually_cut=False,
    cutoff="none",
    spellings=("infap",),
    trec_eval="infAP",
    ir_measures="infAP",
    order=270,
)

JUDGED = Family(
    "Judged",
    "Judgment rate",
    judged,
    judged_kernel,
    "set",
    "Judged@k: the share of the top k that has a judgment (any qrels line); a short list divides by its length.",
    judged_definition,
    judged_worked,
    (Term.JUDGED, Term.DENOMINATOR),
    ir_measures="Judged",
    order=280,
)

UNJUDGED = Family(
    "unj",
    "Unjudged at k",
    unjudged,
    unjudged_kernel,
    "set",
    "unj@k: the share of the top k with no judgment (no qrels line or a grade below 0), divided by k.",
    unjudged_definition,
    unjudged_worked,
    (Term.UNJUDGED, Term.CUTOFF),
    trec_eval="unj",
    trec_defaults=(5, 10, 20),
    order=290,
)

"""trec_eval's counts for one query: documents retrieved, relevant, relevant retrieved, judged non-relevant retrieved.

Each returns a Breakdown whose value is the count (a float, as trec_eval stores it) and whose steps add 1 at every
rank that counts. trec_eval sums them over queries (``num_ret all`` is the run's total), it does not average.
A qrels grade below 0 is trec_eval's "in the pool, not judged": such a document is neither relevant nor judged
non-relevant.
"""

from __future__ import annotations

from collections.abc import Callable

from metrics._checks import check_qrels, checked, judged
from metrics.conventions import TREC_EVAL, Conventions
from metrics.family import Family
from metrics.latex import MAX_TERMS, aligned_block, whole
from metrics.lazy_numpy import np
from metrics.types import Breakdown, Judgments, Ranking, RankStep, Term


def _counted(ranking: Ranking, qrels: Judgments, k: int | None, conventions: Conventions, counts) -> list[RankStep]:
    """One step per rank of the top k; ``counts(doc, grade, relevant)`` says whether the rank adds 1."""
    steps, running = [], 0.0
    for rank, doc, grade, relevant in judged(checked(ranking, qrels, k), qrels, conventions.threshold):
        contribution = 1.0 if counts(doc, grade, relevant) else 0.0
        running += contribution
        steps.append(RankStep(rank, doc, grade, relevant, contribution, running))
    return steps


def num_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Documents retrieved (trec_eval ``num_ret``; ir_measures ``NumRet``): the length of the list (or of its top k).

    >>> num_ret(["a", "b", "c"], {"a": 1}).value
    3.0
    """
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: True)
    return Breakdown("NumRet", k, float(len(steps)), tuple(steps), {Term.RETRIEVED: len(steps)}, conventions)


def num_rel(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Judged relevant documents, retrieved or not (trec_eval ``num_rel``; ir_measures ``NumRel``): R.

    No rank adds to it: R comes from the qrels alone, so every step contributes 0.

    >>> num_rel(["a"], {"a": 1, "b": 2, "c": 0, "d": -1}).value
    2.0
    """
    check_qrels(qrels)
    R = sum(1 for grade in qrels.values() if grade >= conventions.threshold)
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: False)
    return Breakdown("NumRel", k, float(R), tuple(steps), {Term.R: R}, conventions)


def num_rel_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Relevant documents retrieved (trec_eval ``num_rel_ret``; ir_measures ``NumRelRet``): hits over the list.

    >>> num_rel_ret(["a", "b", "c"], {"a": 1, "c": 2, "z": 1}).value
    2.0
    """
    steps = _counted(ranking, qrels, k, conventions, lambda doc, grade, relevant: relevant)
    hits = int(sum(s.contribution for s in steps))
    return Breakdown("NumRelRet", k, float(hits), tuple(steps), {Term.HITS: hits}, conventions)


def num_nonrel_judged_ret(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """Judged non-relevant documents retrieved (trec_eval ``num_nonrel_judged_ret``): grade 0 up to the threshold.

    An unjudged document, or one with a negative grade (in the pool, not judged), does not count.

    >>> num_nonrel_judged_ret(["a", "b", "c", "d"], {"a": 1, "b": 0, "d": -1}).value
    1.0
    """
    steps = _counted(
        ranking, qrels, k, conventions, lambda doc, grade, relevant: doc in qrels and 0 <= grade < conventions.threshold
    )
    judged_nonrelevant = int(sum(s.contribution for s in steps))
    terms = {Term.JUDGED_NONRELEVANT: judged_nonrelevant}
    return Breakdown("NumNonRelJudgedRet", k, float(judged_nonrelevant), tuple(steps), terms, conventions)


def num_q(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    """1 for every evaluated query (trec_eval ``num_q``, summed over queries: how many were evaluated).

    >>> num_q(["a"], {"a": 1}).value
    1.0
    """
    checked(ranking, qrels, k)
    return Breakdown("NumQ", k, 1.0, (), {}, conventions)


# --- definitions and worked formulas (LaTeX) ---


_COUNT_LABELS = {
    "NumRet": (r"\mathrm{num\_ret}", r"\text{documents retrieved}"),
    "NumRel": (r"\mathrm{num\_rel}", r"R = \text{judged relevant, retrieved or not}"),
    "NumRelRet": (r"\mathrm{num\_rel\_ret}", r"\text{relevant documents retrieved}"),
    "NumNonRelJudgedRet": (r"\mathrm{num\_nonrel\_judged\_ret}", r"\text{judged non-relevant documents retrieved}"),
    "NumQ": (r"\mathrm{num\_q}", r"\text{1 per evaluated query, summed}"),
}


def count_definition(family: str) -> Callable[[Conventions], str]:
    """The definition of one of trec_eval's counts (the same shape for all: a number of documents)."""
    symbol, meaning = _COUNT_LABELS[family]
    return lambda c: rf"{symbol} = {meaning}"


def count_worked(b: Breakdown) -> str:
    symbol, meaning = _COUNT_LABELS[b.family]
    counted = [s for s in b.steps if s.contribution]
    if b.family in ("NumRel", "NumQ") or not counted:
        return aligned_block([rf"{symbol} &= {whole(b.value)} \quad ({meaning})"])
    ranks = ", ".join(str(s.rank) for s in counted[:MAX_TERMS]) + (r", \ldots" if len(counted) > MAX_TERMS else "")
    return aligned_block([rf"{symbol} &= {whole(b.value)} \quad (\text{{ranks }} {ranks})"])


# --- engine kernels: one value per evaluated query (metrics.prepared), equal to the readable functions ---


def num_ret_kernel(data, measure) -> np.ndarray:
    return data.retrieved(measure.k).astype(np.float64)


def num_rel_kernel(data, measure) -> np.ndarray:
    return data.R.astype(np.float64)


def num_rel_ret_kernel(data, measure) -> np.ndarray:
    return data.hits(measure.k).astype(np.float64)


def num_nonrel_judged_ret_kernel(data, measure) -> np.ndarray:
    nonrelevant = (data.grade >= 0) & ~data.relevant() & data.in_top(measure.k)
    return np.bincount(data.slot[nonrelevant], minlength=data.size).astype(np.float64)


def num_q_kernel(data, measure) -> np.ndarray:
    return np.ones(data.size)


# --- the families' declarations (metrics.registry collects them) ---

NUM_Q = Family(
    key="NumQ",
    title="Queries evaluated",
    function=num_q,
    kernel=num_q_kernel,
    kind="count",
    help="1 per evaluated query; summed: how many were evaluated.",
    definition=count_definition("NumQ"),
    worked=count_worked,
    terms=(),
    cutoff="none",
    trec_eval="num_q",
    ir_measures="NumQ",
    summary="sum",
    count=True,
    per_query=False,
    usually_cut=False,
    value_range=None,  # whole numbers, summed over queries
    order=110,
)

NUM_RET = Family(
    key="NumRet",
    title="Documents retrieved",
    function=num_ret,
    kernel=num_ret_kernel,
    kind="count",
    help="How many documents the run retrieved.",
    definition=count_definition("NumRet"),
    worked=count_worked,
    terms=(Term.RETRIEVED,),
    cutoff="optional",
    trec_eval="num_ret",
    ir_measures="NumRet",
    summary="sum",
    count=True,
    per_query=True,
    usually_cut=False,
    value_range=None,  # whole numbers, summed over queries
    order=120,
)

NUM_REL = Family(
    key="NumRel",
    title="Relevant documents",
    function=num_rel,
    kernel=num_rel_kernel,
    kind="count",
    help="R: judged relevant documents, retrieved or not.",
    definition=count_definition("NumRel"),
    worked=count_worked,
    terms=(Term.R,),
    cutoff="optional",
    trec_eval="num_rel",
    ir_measures="NumRel",
    summary="sum",
    count=True,
    per_query=True,
    usually_cut=False,
    value_range=None,  # whole numbers, summed over queries
    order=130,
)

NUM_REL_RET = Family(
    key="NumRelRet",
    title="Relevant documents retrieved",
    function=num_rel_ret,
    kernel=num_rel_ret_kernel,
    kind="count",
    help="How many relevant documents the run retrieved.",
    definition=count_definition("NumRelRet"),
    worked=count_worked,
    terms=(Term.HITS,),
    cutoff="optional",
    trec_eval="num_rel_ret",
    ir_measures="NumRelRet",
    summary="sum",
    count=True,
    per_query=True,
    usually_cut=False,
    value_range=None,  # whole numbers, summed over queries
    order=140,
)

NUM_NONREL_JUDGED_RET = Family(
    key="NumNonRelJudgedRet",
    title="Judged non-relevant documents retrieved",
    function=num_nonrel_judged_ret,
    kernel=num_nonrel_judged_ret_kernel,
    kind="count",
    help="Retrieved documents judged below the relevance threshold (0 or more).",
    definition=count_definition("NumNonRelJudgedRet"),
    worked=count_worked,
    terms=(Term.JUDGED_NONRELEVANT,),
    cutoff="optional",
    trec_eval="num_nonrel_judged_ret",
    ir_measures=None,
    summary="sum",
    count=True,
    per_query=True,
    usually_cut=False,
    value_range=None,  # whole numbers, summed over queries
    order=150,
)

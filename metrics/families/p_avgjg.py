"""Precision averaged over judgment groups (P_avgjg): P@k on each group's judgments (trec_eval -R qrels_jg), averaged.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from metrics.catalog.family import TREC_CUTOFFS, Family, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Breakdown, Ranking, Term
from metrics.families.precision import PRECISION, precision
from metrics.preferences.judgment_groups import (
    JudgmentGroups,
    averaged_breakdown,
    averaged_definition,
    averaged_worked,
)
from metrics.teaching.latex import plain


def p_avgjg(
    ranking: Ranking, qrels: JudgmentGroups, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Precision at cutoff k averaged over the query's judgment groups.

    trec_eval ``P_avgjg_k``, from ``-R qrels_jg`` judgments.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : JudgmentGroups
        One query's judgment groups, ``{group: {doc: grade}}`` (trec_eval ``-R qrels_jg``: the second field names the
        group); plain judgments ``{doc: grade}`` are one group.
    k : int or None, optional
        The cutoff k of P@k, the divisor of each group's value; None (the default) takes the whole ranking, its length
        the divisor.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``), passed on to each group's P@k.

    Returns
    -------
    Breakdown
        ``value`` is the groups' P@k averaged (P@k itself for one group), from 0 to 1; ``steps`` has one RankStep per
        rank, each contribution the groups' contributions averaged (a rank's grade is its highest over the groups);
        ``terms`` holds ``Term.SUM`` (the groups' values added) and ``Term.GROUPS`` (their number).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one that
        is not a string, or a grade (in any group) is not an integer.

    Notes
    -----
    .. math:: \mathrm{P\_avgjg}@k = \frac{1}{m} \sum_{j=1}^{m} P@k_j

    Conventions (``m_P_avgjg.c``): each group's P@k as :func:`metrics.families.precision.precision` computes it on
    that group's judgments (the divisor is k); the groups in order of their ids. ``qrels`` maps each group to its
    judgments; plain judgments are one group, and P_avgjg is then P.

    Examples
    --------
    >>> p_avgjg(["a", "b"], {"u1": {"a": 1}, "u2": {"a": 1, "b": 1}}, k=2).value  # (1/2 + 2/2) / 2
    0.75
    """
    return averaged_breakdown("P_avgjg", precision, ranking, qrels, k, conventions)


def p_avgjg_definition(c: Conventions) -> str:
    return averaged_definition(plain("P_avgjg", symbolic=True), r"\mathrm{P@}k")


def p_avgjg_worked(b: Breakdown) -> str:
    return averaged_worked(plain("P_avgjg", b.k), rf"\mathrm{{P{'@' + str(b.k) if b.k else ''}}}", b)


P_AVGJG = Family(
    key="P_avgjg",
    title="Precision averaged over judgment groups",
    help="P_avgjg@k: P@k on each judgment group's judgments (e.g. each user's), averaged over the groups.",
    function=p_avgjg,
    # one group per slot: metrics.preferences.runs.judgment_group_runs averages a query's groups
    kernel=PRECISION.kernel,
    kind="set",
    teaching=Teaching(
        p_avgjg_definition,
        p_avgjg_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards a high share of relevant documents in {top}, in any order, as each group of judges (e.g. "
            "each user) judges them, averaged over the groups"
        ),
    ),
    trec_eval=TrecEval("P_avgjg", defaults=TREC_CUTOFFS, reads=("qrels_jg",)),
    order=395,
)

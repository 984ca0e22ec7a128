"""Average precision averaged over judgment groups (map_avgjg): AP on each group's judgments (trec_eval -R qrels_jg),
averaged.

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from metrics.catalog.family import Family, Teaching, TrecEval
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Breakdown, Ranking, Term
from metrics.families.average_precision import AVERAGE_PRECISION, average_precision
from metrics.preferences.judgment_groups import (
    JudgmentGroups,
    averaged_breakdown,
    averaged_definition,
    averaged_worked,
)
from metrics.teaching.latex import plain


def map_avgjg(
    ranking: Ranking, qrels: JudgmentGroups, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""Average precision averaged over the query's judgment groups.

    trec_eval ``map_avgjg``, from ``-R qrels_jg`` judgments.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : JudgmentGroups
        One query's judgment groups, ``{group: {doc: grade}}`` (trec_eval ``-R qrels_jg``: the second field names the
        group); plain judgments ``{doc: grade}`` are one group.
    k : int or None, optional
        Cuts the ranking at k (trec_eval's measure has no cutoff); None (the default) takes the whole ranking.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``), passed on to each group's AP.

    Returns
    -------
    Breakdown
        ``value`` is the groups' APs averaged (AP itself for one group), from 0 to 1; ``steps`` has one RankStep per
        rank, each contribution the groups' contributions averaged (a rank's grade is its highest over the groups);
        ``terms`` holds ``Term.SUM`` (the groups' values added) and ``Term.GROUPS`` (their number).

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one that
        is not a string, or a grade (in any group) is not an integer.

    Notes
    -----
    .. math:: \mathrm{AP\_avgjg} = \frac{1}{m} \sum_{j=1}^{m} \mathrm{AP}_j

    Conventions (``m_map_avgjg.c``): each group's AP as :func:`metrics.families.average_precision.average_precision`
    computes it on that group's judgments (divided by the group's R; 0 when it has nothing relevant); the groups in
    order of their ids. ``qrels`` maps each group to its judgments; plain judgments are one group (AP itself). k cuts
    the ranking (trec_eval's map_avgjg has no cutoff).

    Examples
    --------
    >>> map_avgjg(["a", "b"], {"u1": {"a": 1}, "u2": {"b": 1, "z": 1}}).value  # (1 + (1/2) / 2) / 2
    0.625
    """
    return averaged_breakdown("AP_avgjg", average_precision, ranking, qrels, k, conventions)


def map_avgjg_definition(c: Conventions) -> str:
    return averaged_definition(plain("AP_avgjg"), r"\mathrm{AP}")


def map_avgjg_worked(b: Breakdown) -> str:
    return averaged_worked(plain("AP_avgjg", b.k), rf"\mathrm{{AP{'@' + str(b.k) if b.k else ''}}}", b)


MAP_AVGJG = Family(
    key="AP_avgjg",
    title="Average precision averaged over judgment groups",
    help="AP_avgjg (trec_eval map_avgjg): AP on each judgment group's judgments (e.g. each user's), averaged.",
    function=map_avgjg,
    # one group per slot: metrics.preferences.runs.judgment_group_runs averages a query's groups
    kernel=AVERAGE_PRECISION.kernel,
    kind="order",
    teaching=Teaching(
        map_avgjg_definition,
        map_avgjg_worked,
        terms=(Term.SUM, Term.GROUPS),
        plain=(
            "rewards putting every relevant document high, not only the first, as each group of judges (e.g. "
            "each user) judges them, averaged over the groups"
        ),
    ),
    written="whole",
    trec_eval=TrecEval("map_avgjg", reads=("qrels_jg",)),
    order=396,
)

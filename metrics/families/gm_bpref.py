"""Binary preference, geometric mean (gm_bpref). gm_bpref: bpref summarised by the geometric mean over queries (a query
at 0 counts as 0.00001).

Its readable function (with the per-rank breakdown), engine kernel, LaTeX formulas and declaration
(metrics.catalog.registry collects it).
"""

from __future__ import annotations

from metrics.catalog.family import Family, Teaching, TrecEval, Values
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.types import Breakdown, Judgments, Ranking, Term
from metrics.families.bpref import PREFERENCE_SUM, bpref, bpref_kernel, bpref_worked


def gm_bpref(
    ranking: Ranking, qrels: Judgments, k: int | None = None, *, conventions: Conventions = TREC_EVAL
) -> Breakdown:
    r"""bpref of one query, as trec_eval's ``gm_bpref`` takes it: its mean over queries is geometric.

    trec_eval ``gm_bpref``, which prints only the summary. The per-query value is bpref itself.

    Parameters
    ----------
    ranking : Ranking
        Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
    qrels : Judgments
        The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged.
    k : int or None, optional
        Keeps only the top k of the list (as trec_eval ``-M k``). None (the default) keeps the whole list.
    conventions : Conventions, optional
        The convention switches, trec_eval's by default (``TREC_EVAL``). Read here, as by bpref: ``threshold``.

    Returns
    -------
    Breakdown
        :func:`bpref`'s, with family ``"gm_bpref"``.

    Raises
    ------
    ValueError
        If k is neither None nor a positive integer, the ranking is a single string or holds a doc id twice or one
        that is not a string, or a grade is not an integer.

    See Also
    --------
    bpref

    Notes
    -----
    This query's bpref enters :math:`\exp(\frac{1}{Q}\sum_q \log \max(\mathrm{bpref}_q,\ 10^{-5}))`.

    Examples
    --------
    >>> gm_bpref(["r1"], {"r1": 1}).value
    1.0
    """
    b = bpref(ranking, qrels, k, conventions=conventions)
    return Breakdown("gm_bpref", k, b.value, b.steps, b.terms, conventions)


def gm_bpref_definition(c: Conventions) -> str:
    return r"\mathrm{gm\_bpref} = \exp\Bigl(\frac{1}{Q} \sum_q \log \max(\mathrm{bpref}_q,\ 10^{-5})\Bigr)"


def gm_bpref_worked(b: Breakdown) -> str:
    return bpref_worked(b, r"&\quad \text{(this query's bpref; the summary is the geometric mean over queries)}")


GM_BPREF = Family(
    key="gm_bpref",
    title="Binary preference, geometric mean",
    help="gm_bpref: bpref summarised by the geometric mean over queries (a query at 0 counts as 0.00001).",
    function=gm_bpref,
    kernel=bpref_kernel,
    kind="order",
    teaching=Teaching(
        gm_bpref_definition,
        gm_bpref_worked,
        terms=(PREFERENCE_SUM, Term.R, Term.NONRELEVANT),
        plain=(
            "rewards doing reasonably on every query: bpref, summarised so that a query where the run"
            " fails pulls the summary down much more"
        ),
    ),
    cutoff="none",
    written="whole",
    trec_eval=TrecEval("gm_bpref", per_query=False),
    values=Values(summary="geometric"),
    order=260,
)

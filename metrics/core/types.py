"""The objects every readable metric returns: one step per rank plus the named terms of its formula."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from metrics.core.conventions import TREC_EVAL, Conventions

Ranking = Sequence[str]
"""Doc ids, best first: ``ranking[0]`` is rank 1."""

Judgments = Mapping[str, int]
"""Graded judgments of one query (doc id -> integer grade). A doc missing from it is unjudged (grade 0). (A whole
qrels file, every query's judgments, is a metrics.io.Qrels.)"""


class _Shared:
    """A term several families share, named on the Term class (``Term.HITS``): made a Term once the class exists."""

    def __init__(self, label: str) -> None:
        self.label = label

    def __set_name__(self, owner: type[Term], name: str) -> None:
        self.term = owner(self.label)

    def __get__(self, instance: object, owner: type[Term]) -> Term:
        return self.term


class Term(str):
    """A named term of a formula, as a Breakdown's ``terms`` key; the string is the label a learner reads. Open: the
    terms several families share (or other code reads) are named here (``Term.HITS``); a family with a term of its own
    declares it in its module (bpref.py: ``PREFERENCE_SUM = Term("sum of preferences")``), with no list here to edit."""

    __slots__ = ()
    __repr__ = str.__repr__  # a printed Breakdown.terms reads {'DCG': 3.5}, as a plain dict would

    HITS = _Shared("hits")
    CUTOFF = _Shared("k")  # the divisor of P@k: k, or the list length when uncut
    R = _Shared("R")  # judged relevant documents, retrieved or not
    PRECISION = _Shared("P")
    RECALL = _Shared("R@k")
    FIRST_RELEVANT_RANK = _Shared("first relevant rank")
    PRECISION_SUM = _Shared("sum of P@i")
    DENOMINATOR = _Shared("denominator")
    DCG = _Shared("DCG")
    IDCG = _Shared("IDCG")
    RETRIEVED = _Shared("retrieved")  # documents retrieved (num_ret)
    SET_PRECISION = _Shared("set P")
    SET_RECALL = _Shared("set recall")
    RANK_CUTOFF = _Shared("cutoff rank")  # where a measure looks: R for Rprec, round(x R) for Rprec_mult
    RECALL_LEVEL = _Shared("recall level")
    NONRELEVANT = _Shared("N")  # judged non-relevant documents (0 <= grade < threshold), retrieved or not
    UNJUDGED = _Shared("unjudged")
    PATIENCE = _Shared("p")
    SUM = _Shared("sum")
    POINTS = _Shared("points averaged")
    GROUPS = _Shared("judgment groups")  # trec_eval -R qrels_jg, -R prefs: sets of judgments (users), averaged over
    FULFILLED = _Shared("fulfilled")  # preferences (trec_eval -R prefs) the ranking agrees with
    POSSIBLE = _Shared("possible")  # preferences the ranking could agree with
    PAIRS = _Shared("document pairs")  # pairs of documents some judgment group states a preference on


@dataclass(frozen=True, slots=True)
class RankStep:
    """One rank of a ranking, as one metric sees it: a row of a Breakdown's per-rank table.

    Parameters
    ----------
    rank : int
        The rank, 1-based.
    doc_id : str
        The document at that rank.
    grade : int
        Its grade in the qrels; 0 if unjudged.
    relevant : bool
        Whether it counts as relevant: judged with grade >= the relevance threshold.
    contribution : float
        This rank's share of the metric's value; the contributions of a Breakdown's steps sum to its value, but
        for num_rel and num_q (no rank adds to them) and YAAP (whose empty list already scores).
    running : float
        The sum of the contributions up to and including this rank.

    Examples
    --------
    >>> from metrics import precision
    >>> precision(["d1", "d2"], {"d1": 1}, k=2).steps[0]
    RankStep(rank=1, doc_id='d1', grade=1, relevant=True, contribution=0.5, running=0.5)
    """

    rank: int  # 1-based
    doc_id: str
    grade: int  # 0 if unjudged
    relevant: bool  # grade >= the relevance threshold
    contribution: float  # this rank's share of the value (the docstring says when they sum to it)
    running: float  # the sum of the contributions up to this rank


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A metric's value with its per-rank steps and the named terms of its formula.

    Every readable function returns one. Formulas, charts and tables are all drawn from this one object, so they
    cannot disagree. In Jupyter it shows as its worked formula and its per-rank table (metrics.teaching.jupyter).

    Parameters
    ----------
    family : str
        The family's key: ``"P"``, ``"R"``, ``"AP"``, ``"NDCG"``, ... (metrics.catalog.registry).
    k : int or None
        The cutoff; None means the whole list.
    value : float
        The metric's value.
    steps : tuple of RankStep
        One per rank the metric looked at, best first.
    terms : Mapping of Term to float, optional
        The named terms of the formula, e.g. ``{Term.DCG: 5.76, Term.IDCG: 6.32}``; a Term is a str, the label a
        learner reads (``'DCG'``).
    conventions : Conventions, optional
        The conventions the value was computed under (``TREC_EVAL`` by default).
    text : str or None, optional
        The value of a measure whose value is a string (trec_eval ``relstring``); ``value`` is then 0.0.
    gains : tuple of (int, float) pairs, optional
        The gain map the value was computed with (trec_eval ``ndcg.1=3,2=9``); empty when the grades were the gains.
    graded : bool, optional
        The family's ``Family.graded``: its label reads NDCG_exp@5 under exponential gain.

    Attributes
    ----------
    metric : str
        The measure's label, e.g. ``"NDCG@5"``, ``"NDCG_exp@5"`` or ``"AP"``.

    Examples
    --------
    >>> from metrics import ndcg
    >>> b = ndcg(["d1", "d2", "d3"], {"d1": 3, "d3": 1, "d9": 2}, k=3)
    >>> b.metric, round(b.value, 4), {name: round(v, 4) for name, v in b.terms.items()}
    ('NDCG@3', 0.735, {'DCG': 3.5, 'IDCG': 4.7619})
    >>> [(s.rank, s.doc_id, round(s.contribution, 4)) for s in b.steps]
    [(1, 'd1', 0.63), (2, 'd2', 0.0), (3, 'd3', 0.105)]
    """

    family: str  # "P", "R", "R_cap", "HitRate", "F1", "RR", "AP", "DCG", "IDCG" or "NDCG"
    k: int | None  # the cutoff; None means the whole list
    value: float
    steps: tuple[RankStep, ...]
    terms: Mapping[Term, float] = field(default_factory=dict)  # e.g. {Term.DCG: 5.76, Term.IDCG: 6.32}
    conventions: Conventions = TREC_EVAL  # the conventions the value was computed under
    text: str | None = None  # a measure whose value is a string (trec_eval relstring); ``value`` is then 0.0
    gains: tuple[tuple[int, float], ...] = ()  # the gain map the value was computed with (trec_eval ndcg.1=3,2=9)
    graded: bool = False  # the family's Family.graded: its label reads NDCG_exp@5 under exponential gain

    @property
    def metric(self) -> str:
        """The measure's label, e.g. "NDCG@5", "NDCG_exp@5" or "AP"."""
        name = self.family
        if self.graded and self.conventions.gain == "exp":
            name += "_exp"
        return name if self.k is None else f"{name}@{self.k}"

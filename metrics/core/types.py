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
    """One rank of a ranking, as one metric sees it."""

    rank: int  # 1-based
    doc_id: str
    grade: int  # 0 if unjudged
    relevant: bool  # grade >= the relevance threshold
    contribution: float  # this rank's share of the value; the contributions sum to the value
    running: float  # the sum of the contributions up to this rank


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A metric's value with its per-rank steps and the named terms of its formula.

    Formulas, charts and tables are all drawn from this one object, so they cannot disagree.
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

"""The objects every readable metric returns: one step per rank plus the named terms of its formula."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from metrics.core.conventions import TREC_EVAL, Conventions

Ranking = Sequence[str]
"""Doc ids, best first: ``ranking[0]`` is rank 1."""

Judgments = Mapping[str, int]
"""Graded judgments of one query (doc id -> integer grade). A doc missing from it is unjudged (grade 0). (A whole
qrels file, every query's judgments, is a metrics.io.Qrels.)"""


class Term(StrEnum):
    """The named terms of the formulas, as a Breakdown's ``terms`` keys. The value is the label a learner reads."""

    HITS = "hits"
    CUTOFF = "k"  # the divisor of P@k: k, or the list length when uncut
    R = "R"  # judged relevant documents, retrieved or not
    CAP = "min(R, k)"
    PRECISION = "P"
    RECALL = "R@k"
    FIRST_RELEVANT_RANK = "first relevant rank"
    PRECISION_SUM = "sum of P@i"
    DENOMINATOR = "denominator"
    DCG = "DCG"
    IDCG = "IDCG"
    RETRIEVED = "retrieved"  # documents retrieved (num_ret)
    JUDGED_NONRELEVANT = "judged non-relevant"
    RELEVANT_RETRIEVED = "relevant retrieved"
    SET_PRECISION = "set P"
    SET_RECALL = "set recall"
    BETA = "beta"
    RANK_CUTOFF = "cutoff rank"  # where a measure looks: R for Rprec, round(x R) for Rprec_mult
    RECALL_LEVEL = "recall level"
    RELEVANT_NEEDED = "relevant needed"  # the relevant documents a recall level asks for
    NONRELEVANT = "N"  # judged non-relevant documents (0 <= grade < threshold), retrieved or not
    PREFERENCE_SUM = "sum of preferences"
    ESTIMATE_SUM = "sum of estimated P@i"
    JUDGED = "judged"
    UNJUDGED = "unjudged"
    PATIENCE = "p"
    DISCOUNTED_SUM = "sum of g_i p^(i-1)"
    TAIL = "p^n"
    STILL_READING = "P(still reading)"  # ERR: the chance the user reads past the last rank
    SUM = "sum"
    IDEAL_GAIN = "ideal gain"
    POINTS = "points averaged"
    GROUPS = "judgment groups"  # trec_eval -R qrels_jg: sets of judgments (users), a value averaged over them
    FULFILLED = "fulfilled"  # preferences (trec_eval -R prefs) the ranking agrees with
    POSSIBLE = "possible"  # preferences the ranking could agree with
    PAIRS = "document pairs"  # pairs of documents some judgment group states a preference on

    __repr__ = str.__repr__  # a printed Breakdown.terms reads {'DCG': 3.5}, as a plain dict would


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

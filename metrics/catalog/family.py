"""The record each measure family declares (``Family``), with its parameters (``Param``) and the small records that
group its facts: how it is taught (``Teaching``), its other names (``Names``), trec_eval's name and rules for it
(``TrecEval``), its values (``Values``) and its place in the default set (``Default``); and a measure of a family
(``Measure``, what metrics.catalog.measures parses a name into and a family's kernel reads). The family modules build
the records; metrics.catalog.registry collects them. Nothing here imports a family, so every family module can import
it."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from metrics.core.conventions import TREC_EVAL, Conventions, Gain
from metrics.core.judgments import Gains
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Judgments, Ranking, Term

if TYPE_CHECKING:  # numpy loads on a kernel's first use (metrics.core.lazy_numpy), not for an annotation
    from numpy.typing import NDArray


class Kernel(Protocol):
    """A family's vectorized form, which the engine calls: (the prepared run, the measure) -> one value per evaluated
    query, in the prepared run's query order: float64, or an object array of strings for a text family (relstring)."""

    def __call__(self, data: Prepared, measure: Measure, /) -> NDArray[Any]: ...


Kind = Literal["order", "set", "count", "curve"]
# What Measure.compute hands a family's readable function: graded judgments {doc: grade}; for the judgment-group
# families {group: {doc: grade}}; for the preference families {group: {subgroup: {doc: level}}} (or the other two).
AnyJudgments = Judgments | Mapping[str, Mapping[str, float]] | Mapping[str, Mapping[str, Mapping[str, float]]]

TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's default cutoffs for P, recall, map_cut, ...
Cutoff = Literal["optional", "required", "none"]
# over queries: trec_eval's mean, num_*'s sum, gm_*'s exp(mean(log)); "queries": how many were evaluated, whatever
# the values (num_q, m_num_q.c); "none": no summary (relstring, a string)
Summary = Literal["mean", "sum", "geometric", "queries", "none"]
# how our names write it: "cut", P@10; "whole", no cutoff in its usual name (Rprec, set_P, num_ret); "both", AP and
# AP@10, RR and RR@10 (trec_eval's map and recip_rank score the whole list; the cut forms are as common)
Written = Literal["cut", "whole", "both"]


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of a family besides the cutoff, e.g. RBP's patience p."""

    name: str
    # a tuple for a list of values (11pt_avg's recall levels), or a gain map's () (every level gains its number)
    default: float | tuple[float, ...] | Gains
    low: float  # for a gain map: the range of each gain
    high: float
    help: str
    integer: bool = False
    # a map level -> gain: ``gains={1:3,2:9}``, trec_eval's ``ndcg.1=3,2=9`` (metrics.core.judgments)
    gains: bool = False


@dataclass(frozen=True, slots=True)
class Teaching:
    """How its formula is taught (LaTeX built with metrics.teaching.latex; metrics.teaching.formulas shows it)."""

    definition: Callable[[Conventions], str]  # symbolic
    worked: Callable[[Breakdown], str]  # the user's numbers substituted
    terms: tuple[Term, ...]  # the named terms every Breakdown of this family carries (RR's only when it hits)
    # in words a reader who never computed one follows, after the measure's name: "rewards ..." or, for a count or a
    # measure of how far the others can be trusted, "is ..."; ``{top}`` is the part of the list it reads ("the first
    # 10 results"). A stakeholder's brief prints it (metrics.teaching.plain_words); None: the one-line help instead
    plain: str | None = None


@dataclass(frozen=True, slots=True)
class Names:
    """Its names besides the key and trec_eval's (TrecEval): all parse to it, case-insensitive."""

    spellings: tuple[str, ...] = ()  # more names, ours and trec_eval's other ones
    ir_measures: str | None = None
    tools: Mapping[str, str] = field(default_factory=dict)  # other tools (ranx, BEIR) -> their name; ``k`` = cutoff


@dataclass(frozen=True, slots=True)
class TrecEval:
    """What trec_eval 10.0 calls it and does with it; the default (no name) for a measure trec_eval lacks, which the
    engine still scores under trec_eval's rules."""

    name: str | None = None  # its measure with a cutoff (P -> P_10) or the uncut one (map)
    uncut: str | None = None  # its name without a cutoff, where it differs (map vs map_cut)
    # what its bare name expands to: cutoffs (P: P_5 ... P_1000), or values of Family.at_param (iprec_at_recall:
    # 0.00 ... 1.00)
    defaults: tuple[float, ...] = ()
    param: str | None = None  # what NAME.x sets when it is not a cutoff (set_F.0.5: beta); Family.at_param when None
    params: tuple[str, ...] = ()  # NAME.x,y,... sets these in order (utility.1,-1,0,0: a..d)
    cut: bool = False  # NAME.n sets its cutoff though it has no default cutoffs (relstring.20)
    per_query: bool = True  # -q prints it per query (gm_map: only the summary)
    # -- -c: a query in the qrels but missing from the run is scored on a stand-in ranking of one unjudged document
    # (trec_eval.c's bogus_ranking; -J drops it), after which trec_eval sets some measures to 0 --
    zero_when_missing: bool | Callable[[Measure], bool] = False  # set to 0; a function of the Measure when that
    # depends on its parameters (utility)
    # (values, data, measure) -> the values with the stand-in document counted, where it changes them (utility: one
    # more non-relevant document retrieved); None: it does not
    stand_in: Callable[[NDArray[Any], Prepared, Measure], NDArray[Any]] | None = None
    counts_positive_judgments: bool = False  # its 'all' line is the number of qrels lines graded above 0, whatever
    # -l says (num_rel: m_num_rel.c)
    # the judgment files it is computed from, as -R names their formats (formats.c): "qrels", "qrels_jg" (judgment
    # groups), "prefs", "qrels_prefs" (preferences). The engine computes every family from qrels too (one group per
    # query, the grades read as preferences), as the Python API's evaluate does; the CLI refuses it from the others
    reads: tuple[str, ...] = ("qrels",)


@dataclass(frozen=True, slots=True)
class Values:
    """What its values are, per query and over queries."""

    # every value lies in this range, so charts fix their axis and colour scale to it; None: not bounded (DCG, the
    # counts, utility), the scale follows the values shown
    range: tuple[float, float] | None = (0.0, 1.0)
    summary: Summary = "mean"
    count: bool = False  # a whole number per query (trec_eval prints it with %ld)
    text: bool = False  # a string per query (relstring): no number to chart, average or compare


@dataclass(frozen=True, slots=True)
class Default:
    """Its place in the default measure set: what the CLI, the leaderboard and Compare runs show unless told
    otherwise."""

    position: int
    cutoff: int | None = None  # NDCG@10; None: the whole list (AP)


@dataclass(frozen=True, slots=True)
class Family:
    """One measure family: what the measure is, everything the library and the CLI know about it (where the app shows
    it is the app's: ir_metrics_lab/core/family_display.py, keyed by ``key``)."""

    key: str  # our canonical name, e.g. "NDCG"; Breakdown.family
    title: str  # e.g. "Normalised discounted cumulative gain"
    help: str  # one line: a metric card's tooltip, the README's measure table
    function: Callable[..., Breakdown]  # the readable spec: (ranking, qrels, k, *, conventions) -> Breakdown
    kernel: Kernel  # the engine's vectorized form, on the prepared run (metrics.core.prepared)
    kind: Kind  # order-aware, set-based (order inside the top k does not matter), count, curve
    teaching: Teaching
    cutoff: Cutoff = "optional"
    written: Written = "cut"  # with a cutoff, without, or both (Written)
    graded: bool = False  # grades matter beyond relevant / not (the gain): an ``_exp`` spelling exists
    params: tuple[Param, ...] = ()
    at_param: str | None = None  # ``@x`` sets this parameter instead of a cutoff (IPrec@0.5: the recall level)
    names: Names = Names()
    trec_eval: TrecEval = TrecEval()
    values: Values = Values()
    default: Default | None = None  # None: not in the default measure set
    # (k, conventions) -> the measure whose value is its denominator (NDCG@k: IDCG@k; AP: NumRel, or NumRelRet@k
    # when AP divides by the relevant documents retrieved): where that is 0 the value is undefined, and a tool's
    # Setting(no_relevant=...) says what it scores (metrics.tools.settings); None: no such denominator
    normaliser: Callable[[int | None, Conventions], str] | None = None
    # False: a step of another measure rather than a score of the list (IDCG, the ideal ranking's DCG: under
    # trec_eval's conventions no change to the list changes it), so a live class is never asked about it
    scores_the_list: bool = True
    # its place in the registry (metrics.catalog.registry.FAMILIES: the CLI's help, the README's measure table, the
    # pickers); required and unique, spaced by 10 so a new family slots in between without renumbering the others
    order: int | None = None

    def param(self, name: str) -> Param:
        for declared in self.params:
            if declared.name == name:
                return declared
        raise ValueError(f"{self.key} has no parameter {name!r}")

    def __reduce__(self):
        """Pickled by name, as a function is (a Measure sent to a Dask worker holds its family): the record holds
        lambdas, and the unpickled record is the declared one itself."""
        return _declared_in, (self.function.__module__, self.key)


def _declared_in(module: str, key: str) -> Family:
    """The record keyed ``key`` that the family module ``module`` declares."""
    return next(v for v in vars(importlib.import_module(module)).values() if isinstance(v, Family) and v.key == key)


@dataclass(frozen=True, slots=True)
class Measure:
    """A parsed measure name: ``nDCG@10`` and ``ndcg_cut_10`` are both family NDCG with k = 10.

    :func:`metrics.parse_measure` makes one; :func:`metrics.evaluate` takes names or Measures. It holds its family's
    record, so what it computes needs no look-up in the registry.

    Parameters
    ----------
    name : str
        The name as the user wrote it; reports echo it back.
    record : Family
        Its family's record (metrics.catalog.registry).
    k : int or None
        The cutoff; None for the whole list.
    gain : {"linear", "exp"}, optional
        ``"exp"`` for an ``_exp`` name (NDCG_exp@10), which forces exponential gain; ``"linear"`` (the default)
        follows the conventions.
    params : tuple of (str, value) pairs, optional
        The family's parameters given, e.g. ``(("p", 0.8),)``; a list of values or a gain map
        (``((level, gain), ...)``) is a tuple. A parameter not given takes the family's default.
    rel : int or None, optional
        A relevance threshold of the measure's own (ir_measures' ``rel=``); None (the default): the conventions'.

    Attributes
    ----------
    family : str
        Its family's key (``record.key``), e.g. ``"NDCG"``.
    canonical : str
        Our spelling of the measure, e.g. ``"NDCG@10"``, ``"RBP(p=0.8)"``.

    Examples
    --------
    >>> from metrics import parse_measure
    >>> measure = parse_measure("ndcg_cut_10")
    >>> measure.name, measure.family, measure.k, measure.canonical
    ('ndcg_cut_10', 'NDCG', 10, 'NDCG@10')
    >>> round(measure.compute(["a", "b"], {"b": 1}).value, 4)  # 1 / log2(3)
    0.6309
    """

    name: str  # as the user wrote it; reports echo it back
    family: str = field(init=False)  # its family's key: the record's
    record: Family = field(compare=False, repr=False)  # its family
    k: int | None
    gain: Gain = "linear"
    # the declared parameters given, e.g. (("p", 0.8),); a list of values or a gain map ((level, gain), ...) is a tuple
    params: tuple[tuple[str, float | tuple], ...] = ()
    rel: int | None = None  # a relevance threshold of this measure's own (ir_measures' rel=), else the conventions'

    def __post_init__(self) -> None:
        object.__setattr__(self, "family", self.record.key)

    @property
    def canonical(self) -> str:
        """Our spelling of the measure: ``NDCG@10`` for ``ndcg_cut_10``, ``P(rel=2)@5``, ``RBP(p=0.8)``."""
        family = self.family + ("_exp" if self.gain == "exp" else "")
        at = self.record.at_param
        given = [f"rel={self.rel}"] if self.rel is not None else []
        given += [f"{name}={_shown(value)}" for name, value in self.params if name != at]
        if given:
            family += f"({','.join(given)})"
        if at is not None and any(name == at for name, _ in self.params):
            return f"{family}@{number_in_name(self.param(at))}"
        return family if self.k is None else f"{family}@{self.k}"

    def param(self, name: str) -> float | tuple:
        """A parameter's value: as given, else the family's default."""
        for given, value in self.params:
            if given == name:
                return value
        return self.record.param(name).default

    def number(self, name: str) -> float:
        """A parameter that holds one number (RBP's p, utility's a): :meth:`param`, typed so for a type checker."""
        return cast(float, self.param(name))

    def numbers(self, name: str) -> tuple[float, ...]:
        """A parameter that holds a list of numbers (11pt_avg's levels): :meth:`param`, typed so for a type checker."""
        return cast("tuple[float, ...]", self.param(name))

    def conventions_under(self, conventions: Conventions) -> Conventions:
        """The conventions this measure is computed under: its own gain (``_exp``) and threshold (``rel=``)."""
        changes: dict[str, Any] = {}
        if self.record.graded and self.gain == "exp":
            changes["gain"] = "exp"
        if self.rel is not None:
            changes["threshold"] = self.rel
        return dataclasses.replace(conventions, **changes) if changes else conventions

    def gain_under(self, conventions: Conventions) -> Gain:
        """An ``_exp`` name forces exponential gain; a plain name (NDCG@10) follows the conventions."""
        return "exp" if self.gain == "exp" else conventions.gain

    def compute(self, ranking: Ranking, qrels: AnyJudgments, conventions: Conventions = TREC_EVAL) -> Breakdown:
        """Score one ranking: the family's readable function with this measure's cutoff, parameters, gain and threshold.

        Parameters
        ----------
        ranking : Ranking
            Doc ids, best first (``ranking[0]`` is rank 1); distinct strings.
        qrels : Judgments or mapping
            The query's judgments, doc id -> integer grade, retrieved or not; a doc missing from it is unjudged. The
            judgment-group families (``P_avgjg``, ...) take ``{group: {doc: grade}}``, the preference families
            (``prefs_simp``, ...) ``{group: {subgroup: {doc: level}}}``: what the family's function takes.
        conventions : Conventions, optional
            The conventions, trec_eval's by default; the measure's own gain (``_exp``) and threshold (``rel=``) replace
            theirs (:meth:`conventions_under`).

        Returns
        -------
        Breakdown
            The value with its per-rank steps and named terms, as the family's function returns it.

        Raises
        ------
        ValueError
            As the family's function: a bad ranking or a grade that is not an integer.

        Examples
        --------
        >>> from metrics import parse_measure
        >>> parse_measure("P(rel=2)@5").compute(["a", "b"], {"a": 2, "b": 1}).value
        0.2
        """
        given = {name: self.param(name) for name in (p.name for p in self.record.params)}
        return self.record.function(ranking, qrels, self.k, conventions=self.conventions_under(conventions), **given)


def number_in_name(value: float | tuple) -> str:
    """A parameter's value as a measure's name writes it: 10, 0.5, [0.2,0.5]."""
    if isinstance(value, tuple):
        return "[" + ",".join(number_in_name(v) for v in value) + "]"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _shown(value: float | Gains) -> str:
    if isinstance(value, tuple):
        return "{" + ",".join(f"{level}:{number_in_name(gain)}" for level, gain in value) + "}"
    return number_in_name(value)


GAINS = Param(
    "gains",
    (),
    -1e6,
    1e6,
    "A gain per relevance level, e.g. {1:3,2:9,4:4.5} (trec_eval ndcg.1=3,2=9,4=4.5); other levels gain their number.",
    gains=True,
)
PATIENCE = Param("p", 0.9, 0.0, 1.0, "Patience: the chance the user reads on to the next rank (trec_eval: 0.9).")

"""The record each measure family declares (``Family``) and its parameters (``Param``). The family modules build
these; metrics.catalog.registry collects them. Nothing here imports a family, so every family module can import it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from metrics.core.conventions import Conventions
from metrics.core.judgments import Gains
from metrics.core.prepared import Prepared
from metrics.core.types import Breakdown, Term

# (data, measure) -> one float64 value per evaluated query (a string per query for a text family). The measure is a
# metrics.catalog.measures.Measure, not imported: that module reads the registry, which collects the families.
Kernel = Callable[[Prepared, Any], Any]
Kind = Literal["order", "set", "count", "curve"]
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's default cutoffs for P, recall, map_cut, ...
Cutoff = Literal["optional", "required", "none"]
# over queries: trec_eval's mean, num_*'s sum, gm_*'s exp(mean(log)); "queries": how many were evaluated, whatever
# the values (num_q, m_num_q.c); "none": no summary (relstring, a string)
Summary = Literal["mean", "sum", "geometric", "queries", "none"]


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
class Family:
    """One measure family: everything the library, the CLI and the app know about it."""

    key: str  # our canonical name, e.g. "NDCG"; Breakdown.family
    title: str  # e.g. "Normalised discounted cumulative gain"
    function: Callable[..., Breakdown]  # the readable spec: (ranking, qrels, k, *, conventions) -> Breakdown
    kernel: Kernel  # the engine's vectorized form, on the prepared run (metrics.core.prepared)
    kind: Kind  # order-aware, set-based (order inside the top k does not matter), count, curve
    help: str  # one line for a metric card's tooltip
    definition: Callable[[Conventions], str]  # LaTeX, symbolic
    worked: Callable[[Breakdown], str]  # LaTeX, the user's numbers substituted
    terms: tuple[Term, ...]  # the named terms every Breakdown of this family carries (RR's only when it hits)
    cutoff: Cutoff = "optional"
    graded: bool = False  # grades matter beyond relevant / not (the gain): an ``_exp`` spelling exists
    spellings: tuple[str, ...] = ()  # more names, case-insensitive (ours and trec_eval's); the key is always one
    trec_eval: str | None = None  # trec_eval's measure with a cutoff (P -> P_10) or the uncut one (map)
    trec_eval_uncut: str | None = None  # trec_eval's name without a cutoff, where it differs (map vs map_cut)
    ir_measures: str | None = None
    tools: Mapping[str, str] = field(default_factory=dict)  # other tools (ranx, BEIR) -> their name; ``k`` = cutoff
    card: int | None = None  # position among the playground's cards of its kind; None: no card
    uncut_card: bool = False  # the card shows the whole list (as trec_eval's recip_rank, map), not @k
    curve: int | None = None  # position in the playground's metric@k curves; None: not drawn
    usually_cut: bool = True  # written with a cutoff (P@10); False for whole-list measures (Rprec, set_P, num_ret)
    params: tuple[Param, ...] = ()
    at_param: str | None = None  # ``@x`` sets this parameter instead of a cutoff (IPrec@0.5: the recall level)
    trec_param: str | None = None  # what trec_eval's NAME.x sets when it is not a cutoff (set_F.0.5: beta);
    # at_param when None
    trec_params: tuple[str, ...] = ()  # trec_eval's NAME.x,y,... sets these in order (utility.1,-1,0,0: a..d)
    summary: Summary = "mean"
    count: bool = False  # a whole number per query (trec_eval prints it with %ld)
    text: bool = False  # its value is a string per query (relstring): no number to chart, average or compare
    per_query: bool = True  # trec_eval -q prints it per query (gm_map: only the summary)
    # the judgment files it is computed from, as trec_eval's -R names their formats (formats.c): "qrels", "qrels_jg"
    # (judgment groups), "prefs", "qrels_prefs" (preferences). The engine computes every family from qrels too (one
    # group per query, the grades read as preferences), as the Python API's evaluate does; the CLI follows trec_eval
    reads: tuple[str, ...] = ("qrels",)
    trec_defaults: tuple[float, ...] = ()  # what trec_eval's bare name expands to: cutoffs (P: P_5 ... P_1000), or
    # values of at_param (iprec_at_recall: 0.00 ... 1.00)
    # -- display facts --
    # every value lies in this range, so charts fix their axis and colour scale to it; None: not bounded (DCG, the
    # counts, utility), the scale follows the values shown
    value_range: tuple[float, float] | None = (0.0, 1.0)
    tab: int | None = None  # position of its own tab in the playground's "How each number is computed"
    pinned: int | None = None  # position in the playground's summary line that a phone keeps in view
    default: int | None = None  # position in the default measure set (the CLI, the leaderboard, Compare runs)
    default_cutoff: int | None = None  # its cutoff there (NDCG@10); None: the whole list (AP)
    # the app's other measure lists it belongs to, with its position in each (metrics.catalog.registry.listed):
    # "compared" (A vs B's side-by-side table), "compared_curves" (A vs B's metric@k curves), "swap_heatmap" (the
    # heatmap's picker)
    lists: Mapping[str, int] = field(default_factory=dict)
    offered: tuple[str, ...] = ()  # more of its spellings that Your data's measure picker offers beside the default set
    # -- trec_eval -c: a query in the qrels but missing from the run is scored on a stand-in ranking of one unjudged
    # document (trec_eval.c's bogus_ranking; -J drops it), after which trec_eval sets some measures to 0 --
    zero_when_missing: bool | Callable[[Any], bool] = False  # set to 0; a function of the Measure when that depends
    # on its parameters (utility)
    stand_in: Callable[[Any, Any, Any], Any] | None = None  # (values, data, measure) -> the values with the stand-in
    # document counted, where it changes them (utility: one more non-relevant document retrieved); None: it does not
    counts_positive_judgments: bool = False  # its 'all' line is the number of qrels lines graded above 0, whatever
    # -l says (num_rel: m_num_rel.c)
    trec_cut: bool = False  # trec_eval's NAME.n sets its cutoff though it has no default cutoffs (relstring.20)
    # -- what other tools do with it --
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


GAINS = Param(
    "gains",
    (),
    -1e6,
    1e6,
    "A gain per relevance level, e.g. {1:3,2:9,4:4.5} (trec_eval ndcg.1=3,2=9,4=4.5); other levels gain their number.",
    gains=True,
)
PATIENCE = Param("p", 0.9, 0.0, 1.0, "Patience: the chance the user reads on to the next rank (trec_eval: 0.9).")

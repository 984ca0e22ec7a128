"""The measure registry: every measure family declared once, in the spirit of trec_eval's ``TREC_MEAS`` records and
ir_measures' measure definitions. Parsing, the CLI's help, the engine's dispatch, the app's cards, tabs, pickers and
formulas, and the README's measure table all read from here. Pure: no Streamlit, and no numpy at import (the engine
kernels are named here and looked up by the engine).

Adding a measure family: write its readable function (returns a Breakdown), its engine kernel
(``metrics.engine._Prepared.kernel_<name>``), its definition and worked formula (metrics.formulas), then one
``Family(...)`` below; add its golden or pytrec_eval check in the tests.

>>> spelled("ndcg_cut").key, family("NDCG").trec_eval, [f.key for f in families(kind="set")]
('NDCG', 'ndcg_cut', ['P', 'R', 'R_cap', 'HitRate', 'F1'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from metrics import formulas
from metrics.average_precision import average_precision
from metrics.conventions import Conventions
from metrics.dcg import dcg, idcg, ndcg
from metrics.precision_recall import capped_recall, f1, hit_rate, precision, recall
from metrics.reciprocal_rank import reciprocal_rank
from metrics.types import Breakdown, Term

Kind = Literal["order", "set", "count", "curve"]
Cutoff = Literal["optional", "required", "none"]
Summary = Literal["mean", "sum", "geometric"]  # over queries: trec_eval's mean, num_*'s sum, gm_*'s exp(mean(log))


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of a family besides the cutoff, e.g. RBP's patience p."""

    name: str
    default: float
    low: float
    high: float
    help: str
    integer: bool = False


@dataclass(frozen=True, slots=True)
class Family:
    """One measure family: everything the library, the CLI and the app know about it."""

    key: str  # our canonical name, e.g. "NDCG"; Breakdown.family
    title: str  # e.g. "Normalised discounted cumulative gain"
    function: Callable[..., Breakdown]  # the readable spec: (ranking, qrels, k, *, conventions) -> Breakdown
    kernel: str  # the engine's vectorized form: _Prepared.kernel_<kernel>(measure) -> one value per query
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
    tools: Mapping[str, str] = field(default_factory=dict)  # tool -> its name for this number, ``k`` = the cutoff
    card: int | None = None  # position among the playground's cards of its kind; None: no card
    uncut_card: bool = False  # the card shows the whole list (as trec_eval's recip_rank, map), not @k
    curve: int | None = None  # position in the playground's metric@k curves; None: not drawn
    params: tuple[Param, ...] = ()
    at_param: str | None = None  # ``@x`` sets this parameter instead of a cutoff (IPrec@0.5: the recall level)
    summary: Summary = "mean"
    count: bool = False  # a whole number per query (trec_eval prints it with %ld)
    per_query: bool = True  # trec_eval -q prints it per query (gm_map: only the summary)
    default_cutoffs: tuple[int, ...] = ()  # trec_eval's cutoffs for the bare name (P: 5, 10, ... 1000)

    def param(self, name: str) -> Param:
        for declared in self.params:
            if declared.name == name:
                return declared
        raise ValueError(f"{self.key} has no parameter {name!r}")


FAMILIES: tuple[Family, ...] = (
    Family(
        "P",
        "Precision",
        precision,
        "precision",
        "set",
        "Precision@k: the share of the top k that is relevant (divides by k even if fewer were retrieved).",
        formulas.precision_definition,
        formulas.precision_worked,
        (Term.HITS, Term.CUTOFF),
        spellings=("precision",),
        trec_eval="P",
        ir_measures="P",
        tools={"trec_eval": "P_k", "ranx": "precision@k", "ir_measures": "P@k", "BEIR": "P@k"},
        card=1,
        curve=1,
    ),
    Family(
        "R",
        "Recall",
        recall,
        "recall",
        "set",
        "Recall@k: the share of all relevant docs (retrieved or not) found in the top k.",
        formulas.recall_definition,
        formulas.recall_worked,
        (Term.HITS, Term.R),
        spellings=("recall",),
        trec_eval="recall",
        ir_measures="R",
        tools={"trec_eval": "recall_k", "ranx": "recall@k", "ir_measures": "R@k", "BEIR": "Recall@k"},
        card=2,
        curve=2,
    ),
    Family(
        "R_cap",
        "Capped recall",
        capped_recall,
        "capped_recall",
        "set",
        "Capped recall@k (BEIR): divides by min(R, k), so 1.0 is reachable when R > k.",
        formulas.capped_recall_definition,
        formulas.capped_recall_worked,
        (Term.HITS, Term.R, Term.CAP),
        spellings=("rcap", "capped_recall"),
        tools={"BEIR": "R_cap@k"},
        card=3,
        curve=3,
    ),
    Family(
        "HitRate",
        "Hit rate",
        hit_rate,
        "hit_rate",
        "set",
        "HitRate@k (trec_eval success): 1 if any relevant doc is in the top k, else 0.",
        formulas.hit_rate_definition,
        formulas.hit_rate_worked,
        (Term.HITS,),
        spellings=("hit_rate", "success"),
        trec_eval="success",
        ir_measures="Success",
        tools={"trec_eval": "success_k", "ranx": "hit_rate@k", "ir_measures": "Success@k", "BEIR": "Accuracy@k"},
        card=5,
    ),
    Family(
        "F1",
        "F1",
        f1,
        "f1",
        "set",
        "F1@k: the harmonic mean of P@k and R@k.",
        formulas.f1_definition,
        formulas.f1_worked,
        (Term.HITS, Term.PRECISION, Term.RECALL, Term.R),
        tools={"ranx": "f1@k"},
        card=4,
    ),
    Family(
        "RR",
        "Reciprocal rank",
        reciprocal_rank,
        "reciprocal_rank",
        "order",
        "Reciprocal rank: 1 / rank of the first relevant doc; 0 if none was retrieved.",
        formulas.reciprocal_rank_definition,
        formulas.reciprocal_rank_worked,
        (Term.FIRST_RELEVANT_RANK,),
        spellings=("mrr", "recip_rank"),
        trec_eval="recip_rank",
        ir_measures="RR",
        tools={"trec_eval": "recip_rank", "ranx": "mrr@k", "ir_measures": "RR@k", "BEIR": "MRR@k"},
        card=3,
        uncut_card=True,
    ),
    Family(
        "AP",
        "Average precision",
        average_precision,
        "average_precision",
        "order",
        "Average precision: precision at each relevant rank, summed and divided by R.",
        formulas.average_precision_definition,
        formulas.average_precision_worked,
        (Term.PRECISION_SUM, Term.R, Term.HITS, Term.DENOMINATOR),
        spellings=("map", "map_cut"),
        trec_eval="map_cut",
        trec_eval_uncut="map",
        ir_measures="AP",
        tools={"trec_eval": "map_cut_k", "ranx": "map@k", "ir_measures": "AP@k", "BEIR": "MAP@k"},
        card=2,
        uncut_card=True,
        curve=5,
    ),
    Family(
        "DCG",
        "Discounted cumulative gain",
        dcg,
        "dcg",
        "order",
        "Discounted cumulative gain: each grade's gain divided by log2(rank + 1).",
        formulas.dcg_definition,
        formulas.dcg_worked,
        (Term.DCG,),
        graded=True,
        tools={"ranx": "dcg@k"},
        card=4,
    ),
    Family(
        "IDCG",
        "Ideal DCG",
        idcg,
        "idcg",
        "order",
        "Ideal DCG: the DCG of the best possible ordering of the judged docs.",
        formulas.idcg_definition,
        formulas.dcg_worked,
        (Term.IDCG,),
        graded=True,
        card=5,
    ),
    Family(
        "NDCG",
        "Normalised discounted cumulative gain",
        ndcg,
        "ndcg",
        "order",
        "Normalised DCG: DCG / IDCG, 1.0 for the ideal ordering.",
        formulas.ndcg_definition,
        formulas.ndcg_worked,
        (Term.DCG, Term.IDCG),
        graded=True,
        spellings=("ndcg_cut",),
        trec_eval="ndcg_cut",
        trec_eval_uncut="ndcg",
        ir_measures="nDCG",
        tools={"trec_eval": "ndcg_cut_k", "ranx": "ndcg@k", "ir_measures": "nDCG@k", "BEIR": "NDCG@k"},
        card=1,
        curve=4,
    ),
)

_BY_KEY = {f.key: f for f in FAMILIES}
_BY_SPELLING = {
    name.lower(): f for f in FAMILIES for name in (f.key, *f.spellings, *((f.ir_measures,) if f.ir_measures else ()))
}

# Which tools make which choice, per convention; {k} is the cutoff. Checked by running pytrec-eval-terrier 0.5.11,
# ranx 0.3.21, ir-measures 0.4.3 and beir 2.2.0; scikit-learn's ndcg_score read from its source (_ranking.py): the
# gain is the y_true value itself and the ideal DCG sorts the same y_true, so only the items passed in.
CONVENTION_TOOLS: Mapping[tuple[str, str], str] = {
    ("gain", "linear"): "trec_eval / pytrec_eval `ndcg_cut_{k}`, ranx `ndcg@{k}`, ir_measures `nDCG@{k}`, BEIR "
    "`NDCG@{k}`, scikit-learn `ndcg_score` (gain = the y_true value)",
    ("gain", "exp"): "Burges et al.; ranx `ndcg_burges@{k}`, ir_measures `nDCG(dcg='exp-log2')@{k}` (gdeval)",
    ("idcg", "all"): "trec_eval / pytrec_eval `ndcg_cut_{k}`, ranx `ndcg@{k}`, ir_measures `nDCG@{k}`, BEIR",
    ("idcg", "retrieved"): "scikit-learn `ndcg_score` (ideal from the y_true you pass: usually the retrieved list)",
    ("ap_denominator", "all"): "trec_eval / pytrec_eval `map`, ranx `map`, ir_measures `AP`, BEIR `MAP@k`",
    ("ap_denominator", "retrieved"): "RAGAS / DeepEval context precision",
}


def tools(convention: str, choice: str, k: int | str = "k") -> str:
    """Which tools make this choice of a convention, with their names for the measure at cutoff ``k``.

    >>> tools("ap_denominator", "retrieved")
    'RAGAS / DeepEval context precision'
    """
    return CONVENTION_TOOLS[convention, choice].replace("{k}", str(k))


def family(key: str) -> Family:
    """The family with this key (``"NDCG"``, ``"R_cap"``); measure names are read by metrics.measures."""
    found = _BY_KEY.get(key)
    if found is None:
        raise ValueError(f"unknown metric family {key!r}; known: {', '.join(_BY_KEY)}")
    return found


def spelled(name: str) -> Family | None:
    """The family a lower-case measure spelling names, or None."""
    return _BY_SPELLING.get(name)


def families(*, kind: Kind | None = None, graded: bool | None = None) -> tuple[Family, ...]:
    """The declared families, in declaration order, optionally only of one kind or gradedness."""
    return tuple(
        f for f in FAMILIES if (kind is None or f.kind == kind) and (graded is None or f.graded == graded)
    )


def cards(kind: Kind) -> tuple[str, ...]:
    """The playground's metric cards of one kind, in their display order."""
    return tuple(f.key for f in sorted((f for f in families(kind=kind) if f.card is not None), key=_card))


def curve_families() -> tuple[str, ...]:
    """The families drawn in the playground's metric@k curves, in drawing order."""
    return tuple(f.key for f in sorted((f for f in FAMILIES if f.curve is not None), key=lambda f: f.curve))


def _card(f: Family) -> int:
    return f.card if f.card is not None else 0


def canonical_names() -> tuple[str, ...]:
    """Our spelling of every measure, as the CLI's help and error messages list them (``k`` stands for a cutoff)."""
    plain = [name for f in FAMILIES for name in ((f.key, f"{f.key}@k") if f.uncut_card else (f"{f.key}@k",))]
    return (*plain, *(f"{f.key}_exp@k" for f in FAMILIES if f.graded))

"""The measure registry: the collection of every family's record (each declared once, with its readable function, kernel
and formulas, in its module of metrics.families), in the spirit of trec_eval's ``TREC_MEAS`` records and ir_measures'
measure definitions. Parsing, the CLI's help, the engine's dispatch (``Family.kernel``), the default measure set, the
app's formulas, pickers and chart scales, and the README's measure table all read from here; where the app shows a
family (cards, tabs, curves, its pages' lists) is the app's (ir_metrics_lab/core/family_display.py). Pure: no Streamlit,
and no numpy at import (the kernels load numpy on first use: metrics.core.lazy_numpy).

Adding a measure family: one module in metrics/families declaring its ``Family`` (see the README's recipe) and
its test file in tests/families; the registry finds the module by itself.

>>> spelled("ndcg_cut").key, family("NDCG").trec_eval.name
('NDCG', 'ndcg_cut')
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping

from metrics import families as families_package

# The records, re-exported: the registry's API (registry.Family, registry.Param, ...) predates metrics.catalog.family.
from metrics.catalog.family import GAINS as GAINS
from metrics.catalog.family import PATIENCE as PATIENCE
from metrics.catalog.family import TREC_CUTOFFS as TREC_CUTOFFS
from metrics.catalog.family import Cutoff as Cutoff
from metrics.catalog.family import Family as Family
from metrics.catalog.family import Kind as Kind
from metrics.catalog.family import Param as Param
from metrics.catalog.family import Summary as Summary


def _declared() -> tuple[Family, ...]:
    """Every family declared in a module of metrics.families (the modules whose name starts with ``_`` hold code
    several families share), in their declared ``order``."""
    found: dict[str, Family] = {}
    for module in pkgutil.iter_modules(families_package.__path__):
        if module.name.startswith("_"):
            continue
        namespace = vars(importlib.import_module(f"{families_package.__name__}.{module.name}"))
        for declared in namespace.values():
            if isinstance(declared, Family) and found.setdefault(declared.key, declared) is not declared:
                raise ValueError(f"two families are keyed {declared.key!r}")
    unordered = [key for key, f in found.items() if f.order is None]
    if unordered:
        raise ValueError(f"families without an order: {', '.join(unordered)}")
    orders = [f.order for f in found.values()]
    if len(set(orders)) < len(orders):
        raise ValueError("two families share an order")
    return tuple(sorted(found.values(), key=lambda f: f.order or 0))


FAMILIES: tuple[Family, ...] = _declared()

_BY_KEY = {f.key: f for f in FAMILIES}
_BY_SPELLING = {
    name.lower(): f
    for f in FAMILIES
    for name in (f.key, *f.names.spellings, f.trec_eval.name, f.trec_eval.uncut, f.names.ir_measures)
    if name is not None
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
    ("recall_rounding", "nearest"): "trec_eval 10.0 `iprec_at_recall_ℓ`, `11pt_avg` (lround(ℓ·R))",
    ("recall_rounding", "plus_0.9"): "trec_eval 9.0.x, pytrec_eval and ir_measures `IPrec@ℓ` (which runs pytrec_eval)",
}


def tools(convention: str, choice: str, k: int | str = "k") -> str:
    """Which tools make this choice of a convention, with their names for the measure at cutoff ``k``.

    >>> tools("ap_denominator", "retrieved")
    'RAGAS / DeepEval context precision'
    """
    return CONVENTION_TOOLS[convention, choice].replace("{k}", str(k))


def family(key: str) -> Family:
    """The family with this key (``"NDCG"``, ``"R_cap"``); measure names are read by metrics.catalog.measures."""
    found = _BY_KEY.get(key)
    if found is None:
        raise ValueError(f"unknown metric family {key!r}; known: {', '.join(_BY_KEY)}")
    return found


def spelled(name: str) -> Family | None:
    """The family a lower-case measure spelling names, or None."""
    return _BY_SPELLING.get(name)


def families(*, kind: Kind | None = None, graded: bool | None = None) -> tuple[Family, ...]:
    """The declared families, in declaration order, optionally only of one kind or gradedness."""
    return tuple(f for f in FAMILIES if (kind is None or f.kind == kind) and (graded is None or f.graded == graded))


def default_measures() -> tuple[str, ...]:
    """The default measure set, in its declared order: what the CLI, the leaderboard and Compare runs show unless
    told otherwise.

    >>> default_measures()
    ('NDCG@10', 'AP', 'RR@10', 'R@100', 'R_cap@100', 'P@10')
    """
    placed = sorted((f.default.position, f.key, f.default.cutoff) for f in FAMILIES if f.default is not None)
    return tuple(key if cutoff is None else f"{key}@{cutoff}" for _, key, cutoff in placed)


def value_range(measure_family: str) -> tuple[float, float] | None:
    """The range every value of this family lies in (a chart's fixed scale), or None when it is not bounded."""
    return family(measure_family).values.range


def canonical_names() -> tuple[str, ...]:
    """Our spelling of every measure, as the CLI's help and error messages list them (``k`` stands for a cutoff)."""

    def spelled(f: Family) -> tuple[str, ...]:
        if f.at_param:
            return (f"{f.key}@{f.at_param}",)
        if f.written == "whole" or f.cutoff == "none":
            return (f.key,)
        return (f.key, f"{f.key}@k") if f.written == "both" else (f"{f.key}@k",)

    plain = [name for f in FAMILIES for name in spelled(f)]
    return (*plain, *(f"{f.key}_exp@k" for f in FAMILIES if f.graded))


def markdown_table() -> str:
    """The measure table, one row per family: the documentation site's measure catalogue (scripts/docs_site.py)."""

    def code(name: str | None) -> str:
        return f"`{name}`" if name else "none"

    rows = ["| measure | function | trec_eval | ir_measures | elsewhere | what it computes (trec_eval's conventions) |"]
    rows.append("|---|---|---|---|---|---|")
    for f in FAMILIES:
        ours = ", ".join(
            name.replace("@multiple", "@x").replace("@level", "@ℓ")
            for name in canonical_names()
            if name.split("@")[0] in (f.key, f"{f.key}_exp")
        )
        cut = "_x" if f.at_param else "_k" if f.trec_eval.defaults else ""
        trec = (
            ", ".join(code(n) for n in (f.trec_eval.name and f.trec_eval.name + cut, f.trec_eval.uncut) if n) or "none"
        )
        at = "@ℓ" if f.at_param == "level" else "@x" if f.at_param else "@k" if f.written != "whole" else ""
        ir = code(f.names.ir_measures and f.names.ir_measures + at)
        others = ", ".join(f"{tool} `{name}`" for tool, name in f.names.tools.items())
        rows.append(f"| {ours} | `{f.function.__name__}` | {trec} | {ir} | {others or '—'} | {f.help} |")
    return "\n".join(rows) + "\n"


# trec_eval 10.0's measures in the order it computes and prints them (measures.c te_trec_measures), every one of them,
# declared here as a family or not yet (the prefs_ and _avgjg measures), so a new family needs no edit here; and its
# nicknames.
TREC_EVAL_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG",
    "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "prefs_num_prefs_poss",
    "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
    "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
    "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj",
)  # fmt: skip
TREC_EVAL_NICKNAMES = {
    "official": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
        "iprec_at_recall", "P",
    ),
    "all_trec": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
        "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
        "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG",
        "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
    ),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
                  "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                  "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"),
    "prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
              "prefs_pair", "prefs_avgjg"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}  # fmt: skip

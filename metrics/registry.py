"""The measure registry: every measure family declared once, in the spirit of trec_eval's ``TREC_MEAS`` records and
ir_measures' measure definitions. Parsing, the CLI's help, the engine's dispatch, the app's cards, tabs, pickers and
formulas, and the README's measure table all read from here. Pure: no Streamlit, and no numpy at import (the
kernels load numpy on first use: metrics.lazy_numpy). The engine calls each family's ``kernel`` on the prepared run.

Adding a measure family: write its readable function (returns a Breakdown), its engine kernel (a function of a
metrics.prepared.Prepared and a Measure), its definition and worked formula (metrics.latex), then one
``Family(...)`` below; add its golden or pytrec_eval check in the tests.

>>> spelled("ndcg_cut").key, family("NDCG").trec_eval, cards("set")
('NDCG', 'ndcg_cut', ('P', 'R', 'R_cap', 'F1', 'HitRate'))
"""

from __future__ import annotations

from collections.abc import Mapping

from metrics import kernels_unjudged, kernels_user_models, kernels_utility
from metrics import latex as formulas
from metrics.families import (
    average_precision,
    counts,
    dcg,
    gain_measures,
    interpolated,
    precision_recall,
    r_precision,
    reciprocal_rank,
    set_measures,
)
from metrics.family import PATIENCE, Family, Kind, Param
from metrics.family import Cutoff as Cutoff  # re-exported: the registry's API
from metrics.family import Summary as Summary
from metrics.relstring import relstring
from metrics.types import Term
from metrics.unjudged import bpref, gm_bpref, inferred_average_precision, judged, unjudged
from metrics.user_models import expected_reciprocal_rank, rank_biased_precision, rbp_residual
from metrics.utility import utility

FAMILIES: tuple[Family, ...] = (
    precision_recall.PRECISION,
    precision_recall.RECALL,
    precision_recall.CAPPED_RECALL,
    precision_recall.HIT_RATE,
    precision_recall.F1,
    reciprocal_rank.RECIPROCAL_RANK,
    average_precision.AVERAGE_PRECISION,
    dcg.DCG,
    dcg.IDCG,
    dcg.NDCG,
    # trec_eval's counts: summed over queries, not averaged
    counts.NUM_Q,
    counts.NUM_RET,
    counts.NUM_REL,
    counts.NUM_REL_RET,
    counts.NUM_NONREL_JUDGED_RET,
    average_precision.GEOMETRIC_MEAN_AP,
    r_precision.R_PRECISION,
    r_precision.R_PRECISION_MULTIPLE,
    interpolated.INTERPOLATED_PRECISION,
    interpolated.ELEVEN_POINT_AVERAGE,
    set_measures.SET_PRECISION,
    set_measures.SET_RECALL,
    set_measures.SET_F,
    set_measures.SET_AVERAGE_PRECISION,
    # --- issue 9, part 2: incomplete judgments, user models, gain walks, set utility (metrics.unjudged,
    # metrics.user_models, metrics.families.gain_measures, metrics.utility, metrics.relstring) ---
    Family(
        "bpref",
        "Binary preference",
        bpref,
        kernels_unjudged.bpref,
        "order",
        "bpref: how few judged non-relevant documents each relevant one is ranked below; unjudged ones are skipped.",
        formulas.bpref_definition,
        formulas.bpref_worked,
        (Term.PREFERENCE_SUM, Term.R, Term.NONRELEVANT),
        usually_cut=False,
        cutoff="none",
        trec_eval="bpref",
        ir_measures="Bpref",
    ),
    Family(
        "gm_bpref",
        "Binary preference, geometric mean",
        gm_bpref,
        kernels_unjudged.bpref,
        "order",
        "gm_bpref: bpref summarised by the geometric mean over queries (a query at 0 counts as 0.00001).",
        formulas.gm_bpref_definition,
        formulas.bpref_worked,
        (Term.PREFERENCE_SUM, Term.R, Term.NONRELEVANT),
        usually_cut=False,
        cutoff="none",
        trec_eval="gm_bpref",
        summary="geometric",
        per_query=False,
    ),
    Family(
        "infAP",
        "Inferred average precision",
        inferred_average_precision,
        kernels_unjudged.inferred_average_precision,
        "order",
        "infAP: AP estimated from a sampled pool; documents graded below 0 are in the pool but not judged.",
        formulas.infap_definition,
        formulas.infap_worked,
        (Term.ESTIMATE_SUM, Term.R),
        usually_cut=False,
        cutoff="none",
        spellings=("infap",),
        trec_eval="infAP",
        ir_measures="infAP",
    ),
    Family(
        "Judged",
        "Judgment rate",
        judged,
        kernels_unjudged.judged,
        "set",
        "Judged@k: the share of the top k that has a judgment (any qrels line); a short list divides by its length.",
        formulas.judged_definition,
        formulas.judged_worked,
        (Term.JUDGED, Term.DENOMINATOR),
        ir_measures="Judged",
    ),
    Family(
        "unj",
        "Unjudged at k",
        unjudged,
        kernels_unjudged.unjudged,
        "set",
        "unj@k: the share of the top k with no judgment (no qrels line or a grade below 0), divided by k.",
        formulas.unjudged_definition,
        formulas.unjudged_worked,
        (Term.UNJUDGED, Term.CUTOFF),
        trec_eval="unj",
        trec_defaults=(5, 10, 20),
    ),
    Family(
        "RBP",
        "Rank-biased precision",
        rank_biased_precision,
        kernels_user_models.rank_biased_precision,
        "order",
        "RBP: expected gain per document read by a user who reads on with probability p (trec_eval rbp, p = 0.9).",
        formulas.rbp_definition,
        formulas.rbp_worked,
        (Term.PATIENCE, Term.DISCOUNTED_SUM),
        usually_cut=False,
        trec_eval="rbp",
        ir_measures="RBP",
        params=(PATIENCE,),
    ),
    Family(
        "RBP_resid",
        "Rank-biased precision residual",
        rbp_residual,
        kernels_user_models.rbp_residual,
        "order",
        "RBP residual: how much RBP could still rise if the unjudged documents and the rest of the list were relevant.",
        formulas.rbp_resid_definition,
        formulas.rbp_resid_worked,
        (Term.PATIENCE, Term.UNJUDGED, Term.TAIL),
        usually_cut=False,
        trec_eval="rbp_resid",
        params=(PATIENCE,),
    ),
    Family(
        "ERR",
        "Expected reciprocal rank",
        expected_reciprocal_rank,
        kernels_user_models.expected_reciprocal_rank,
        "order",
        "ERR@k: the expected 1/rank where a user stops, satisfied with probability (2^grade - 1) / 16 at each rank.",
        formulas.err_definition,
        formulas.err_worked,
        (Term.STILL_READING,),
        ir_measures="ERR",
    ),
    gain_measures.BINARY_G,
    gain_measures.NORMALIZED_GAIN,
    gain_measures.RNDCG,
    gain_measures.NDCG_REL,
    Family(
        "utility",
        "Set utility",
        utility,
        kernels_utility.utility,
        "set",
        "Utility: a * relevant retrieved + b * non-relevant retrieved + c * relevant missed + d * rest (1, -1, 0, 0).",
        formulas.utility_definition,
        formulas.utility_worked,
        (Term.HITS, Term.RETRIEVED, Term.R),
        usually_cut=False,
        cutoff="none",
        trec_eval="utility",
        trec_params=("a", "b", "c", "d"),
        params=(
            Param("a", 1.0, -1e6, 1e6, "Worth of a relevant retrieved document."),
            Param("b", -1.0, -1e6, 1e6, "Worth of a non-relevant retrieved document."),
            Param("c", 0.0, -1e6, 1e6, "Worth of a relevant document not retrieved."),
            Param("d", 0.0, -1e6, 1e6, "Worth of a non-relevant document not retrieved."),
            Param("collection", 0.0, 0.0, 1e12, "Documents in the collection (trec_eval -N).", integer=True),
        ),
    ),
    Family(
        "relstring",
        "Relevance string",
        relstring,
        kernels_utility.relstring,
        "order",
        "relstring: the judgments of the first k documents (10 by default) as characters; not a number.",
        formulas.relstring_definition,
        formulas.relstring_worked,
        (Term.CUTOFF,),
        usually_cut=False,
        trec_eval="relstring",
        summary="none",
        text=True,
    ),
)

_BY_KEY = {f.key: f for f in FAMILIES}
_BY_SPELLING = {
    name.lower(): f
    for f in FAMILIES
    for name in (f.key, *f.spellings, f.trec_eval, f.trec_eval_uncut, f.ir_measures)
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

    def spelled(f: Family) -> tuple[str, ...]:
        if f.at_param:
            return (f"{f.key}@{f.at_param}",)
        if not f.usually_cut or f.cutoff == "none":
            return (f.key,)
        return (f.key, f"{f.key}@k") if f.uncut_card else (f"{f.key}@k",)

    plain = [name for f in FAMILIES for name in spelled(f)]
    return (*plain, *(f"{f.key}_exp@k" for f in FAMILIES if f.graded))


def markdown_table() -> str:
    """The README's measure table, one row per family (scripts/sync_readme.py writes it; a test compares)."""

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
        cut = "_x" if f.at_param else "_k" if f.trec_defaults else ""
        trec = ", ".join(code(n) for n in (f.trec_eval and f.trec_eval + cut, f.trec_eval_uncut) if n) or "none"
        at = "@ℓ" if f.at_param == "level" else "@x" if f.at_param else "@k" if f.usually_cut else ""
        ir = code(f.ir_measures and f.ir_measures + at)
        others = ", ".join(f"{tool} `{name}`" for tool, name in f.tools.items())
        rows.append(f"| {ours} | `{f.function.__name__}` | {trec} | {ir} | {others or '—'} | {f.help} |")
    return "\n".join(rows) + "\n"


# trec_eval 10.0's measures in the order it computes and prints them (measures.c te_trec_measures), and its
# nicknames.
TREC_EVAL_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG",
    "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj",
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
}  # fmt: skip

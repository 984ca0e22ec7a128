"""IR Metrics Lab's metrics: readable per-ranking functions (the spec, with per-rank breakdowns) and a
vectorized engine for whole run files that agrees with them exactly. Conventions default to trec_eval's.

No Streamlit here: this package is a plain library.

Start with a readable function on one ranking (``ndcg``, ``average_precision``, ``precision``, ... each returns a
Breakdown: the value, a step per rank and the formula's terms), ``evaluate`` on a whole run (``read_run`` and
``read_qrels`` read the files; ``read_subtopic_qrels`` ndeval's, for ``evaluate(..., subtopic_qrels=...)``),
``parse_measure`` for a measure's name as any tool spells it, and ``Conventions`` for the switches on which tools
disagree.

Examples
--------
>>> import metrics
>>> round(metrics.ndcg(["d1", "d2", "d3"], {"d1": 3, "d3": 1, "d9": 2}, k=3).value, 4)
0.735
>>> metrics.evaluate({"q1": ["d1", "d2"]}, {"q1": {"d2": 1}}, ["P@1", "recip_rank"]).means
{'P@1': 0.0, 'recip_rank': 0.5}
"""

from typing import TYPE_CHECKING

from metrics.catalog.family import Measure
from metrics.catalog.measures import DEFAULT_MEASURES, FUNCTIONS, parse_measure
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.ranking import rank_by_score
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep
from metrics.evaluation.aggregate import QuerySetResult, counted_queries, mean, mean_over_queries
from metrics.families._dcg_sums import gain
from metrics.families.alpha_dcg import alpha_dcg
from metrics.families.alpha_ndcg import alpha_ndcg
from metrics.families.ap_ia import ap_ia
from metrics.families.average_precision import average_precision
from metrics.families.bin_g import binary_g
from metrics.families.bpref import bpref
from metrics.families.capped_recall import capped_recall
from metrics.families.dcg import dcg
from metrics.families.eleven_point_average import eleven_point_average
from metrics.families.err import expected_reciprocal_rank
from metrics.families.err_ia import err_ia
from metrics.families.f1 import f1
from metrics.families.g import normalized_gain
from metrics.families.gm_bpref import gm_bpref
from metrics.families.gm_map import geometric_mean_ap
from metrics.families.hit_rate import hit_rate
from metrics.families.idcg import idcg, ideal_ranking
from metrics.families.infap import inferred_average_precision
from metrics.families.interpolated_precision import interpolated_precision
from metrics.families.judged import judged
from metrics.families.map_avgjg import map_avgjg
from metrics.families.ndcg import ndcg
from metrics.families.ndcg_rel import ndcg_rel
from metrics.families.nerr_ia import nerr_ia
from metrics.families.nnrbp import nnrbp
from metrics.families.nrbp import nrbp
from metrics.families.num_nonrel_judged_ret import num_nonrel_judged_ret
from metrics.families.num_q import num_q
from metrics.families.num_rel import num_rel
from metrics.families.num_rel_ret import num_rel_ret
from metrics.families.num_ret import num_ret
from metrics.families.p_avgjg import p_avgjg
from metrics.families.p_ia import p_ia
from metrics.families.precision import precision
from metrics.families.prefs_avgjg import prefs_avgjg, prefs_avgjg_imp, prefs_avgjg_ret
from metrics.families.prefs_avgjg_rnonrel import prefs_avgjg_rnonrel, prefs_avgjg_rnonrel_ret
from metrics.families.prefs_num_prefs import prefs_num_prefs_ful, prefs_num_prefs_ful_ret, prefs_num_prefs_poss
from metrics.families.prefs_pair import prefs_pair, prefs_pair_imp, prefs_pair_ret
from metrics.families.prefs_simp import prefs_simp, prefs_simp_imp, prefs_simp_ret
from metrics.families.r_precision import r_precision
from metrics.families.r_precision_multiple import r_precision_multiple
from metrics.families.rbp import rank_biased_precision
from metrics.families.rbp_resid import rbp_residual
from metrics.families.recall import recall
from metrics.families.reciprocal_rank import reciprocal_rank
from metrics.families.relstring import relstring
from metrics.families.rndcg import rndcg
from metrics.families.rprec_mult_avgjg import rprec_mult_avgjg
from metrics.families.set_average_precision import set_average_precision
from metrics.families.set_f import set_f
from metrics.families.set_precision import set_precision
from metrics.families.set_recall import set_recall
from metrics.families.strecall import subtopic_recall
from metrics.families.unjudged import unjudged
from metrics.families.utility import utility
from metrics.families.yaap import yet_another_average_precision
from metrics.teaching import jupyter as _jupyter

if TYPE_CHECKING:
    from metrics.evaluation.engine import evaluate
    from metrics.io import read_qrels, read_run
    from metrics.io.subtopic_qrels import read_subtopic_qrels

_jupyter.install()  # Breakdowns and query-set results show as formulas and tables in Jupyter

# Imported on first use (PEP 562): whole runs need numpy and pyarrow, which the readable functions never load.
_LAZY = {
    "evaluate": "metrics.evaluation.engine",
    "read_qrels": "metrics.io",
    "read_run": "metrics.io",
    "read_subtopic_qrels": "metrics.io.subtopic_qrels",
}


def __getattr__(name: str):
    if name == "__version__":
        from metrics.core.version import version

        return version()
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


# Every family's readable function is exported by name (tests/test_registry.py fails when one is missing).
__all__ = [
    "DEFAULT_MEASURES",
    "FUNCTIONS",
    "TREC_EVAL",
    "Breakdown",
    "Conventions",
    "Judgments",
    "Measure",
    "QuerySetResult",
    "RankStep",
    "Ranking",
    "alpha_dcg",
    "alpha_ndcg",
    "ap_ia",
    "average_precision",
    "binary_g",
    "bpref",
    "capped_recall",
    "counted_queries",
    "dcg",
    "eleven_point_average",
    "err_ia",
    "evaluate",
    "expected_reciprocal_rank",
    "f1",
    "gain",
    "geometric_mean_ap",
    "gm_bpref",
    "hit_rate",
    "idcg",
    "ideal_ranking",
    "inferred_average_precision",
    "interpolated_precision",
    "judged",
    "map_avgjg",
    "mean",
    "mean_over_queries",
    "ndcg",
    "ndcg_rel",
    "nerr_ia",
    "nnrbp",
    "normalized_gain",
    "nrbp",
    "num_nonrel_judged_ret",
    "num_q",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "p_avgjg",
    "p_ia",
    "parse_measure",
    "precision",
    "prefs_avgjg",
    "prefs_avgjg_imp",
    "prefs_avgjg_ret",
    "prefs_avgjg_rnonrel",
    "prefs_avgjg_rnonrel_ret",
    "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret",
    "prefs_num_prefs_poss",
    "prefs_pair",
    "prefs_pair_imp",
    "prefs_pair_ret",
    "prefs_simp",
    "prefs_simp_imp",
    "prefs_simp_ret",
    "r_precision",
    "r_precision_multiple",
    "rank_biased_precision",
    "rank_by_score",
    "rbp_residual",
    "read_qrels",
    "read_run",
    "read_subtopic_qrels",
    "recall",
    "reciprocal_rank",
    "relstring",
    "rndcg",
    "rprec_mult_avgjg",
    "set_average_precision",
    "set_f",
    "set_precision",
    "set_recall",
    "subtopic_recall",
    "unjudged",
    "utility",
    "yet_another_average_precision",
]

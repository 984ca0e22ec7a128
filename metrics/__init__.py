"""IR Metrics Lab's metrics: readable per-ranking functions (the spec, with per-rank breakdowns) and a
vectorized engine for whole run files that agrees with them exactly. Conventions default to trec_eval's.

No Streamlit here: this package is a plain library.
"""

from metrics.catalog.measures import DEFAULT_MEASURES, FUNCTIONS, Measure, parse_measure
from metrics.catalog.registry import FAMILIES as _FAMILIES
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.ranking import rank_by_score
from metrics.core.types import Breakdown, Judgments, Ranking, RankStep
from metrics.evaluation.aggregate import QuerySetResult, counted_queries, mean, mean_over_queries
from metrics.families._dcg_sums import gain
from metrics.families.average_precision import average_precision
from metrics.families.capped_recall import capped_recall
from metrics.families.dcg import dcg
from metrics.families.f1 import f1
from metrics.families.hit_rate import hit_rate
from metrics.families.idcg import idcg, ideal_ranking
from metrics.families.ndcg import ndcg
from metrics.families.precision import precision
from metrics.families.recall import recall
from metrics.families.reciprocal_rank import reciprocal_rank
from metrics.teaching import jupyter as _jupyter

_jupyter.install()  # Breakdowns and query-set results show as formulas and tables in Jupyter

# Every family's readable function (bpref, utility, ...), as the registry finds the families: a new family is
# exported with no edit here. The ten above are imported by name too, for readers and editors.
_READABLE = {f.function.__name__: f.function for f in _FAMILIES}
globals().update(_READABLE)

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
    "average_precision",
    "capped_recall",
    "counted_queries",
    "dcg",
    "f1",
    "gain",
    "hit_rate",
    "idcg",
    "ideal_ranking",
    "mean",
    "mean_over_queries",
    "ndcg",
    "parse_measure",
    "precision",
    "rank_by_score",
    "recall",
    "reciprocal_rank",
]
__all__ += sorted(set(_READABLE) - set(__all__))

"""Tool profiles as data: for each popular tool and each measure it has, the Setting (metrics.tools.settings) that
reproduces its number on a run, how it orders tied scores, and where each fact comes from. Pure (no Streamlit).

Installed tools (pytrec_eval, ir_measures, ranx, scikit-learn) are checked by running them on random runs:
``tests/test_tool_profiles.py`` asserts that the engine under the profile's Setting gives the tool's own number to
1e-9. The others (xgboost, LightGBM, TorchMetrics) are documented from their sources, file and function named in
``source``; they are not installed here, so ``runnable`` is False and no test runs them. A profile whose rule the
engine cannot express has ``setting=None`` and says why.

A profile reproduces its tool exactly when no two scores of a query tie, or when the tool breaks ties as trec_eval
does (``ties="docid"``); the engine always orders tied scores as trec_eval does (score descending, then doc id
descending, scores compared as 32-bit floats).

>>> profile("sklearn", "NDCG").setting
Setting(threshold=1, gain='linear', idcg='retrieved', ap_denominator='all', queries='judged', no_relevant='zero')
>>> profile("lightgbm", "AP").setting is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from metrics.catalog import registry
from metrics.catalog.family import Cutoff, Measure
from metrics.catalog.measures import parse_measure
from metrics.tools.settings import TREC_EVAL_SETTING, Setting

# How a tool orders documents whose scores tie:
#   docid: trec_eval's rule (score descending, then doc id descending; scores as 32-bit floats)
#   average: tied documents share the average of their gains (scikit-learn's ndcg_score/dcg_score, McSherry &
#            Najork 2008; TorchMetrics' NDCG copies it)
#   grouped: a tied group enters the precision-recall curve at once (scikit-learn's average_precision_score)
#   input: a stable sort by score keeps the input order of tied documents
#   unspecified: an unstable sort (numba's, std::sort, torch.topk): the order of tied documents is not defined
Ties = Literal["docid", "average", "grouped", "input", "unspecified"]
TIES_WORDS = {
    "docid": "score descending, then doc id descending (trec_eval)",
    "average": "tied documents share the average of their gains",
    "grouped": "a group of tied documents enters the precision-recall curve at once",
    "input": "tied documents keep their input order (a stable sort)",
    "unspecified": "an unstable sort: the order of tied documents is not defined",
}


@dataclass(frozen=True, slots=True)
class Profile:
    """One measure of one tool."""

    measure: str  # the registry family: NDCG, DCG, AP, P, R, RR
    name: str  # the tool's own spelling; {k} stands for the cutoff (named(): as the family's record states it)
    setting: Setting | None  # None: the engine cannot express the tool's rule (``note`` says why)
    ties: Ties
    source: str  # where the facts come from: the file and function read, or what was run
    cutoff: Cutoff = "optional"  # does the tool take a cutoff (the values of a family's cutoff)
    note: str = ""  # anything a user should know (input the tool refuses, or why it is not reproducible)

    @property
    def reproducible(self) -> bool:
        return self.setting is not None


@dataclass(frozen=True, slots=True)
class Tool:
    key: str  # what --tools takes
    title: str  # as a sentence names it
    checked: str  # how the profiles were checked
    runnable: bool  # installed for the tests and run by them
    profiles: tuple[Profile, ...]


def named(tool_key: str, family: str, *, uncut: bool = False) -> str:
    """A tool's name for a family at cutoff ``{k}``, read from the family's record (metrics/families/), where the
    names of trec_eval (pytrec_eval's too), ir_measures and the other tools it lists are stated; ``uncut``: followed
    by the name without a cutoff. For the tools whose names no family records (scikit-learn, ...), a profile spells
    its own.

    >>> named("trec_eval", "AP", uncut=True), named("ranx", "NDCG"), named("ir_measures", "P"), named("trec_eval", "RR")
    ('map_cut_{k} (map uncut)', 'ndcg@{k}', 'P@{k}', 'recip_rank')
    """
    declared = registry.family(family)
    if tool_key in ("trec_eval", "pytrec_eval"):
        trec = declared.trec_eval
        base, whole = trec.name, trec.uncut or trec.name
        suffix = "_{k}" if trec.defaults else ""  # a cutoff where trec_eval has default cutoffs (P_10)
    elif tool_key == "ir_measures":
        base = whole = declared.names.ir_measures
        suffix = "@{k}" if declared.written != "whole" else ""
    else:  # the other tools the family lists, ``k`` standing for the cutoff
        listed = declared.names.tools.get(tool_key)
        base = whole = listed and listed.removesuffix("@k")
        suffix = "@{k}" if listed and listed.endswith("@k") else ""
    if base is None:
        raise ValueError(f"the {family} family records no {tool_key} name")
    cut = base + suffix
    return f"{cut} ({whole} uncut)" if uncut and cut != whole else cut


def _trec_eval_source(family: str) -> str:
    """Where trec_eval computes a family: its m_<name>.c file (after the tie rule's)."""
    return f"trec_eval 10.0 src/form_res_rels.c (ties), m_{registry.family(family).trec_eval.name}.c"


_RUN_ONLY = Setting(queries="run")
_COMPLETE = Setting(queries="complete")
_RANX_CHECKED = (
    "run here: ranx 0.3 on random runs; ranx.evaluate refuses a run and qrels with different queries unless "
    "make_comparable=True, which scores judged queries missing from the run 0 and drops the others, as trec_eval -c"
)

TOOLS: tuple[Tool, ...] = (
    Tool(
        "trec_eval",
        "trec_eval 10.0",
        "the engine's own conventions, checked by the project's tests against trec_eval's C code (pytrec_eval) and "
        "the golden cases",
        False,
        (
            Profile("NDCG", named("trec_eval", "NDCG"), TREC_EVAL_SETTING, "docid", _trec_eval_source("NDCG")),
            Profile("AP", named("trec_eval", "AP", uncut=True), TREC_EVAL_SETTING, "docid", _trec_eval_source("AP")),
            Profile("P", named("trec_eval", "P"), TREC_EVAL_SETTING, "docid", _trec_eval_source("P"), "required"),
            Profile("R", named("trec_eval", "R"), TREC_EVAL_SETTING, "docid", _trec_eval_source("R"), "required"),
            Profile(
                "RR",
                named("trec_eval", "RR"),
                TREC_EVAL_SETTING,
                "docid",
                _trec_eval_source("RR"),
                note="recip_rank has no cutoff; RR@k is recip_rank on the run cut to its top k (-M k).",
            ),
        ),
    ),
    Tool(
        "pytrec_eval",
        "pytrec_eval",
        "run here: pytrec-eval-terrier 0.5 (trec_eval 9.0.x inside) on random runs",
        True,
        (
            Profile("NDCG", named("pytrec_eval", "NDCG"), TREC_EVAL_SETTING, "docid", "pytrec_eval.RelevanceEvaluator"),
            Profile(
                "AP",
                named("pytrec_eval", "AP", uncut=True),
                TREC_EVAL_SETTING,
                "docid",
                "pytrec_eval.RelevanceEvaluator",
            ),
            Profile(
                "P", named("pytrec_eval", "P"), TREC_EVAL_SETTING, "docid", "pytrec_eval.RelevanceEvaluator", "required"
            ),
            Profile(
                "R", named("pytrec_eval", "R"), TREC_EVAL_SETTING, "docid", "pytrec_eval.RelevanceEvaluator", "required"
            ),
            Profile(
                "RR", named("pytrec_eval", "RR"), TREC_EVAL_SETTING, "docid", "pytrec_eval.RelevanceEvaluator", "none"
            ),
        ),
    ),
    Tool(
        "ir_measures",
        "ir_measures",
        "run here: ir-measures 0.4 (its pytrec_eval provider) on random runs; calc_aggregate counts a judged "
        "query missing from the run as 0, as trec_eval -c does",
        True,
        (
            Profile("NDCG", named("ir_measures", "NDCG"), _COMPLETE, "docid", "ir_measures.calc_aggregate"),
            Profile("AP", named("ir_measures", "AP"), _COMPLETE, "docid", "ir_measures.calc_aggregate"),
            Profile("P", named("ir_measures", "P"), _COMPLETE, "docid", "ir_measures.calc_aggregate", "required"),
            Profile("R", named("ir_measures", "R"), _COMPLETE, "docid", "ir_measures.calc_aggregate", "required"),
            Profile("RR", named("ir_measures", "RR", uncut=True), _COMPLETE, "docid", "ir_measures.calc_aggregate"),
        ),
    ),
    Tool(
        "ranx",
        "ranx",
        _RANX_CHECKED,
        True,
        (
            Profile("NDCG", named("ranx", "NDCG"), _COMPLETE, "unspecified", "ranx.evaluate"),
            Profile("DCG", named("ranx", "DCG"), _COMPLETE, "unspecified", "ranx.evaluate"),
            Profile("AP", named("ranx", "AP"), _COMPLETE, "unspecified", "ranx.evaluate"),
            Profile("P", named("ranx", "P"), _COMPLETE, "unspecified", "ranx.evaluate", "required"),
            Profile("R", named("ranx", "R"), _COMPLETE, "unspecified", "ranx.evaluate", "required"),
            Profile("RR", named("ranx", "RR"), _COMPLETE, "unspecified", "ranx.evaluate"),
        ),
    ),
    Tool(
        "ranx_burges",
        "ranx (Burges gain)",
        _RANX_CHECKED,
        True,
        (
            Profile("NDCG", "ndcg_burges@{k}", Setting(gain="exp", queries="complete"), "unspecified", "ranx.evaluate"),
            Profile("DCG", "dcg_burges@{k}", Setting(gain="exp", queries="complete"), "unspecified", "ranx.evaluate"),
        ),
    ),
    Tool(
        "sklearn",
        "scikit-learn",
        "run here: scikit-learn 1.9, one call per query of the run that has judgments, the values averaged "
        "(y_true: each retrieved document's grade, 0 if unjudged; y_score: the run's scores)",
        True,
        (
            Profile(
                "NDCG",
                "ndcg_score(y_true, y_score, k={k})",
                Setting(idcg="retrieved"),
                "average",
                "sklearn/metrics/_ranking.py ndcg_score, _ndcg_sample_scores (the ideal DCG sorts the y_true passed)",
                note="ndcg_score refuses a query with one retrieved document and negative grades (pass them as 0).",
            ),
            Profile(
                "DCG",
                "dcg_score(y_true, y_score, k={k})",
                TREC_EVAL_SETTING,
                "average",
                "sklearn/metrics/_ranking.py dcg_score, _dcg_sample_scores",
                note="dcg_score refuses a query with one retrieved document.",
            ),
            Profile(
                "AP",
                "average_precision_score(y_true >= 1, y_score)",
                Setting(ap_denominator="retrieved"),
                "grouped",
                "sklearn/metrics/_ranking.py average_precision_score, precision_recall_curve",
                "none",
                note="Only the retrieved list is passed, so AP divides by the relevant documents retrieved; no "
                "cutoff. A query with no relevant document retrieved scores 0 (with a warning).",
            ),
        ),
    ),
    Tool(
        "xgboost",
        "xgboost",
        "read from source (not installed): src/metric/rank_metric.cc of the 1.x series; xgboost 2.0 rewrote these "
        "metrics (its ndcg_exp_gain parameter can switch the gain to linear)",
        False,
        (
            Profile(
                "NDCG",
                "ndcg@{k}",
                Setting(gain="exp", idcg="retrieved", queries="run", no_relevant="one"),
                "input",
                "src/metric/rank_metric.cc EvalNDCG::EvalMetric (stable sort; ideal from the group's labels; "
                "idcg == 0 gives 1)",
                note="A group holds only the documents scored: the run's list, unjudged ones labelled 0.",
            ),
            Profile(
                "AP",
                "map",
                Setting(ap_denominator="retrieved", queries="run", no_relevant="one"),
                "unspecified",
                "src/metric/rank_metric.cc EvalMAP::EvalMetric (std::sort; no hit gives 1)",
                "none",
                note="map@k is not reproducible: it sums precision within the top k but divides by the relevant "
                "documents of the whole group, a rule the engine has no switch for.",
            ),
            Profile(
                "P",
                "pre@{k}",
                _RUN_ONLY,
                "unspecified",
                "src/metric/rank_metric.cc EvalPrecision::EvalMetric (std::sort; hits / k)",
                "required",
            ),
        ),
    ),
    Tool(
        "xgboost_minus",
        "xgboost (ndcg@k-)",
        "read from source (not installed): src/metric/rank_metric.cc of the 1.x series, the '-' suffix",
        False,
        (
            Profile(
                "NDCG",
                "ndcg@{k}-",
                Setting(gain="exp", idcg="retrieved", queries="run"),
                "input",
                "src/metric/rank_metric.cc EvalNDCG::EvalMetric (minus_: idcg == 0 gives 0)",
            ),
            Profile(
                "AP",
                "map-",
                Setting(ap_denominator="retrieved", queries="run"),
                "unspecified",
                "src/metric/rank_metric.cc EvalMAP::EvalMetric (minus_: no hit gives 0)",
                "none",
            ),
        ),
    ),
    Tool(
        "lightgbm",
        "LightGBM",
        "read from source (not installed): src/metric/rank_metric.hpp, map_metric.hpp, dcg_calculator.cpp",
        False,
        (
            Profile(
                "NDCG",
                "ndcg@{k} (metric='ndcg', eval_at)",
                Setting(gain="exp", idcg="retrieved", queries="run", no_relevant="one"),
                "input",
                "src/metric/rank_metric.hpp NDCGMetric::Eval (a query with no positive label scores 1); "
                "src/metric/dcg_calculator.cpp DefaultLabelGain (gain 2^i - 1), CalDCG (std::stable_sort)",
                "required",
            ),
            Profile(
                "AP",
                "map@{k} (metric='map', eval_at)",
                None,
                "input",
                "src/metric/map_metric.hpp MapMetric::CalMapAtK (sum / min(relevant in the group, k); none gives 1)",
                "required",
                note="Not reproducible: AP@k divided by min(relevant retrieved, k), a denominator the engine has no "
                "switch for (ml_metrics' apk divides by min(R, k) in the same spirit).",
            ),
        ),
    ),
    Tool(
        "torchmetrics",
        "TorchMetrics",
        "read from source (not installed): src/torchmetrics/functional/retrieval/*.py and retrieval/base.py "
        "(RetrievalMetric groups by indexes; empty_target_action='neg' scores a query with no positive target 0)",
        False,
        (
            Profile(
                "NDCG",
                "RetrievalNormalizedDCG(top_k={k})",
                Setting(idcg="retrieved", queries="run"),
                "average",
                "functional/retrieval/ndcg.py retrieval_normalized_dcg (ideal sorts the target passed; recent "
                "versions average ties, _tie_average_dcg)",
            ),
            Profile(
                "AP",
                "RetrievalMAP(top_k={k})",
                Setting(ap_denominator="retrieved", queries="run"),
                "unspecified",
                "functional/retrieval/average_precision.py retrieval_average_precision (mean precision at the hits "
                "within top_k)",
            ),
            Profile(
                "P",
                "RetrievalPrecision(top_k={k})",
                _RUN_ONLY,
                "unspecified",
                "functional/retrieval/precision.py retrieval_precision (hits / top_k, adaptive_k=False)",
                "required",
            ),
            Profile(
                "R",
                "RetrievalRecall(top_k={k})",
                None,
                "unspecified",
                "functional/retrieval/recall.py retrieval_recall (hits / relevant among the documents passed)",
                "required",
                note="Not reproducible: recall divided by the relevant documents retrieved, not by R; the engine "
                "has no such switch for recall.",
            ),
            Profile(
                "RR",
                "RetrievalMRR(top_k={k})",
                _RUN_ONLY,
                "unspecified",
                "functional/retrieval/reciprocal_rank.py retrieval_reciprocal_rank",
            ),
        ),
    ),
)

# The measures Why tools differ offers, the first one opened: every family a profile covers, at the cutoffs its
# explanations use (tests/test_tool_profiles.py checks that two tools or more can give each, and no family is left out).
MEASURES = ("NDCG@10", "NDCG@5", "NDCG@20", "AP", "AP@10", "P@10", "R@100", "RR", "RR@10", "DCG@10")

_BY_KEY = {tool.key: tool for tool in TOOLS}
ALIASES = {"scikit-learn": "sklearn", "trec_eval_10": "trec_eval", "pytrec-eval": "pytrec_eval",
           "ir-measures": "ir_measures", "lgbm": "lightgbm"}  # fmt: skip


def tool(key: str) -> Tool:
    """The tool with this key (case-insensitive; a few aliases: scikit-learn, lgbm, ...)."""
    lowered = key.strip().lower()
    found = _BY_KEY.get(ALIASES.get(lowered, lowered))
    if found is None:
        raise ValueError(f"unknown tool {key!r}; known: {', '.join(_BY_KEY)}")
    return found


def profile(key: str, family: str) -> Profile:
    """The profile of a tool for one measure family; a clear error when the tool has no such measure."""
    found = tool(key)
    for candidate in found.profiles:
        if candidate.measure == family:
            return candidate
    has = ", ".join(p.measure for p in found.profiles)
    raise ValueError(f"{found.title} has no {family} measure here (it has {has})")


def unusable(key: str, measure: str | Measure) -> str | None:
    """Why a tool's profile cannot give ``measure`` here (no such measure, not reproducible, a cutoff it lacks or
    needs), or None when it can.

    >>> unusable("sklearn", "AP@10")
    "scikit-learn's average_precision_score(y_true >= 1, y_score) takes no cutoff: ask for AP without @k"
    >>> unusable("sklearn", "NDCG@10") is None
    True
    """
    measure = measure if isinstance(measure, Measure) else parse_measure(measure)
    found = tool(key)
    try:
        candidate = profile(key, measure.family)
    except ValueError as error:
        return str(error)
    name = f"{found.title}'s {candidate.name.replace('{k}', 'k')}"
    if candidate.setting is None:
        return f"{name} is not reproducible here: {candidate.note.removeprefix('Not reproducible: ')}"
    if measure.k is not None and candidate.cutoff == "none":
        return f"{name} takes no cutoff: ask for {measure.family} without @k"
    if measure.k is None and candidate.cutoff == "required":
        return f"{name} needs a cutoff, e.g. {measure.family}@10"
    if measure.gain == "exp" or measure.rel is not None or measure.params:
        cut = "" if measure.k is None else f"@{measure.k}"
        plain_name = f"{measure.family}{cut}"
        return f"{measure.name}: give the plain measure ({plain_name}); each tool's profile sets its gain and threshold"
    return None


def measure_forms() -> tuple[str, ...]:
    """The measures some tool's profile can give, a cutoff written ``@k``, the families in the profiles' order.

    >>> measure_forms()
    ('NDCG', 'NDCG@k', 'AP', 'AP@k', 'P@k', 'R@k', 'RR', 'RR@k', 'DCG', 'DCG@k')
    """
    reproducible = [p for t in TOOLS for p in t.profiles if p.reproducible]
    uncut = {p.measure for p in reproducible if p.cutoff != "required"}
    cut = {p.measure for p in reproducible if p.cutoff != "none"}
    families = dict.fromkeys(p.measure for p in reproducible)
    return tuple(form for f in families for form, given in ((f, f in uncut), (f"{f}@k", f in cut)) if given)


def usable_tools(measure: str | Measure) -> tuple[list[str], dict[str, str]]:
    """(the keys of the tools that can give ``measure``, {key: why not} for those that have it but cannot)."""
    measure = measure if isinstance(measure, Measure) else parse_measure(measure)
    usable, excluded = [], {}
    for candidate in TOOLS:
        if not any(p.measure == measure.family for p in candidate.profiles):
            continue
        problem = unusable(candidate.key, measure)
        if problem is None:
            usable.append(candidate.key)
        else:
            excluded[candidate.key] = problem
    return usable, excluded

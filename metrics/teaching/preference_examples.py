"""What trec_eval's preference measures (-R prefs) and yaap are for, each with a worked example whose numbers the
library computes: the text of the conventions explorer's section on them and of the playground's note on a
preference measure (ir_metrics_lab.parts.preferences renders both). Pure: no Streamlit.

>>> example = preference_example()
>>> [line.split(":")[0] for line in example.steps]
['prefs_simp = 3 / 4 = 0.7500', 'prefs_avgjg = (3 / 3 + 0 / 1) / 2 = 0.5000', 'prefs_pair = (0.5 + 1 + 1) / 3 = 0.8333']
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from metrics.catalog.measures import parse_measure
from metrics.core.types import Term


@dataclass(frozen=True)
class WorkedExample:
    title: str
    purpose: str  # what the measures are for
    setup: str  # the example's data, in words
    steps: tuple[str, ...]  # each number, with how it comes about


# Two users judge the same three documents: Alice ranks d1 > d2 > d3 (d3 not relevant), Bob prefers d2 to d1.
RANKING = ("d1", "d2", "d3")
PREFERENCES = {"alice": {"d1": 2, "d2": 1, "d3": 0}, "bob": {"d2": 1, "d1": 0}}

PREFERENCES_PURPOSE = (
    "Preference judgments say which of two documents is better, not how good each is: easier and more consistent "
    "for assessors than grades, and closer to what a user does when comparing results side by side (web search "
    "evaluation, learning to rank from clicks). trec_eval reads them with -R prefs (qid group subgroup docno level: "
    "within a subgroup a higher level is preferred) or -R qrels_prefs (a qrels file, each query's grades read as "
    "one user's preferences). A ranking fulfils a preference A > B when A is ranked above B (or A is retrieved and B "
    "is not). The measures count the preferences fulfilled: over all of them (prefs_simp), user by user "
    "(prefs_avgjg: a user who states many preferences does not outweigh one who states few), pair by pair "
    "(prefs_pair: where users disagree on a pair, the share agreeing with the ranking), or with as many "
    "non-relevant documents as relevant ones per user (prefs_avgjg_Rnonrel, akin to bpref); the _ret variants "
    "count only preferences between retrieved documents, the _imp ones those with a retrieved document."
)


def preference_example() -> WorkedExample:
    """Two users, three documents ranked d1, d2, d3: prefs_simp, prefs_avgjg and prefs_pair worked out."""
    ranking = list(RANKING)
    simp = parse_measure("prefs_simp").compute(ranking, PREFERENCES)
    avgjg = parse_measure("prefs_avgjg").compute(ranking, PREFERENCES)
    pair = parse_measure("prefs_pair").compute(ranking, PREFERENCES)
    fulfilled, possible = int(simp.terms[Term.FULFILLED]), int(simp.terms[Term.POSSIBLE])
    groups, pairs = int(avgjg.terms[Term.GROUPS]), int(pair.terms[Term.PAIRS])
    steps = (
        f"prefs_simp = {fulfilled} / {possible} = {simp.value:.4f}: Alice's preferences d1 > d2, d1 > d3 and "
        "d2 > d3 are fulfilled, Bob's d2 > d1 is not",
        f"prefs_avgjg = (3 / 3 + 0 / 1) / {groups} = {avgjg.value:.4f}: Alice scores 1, Bob 0, each user counts once",
        f"prefs_pair = (0.5 + 1 + 1) / {pairs} = {pair.value:.4f}: on the pair (d1, d2) the users disagree and "
        "half of them agree with the ranking; the pairs (d1, d3) and (d2, d3) only Alice judges",
    )
    setup = (
        "The ranking d1, d2, d3. Alice grades d1 2, d2 1, d3 0 (three preferences); Bob grades d2 1, d1 0 (one "
        "preference, against Alice's)."
    )
    return WorkedExample("Preference judgments (trec_eval -R prefs)", PREFERENCES_PURPOSE, setup, steps)


YAAP_PURPOSE = (
    "yaap (yet another average precision; Robertson, ECIR 2012) is AP smoothed for averaging over topics: "
    "log((1 + S) / (1 + R - S)), where S is the sum of the precisions at the relevant documents retrieved "
    "(AP = S / R). "
    "It rises with AP on a topic, but is a log-odds: a hard topic whose AP is near 0 and an easy one near 1 are "
    "spread apart instead of squeezed against the ends, so a mean over topics is not dominated by the easy ones. "
    "Below 0 when the topic is mostly failed, 0 when S = R / 2."
)


def yaap_example() -> WorkedExample:
    """AP's sum of precisions on a short list, and yaap from it (trec_eval ``yaap``, m_yaap.c)."""
    ranking, qrels = ["a", "x", "b"], {"a": 1, "b": 1, "z": 1}
    ap = parse_measure("AP").compute(ranking, qrels)
    total, relevant = ap.terms[Term.PRECISION_SUM], int(ap.terms[Term.R])
    value = math.log((1 + total) / (1 + relevant - total))
    steps = (
        f"S = 1/1 + 2/3 = {total:.4f} (a at rank 1, b at rank 3), R = {relevant}: AP = S / R = {ap.value:.4f}",
        f"yaap = log((1 + S) / (1 + R - S)) = log({1 + total:.4f} / {1 + relevant - total:.4f}) = {value:.4f}",
        f"with nothing relevant retrieved, S = 0: yaap = log(1 / {1 + relevant}) = {math.log(1 / (1 + relevant)):.4f}; "
        f"with all {relevant} at the top, S = R: yaap = log({1 + relevant}) = {math.log(1 + relevant):.4f}",
    )
    setup = "The list a, x, b; a and b are relevant, and so is z, never retrieved (R = 3)."
    return WorkedExample("yaap", YAAP_PURPOSE, setup, steps)

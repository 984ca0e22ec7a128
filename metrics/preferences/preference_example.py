"""What trec_eval's preference measures (-R prefs) are for, with a worked example whose numbers the library computes:
the text of the conventions explorer's section on them (ir_metrics_lab.parts.preferences renders it; yaap's beside
it is metrics.teaching.worked_example's). Pure: no Streamlit.

>>> example = preference_example()
>>> [line.split(":")[0] for line in example.steps]
['prefs_simp = 3 / 4 = 0.7500', 'prefs_avgjg = (3 / 3 + 0 / 1) / 2 = 0.5000', 'prefs_pair = (0.5 + 1 + 1) / 3 = 0.8333']
"""

from __future__ import annotations

from metrics.catalog.measures import parse_measure
from metrics.core.types import Term
from metrics.teaching.worked_example import WorkedExample

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

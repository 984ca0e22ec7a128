"""What each measure rewards, in words a reader who never computed one follows: the line a stakeholder's brief prints
under each measure (ui.brief). Pure (no Streamlit).

Each family's line is kept here, by family key, rather than on the Family record: it is teaching text for one
audience, like the formulas' words, and a family without a line falls back to its one-line ``help``. ``{top}`` in a
line is the part of the list the measure reads: "the first 10 results", or "the whole list" without a cutoff.

>>> rewards("NDCG@10")  # doctest: +ELLIPSIS
'NDCG@10 rewards putting the most relevant documents at the very top of the first 10 results: ...'
>>> rewards("AP").startswith("AP rewards putting every relevant document high")
True
"""

from __future__ import annotations

from metrics.catalog import registry
from metrics.catalog.measures import Measure, parse_measure

# family key -> what it rewards (after "<measure> rewards"), or what it is (after "<measure> is") for the counts and
# the measures that say how far the others can be trusted rather than how good the run is
_REWARDS = {
    "P": "a high share of relevant documents in {top}, in any order (a short list still counts as full length)",
    "R": "finding the relevant documents the judges know of: the share of them that appear in {top}, in any order",
    "R_cap": "finding relevant documents in {top}, like recall, but a query with more relevant documents than fit "
    "there can still score 1",
    "HitRate": "finding at least one relevant document in {top}: 1 if there is one, 0 if not; how many, and where, "
    "does not matter",
    "F1": "a balance of precision and recall in {top}: high only when they are mostly relevant and hold most of the "
    "relevant documents",
    "RR": "showing the first relevant document early in {top}: 1 at rank 1, 1/2 at rank 2, 1/3 at rank 3; the "
    "relevant documents after the first do not count",
    "AP": "putting every relevant document high, not only the first: each one counts by the share of relevant "
    "documents above and at it, and one never retrieved counts 0",
    "DCG": "relevant documents near the top of {top}, more for higher grades, each rank a little less than the one "
    "above; it is not capped at 1 and grows with the number of relevant documents",
    "NDCG": "putting the most relevant documents at the very top of {top}: each rank counts less than the one above, "
    "a highly relevant document more than a partly relevant one, and 1 is the best order the judgments allow",
    "GM_AP": "doing reasonably on every query: AP, summarised so that a query where the run fails pulls the "
    "summary down much more than in the plain mean",
    "Rprec": "relevant documents in the top R results, where R is the number of relevant documents the query has: a "
    "query with 3 relevant documents is judged on its first 3",
    "RprecMult": "relevant documents in the top x·R results, where R is the number of relevant documents the query has",
    "IPrec": "staying precise once a given share of the relevant documents has been found",
    "IPrec11": "staying precise from the first relevant document found to the last: a summary of the "
    "precision-recall curve",
    "SetP": "retrieving little besides relevant documents: the share of everything retrieved that is relevant",
    "SetR": "retrieving every relevant document somewhere in the list: the share of them retrieved at all",
    "SetF": "a balance of the two: retrieving the relevant documents, and little else",
    "SetAP": "both retrieving the relevant documents and retrieving little else (set precision times set recall)",
    "bpref": "ranking relevant documents above the documents judged not relevant, leaving out the documents nobody "
    "judged: it holds up when many documents are unjudged",
    "gm_bpref": "doing reasonably on every query: bpref, summarised so that a query where the run fails pulls the "
    "summary down much more",
    "infAP": "what AP rewards, estimated when only a sample of the documents was judged",
    "RBP": "relevant documents early, for a reader who goes on to the next result with a fixed chance (0.9 unless "
    "set): the first ranks count most, and the list never quite ends",
    "ERR": "satisfying the reader early in {top}: a reader reads down and stops at the first very relevant "
    "document, so one excellent document at the top is worth more than several partly relevant ones below it",
    "binG": "relevant documents with few non-relevant ones above them (an experimental measure)",
    "G": "a ranking whose gain keeps up with the best possible ranking's, rank by rank (an experimental measure)",
    "Rndcg": "NDCG at every point where the best ranking drops a grade, averaged (an experimental measure)",
    "ndcg_rel": "NDCG at each relevant document, averaged (an experimental measure)",
    "utility": "each relevant document retrieved, and it takes a point off for each one that is not (trec_eval's "
    "default: +1 and −1)",
}
_IS = {
    "IDCG": "no score of the run: it is the best DCG the judged documents allow, the yardstick NDCG divides by",
    "NumQ": "no score: it counts the queries evaluated",
    "NumRet": "no score: it counts the documents retrieved",
    "NumRel": "no score of the run: it counts the relevant documents the judges found",
    "NumRelRet": "a count of the relevant documents retrieved anywhere in the list, not a share",
    "NumNonRelJudgedRet": "a count of the retrieved documents judged not relevant",
    "Judged": "no score of quality: it is the share of {top} that someone judged; where it is low, the other "
    "measures are unsure",
    "unj": "no score of quality: it is the share of {top} that nobody judged",
    "RBP_resid": "no score: it is how much RBP could still rise if the unjudged documents were relevant; a large "
    "value means RBP is unsure",
    "relstring": "no score: it spells out the judgments of the first documents",
}


def top(measure: Measure) -> str:
    """The part of the list a measure reads, in words: "the first 10 results", "the first result", "the whole list"."""
    if measure.k is None:
        return "the whole list"
    return "the first result" if measure.k == 1 else f"the first {measure.k:,} results"


def rewards(measure: str | Measure) -> str:
    """One sentence: ``<measure> rewards ...`` (or ``<measure> is ...`` for a count), the measure spelled as given."""
    measure = measure if isinstance(measure, Measure) else parse_measure(measure)
    where = top(measure)
    if measure.family in _REWARDS:
        line = f"{measure.name} rewards {_REWARDS[measure.family].format(top=where)}"
    elif measure.family in _IS:
        line = f"{measure.name} is {_IS[measure.family].format(top=where)}"
    else:  # a family added without a line here: its card's tooltip
        line = f"{measure.name}: {registry.family(measure.family).help.rstrip('.')}"
    if measure.gain == "exp":
        line += "; here a grade's gain is 2^grade − 1, so the top grade counts far more than the others"
    return line + "."

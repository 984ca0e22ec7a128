"""What the "Diversity and novelty" lesson shows, computed from a Scenario whose documents cover aspects (subtopics,
by name): the lesson's examples, the per-rank walk (which aspects are new, which repeat, the gain and the discount),
ndeval's greedy ideal ordering, ERR-IA as the mean of each aspect's ERR, what a single move would do to alpha-nDCG,
and the captions, each said of the list it is given. Every number comes from metrics' own functions. Pure (no
Streamlit).
"""

from __future__ import annotations

from dataclasses import dataclass

from ir_metrics_lab.core import words
from ir_metrics_lab.core.scenario import Scenario
from metrics import alpha_ndcg, err_ia, ndcg
from metrics.core.types import Breakdown
from metrics.diversity.aspects import aspects_of
from metrics.diversity.ideal import ideal_ranking
from metrics.diversity.readable import ALPHA

DEFAULT_ALPHA = float(ALPHA.default)  # ndeval's 0.5

# The example: a RAG retriever asked "should I buy an electric car?" returns five passages on price. Seven documents,
# k = 5; range and charging are covered only below the cutoff.
_DOCS = (
    ("d1", "What an electric car costs in 2026", 3, ("price",)),
    ("d2", "EV prices compared, model by model", 3, ("price",)),
    ("d3", "The cheapest electric cars this year", 2, ("price",)),
    ("d4", "Leasing or buying: the monthly price", 2, ("price",)),
    ("d5", "Tax credits that cut the price", 1, ("price",)),
    ("d6", "How far an EV really goes in winter", 1, ("range",)),
    ("d7", "Charging at home and on the road", 1, ("charging",)),
)
REPEATED = "One aspect repeated"
MOVED_UP = "A missing aspect moved up"


def repeated_aspect() -> Scenario:
    """The lesson's example: the top 5 all on price (grades 3, 3, 2, 2, 1: NDCG@5 = 1), range and charging below k."""
    scn = Scenario(
        tuple(doc for doc, *_ in _DOCS),
        grades={doc: grade for doc, _, grade, _ in _DOCS},
        titles={doc: title for doc, title, *_ in _DOCS},
        k=5,
        scale=3,
    )
    for doc, _, _, names in _DOCS:
        scn = scn.with_aspects(doc, names)
    return scn


def missing_aspect_moved_up() -> Scenario:
    """The example with the charging document (d7) moved up to rank 2."""
    return repeated_aspect().moved("d7", 2)


EXAMPLES = {REPEATED: repeated_aspect, MOVED_UP: missing_aspect_moved_up}


@dataclass(frozen=True, slots=True)
class RankRow:
    """One rank of the novelty walk, as the lesson's table shows it."""

    rank: int
    doc: str
    grade: int
    new: tuple[str, ...]  # aspects no document above covered
    repeated: tuple[tuple[str, int], ...]  # (aspect, how many documents above covered it)
    gains: tuple[float, ...]  # (1 - alpha)^seen per aspect covered, in the walk's order
    gain: float
    discount: float
    contribution: float  # gain x discount
    running: float  # alpha-DCG so far (before ndeval's "ideal ideal" divisor, which the ratio cancels)


@dataclass(frozen=True, slots=True)
class Diversity:
    """The lesson's numbers for one list at one alpha and k."""

    alpha: float
    k: int
    alpha_ndcg: Breakdown  # the list's
    ideal_ndcg: Breakdown  # alpha-nDCG of the greedy ideal ordering (its steps: the ideal's walk)
    ndcg: Breakdown
    ideal_order: tuple[str, ...]  # every judged document, in ndeval's greedy ideal order
    rows: tuple[RankRow, ...]
    ideal_rows: tuple[RankRow, ...]
    err_ia: Breakdown
    per_aspect_err: dict[str, Breakdown]  # each aspect some document covers: ERR-IA of that aspect alone
    aspects: tuple[str, ...]  # the aspects some judged document covers (ndeval's subtopics)

    @property
    def alpha_dcg(self) -> float:
        """The list's alpha-DCG@k as the table sums it."""
        return self.rows[-1].running if self.rows else 0.0

    @property
    def ideal_dcg(self) -> float:
        return self.ideal_rows[-1].running if self.ideal_rows else 0.0

    @property
    def err_mean(self) -> float:
        """The mean of the per-aspect ERRs (ERR-IA itself from k = 2 on)."""
        values = [b.value for b in self.per_aspect_err.values()]
        return sum(values) / len(values) if values else 0.0


def rows_of(b: Breakdown) -> tuple[RankRow, ...]:
    """The per-rank table of an alpha-nDCG Breakdown (its AspectSteps)."""
    out = []
    for st in b.steps:
        new = tuple(name for name, seen in zip(st.covers, st.seen, strict=True) if seen == 0)
        repeated = tuple((name, seen) for name, seen in zip(st.covers, st.seen, strict=True) if seen > 0)
        out.append(
            RankRow(st.rank, st.doc_id, st.grade, new, repeated, st.gains, st.gain, st.discount, st.contribution,
                    st.running)
        )  # fmt: skip
    return tuple(out)


def ideal_order(scn: Scenario, alpha: float) -> tuple[str, ...]:
    """ndeval's greedy ideal ordering of every judged document of the list and the shelf at this alpha."""
    return tuple(ideal_ranking(aspects_of(scn.subtopic_qrels, rel=scn.conventions.threshold), alpha))


def counted_aspects(scn: Scenario) -> tuple[str, ...]:
    """The aspects some judged document covers (grade at or above the threshold): ndeval's subtopics."""
    qrels = scn.subtopic_qrels
    threshold = scn.conventions.threshold
    return tuple(name for name in scn.aspect_names if any(g >= threshold for g in qrels[name].values()))


def diversity(scn: Scenario, alpha: float = DEFAULT_ALPHA, k: int | None = None) -> Diversity:
    """Everything the lesson shows for ``scn`` at ``alpha`` and cutoff ``k`` (default: the scenario's)."""
    k = scn.k if k is None else k
    ranking, subtopics, c = list(scn.full_ranking), scn.subtopic_qrels, scn.conventions
    run = alpha_ndcg(ranking, subtopics, k, alpha=alpha, conventions=c)
    order = ideal_order(scn, alpha)
    ideal = alpha_ndcg(list(order), subtopics, k, alpha=alpha, conventions=c)
    names = counted_aspects(scn)
    per_aspect = {name: err_ia(ranking, {name: subtopics[name]}, k, alpha=alpha, conventions=c) for name in names}
    return Diversity(
        alpha=alpha,
        k=k,
        alpha_ndcg=run,
        ideal_ndcg=ideal,
        ndcg=ndcg(ranking, scn.qrels, k, conventions=c),
        ideal_order=order,
        rows=rows_of(run),
        ideal_rows=rows_of(ideal),
        err_ia=err_ia(ranking, subtopics, k, alpha=alpha, conventions=c),
        per_aspect_err=per_aspect,
        aspects=names,
    )


# --- the words, said of the list on screen ---------------------------------------------------------------------------


def gain_text(row: RankRow, alpha: float) -> str:
    """``1 + 0.5 = 1.5``: each covered aspect's (1 - alpha)^seen, summed."""
    if not row.gains:
        return "0"
    parts = [f"{g:.4g}" for g in row.gains]
    return parts[0] if len(parts) == 1 else f"{' + '.join(parts)} = {row.gain:.4g}"


def repeated_text(row: RankRow) -> str:
    return ", ".join(f"{name} ({words.count(seen, 'time')} above)" for name, seen in row.repeated)


def coverage(d: Diversity, whose: str = "Your") -> str:
    """What the top k covers: each aspect's count there, the aspects it misses, and how NDCG and alpha-nDCG
    compare. ``whose``: the sentence's opening, before "top k" ("After the move d2: rank 1 → 3, the")."""
    if not d.aspects:
        return "No judged relevant document covers an aspect: alpha-nDCG and ERR-IA are 0."
    counts = dict.fromkeys(d.aspects, 0)
    for row in d.rows:
        for name in (*row.new, *(n for n, _ in row.repeated)):
            counts[name] = counts.get(name, 0) + 1
    covered = [f"{name} {words.count(n, 'time')}" for name, n in counts.items() if n]
    missing = [name for name, n in counts.items() if not n]
    text = (
        f"{whose} top {d.k} covers {len(covered)} of the {len(d.aspects)} aspects"
        + (f" ({', '.join(covered)})" if covered else "")
        + (f"; it misses {', '.join(missing)}." if missing else ".")
    )
    gap = d.ndcg.value - d.alpha_ndcg.value
    if abs(gap) >= 5e-5:
        higher, lower = ("NDCG", "alpha-nDCG") if gap > 0 else ("alpha-nDCG", "NDCG")
        text += (
            f" {d.ndcg.metric} = {d.ndcg.value:.4f} and {d.alpha_ndcg.metric} = {d.alpha_ndcg.value:.4f}: "
            f"{higher} is higher than {lower} by {abs(gap):.4f}."
        )
    return text


def ideal_caption(d: Diversity) -> str:
    """How the greedy ideal's top k compares with the list's."""
    top = list(d.ideal_order[: d.k])
    if not d.aspects:
        return "With no aspect covered, every ordering is as good as the greedy ideal."
    if top == [row.doc for row in d.rows]:
        return f"Your top {d.k} is the greedy ideal's, in its order: alpha-nDCG@{d.k} is 1."
    text = (
        f"The greedy ideal's top {d.k} is {', '.join(top)}: alpha-DCG@{d.k} {d.ideal_dcg:.4f}, against your "
        f"{d.alpha_dcg:.4f}; alpha-nDCG@{d.k} = {d.alpha_dcg:.4f} / {d.ideal_dcg:.4f} = {d.alpha_ndcg.value:.4f}."
    )
    if d.alpha_ndcg.value > 1:
        text += " Above 1: the greedy ideal is not the best ordering, and your list beats it."
    return text


def err_caption(d: Diversity) -> str:
    """ERR-IA against the mean of the per-aspect ERRs, in numbers."""
    if not d.per_aspect_err:
        return "No judged relevant document covers an aspect: ERR-IA is 0."
    values = [b.value for b in d.per_aspect_err.values()]
    mean = f"({' + '.join(f'{v:.4f}' for v in values)}) / {len(values)} = {d.err_mean:.4f}"
    if d.k == 1:
        return (
            f"The mean of the aspects' ERR@1 is {mean}, but ndeval does not divide at k = 1: {d.err_ia.metric} = "
            f"{d.err_ia.value:.4f}, the number of aspects the first document covers."
        )
    return f"The mean of the {len(values)} aspects' ERR@{d.k}: {mean}, which is {d.err_ia.metric}."


# --- moves: what one drag does to alpha-nDCG (the quiz's "which move raises alpha-nDCG most?") -----------------------


@dataclass(frozen=True, slots=True)
class MoveValues:
    """One document moved from one rank to another, and the list's alpha-nDCG@k and NDCG@k after it."""

    doc: str
    from_rank: int
    to_rank: int
    alpha_ndcg: float
    ndcg: float


def move_values(scn: Scenario, alpha: float = DEFAULT_ALPHA) -> list[MoveValues]:
    """Every move of one document of the shown list to another rank (Scenario.moved), with both measures after it."""
    out = []
    subtopics, c = scn.subtopic_qrels, scn.conventions
    for i, doc in enumerate(scn.ranking, 1):
        for j in range(1, len(scn.ranking) + 1):
            if j != i:
                ranking = list(scn.moved(doc, j).full_ranking)
                diverse = alpha_ndcg(ranking, subtopics, scn.k, alpha=alpha, conventions=c).value
                out.append(MoveValues(doc, i, j, diverse, ndcg(ranking, scn.qrels, scn.k, conventions=c).value))
    return out

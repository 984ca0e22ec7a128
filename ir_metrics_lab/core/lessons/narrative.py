"""Plain-language sentences about two ranked lists, generated from their metrics, so they stay true as either
list is edited. Pure (no Streamlit).

The sentences hold only numbers, ranks and fixed words: no doc ids, titles or other user text. They are safe to
pass to ``st.markdown`` or ``st.write`` as they are (no markdown or HTML characters come from users).
"""

from __future__ import annotations

from dataclasses import dataclass

from ir_metrics_lab.core.scenario import Scenario
from metrics import average_precision, ndcg, precision, recall, reciprocal_rank
from metrics.core.types import Breakdown, Term


def _fmt(x: float) -> str:
    """Four decimals, as every number in the app (the cards next to these sentences show the same strings)."""
    return f"{x:.4f}"


@dataclass(frozen=True)
class _Side:
    name: str
    k: int
    hits: int
    R: int
    p: Breakdown
    r: Breakdown
    rr: Breakdown
    ap: Breakdown
    ndcg: Breakdown

    @property
    def first(self) -> int | None:
        rank = self.rr.terms.get(Term.FIRST_RELEVANT_RANK)
        return None if rank is None else int(rank)

    def relevant_within(self, depth: int) -> int:
        return sum(1 for s in self.rr.steps if s.relevant and s.rank <= depth)


def _side(name: str, s: Scenario) -> _Side:
    ranking, qrels, k, c = list(s.full_ranking), s.qrels, s.k, s.conventions
    p = precision(ranking, qrels, k, conventions=c)
    r = recall(ranking, qrels, k, conventions=c)
    return _Side(
        name,
        k,
        int(p.terms[Term.HITS]),
        int(r.terms[Term.R]),
        p,
        r,
        reciprocal_rank(ranking, qrels, conventions=c),  # uncut, as on the cards and in trec_eval's recip_rank
        average_precision(ranking, qrels, conventions=c),  # uncut: map
        ndcg(ranking, qrels, k, conventions=c),
    )


def _documents(n: int) -> str:
    return "document" if n == 1 else "documents"


def explain_ab(a: Scenario, b: Scenario) -> list[str]:
    """Sentences comparing retriever A and retriever B, each at its own k and conventions.

    >>> from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B
    >>> explain_ab(Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B))[0]  # doctest: +ELLIPSIS
    'Both return 2 of 2 relevant documents in the top 5 (P@5 = 0.4000, R@5 = 1.0000 for both), but B shows ...'
    """
    A, B = _side("A", a), _side("B", b)
    if A.R == 0 and B.R == 0:
        return [
            "No document is judged relevant for either list (R = 0), so every metric is 0 for both, as in "
            "trec_eval: there is nothing to compare. Grade at least one document as relevant."
        ]
    sentences = []
    for side in (A, B):
        if side.R == 0:
            sentences.append(
                f"No document is judged relevant for {side.name} (R = 0), so every metric of {side.name} is 0."
            )
    counting = _counting(A, B)
    order = _first_relevant(A, B)
    if counting.endswith("for both)") and order and not order.startswith("Both"):
        sentences.append(f"{counting}, but {order}")
    else:
        sentences.append(counting + ".")
        if order:
            sentences.append(order)
    sentences.append(_order_aware(A, B))
    return sentences


def headline(a: Scenario, b: Scenario) -> str:
    """The verdict in one plain sentence for a reader with 30 seconds: which retriever is better and why, in words
    (no metric names or symbols). The numbers follow it on the page.

    >>> from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B
    >>> headline(Scenario.from_example(RETRIEVER_A), Scenario.from_example(RETRIEVER_B))
    'Retriever B is better: it shows its first relevant document at rank 1, A only at rank 3. Both find the same \
relevant documents, so only the order tells them apart.'
    """
    A, B = _side("A", a), _side("B", b)
    if A.R == 0 and B.R == 0:
        return "No document is judged relevant, so neither retriever can be better. Grade a document as relevant."
    pairs = [(A.rr, B.rr), (A.ap, B.ap), (A.ndcg, B.ndcg)]
    a_ahead = sum(round(x.value, 12) > round(y.value, 12) for x, y in pairs)
    b_ahead = sum(round(y.value, 12) > round(x.value, 12) for x, y in pairs)
    same_finds = A.k == B.k and A.hits == B.hits and A.R == B.R
    if not a_ahead and not b_ahead:
        return "The two retrievers are equally good: every measure here gives them the same score."
    if a_ahead and b_ahead:
        return (
            "Neither retriever is better on every measure: one shows a relevant document sooner, the other ranks "
            "the relevant documents better overall. Which matters depends on how far your readers look."
        )
    winner, loser = (A, B) if a_ahead else (B, A)
    if winner.first is not None and (loser.first is None or winner.first < loser.first):
        where = f"only at rank {loser.first}" if loser.first is not None else "not at all"
        why = f"it shows its first relevant document at rank {winner.first}, {loser.name} {where}"
    else:
        why = "it places its relevant documents, or its best ones, nearer the top"
    tail = " Both find the same relevant documents, so only the order tells them apart." if same_finds else ""
    return f"Retriever {winner.name} is better: {why}.{tail}"


def _counting(A: _Side, B: _Side) -> str:
    """P@k and R@k: how many relevant documents each list returns (no final period)."""
    if A.k == B.k:
        k = A.k
        if A.hits == B.hits and A.R == B.R and A.p.value == B.p.value and A.r.value == B.r.value:
            return (
                f"Both return {A.hits} of {A.R} relevant {_documents(A.R)} in the top {k} "
                f"(P@{k} = {_fmt(A.p.value)}, R@{k} = {_fmt(A.r.value)} for both)"
            )
        more = A if A.hits > B.hits else B if B.hits > A.hits else None
        verdict = f"{more.name} finds more" if more else "the same count, out of different totals"
        return (
            f"A returns {A.hits} of {A.R} relevant {_documents(A.R)} in the top {k} "
            f"(P@{k} = {_fmt(A.p.value)}, R@{k} = {_fmt(A.r.value)}) and B returns {B.hits} of {B.R} "
            f"(P@{k} = {_fmt(B.p.value)}, R@{k} = {_fmt(B.r.value)}), so even the order-unaware metrics "
            f"differ: {verdict}"
        )
    return (
        f"A is cut at k = {A.k} and B at k = {B.k}, so their @k numbers measure different depths and are not "
        f"directly comparable: A returns {A.hits} of {A.R} relevant {_documents(A.R)} in its top {A.k} "
        f"(P@{A.k} = {_fmt(A.p.value)}, R@{A.k} = {_fmt(A.r.value)}), B returns {B.hits} of {B.R} in its top "
        f"{B.k} (P@{B.k} = {_fmt(B.p.value)}, R@{B.k} = {_fmt(B.r.value)})"
    )


def _first_relevant(A: _Side, B: _Side) -> str:
    """Where each list shows its first relevant document (RR's only input). Empty if neither has one."""
    if A.first is None and B.first is None:
        if A.R == 0 or B.R == 0:
            return ""
        return (
            "Neither list shows a relevant document within its cutoff, so RR, AP and NDCG are 0 for both: "
            "a reader who stops at k finds nothing useful in either."
        )
    if A.first == B.first:
        return f"Both show the first relevant document at rank {A.first} (RR = {_fmt(A.rr.value)} for both)."
    if A.first is None or B.first is None:
        ahead, behind = (B, A) if A.first is None else (A, B)
        return (
            f"{ahead.name} shows the first relevant document at rank {ahead.first}, while {behind.name} shows none, "
            f"so {behind.name}'s RR is 0."
        )
    ahead, behind = (A, B) if A.first < B.first else (B, A)
    stop = behind.first - 1
    seen = ahead.relevant_within(stop)
    return (
        f"{ahead.name} shows the first one at rank {ahead.first} and {behind.name} at rank {behind.first}, so a "
        f"reader who stops at {stop} sees no relevant document with {behind.name} "
        f"and {seen} with {ahead.name}."
    )


def _order_aware(A: _Side, B: _Side) -> str:
    """RR, AP and NDCG side by side, and which list they favour."""
    pairs = [("RR", A.rr, B.rr), ("AP", A.ap, B.ap), ("NDCG", A.ndcg, B.ndcg)]
    listed = "; ".join(
        f"{a.metric} A {_fmt(a.value)}, B {_fmt(b.value)}"
        if A.k == B.k
        else f"A's {a.metric} {_fmt(a.value)}, B's {b.metric} {_fmt(b.value)}"
        for _, a, b in pairs
    )
    favour_a = [name for name, a, b in pairs if round(a.value, 12) > round(b.value, 12)]
    favour_b = [name for name, a, b in pairs if round(b.value, 12) > round(a.value, 12)]
    if not favour_a and not favour_b:
        return (
            f"The order-aware metrics are equal too ({listed}): by every measure here the two lists are equally good."
        )
    if not favour_a or not favour_b:
        winner = "A" if favour_a else "B"
        names = favour_a or favour_b
        which = "all favour" if len(names) == 3 else f"{_join(names)} favour{'s' if len(names) == 1 else ''}"
        tied = [name for name, _, _ in pairs if name not in names]
        rest = "" if not tied else f" ({_join(tied)} tie{'s' if len(tied) == 1 else ''})"
        return (
            f"The order-aware metrics, which reward relevant documents near the top, {which} {winner}{rest}: {listed}."
        )
    return (
        f"The order-aware metrics disagree: {_join(favour_a)} favour{'s' if len(favour_a) == 1 else ''} A, "
        f"{_join(favour_b)} favour{'s' if len(favour_b) == 1 else ''} B ({listed}). RR looks only at the first "
        "relevant document, AP at every relevant one, and NDCG also weighs the grades."
    )


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def lost_in_the_middle_note() -> str:
    """Why position matters for RAG, and the honest limit of the classic metrics."""
    return (
        'Language models read a long context unevenly: Liu et al. (2023), "Lost in the Middle: How Language '
        'Models Use Long Contexts", found answers were most accurate when the relevant passage sat at the '
        "start or the end of the context and least accurate when it sat in the middle. Some advice therefore "
        'says to put relevant documents "at the end or, even better, at the beginning". Be careful: none of '
        "RR, AP or DCG/NDCG rewards placing a document at the end. Each falls monotonically with rank, so a "
        "relevant document at rank 10 always counts less than the same document at rank 2. To reward both ends "
        "you would need a different, position-aware measure of how the context is used."
    )

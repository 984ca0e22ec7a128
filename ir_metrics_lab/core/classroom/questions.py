"""Live-class questions: built from a playground Scenario, stored as JSON (ir_metrics_lab.core.classroom.store), scored
by ``metrics``. Pure (no Streamlit).

Three kinds:

- ``predict``: "What is NDCG@5 of this list?", a number given to ``decimals`` places; right within half a unit of
  the last place. Wrong numbers are diagnosed by metrics.teaching.diagnosis (the value under another convention or
  cutoff).
- ``choice``: "Which list has the higher AP?", answers "A", "B" or "tie"; list B is list A with one document moved
  (:func:`pick_better`), or the other retriever of the A vs B page (:func:`compare`).
  A wrong choice is diagnosed by the conventions and cutoffs under which it would be right.
- ``move``: "Which move raises NDCG@5 most?", answers the keys "1" to "4" of candidate moves (document X from rank i
  to rank j) picked by ir_metrics_lab.core.classroom.moves, whose values never tie (exactly one is right). A wrong
  option is diagnosed by the conventions and cutoffs under which it would be the best.

alpha-nDCG (moves.ASPECT_MEASURES) is asked about a list whose documents cover aspects: the question carries the
aspects (its scenario's ``aspects``, absent from a question about a list without any, so older stored questions read
the same) and its ``alpha``; a wrong answer is diagnosed by NDCG (the grades alone), alpha 0 or 1, and nearby
cutoffs."""

from __future__ import annotations

import csv as _csv
import dataclasses
import io
import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ir_metrics_lab.core import family_display
from ir_metrics_lab.core.classroom import moves
from ir_metrics_lab.core.lessons import diversity
from ir_metrics_lab.core.markdown import plain
from ir_metrics_lab.core.scenario import Scenario
from metrics.catalog import registry
from metrics.catalog.measures import parse_measure
from metrics.core.conventions import Conventions
from metrics.core.types import Breakdown
from metrics.teaching import diagnosis, formulas

# How user text (a document id, an aspect) is shown where it goes: Markdown for a page, plain text for a DOM node.
Escape = Callable[[object], str]

DECIMALS = 2
CHOICES = ("A", "B", "tie")
CHOICE_LABELS = {"A": "List A", "B": "List B", "tie": "They tie"}
# The measures a class is asked about: the playground's cards (registry order) that score the list (not IDCG, a step
# of NDCG), cut or uncut as the cards show them.
MEASURES = (*(f.key for f in family_display.carded() if f.scores_the_list), *moves.ASPECT_MEASURES)
# The one a teacher starts with: the family of the default measure set's first measure (NDCG@10's).
FIRST_MEASURE = next(m.family for m in map(parse_measure, registry.default_measures()) if m.family in MEASURES)
ANSWER_LIMIT = 1e6  # a predicted value beyond this is a typo, not an answer


def measure_k(measure: str, k: int) -> int | None:
    """The cutoff a question uses: the scenario's k, or none for the measures whose cards show the whole list (AP,
    RR: as trec_eval's map and recip_rank)."""
    return family_display.card_k(measure, k)


def _scenario_json(scn: Scenario) -> dict[str, Any]:
    aspects = {"aspects": {d: list(names) for d, names in scn.aspects.items()}} if scn.aspects else {}
    return {
        **aspects,
        "ranking": list(scn.ranking),
        "shelf": list(scn.shelf),
        "tail": list(scn.tail),
        "grades": dict(scn.grades),
        "titles": {d: t for d, t in scn.titles.items() if t},
        "unjudged": sorted(scn.unjudged),
        "k": scn.k,
        "scale": scn.scale,
        "conventions": dataclasses.asdict(scn.conventions),
    }


def scenario(question: Mapping[str, Any]) -> Scenario:
    """The question's list (list A of a choice question)."""
    raw = question["scenario"]
    return Scenario(
        ranking=tuple(raw["ranking"]),
        shelf=tuple(raw["shelf"]),
        grades=dict(raw["grades"]),
        titles=dict(raw["titles"]),
        k=raw["k"],
        conventions=Conventions(**raw["conventions"]),
        scale=raw["scale"],
        tail=tuple(raw["tail"]),
        unjudged=frozenset(raw["unjudged"]),
        aspects={d: tuple(names) for d, names in raw.get("aspects", {}).items()},  # none in older questions
    )


def scenario_b(question: Mapping[str, Any]) -> Scenario:
    """List B of a choice question: its own scenario (A vs B), or list A's documents in B's order."""
    if "scenario_b" in question:
        return scenario({"scenario": question["scenario_b"]})
    return scenario(question).reordered(question["ranking_b"])


def uses_aspects(question: Mapping[str, Any]) -> bool:
    """Whether the question's measure reads the aspects the documents cover (alpha-nDCG)."""
    return question["measure"] in moves.ASPECT_MEASURES


def predict(scn: Scenario, measure: str, decimals: int = DECIMALS, *, alpha: float | None = None) -> dict[str, Any]:
    """Predict ``measure`` of the scenario's list; ``alpha`` (None: ndeval's 0.5) for alpha-nDCG, which needs a
    document that covers an aspect."""
    if measure not in MEASURES:
        raise ValueError(f"a class can be asked about {', '.join(MEASURES)}, not {measure!r}")
    if not scn.ranking:
        raise ValueError("the list is empty: there is nothing to ask about")
    extra: dict[str, Any] = {}
    if measure in moves.ASPECT_MEASURES:
        alpha = moves.DEFAULT_ALPHA if alpha is None else float(alpha)
        if not 0 <= alpha <= 1:
            raise ValueError(f"alpha runs from 0 to 1, not {alpha:g}")
        qrels, threshold = scn.subtopic_qrels, scn.conventions.threshold
        if not any(g >= threshold for judged in qrels.values() for g in judged.values()):
            raise ValueError(
                f"no judged relevant document covers an aspect: {measure} is 0 whatever the order (give the "
                "documents aspects in the Diversity and novelty lesson)"
            )
        extra["alpha"] = alpha
    return {
        "kind": "predict",
        "measure": measure,
        "k": measure_k(measure, scn.k),
        "decimals": decimals,
        "scenario": _scenario_json(scn),
        **extra,
    }


def pick_better(scn: Scenario, doc: str, to_rank: int, measure: str, *, alpha: float | None = None) -> dict[str, Any]:
    """Which is higher: ``measure`` of the scenario's list (A), or of the same list with ``doc`` moved to
    ``to_rank`` (B)?"""
    question = predict(scn, measure, alpha=alpha)
    moved = scn.moved(doc, to_rank)
    if moved.ranking == scn.ranking:
        raise ValueError(f"{doc!r} is already at rank {to_rank}: lists A and B would be the same")
    return {
        **question,
        "kind": "choice",
        "ranking_b": list(moved.ranking),
        "moved": {"doc": doc, "from": scn.ranking.index(doc) + 1, "to": moved.ranking.index(doc) + 1},
    }


def compare(scn_a: Scenario, scn_b: Scenario, measure: str, *, alpha: float | None = None) -> dict[str, Any]:
    """Which of two retrievers' lists (the A vs B page's) scores higher on ``measure``? They must share their
    judgments, so only the order differs; k and conventions are list A's."""
    if scn_a.qrels != scn_b.qrels or scn_a.subtopic_qrels != scn_b.subtopic_qrels:
        raise ValueError("the two lists must have the same judgments to be compared")
    if not scn_b.ranking:
        raise ValueError("list B is empty: there is nothing to compare")
    scn_b = dataclasses.replace(scn_b, k=scn_a.k, conventions=scn_a.conventions)
    if scn_a.full_ranking == scn_b.full_ranking:
        raise ValueError("lists A and B are in the same order: there is nothing to compare")
    return {
        **predict(scn_a, measure, alpha=alpha),
        "kind": "choice",
        "ranking_b": list(scn_b.ranking),
        "scenario_b": _scenario_json(scn_b),
    }


def best_move(scn: Scenario, measure: str, *, alpha: float | None = None) -> dict[str, Any]:
    """Which of a few candidate moves of one document (ir_metrics_lab.core.classroom.moves.options) raises ``measure``
    most?"""
    question = predict(scn, measure, moves.DECIMALS, alpha=alpha)
    picked, also_best = moves.options(scn, measure, question["k"], alpha=question.get("alpha"))
    return _move_question(question, picked, also_best)


def _move_question(
    question: dict[str, Any], picked: Sequence[moves.Move], also_best: Sequence[moves.Move]
) -> dict[str, Any]:
    return {
        **question,
        "kind": "move",
        "options": [
            {"key": str(n), "doc": m.doc, "from": m.from_rank, "to": m.to_rank} for n, m in enumerate(picked, 1)
        ],
        "also_best": [{"doc": m.doc, "from": m.from_rank, "to": m.to_rank} for m in also_best],
    }


def from_quiz(exercise: Any) -> dict[str, Any]:
    """A quiz exercise (ir_metrics_lab.core.lessons.quiz) as a question about the exercise's own list: a predict
    exercise asks the same measure; a reorder exercise asks which move raises its NDCG@k most; an aspect move exercise
    asks its own question (its list, aspects and options). Raises ValueError for the MRR exercise, which is about three
    queries, not one list."""
    if exercise.kind == "aspect_move":
        return {**aspect_moves(exercise.scenario, exercise.family, exercise.options), "source": "quiz"}
    if exercise.kind not in ("predict", "reorder"):
        raise ValueError("this exercise is about several queries: a poll asks about one list")
    missed = tuple(d for d, g in exercise.qrels.items() if d not in exercise.ranking and g > 0)
    scn = Scenario(
        ranking=tuple(exercise.ranking),
        shelf=missed,
        grades={d: g for d, g in exercise.qrels.items() if d in exercise.ranking or d in missed},
        k=exercise.k or len(exercise.ranking),  # AP and RR are asked uncut (measure_k), as the quiz asks them
        scale=max(max(exercise.qrels.values(), default=1), 1),
    )
    question = predict(scn, exercise.family) if exercise.kind == "predict" else best_move(scn, exercise.family)
    return {**question, "source": "quiz"}


def aspect_moves(
    scn: Scenario, measure: str, picked: Sequence[tuple[str, int]], *, alpha: float | None = None
) -> dict[str, Any]:
    """Which of these moves (document, to rank), chosen elsewhere (the quiz's), raises ``measure`` most? Their values
    must differ by at least moves.MIN_GAP, so exactly one is right."""
    question = predict(scn, measure, moves.DECIMALS, alpha=alpha)
    chosen = [
        moves.Move(doc, scn.ranking.index(doc) + 1, to, moves.value(scn.moved(doc, to), measure, question["k"],
                                                                     question.get("alpha")))
        for doc, to in picked
    ]  # fmt: skip
    if any(abs(a.value - b.value) < moves.MIN_GAP for a, b in itertools.combinations(chosen, 2)):
        raise ValueError(f"two of these moves give {measure} within {moves.MIN_GAP}: there is no one right answer")
    return _move_question(question, chosen, [])


def choices(question: Mapping[str, Any]) -> tuple[str, ...]:
    """The answer keys of a choice or move question."""
    if question["kind"] == "move":
        return tuple(option["key"] for option in question["options"])
    return CHOICES


def markdown_literal(value: object) -> str:
    """User text in a line of Markdown (ir_metrics_lab.core.markdown.plain, on one line)."""
    return plain(value, one_line=True)


def move_text(
    move: Mapping[str, Any], question: Mapping[str, Any] | None = None, literal: Escape = markdown_literal
) -> str:
    """``d3: rank 4 → 1``, the id shown literally (``literal``: Markdown unless told); with the ``question`` of an
    aspect measure, the aspects the document covers too: ``d3 (price, range): rank 4 → 1``."""
    covers = ""
    if question is not None and uses_aspects(question):
        names = scenario(question).aspects_of(move["doc"])
        covers = f" ({', '.join(literal(n) for n in names) or 'no aspect'})"
    return f"{literal(move['doc'])}{covers}: rank {move['from']} → {move['to']}"


def choice_label(question: Mapping[str, Any], key: str, literal: Escape = markdown_literal) -> str:
    """How an answer key is shown: "List A", or "2 · d3: rank 4 → 1" (the id shown by ``literal``, Markdown unless
    told; an aspect question's with the aspects the document covers)."""
    if question["kind"] == "move":
        option = next(o for o in question["options"] if o["key"] == key)
        return f"{key} · {move_text(option, question, literal)}"
    return CHOICE_LABELS[key]


def side_scenario(question: Mapping[str, Any], side: str = "A") -> Scenario:
    """The list a side of the question is about: "A" the asked list, "B" list B, or a move's option key."""
    if side == "A":
        return scenario(question)
    if question["kind"] == "move":
        option = next(o for o in question["options"] if o["key"] == side)
        return scenario(question).moved(option["doc"], option["to"])
    return scenario_b(question)


def worked_sides(question: Mapping[str, Any]) -> tuple[str, ...]:
    """The lists whose worked formula the reveal shows: the list; lists A and B; the best move's list."""
    return {"predict": ("A",), "choice": ("A", "B"), "move": (right_answer(question),)}[question["kind"]]


def option_values(question: Mapping[str, Any]) -> list[tuple[str, float]]:
    """(key, the measure after the move) for each option of a move question."""
    return [(key, breakdown(question, key).value) for key in choices(question)]


def coverage(question: Mapping[str, Any]) -> str:
    """For an aspect question, in plain text (user text unescaped: pages show it through
    ir_metrics_lab.core.markdown.plain): what the top k of the list covers, and NDCG against alpha-nDCG
    (ir_metrics_lab.core.lessons.diversity.coverage); of the best move's list, of lists A and B, or of the list."""

    def said(side: str, whose: str) -> str:
        return diversity.coverage(diversity.diversity(side_scenario(question, side), question["alpha"]), whose)

    if question["kind"] == "move":
        right = right_answer(question)
        move = next(o for o in question["options"] if o["key"] == right)
        return said(right, f"After the best move, {move['doc']}: rank {move['from']} → {move['to']}, the")
    if question["kind"] == "choice":
        return " ".join(said(side, f"List {side}'s") for side in ("A", "B"))
    return said("A", "The list's")


def label(question: Mapping[str, Any]) -> str:
    """The measure as the cards write it, e.g. ``NDCG@5`` or ``AP``; alpha-nDCG as ndeval does (``alpha-nDCG@5``: its
    alpha is in the prompt)."""
    name = question["measure"]
    if name in moves.ASPECT_MEASURES:
        name = registry.family(name).names.spellings[0]
    return f"{name}@{question['k']}" if question["k"] is not None else name


def measure_asked(question: Mapping[str, Any]) -> str:
    """The measure as a question asks it: its label, with alpha when it has one (``alpha-nDCG@5 (α = 0.5)``)."""
    return f"{label(question)} (α = {question['alpha']:g})" if "alpha" in question else label(question)


def prompt(question: Mapping[str, Any]) -> str:
    """The question in words (no user text in it)."""
    if question["kind"] == "predict":
        return f"What is {measure_asked(question)} of this list? Answer to {question['decimals']} decimal places."
    if question["kind"] == "move":
        return f"Which move raises {measure_asked(question)} most?"
    return f"Which list has the higher {measure_asked(question)}?"


def breakdown(question: Mapping[str, Any], side: str = "A") -> Breakdown:
    return moves.breakdown(side_scenario(question, side), question["measure"], question["k"], question.get("alpha"))


def right_answer(question: Mapping[str, Any]) -> str:
    """The right answer as an answer is stored: the value to the asked places, or "A", "B" or "tie"."""
    if question["kind"] == "predict":
        return f"{breakdown(question).value:.{question['decimals']}f}"
    if question["kind"] == "move":  # the options never tie (ir_metrics_lab.core.classroom.moves)
        return max(option_values(question), key=lambda option: option[1])[0]
    return diagnosis.better_choice(breakdown(question, "A").value, breakdown(question, "B").value)


def parse_answer(question: Mapping[str, Any], raw: object) -> str:
    """An answer as stored (the number as typed, normalized; or a choice key). Raises ValueError with a message fit
    for the page. A decimal comma is read as a point (phones in many languages type one)."""
    if question["kind"] != "predict":
        if raw not in choices(question):
            raise ValueError(f"the answer must be one of {', '.join(choices(question))}")
        return str(raw)
    text = str(raw).strip().replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{str(raw)[:20]!r} is not a number") from None
    if not math.isfinite(value) or abs(value) > ANSWER_LIMIT:
        raise ValueError("that number is out of range")
    return repr(value)


@dataclass(frozen=True, slots=True)
class Mistake:
    answer: str  # the value to the asked places, or the choice
    mistake: str
    count: int


@dataclass(frozen=True, slots=True)
class Result:
    right: str
    total: int
    correct: int
    counts: Mapping[str, int]  # answer as shown (to the asked places) -> how many
    mistakes: tuple[Mistake, ...]  # diagnosed wrong answers, most common first
    unexplained: int  # wrong answers no convention or cutoff explains


def shown(question: Mapping[str, Any], value: str) -> str:
    """A stored answer as the reveal shows it: a number to the asked places; a choice as is."""
    return f"{float(value):.{question['decimals']}f}" if question["kind"] == "predict" else value


def result(question: Mapping[str, Any], values: Sequence[str]) -> Result:
    """The class's answers scored, counted and diagnosed."""
    right = right_answer(question)
    counts = Counter(shown(question, v) for v in values)
    if question["kind"] == "predict":
        asked = breakdown(question).value
        found = _variants(question)
        correct, diagnosed, unexplained = 0, Counter(), 0
        for value in values:
            number = float(value)
            if abs(number - asked) <= diagnosis.tolerance(question["decimals"]):
                correct += 1
            elif variant := diagnosis.diagnose(number, asked, found, question["decimals"]):
                diagnosed[(f"{variant.value:.{question['decimals']}f}", variant.mistake)] += 1
            else:
                unexplained += 1
    else:
        explained = _explained(question)
        correct = counts.get(right, 0)
        diagnosed = Counter()
        unexplained = 0
        for choice, n in counts.items():
            if choice == right:
                continue
            if choice in explained:
                diagnosed[(choice, "; or ".join(explained[choice]))] = n
            else:
                unexplained += n
    mistakes = tuple(Mistake(a, m, n) for (a, m), n in sorted(diagnosed.items(), key=lambda item: -item[1]))
    return Result(right, len(values), correct, dict(counts), mistakes, unexplained)


def _explained(question: Mapping[str, Any]) -> dict[str, list[str]]:
    """For a choice or move question: each wrong answer that another convention or cutoff makes right, with those
    mistakes (metrics.teaching.diagnosis)."""
    if uses_aspects(question):
        return _aspect_explained(question)
    scn = scenario(question)
    if question["kind"] == "move":
        keys = choices(question)
        lists = [side_scenario(question, key).full_ranking for key in keys]
        found = diagnosis.best_option_variants(question["measure"], lists, scn.qrels, question["k"], scn.conventions)
        return {keys[i]: mistakes for i, mistakes in found.items()}
    return diagnosis.choice_variants(
        question["measure"], scn.full_ranking, scenario_b(question).full_ranking, scn.qrels, question["k"],
        scn.conventions,
    )  # fmt: skip


def right_nicknames(question: Mapping[str, Any], answers: Sequence[Any]) -> list[str]:
    """The nicknames (as typed) of the students who answered right, in answer order; those without one are left out.
    ``answers`` are ir_metrics_lab.core.classroom.store.Answer rows."""
    right = right_answer(question)
    if question["kind"] == "predict":
        asked, tol = breakdown(question).value, diagnosis.tolerance(question["decimals"])
        return [a.nickname for a in answers if a.nickname and abs(float(a.value) - asked) <= tol]
    return [a.nickname for a in answers if a.nickname and a.value == right]


def variants_table(question: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(value to the asked places, mistake) for every variant: what each common mistake would answer."""
    if question["kind"] != "predict":
        return []
    return [(f"{v.value:.{question['decimals']}f}", v.mistake) for v in _variants(question)]


def _variants(question: Mapping[str, Any]) -> tuple[diagnosis.Variant, ...]:
    """A predict question's answer under each common mistake (metrics.teaching.diagnosis; for an aspect measure,
    :func:`_aspect_mistakes`), the values that differ from the asked one, mistakes that agree joined."""
    scn = scenario(question)
    if not uses_aspects(question):
        return diagnosis.variants(question["measure"], scn.full_ranking, scn.qrels, question["k"], scn.conventions)
    asked = breakdown(question).value
    found: list[diagnosis.Variant] = []
    for mistake, cut, score in _aspect_mistakes(question):
        value = score(scn)
        if abs(value - asked) <= diagnosis.SAME:
            continue
        same = next((i for i, v in enumerate(found) if abs(v.value - value) <= diagnosis.SAME), None)
        if same is None:
            found.append(diagnosis.Variant(mistake, cut, scn.conventions, value))
        else:
            found[same] = dataclasses.replace(found[same], mistake=f"{found[same].mistake}, or {mistake}")
    return tuple(found)


Score = Callable[[Scenario], float]


def _aspect_mistakes(question: Mapping[str, Any]) -> list[tuple[str, int | None, Score]]:
    """(mistake, cutoff, the value it gives a list) for an aspect measure: NDCG (the grades alone), alpha 0 (repeats
    earn in full) or 1 (repeats earn nothing), and the cutoffs metrics.teaching.diagnosis tries."""
    measure, k, alpha = question["measure"], question["k"], question["alpha"]
    ndcg = f"NDCG@{k}" if k is not None else "NDCG"
    found: list[tuple[str, int | None, Score]] = [
        (f"{ndcg}: the grades alone, the aspects ignored", k, lambda s: moves.value(s, "NDCG", k))
    ]
    for other, meaning in ((0.0, "a repeated aspect earns its full gain again"), (1.0, "a repeated aspect earns 0")):
        if other != alpha:
            score: Score = lambda s, other=other: moves.value(s, measure, k, other)  # noqa: E731
            found.append((f"α = {other:g} instead of {alpha:g}: {meaning}", k, score))
    length = len(scenario(question).full_ranking)
    for mistake, cut in diagnosis.cutoff_changes(k, length):
        found.append((mistake, cut, lambda s, cut=cut: moves.value(s, measure, cut, alpha)))
    return found


def _aspect_explained(question: Mapping[str, Any]) -> dict[str, list[str]]:
    """:func:`_explained` for an aspect measure: each wrong answer that one of :func:`_aspect_mistakes` makes right."""
    right = right_answer(question)
    keys = choices(question) if question["kind"] == "move" else ("A", "B")
    lists = [side_scenario(question, key) for key in keys]
    explained: dict[str, list[str]] = {}
    for mistake, _, score in _aspect_mistakes(question):
        values = [score(s) for s in lists]
        if question["kind"] == "move":
            top = max(values)
            winners = [key for key, v in zip(keys, values, strict=True) if abs(v - top) <= diagnosis.SAME]
            chosen = winners[0] if len(winners) == 1 else None
        else:
            chosen = diagnosis.better_choice(*values)
        if chosen is not None and chosen != right:
            explained.setdefault(chosen, []).append(mistake)
    return explained


CSV_COLUMNS = ("round", "measure", "kind", "answer", "right_answer", "correct", "diagnosis", "answered_at_ms")


def csv(question: Mapping[str, Any], round_: int, answers: Sequence[tuple[str, int]]) -> str:
    """The round's answers (value, answered at in ms), one row each, without nicknames or student ids."""
    right = right_answer(question)
    out = io.StringIO()
    writer = _csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    if question["kind"] == "predict":
        found = _variants(question)
        asked = breakdown(question).value
    else:
        explained = _explained(question)
    for value, answered_ms in answers:
        if question["kind"] == "predict":
            is_right = abs(float(value) - asked) <= diagnosis.tolerance(question["decimals"])
            variant = None if is_right else diagnosis.diagnose(float(value), asked, found, question["decimals"])
            mistake = variant.mistake if variant else ""
        else:
            is_right = value == right
            mistake = "" if is_right else "; or ".join(explained.get(value, []))
        row = [round_, measure_asked(question), question["kind"], value, right, int(is_right), mistake, answered_ms]
        writer.writerow(row)
    return out.getvalue()


def aspects_text(scn: Scenario, doc: str) -> str:
    """The aspects ``doc`` covers, shown literally: ``price, range``, or ``–``."""
    return ", ".join(plain(name, one_line=True) for name in scn.aspects_of(doc)) or "–"


def _list_table(scn: Scenario, ranking: Sequence[str]) -> list[str]:
    covers = bool(scn.aspects)
    rows = ["| rank | document | title |" + (" aspects |" if covers else "") + " grade |"]
    rows.append("|---:|---|---|" + ("---|" if covers else "") + "---:|")
    for rank, doc in enumerate(ranking, 1):
        cells = (plain(doc, one_line=True), plain(scn.title(doc), one_line=True))
        aspects = f" {aspects_text(scn, doc)} |" if covers else ""
        rows.append(f"| {rank} | {cells[0]} | {cells[1]} |{aspects} {scn.grades.get(doc, 0)} |")
    return rows


def markdown(question: Mapping[str, Any], round_: int, outcome: Result) -> str:
    """The round as a Markdown summary (with LaTeX): the list, the question, the class's answers, the right answer
    with its worked formula, and the diagnosed mistakes. No nicknames. Ids and titles go through
    ir_metrics_lab.core.markdown.plain."""
    scn = scenario(question)
    lines = [f"# Live class, round {round_}: {measure_asked(question)}", "", f"**Question.** {prompt(question)}", ""]
    if question["kind"] == "move":
        lines += ["**The list**", "", *_list_table(scn, scn.ranking), "", f"| option | move | {label(question)} |"]
        lines += ["|---|---|---:|"]
        lines += [
            f"| {key} | {move_text(o, question)} | {v:.{question['decimals']}f} |"
            for o, (key, v) in zip(question["options"], option_values(question), strict=True)
        ]
        lines.append("")
    elif question["kind"] == "choice":
        lines += ["**List A**", "", *_list_table(scn, scn.ranking), ""]
        if moved := question.get("moved"):
            doc = plain(moved["doc"], one_line=True)
            where = f"list A with {doc} moved from rank {moved['from']} to rank {moved['to']}"
            lines.append(f"**List B**: {where}.")
        else:
            lines.append("**List B**")
        lines += ["", *_list_table(scenario_b(question), question["ranking_b"]), ""]
    else:
        lines += ["**The list**", "", *_list_table(scn, scn.ranking), ""]
    if scn.shelf:
        missed = ", ".join(f"{plain(d, one_line=True)} (grade {scn.grades.get(d, 0)})" for d in scn.shelf)
        lines += [f"Judged but not retrieved: {missed}.", ""]
    right = outcome.right if question["kind"] == "predict" else choice_label(question, outcome.right)
    lines += [
        f"**Answers**: {outcome.total}; right: {outcome.correct} ({right}).",
        "",
        "| answer | students |",
        "|---|---:|",
        *(f"| {a} | {n} |" for a, n in sorted(outcome.counts.items())),
        "",
        "**Worked formula**",
        "",
    ]
    for side in worked_sides(question):
        lines += [f"$$\n{formulas.latex(breakdown(question, side))}\n$$", ""]
    if outcome.mistakes:
        lines += ["**Common mistakes**", "", "| answer | mistake | students |", "|---|---|---:|"]
        lines += [f"| {m.answer} | {m.mistake} | {m.count} |" for m in outcome.mistakes]
        lines.append("")
    if outcome.unexplained:
        lines += [f"Wrong answers that no convention or cutoff explains: {outcome.unexplained}.", ""]
    return "\n".join(lines)

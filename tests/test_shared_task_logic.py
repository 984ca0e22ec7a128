"""A shared task's pure logic: runs checked on arrival, the pool, judges assigned, agreement (statsmodels for kappa),
the qrels from judgments, and the leave-one-run-out pooling bias (hand arithmetic for AP; pytrec_eval, trec_eval's
own code, for AP, bpref and infAP on the reduced qrels: unjudged documents read as trec_eval reads them)."""

from __future__ import annotations

import doctest
import gzip
from fractions import Fraction

import numpy as np
import pytest
import pytrec_eval
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa, fleiss_kappa

from ir_metrics_lab.core.shared_task import agreement, bias, collection, judgments, runs
from ir_metrics_lab.core.shared_task.assignment import assign, deal_in
from ir_metrics_lab.core.shared_task.bias import leave_one_out, mean_scores, sentence
from ir_metrics_lab.core.shared_task.judgments import build_qrels, disagreements, lower_median, qrels_text
from ir_metrics_lab.core.shared_task.pooling import build_pool
from ir_metrics_lab.core.shared_task.runs import check_run, run_text
from metrics.core.errors import InputError
from metrics.io import read_qrels

TOPICS = ["t1", "t2"]
DOCS = [f"d{i}" for i in range(1, 10)]
# Three runs, pooled to depth 2 (the worked example of every test below).
RUNS = {
    "A": {"t1": ["d1", "d2", "d3", "d4"], "t2": ["d6", "d5"]},
    "B": {"t1": ["d2", "d7", "d1", "d8"], "t2": ["d6", "d9"]},
    "C": {"t1": ["d3", "d1", "d7", "d2"], "t2": ["d5", "d6"]},
}
QRELS = {"t1": {"d1": 0, "d2": 1, "d3": 1, "d7": 1}, "t2": {"d5": 0, "d6": 1, "d9": 1}}


def _run_file(rankings: dict) -> bytes:
    lines = [f"{t} Q0 {d} {r} {100 - r} x" for t, docs in rankings.items() for r, d in enumerate(docs, start=1)]
    return ("\n".join(lines) + "\n").encode()


# --- runs checked on arrival ---


def test_a_run_is_read_in_trec_eval_s_order_plain_or_gzipped():
    data = b"# team A\nt1 Q0 d1 1 2.0 a\nt1 Q0 d2 2 3.0 a\n\nt2 Q0 d3 1 1.0 a\n"
    checked = check_run(data, "a.run", TOPICS, DOCS)
    assert checked.rankings == {"t1": ("d2", "d1"), "t2": ("d3",)}  # by score, as scored: the rank column aside
    assert check_run(gzip.compress(data), "a.run.gz", TOPICS, DOCS).rankings == checked.rankings
    assert checked.text == data.decode()


BAD_RUNS = [
    ("task-unknown-id", b"t1 Q0 d1 1 2 a\nt3 Q0 d1 1 2 a\n", 2, "no topic 't3'"),
    ("task-unknown-id", b"t1 Q0 d1 1 2 a\nt1 Q0 D2 2 1 a\n", 2, "no document 'D2'"),
    (
        "rank-repeated",
        b"t1 Q0 d1 1 2 a\nt2 Q0 d1 1 2 a\nt1 Q0 d2 01 1 a\n",
        3,
        "rank '01' of topic 't1' is given twice (first on line 1)",
    ),
    ("duplicate-doc", b"t1 Q0 d1 1 2 a\nt1 Q0 d1 2 1 a\n", 2, "appears twice"),
    ("line-columns", b"t1 Q0 d1 1 2 a\nt1 Q0 d2 2 1\n", 2, "5 columns"),
    ("line-columns", b"query,doc,score\nt1,d1,1\n", 1, "TREC's six"),
    ("not-a-number", b"t1 Q0 d1 1 high a\n", 1, "not a number"),
]


@pytest.mark.parametrize(
    ("code", "data", "line", "says"), BAD_RUNS, ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_RUNS)]
)
def test_a_bad_run_is_refused_naming_its_line(code, data, line, says):
    with pytest.raises(InputError) as caught:
        check_run(data, "team.run", TOPICS, DOCS)
    error = caught.value
    assert (error.code, error.line) == (code, line) and says in str(error), str(error)
    assert str(error).startswith(f"team.run, line {line}: ")


def test_a_run_built_by_hand_is_checked_and_ranked_in_the_order_picked():
    picked = {"t1": ["d3", "d1", "d9"], "t2": ["d2"]}
    text = run_text(picked, "by-hand")
    assert text.splitlines()[0] == "t1 Q0 d3 1 3 by-hand"
    assert check_run(text, "by hand", TOPICS, DOCS).rankings == {t: tuple(d) for t, d in picked.items()}


def test_an_oversize_run_is_refused(monkeypatch):
    with pytest.raises(InputError, match="over 2,097,152") as caught:
        check_run(b"t1 Q0 d1 1 2 a\n" * 150_000, "big.run", TOPICS, DOCS)
    assert caught.value.code == "task-too-large"
    bomb = gzip.compress(b"t1 Q0 d1 1 2 a\n" * 150_000)  # small packed, too large unpacked
    assert len(bomb) < runs.BYTES_MAX
    with pytest.raises(InputError, match="unpacks to over"):
        check_run(bomb, "big.run.gz", TOPICS, DOCS)
    deep = _run_file({"t1": DOCS[:4]})
    with pytest.raises(InputError, match="more than 3 documents") as caught:
        check_run(deep, "deep.run", TOPICS, DOCS, depth_max=3)
    assert caught.value.line == 4


# --- the pool ---


def test_the_pool_is_the_union_of_each_run_s_top_k():
    pool = build_pool(RUNS, 2)
    assert pool.sizes() == {"t1": 4, "t2": 3}
    assert pool.documents("t1") == ["d1", "d2", "d3", "d7"]
    assert pool.found_by["t1", "d1"] == {"A", "C"} and pool.found_by["t2", "d6"] == {"A", "B", "C"}
    assert pool.unique("B") == {("t1", "d7"), ("t2", "d9")} and pool.unique("C") == {("t1", "d3")}
    assert pool.unique_counts() == {"A": 0, "B": 2, "C": 1}
    overlaps = pool.overlaps()
    # A pooled t1:d1 d2, t2:d6 d5; B t1:d2 d7, t2:d6 d9; C t1:d3 d1, t2:d5 d6
    assert {pair: (o.shared, o.either) for pair, o in overlaps.items()} == {
        ("A", "B"): (2, 6),
        ("A", "C"): (3, 5),
        ("B", "C"): (1, 7),
    }
    assert overlaps["A", "B"].jaccard == pytest.approx(1 / 3)
    assert build_pool(RUNS, 1, topics=["t2"]).sizes() == {"t2": 2}
    assert build_pool(RUNS, 100).sizes() == {"t1": 6, "t2": 3}  # deeper than any run: everything


def test_a_document_two_runs_of_one_team_found_is_that_team_s_alone():
    pool = build_pool(RUNS, 2)
    alone = pool.found_only_by_team({"A": "red", "B": "blue", "C": "red"})
    assert alone == {
        ("t1", "d1"): "red",
        ("t1", "d3"): "red",
        ("t1", "d7"): "blue",
        ("t2", "d5"): "red",
        ("t2", "d9"): "blue",
    }


# --- judges assigned ---


def test_each_item_gets_n_distinct_judges_balanced_and_deterministic():
    items = [("t1", f"d{i}") for i in range(30)]
    judges = [f"s{i}" for i in range(7)]
    drawn = assign(items, judges, 2, seed="TASK")
    assert all(len(set(j)) == 2 for j in drawn.values())
    loads = [sum(j in chosen for chosen in drawn.values()) for j in judges]
    assert sum(loads) == 60 and max(loads) - min(loads) <= 1  # 60 judgments over 7 judges: 8 or 9 each
    assert assign(items, list(reversed(judges)), 2, seed="TASK") == drawn  # the judges' order does not matter
    pairs = {frozenset(j) for j in drawn.values()}
    assert len(pairs) >= 10  # ties broken by the hash: not the same two judges again and again


def test_the_team_that_alone_found_a_document_does_not_judge_it_when_others_can():
    items = [("t1", f"d{i}") for i in range(12)]
    team_of = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C"}
    finders = {item: "A" for item in items[:6]} | {item: "B" for item in items[6:]}
    drawn = assign(items, list(team_of), 2, team_of_judge=team_of, found_only_by=finders, seed="x")
    assert all(team_of[j] != finders[item] for item, judges in drawn.items() for j in judges)
    # With 3 judges per document and only 3 outsiders for team A's documents, nobody of A judges them; with 4,
    # one judge of A must: the constraint gives way only when it cannot be met.
    four = assign(items[:6], list(team_of), 4, team_of_judge=team_of, found_only_by=finders, seed="x")
    assert all(sum(team_of[j] == "A" for j in judges) == 1 for judges in four.values())


def test_documents_one_team_found_go_first_so_the_load_stays_even():
    """15 judges (three teams of four, three in none), 60 documents, 26 of them found by one team alone: every
    judge gets the same load, for every seed, and no team judges what it alone found."""
    judges = [f"s{i}" for i in range(15)]
    team_of = {j: "ABC"[i % 3] for i, j in enumerate(judges[:12])}
    items = [(f"t{i % 4}", f"d{i}") for i in range(60)]
    finders = {item: "ABC"[i % 3] for i, item in enumerate(items) if i % 7 in (0, 2, 5)}
    for per_item in (2, 3):
        for seed in range(20):
            drawn = assign(items, judges, per_item, team_of_judge=team_of, found_only_by=finders, seed=str(seed))
            assert list(drawn) == items
            assert all(team_of.get(j) != finders[item] for item, js in drawn.items() if item in finders for j in js)
            loads = {sum(j in js for js in drawn.values()) for j in judges}
            assert loads == {60 * per_item // 15}, (per_item, seed, loads)


def test_late_judges_are_dealt_in_without_moving_a_judged_document():
    """20 documents, 2 judges each, drawn for 4 students; the first 5 documents judged; then 2 more join, n1 of
    team A, which alone found d10-d19. n1 may take only d05-d09 (open, not A's), one slot each: 5; the other 35
    slots spread 7 each."""
    items = [("t1", f"d{i:02d}") for i in range(20)]
    first = assign(items, ["s1", "s2", "s3", "s4"], 2, seed="x")
    judged = {(item, j) for item in items[:5] for j in first[item]}
    finders = {item: "A" for item in items[10:]}
    spread = deal_in(first, judged, ["s1", "s2", "s3", "s4", "n1", "n2"], team_of_judge={"n1": "A"},
                     found_only_by=finders, seed="x")  # fmt: skip
    assert list(spread) == items
    loads = {j: sum(j in js for js in spread.values()) for j in ("s1", "s2", "s3", "s4", "n1", "n2")}
    assert loads == {"s1": 7, "s2": 7, "s3": 7, "s4": 7, "n1": 5, "n2": 7}
    assert all(spread[item][first[item].index(j)] == j for item, j in judged)  # judged slots stay, in place
    assert all(len(set(js)) == 2 for js in spread.values())
    assert not any("n1" in spread[item] for item in items[10:])  # team A's newcomer is kept off A's documents
    assert deal_in(first, judged, ["s1", "s2", "s3", "s4", "n1", "n2"], team_of_judge={"n1": "A"},
                   found_only_by=finders, seed="x") == spread  # fmt: skip
    assert deal_in(first, judged, ["s1", "s2", "s3", "s4"], seed="x") == first  # balanced already: nothing moves


def test_fewer_judges_than_asked_means_every_judge():
    assert set(assign([("t1", "d1")], ["s1", "s2"], 3)[("t1", "d1")]) == {"s1", "s2"}
    with pytest.raises(ValueError, match="at least one judge"):
        assign([("t1", "d1")], ["s1"], 0)


# --- agreement ---

PAIRS = [(0, 0), (1, 1), (2, 2), (3, 2), (0, 1), (1, 1), (3, 3), (0, 0), (2, 1), (1, 0), (3, 3), (2, 2)]


def test_cohen_s_kappa_equals_statsmodels():
    table = np.zeros((4, 4))
    for a, b in PAIRS:
        table[a, b] += 1
    assert agreement.cohen_kappa(PAIRS) == pytest.approx(cohens_kappa(table, return_results=False))
    # by hand: p_o = 1/2, p_e = (2 * 2 + 2 * 2) / 16 = 1/2 -> 0
    assert agreement.cohen_kappa([(1, 1), (0, 0), (1, 0), (0, 1)], (0, 1)) == 0.0
    assert agreement.cohen_kappa([(1, 1), (1, 1)]) is None and agreement.cohen_kappa([]) is None


RATINGS = [(0, 0, 1), (1, 1, 1), (2, 3, 3), (0, 0, 0), (3, 3, 2), (1, 2, 1), (0, 1, 2), (2, 2, 2)]


def test_fleiss_kappa_equals_statsmodels():
    counts, _ = aggregate_raters(np.array(RATINGS), n_cat=4)
    assert agreement.fleiss_kappa(RATINGS) == pytest.approx(fleiss_kappa(counts, method="fleiss"))
    assert agreement.fleiss_kappa([(2, 2, 2), (2, 2, 2)]) is None
    with pytest.raises(ValueError, match="same number"):
        agreement.fleiss_kappa([(1, 1), (1, 1, 1)])


def test_agreement_per_topic_counts_fully_judged_documents_only():
    grades = {("t1", "d1"): (1, 1), ("t1", "d2"): (0, 1), ("t1", "d3"): (2,), ("t2", "d1"): (3, 3)}
    found = agreement.agreement_per_topic(grades, 2)
    assert [(a.topic, a.method, a.documents) for a in found] == [("t1", "Cohen", 2), ("t2", "Cohen", 1)]
    # t1: pairs (1,1), (0,1): p_o = 1/2; first judge 1,0 and second 1,1: p_e = (1*0 + 1*2)/4 = 1/2 -> kappa 0
    assert found[0].kappa == 0.0 and found[1].kappa is None
    three = agreement.agreement_per_topic({("t1", f"d{i}"): r for i, r in enumerate(RATINGS)}, 3)
    assert three[0].method == "Fleiss" and three[0].kappa == pytest.approx(agreement.fleiss_kappa(RATINGS))
    assert agreement.binary({("t1", "d1"): (0, 2, 3)}) == {("t1", "d1"): (0, 1, 1)}


# --- qrels from judgments ---


def test_qrels_take_the_settled_grade_else_the_lower_median():
    grades = {("t1", "d1"): (1, 3), ("t1", "d2"): (2, 2), ("t1", "d3"): (0, 3, 2), ("t2", "d4"): (3,)}
    qrels = build_qrels(grades, {("t1", "d1"): 2, ("t2", "d9"): 1})
    assert qrels == {"t1": {"d1": 2, "d2": 2, "d3": 2}, "t2": {"d4": 3, "d9": 1}}
    assert lower_median([3, 0]) == 0 and lower_median([0, 3, 2]) == 2
    found = disagreements(grades, {("t1", "d1"): 2})
    assert [(d.item, d.spread, d.settled) for d in found] == [(("t1", "d3"), 3, None), (("t1", "d1"), 2, 2)]


def test_the_qrels_download_reads_back_as_trec_eval_reads_it():
    text = qrels_text(QRELS)
    assert text.splitlines()[:2] == ["t1 0 d1 0", "t1 0 d2 1"]
    read = read_qrels(text.encode(), "qrels.txt")
    assert read.to_dict() == QRELS


def test_the_modules_doctests_hold():
    """The app's core is not collected for doctests (testpaths: tests/, metrics/, the README): run them here."""
    for module in (agreement, bias, collection, judgments, runs):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# --- leave one run out ---


def test_leave_one_out_ap_by_hand():
    """Full qrels, t1: R = 3 (d2, d3, d7), t2: R = 2 (d6, d9).
    A: t1 d2@2, d3@3: (1/2 + 2/3)/3 = 7/18; t2 d6@1: 1/2. Mean 4/9, 3rd.
    B: t1 d2@1, d7@2: 2/3; t2: 1. Mean 5/6, 1st.
    C: t1 d3@1, d7@3, d2@4: (1 + 2/3 + 3/4)/3 = 29/36; t2 d6@2: 1/4. Mean 19/36, 2nd.
    Without B's own (t1 d7, t2 d9): t1 R = 2, d2@1: 1/2; t2 R = 1: 1. Mean 3/4, still 1st.
    Without C's own (t1 d3): t1 R = 2, d7@3, d2@4: (1/3 + 2/4)/2 = 5/12; t2 1/4. Mean 1/3: below A, 3rd."""
    pool = build_pool(RUNS, 2)
    found = {(b.run, b.measure): b for b in leave_one_out(RUNS, pool, QRELS, ["AP"])}
    expected = {
        "A": (Fraction(4, 9), Fraction(4, 9), 3, 3, 0, 0),
        "B": (Fraction(5, 6), Fraction(3, 4), 1, 1, 2, 2),
        "C": (Fraction(19, 36), Fraction(1, 3), 2, 3, 1, 1),
    }
    for run, (score, without, rank, rank_without, unique, relevant) in expected.items():
        b = found[run, "AP"]
        assert b.score == pytest.approx(float(score)) and b.score_without == pytest.approx(float(without))
        assert (b.rank, b.rank_without, b.unique, b.unique_relevant) == (rank, rank_without, unique, relevant)
    assert found["C", "AP"].places_lost == 1 and found["C", "AP"].drop == pytest.approx(7 / 36)


def _trec_eval_means(rankings: dict, qrels: dict) -> dict[str, float]:
    """pytrec_eval (trec_eval's C code) on one run; scores from ranks, so its order is the ranking's."""
    run = {t: {d: float(len(docs) - i) for i, d in enumerate(docs)} for t, docs in rankings.items()}
    per_topic = pytrec_eval.RelevanceEvaluator(qrels, {"map", "bpref", "infAP"}).evaluate(run)
    return {
        ours: float(np.mean([per_topic[t][theirs] for t in qrels]))
        for ours, theirs in (("AP", "map"), ("bpref", "bpref"), ("infAP", "infAP"))
    }


def test_leave_one_out_scores_equal_trec_eval_on_the_reduced_qrels():
    """Every run, every measure: the score without its own documents equals trec_eval's on qrels with those
    documents removed (unjudged: AP and infAP read them as not relevant, bpref skips them)."""
    pool = build_pool(RUNS, 2)
    for b in leave_one_out(RUNS, pool, QRELS):
        reduced = {t: {d: g for d, g in docs.items() if (t, d) not in pool.unique(b.run)} for t, docs in QRELS.items()}
        assert b.score == pytest.approx(_trec_eval_means(RUNS[b.run], QRELS)[b.measure], abs=1e-5)
        assert b.score_without == pytest.approx(_trec_eval_means(RUNS[b.run], reduced)[b.measure], abs=1e-5), b
    # bpref by hand for C without d3: t1 R = 2, N = 1 (d1, above both relevant ones): 0; t2: d5 above d6: 0.
    c = {b.measure: b for b in leave_one_out(RUNS, pool, QRELS) if b.run == "C"}
    assert c["bpref"].score == pytest.approx(1 / 6) and c["bpref"].score_without == 0.0


def test_a_topic_whose_judgments_all_left_counts_zero():
    runs_ = {"A": {"t1": ["d1"], "t2": ["d2"]}, "B": {"t1": ["d3"], "t2": ["d2"]}}
    pool = build_pool(runs_, 1)
    found = {b.run: b for b in leave_one_out(runs_, pool, {"t1": {"d1": 1}, "t2": {"d2": 1}}, ["AP"])}
    assert found["A"].score == 1.0 and found["A"].score_without == 0.5  # t1 has no judgment left: 0, t2: 1
    assert mean_scores({"t1": ["d1"]}, {}, ["t1"], ["AP"]) == {"AP": 0.0}


def test_each_run_gets_a_sentence_in_plain_words():
    pool = build_pool(RUNS, 2)
    biases = leave_one_out(RUNS, pool, QRELS)
    c = [b for b in biases if b.run == "C"]
    assert sentence(c) == (
        "C alone found 1 pooled document (1 relevant). Judged without it, AP falls from 0.528 to 0.333; "
        "bpref falls from 0.167 to 0.000; infAP falls from 0.528 to 0.333; by AP, it drops from 2nd to 3rd. "
        "bpref holds up best."
    )
    a = [b for b in biases if b.run == "A"]
    assert sentence(a) == "A found nothing another run missed: leaving it out of the pool changes none of its scores."

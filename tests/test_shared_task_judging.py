"""What the judging views show (ir_metrics_lab.core.shared_task.judging): progress per topic counted by hand on a
small pool, a phone's share of it, and kappa read in words (Landis and Koch 1977's bands; the kappas by hand and
checked against statsmodels)."""

from __future__ import annotations

import pytest
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa

from ir_metrics_lab.core.shared_task import judging
from ir_metrics_lab.core.shared_task.agreement import Agreement, agreement_per_topic

# t1 pools 3 documents (two judges each), t2 pools 1, t3 none (no run retrieved anything for it).
ASSIGNED = {
    ("t1", "a"): ("ann", "bo"),
    ("t1", "b"): ("bo", "jo"),
    ("t1", "c"): ("ann", "jo"),
    ("t2", "a"): ("ann", "bo"),
}


def test_progress_counts_judged_complete_and_single_judgments_per_topic():
    grades = {("t1", "a"): (2, 3), ("t1", "b"): (1,)}  # a: both judges; b: one of two; c: none yet
    settled = {("t1", "c"): 0, ("t2", "a"): 3}  # the teacher settled c (unjudged) and t2's only document
    rows = judging.progress(["t1", "t2", "t3"], ASSIGNED, grades, settled)
    assert rows == [
        # judged: a, b (graded), c (settled); complete: a (2 of 2), c (settled); 3 of 6 single judgments
        judging.Progress("t1", pool=3, judged=3, complete=2, given=3, needed=6),
        judging.Progress("t2", pool=1, judged=1, complete=1, given=0, needed=2),
        judging.Progress("t3", pool=0, judged=0, complete=0, given=0, needed=0),
    ]
    assert judging.overall(rows) == judging.Progress(None, pool=4, judged=4, complete=3, given=3, needed=8)
    assert rows[2].share == 0.0 and judging.overall(rows).share == 1.0


def test_nothing_judged_yet():
    rows = judging.progress(["t1", "t2"], ASSIGNED, {}, {})
    assert [(r.pool, r.judged, r.complete, r.given, r.needed) for r in rows] == [(3, 0, 0, 0, 6), (1, 0, 0, 0, 2)]
    assert rows[0].share == 0.0


def test_a_student_s_share_of_the_pool():
    assert [judging.assigned_to(ASSIGNED, s) for s in ("ann", "bo", "jo", "raj")] == [3, 3, 2, 0]


@pytest.mark.parametrize(
    ("kappa", "words"),
    [
        (-0.2, "less agreement than chance"),
        (0.0, "slight agreement"),
        (0.2, "slight agreement"),
        (0.21, "fair agreement"),
        (0.4, "fair agreement"),
        (0.55, "moderate agreement"),
        (0.61, "substantial agreement"),
        (0.81, "almost perfect agreement"),
        (1.0, "almost perfect agreement"),
        (None, "not enough judgments yet"),
    ],
)
def test_kappa_in_words_by_landis_and_koch_s_bands(kappa, words):
    assert judging.kappa_words(kappa) == words


def test_a_topic_s_agreement_in_a_sentence():
    # Two judges, 4 documents: (2,2) (0,0) (3,1) (1,1). p_o = 3/4; first judge 0,1,2,3 once each; second 0 once,
    # 1 twice, 2 once: p_e = (1*1 + 1*2 + 1*1 + 1*0) / 16 = 1/4; kappa = (3/4 - 1/4) / (3/4) = 2/3.
    pairs = [(2, 2), (0, 0), (3, 1), (1, 1)]
    table = [[sum(1 for a, b in pairs if (a, b) == (i, j)) for j in range(4)] for i in range(4)]
    assert cohens_kappa(table).kappa == pytest.approx(2 / 3)
    grades = {("t1", str(i)): pair for i, pair in enumerate(pairs)}
    (found,) = agreement_per_topic(grades, 2)
    assert found.kappa == pytest.approx(2 / 3)
    assert judging.agreement_reading(found, 2) == "Cohen's kappa 0.67 on 4 documents: substantial agreement."


def test_fleiss_kappa_read_as_a_sentence():
    # Three judges, 4 documents, grades (1,1,1) (0,0,1) (1,1,1) (0,0,1): P_i = 1, 1/3, 1, 1/3, P = 2/3;
    # p = (1/3, 2/3), p_e = 5/9; kappa = (2/3 - 5/9) / (4/9) = 1/4 ("fair").
    assert fleiss_kappa([[0, 3, 0, 0], [2, 1, 0, 0]] * 2) == pytest.approx(0.25)
    grades = {("t1", str(i)): g for i, g in enumerate([(1, 1, 1), (0, 0, 1)] * 2)}
    (found,) = agreement_per_topic(grades, 3)
    assert found.kappa == pytest.approx(0.25)
    assert judging.agreement_reading(found, 3) == "Fleiss' kappa 0.25 on 4 documents: fair agreement."


def test_a_kappa_on_a_handful_of_documents_is_not_read_in_words():
    # One document, judges 1 and 0: p_o = 0, p_e = 0 (each judge used one grade, a different one): kappa 0.
    (one,) = agreement_per_topic({("t1", "a"): (1, 0)}, 2)
    assert one.kappa == 0.0
    assert judging.agreement_reading(one, 2) == "Not enough judgments yet to read: Cohen's kappa 0.00 on 1 document."
    three = Agreement("t1", "Cohen", judging.MIN_DOCUMENTS - 1, 0.5)
    assert judging.agreement_reading(three, 2).startswith("Not enough judgments yet to read")


def test_undefined_agreement_says_why():
    assert judging.agreement_reading(None, 2) == "Not enough judgments yet: no document has all its 2 grades."
    empty = Agreement("t1", "Cohen", 0, None)
    assert judging.agreement_reading(empty, 2).startswith("Not enough judgments yet")
    uniform = Agreement("t1", "Cohen", 3, None)  # every grade the same: p_e = 1
    assert "one and the same grade" in judging.agreement_reading(uniform, 2)
    assert judging.agreement_reading(None, 1) == "One judge per document: there is no agreement to measure."


def test_each_grade_has_its_meaning():
    assert [judging.grade_label(g).split(" · ")[0] for g in range(4)] == ["0", "1", "2", "3"]
    assert judging.grade_label(0) == "0 · not relevant: nothing on the topic"

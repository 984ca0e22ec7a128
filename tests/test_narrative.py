"""The A/B narrative stays true: its sentences follow the metrics in every case."""

from __future__ import annotations

from ir_metrics_lab.core.lessons.narrative import explain_ab, lost_in_the_middle_note
from ir_metrics_lab.core.scenario import Scenario
from metrics.teaching.examples import RETRIEVER_A, RETRIEVER_B

A = Scenario.from_example(RETRIEVER_A)  # relevant at ranks 3 and 4
B = Scenario.from_example(RETRIEVER_B)  # relevant at ranks 1 and 2


def test_preset_says_equal_p_and_r_but_b_first_at_rank_1_and_a_at_rank_3():
    text = " ".join(explain_ab(A, B))
    assert "Both return 2 of 2 relevant documents in the top 5 (P@5 = 0.4000, R@5 = 1.0000 for both)" in text
    assert "B shows the first one at rank 1 and A at rank 3" in text
    assert "a reader who stops at 2 sees no relevant document with A" in text
    assert "all favour B" in text
    # hand arithmetic: RR 1/3, AP (1/3 + 2/4) / 2, NDCG (1/log2 4 + 1/log2 5) / (1 + 1/log2 3)
    assert "RR A 0.3333, B 1.0000" in text and "AP A 0.4167, B 1.0000" in text
    assert "NDCG@5 A 0.5706, B 1.0000" in text


def test_swapped_lists_say_a_is_ahead():
    text = " ".join(explain_ab(B, A))
    assert "A shows the first one at rank 1 and B at rank 3" in text
    assert "all favour A" in text


def test_tie():
    text = " ".join(explain_ab(A, A))
    assert "Both show the first relevant document at rank 3" in text
    assert "equally good" in text
    assert "but Both" not in text


def test_no_relevant_documents():
    none_a = A.with_grade("r1", 0).with_grade("r2", 0)
    none_b = B.with_grade("r1", 0).with_grade("r2", 0)
    (sentence,) = explain_ab(none_a, none_b)
    assert "R = 0" in sentence and "every metric is 0" in sentence


def test_unequal_p_and_r_are_named():
    more = A.with_grade("n1", 1)  # A now finds 3 relevant documents
    text = " ".join(explain_ab(more, B))
    assert "A returns 3 of 3" in text and "B returns 2 of 2" in text
    assert "order-unaware metrics differ: A finds more" in text
    assert "AP and NDCG favour B (RR ties)" in text


def test_different_k_is_flagged():
    text = " ".join(explain_ab(A.with_settings(k=2), B))
    assert "A is cut at k = 2 and B at k = 5" in text
    assert "B shows the first one at rank 1 and A at rank 3" in text  # RR is uncut, as on the cards


def test_no_user_text_in_sentences():
    titled = A.renamed("r1", "<script>x</script>")
    assert "script" not in " ".join(explain_ab(titled, B))
    for doc in A.ranking:
        assert all(doc not in s for s in explain_ab(A, B))


def test_lost_in_the_middle_is_honest():
    note = lost_in_the_middle_note()
    assert "Liu et al. (2023)" in note and "Lost in the Middle" in note
    assert "none of RR, AP or DCG/NDCG rewards placing a document at the end" in note


def test_a_hidden_tail_counts_in_recall():
    """R counts the tail's relevant doc: r1 on screen, r2 hidden at rank 4. R@2 = 1/2, not 1/1."""
    listed = Scenario(("n1", "r1"), grades={"n1": 0, "r1": 1, "n2": 0, "r2": 1}, k=2, scale=1, tail=("n2", "r2"))
    text = " ".join(explain_ab(listed, listed))
    assert "R@2 = 0.5000" in text and "R@2 = 1.0000" not in text

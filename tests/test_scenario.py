"""Scenario edits (ir_metrics_lab/core/scenario.py) and the ranked-list component's edit translation
(ui/sortable.apply_edit)."""

from __future__ import annotations

import dataclasses

import pytest

from ir_metrics_lab.core.scenario import MAX_DOCS, Scenario
from ir_metrics_lab.parts.sortable import apply_edit
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.teaching.examples import CAT_DOG_PARROT, GRADES_32301, RETRIEVER_A


@pytest.fixture
def scn() -> Scenario:
    return Scenario.from_example(GRADES_32301)  # d1..d5 graded 3, 2, 3, 0, 1; k = 5; scale 0-3


def test_from_example_copies_the_preset(scn):
    assert scn.ranking == ("d1", "d2", "d3", "d4", "d5")
    assert scn.shelf == ()
    assert dict(scn.grades) == {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1}
    assert scn.title("d1") == "Install guide"
    assert (scn.k, scn.scale, scn.conventions) == (5, 3, TREC_EVAL)


def test_from_example_picks_a_query():
    q3 = Scenario.from_example(CAT_DOG_PARROT, "Q3")
    assert q3.qrels == {"D1": 0, "D2": 0, "D3": 1, "D4": 0}
    assert (q3.k, q3.scale) == (2, 1)


def test_edits_are_immutable(scn):
    scn.moved("d5", 1)
    assert scn.ranking == ("d1", "d2", "d3", "d4", "d5")


def test_reordered(scn):
    assert scn.reordered(["d5", "d4", "d3", "d2", "d1"]).ranking == ("d5", "d4", "d3", "d2", "d1")
    with pytest.raises(ValueError, match="same documents"):
        scn.reordered(["d1", "d2"])
    with pytest.raises(ValueError, match="same documents"):
        scn.reordered(["d1", "d2", "d3", "d4", "zz"])


def test_moved(scn):
    assert scn.moved("d5", 1).ranking == ("d5", "d1", "d2", "d3", "d4")
    assert scn.moved("d1", 3).ranking == ("d2", "d3", "d1", "d4", "d5")
    assert scn.moved("d1", 99).ranking == ("d2", "d3", "d4", "d5", "d1")  # clamped to the end
    assert scn.moved("d5", 0).ranking == ("d5", "d1", "d2", "d3", "d4")  # clamped to the top
    with pytest.raises(ValueError, match="not in the ranked list"):
        scn.moved("nope", 1)


def test_with_grade(scn):
    assert scn.with_grade("d4", 3).grades["d4"] == 3
    with pytest.raises(ValueError, match="0 to 3"):
        scn.with_grade("d4", 4)
    with pytest.raises(ValueError, match="0 to 3"):
        scn.with_grade("d4", -1)
    with pytest.raises(ValueError, match="whole number"):
        scn.with_grade("d4", 1.5)
    with pytest.raises(ValueError, match="whole number"):
        scn.with_grade("d4", True)
    with pytest.raises(ValueError, match="no document"):
        scn.with_grade("zz", 1)


def test_shelved_and_retrieved_keep_the_judgment(scn):
    shelved = scn.shelved("d1")
    assert shelved.ranking == ("d2", "d3", "d4", "d5")
    assert shelved.shelf == ("d1",)
    assert shelved.qrels["d1"] == 3  # still judged: counts in R and IDCG
    assert shelved.retrieved("d1").ranking == ("d2", "d3", "d4", "d5", "d1")
    assert shelved.retrieved("d1", 1).ranking == ("d1", "d2", "d3", "d4", "d5")
    assert shelved.retrieved("d1").shelf == ()
    with pytest.raises(ValueError, match="not in the ranked list"):
        shelved.shelved("d1")
    with pytest.raises(ValueError, match="shelf"):
        scn.retrieved("d2")


def test_with_doc(scn):
    added = scn.with_doc("  d6 ", "New page", 2)
    assert added.ranking[-1] == "d6"
    assert (added.title("d6"), added.grades["d6"]) == ("New page", 2)
    on_shelf = scn.with_doc("d6", grade=3, on_shelf=True)
    assert on_shelf.shelf == ("d6",)
    assert "d6" not in on_shelf.ranking


@pytest.mark.parametrize(
    ("doc", "grade", "message"),
    [("", 0, "needs an id"), ("   ", 0, "needs an id"), ("d1", 0, "already a document 'd1'"), ("d6", 7, "0 to 3")],
)
def test_with_doc_rejects_bad_input(scn, doc, grade, message):
    with pytest.raises(ValueError, match=message):
        scn.with_doc(doc, "t", grade)


def test_with_doc_caps_the_playground(scn):
    full = scn
    for i in range(MAX_DOCS - len(scn.docs)):
        full = full.with_doc(f"x{i}")
    assert len(full.docs) == MAX_DOCS
    with pytest.raises(ValueError, match=f"at most {MAX_DOCS}"):
        full.with_doc("one-too-many")


def test_renamed_and_without(scn):
    assert scn.renamed("d1", "<script>alert(1)</script>").title("d1") == "<script>alert(1)</script>"
    removed = scn.without("d1")
    assert "d1" not in removed.docs and "d1" not in removed.grades and "d1" not in removed.titles
    with pytest.raises(ValueError, match="no document"):
        scn.renamed("zz", "x")
    with pytest.raises(ValueError, match="no document"):
        scn.without("zz")


def test_with_scale_caps_grades(scn):
    binary = scn.with_scale(1)
    assert dict(binary.grades) == {"d1": 1, "d2": 1, "d3": 1, "d4": 0, "d5": 1}
    assert scn.with_scale(4).grades == scn.grades
    with pytest.raises(ValueError, match="scale"):
        scn.with_scale(2)


def test_with_settings(scn):
    exp = dataclasses.replace(TREC_EVAL, gain="exp")
    changed = scn.with_settings(k=3, conventions=exp)
    assert (changed.k, changed.conventions.gain) == (3, "exp")
    assert scn.with_settings().k == 5
    for bad in (0, -2, 2.5, True):
        with pytest.raises(ValueError, match="k must be"):
            scn.with_settings(k=bad)
    with pytest.raises(ValueError, match="threshold"):
        Conventions(threshold=-1)  # 0 is trec_eval's -l 0


# --- the component's edit -> Scenario ---


def test_apply_edit_reorders_and_describes_the_move(scn):
    new, sentence = apply_edit(scn, {"order": ["d1", "d3", "d2", "d4", "d5"]})
    assert new.ranking == ("d1", "d3", "d2", "d4", "d5")
    assert sentence in ("d3 moved to rank 2 of 5", "d2 moved to rank 3 of 5")
    new, sentence = apply_edit(scn, {"order": ["d2", "d3", "d4", "d5", "d1"]})
    assert sentence == "d1 moved to rank 5 of 5"


def test_apply_edit_sets_grades(scn):
    new, sentence = apply_edit(scn, {"order": list(scn.ranking), "grades": {"d4": 3, "d1": 3}})
    assert new.grades["d4"] == 3
    assert sentence == "d4 graded 3"


def test_apply_edit_shelves_missing_docs(scn):
    new, sentence = apply_edit(scn, {"order": ["d2", "d3", "d4", "d5"], "action": {"type": "shelve", "doc": "d1"}})
    assert new.ranking == ("d2", "d3", "d4", "d5") and new.shelf == ("d1",)
    assert sentence == "d1 moved to the not-retrieved shelf"


def test_apply_edit_ignores_stale_and_invalid_input(scn):
    new, sentence = apply_edit(scn, {"order": ["ghost", "d1", "d1", "d2", "d3", "d4", "d5"], "grades": {"d2": 9}})
    assert new == scn and sentence == ""
    new, _ = apply_edit(scn, {"grades": {"ghost": 1, "d5": "3", "d4": True}})
    assert new == scn


def test_apply_edit_on_binary_scale():
    a = Scenario.from_example(RETRIEVER_A)
    new, _ = apply_edit(a, {"grades": {"n1": 1}})
    assert new.grades["n1"] == 1
    new, _ = apply_edit(a, {"grades": {"n1": 2}})  # outside 0-1
    assert new == a


def test_apply_edit_names_the_card_the_user_moved(scn):
    # Moving d3 down one swaps it with d4: both move one rank, so only the browser's action says which was moved.
    swapped = ["d1", "d2", "d4", "d3", "d5"]
    _, sentence = apply_edit(scn, {"order": swapped, "action": {"type": "move", "doc": "d3", "to": 4}})
    assert sentence == "d3 moved to rank 4 of 5"
    _, sentence = apply_edit(scn, {"order": swapped, "action": {"type": "move", "doc": "d4", "to": 3}})
    assert sentence == "d4 moved to rank 3 of 5"


def test_unjudged_docs_have_no_qrels_line_and_grade_zero(scn):
    marked = scn.with_unjudged({"d2", "d4"})
    assert marked.unjudged == {"d2", "d4"}
    assert marked.qrels == {"d1": 3, "d3": 3, "d5": 1}  # d2 (was 2) and d4 (was 0) have no judgment
    assert marked.grades["d2"] == 0  # what P@k, AP and NDCG read for it: non-relevant
    # judged again, with the grade it had when it was marked (d2 was 2)
    assert marked.with_unjudged({"d4"}).qrels == {"d1": 3, "d2": 2, "d3": 3, "d5": 1}


def test_grading_shelving_or_removing_an_unjudged_doc_judges_it(scn):
    marked = scn.with_unjudged({"d2", "d4", "d5"})
    assert marked.with_grade("d2", 1).unjudged == {"d4", "d5"}
    assert marked.with_grade("d2", 1).qrels["d2"] == 1
    assert marked.shelved("d4").unjudged == {"d2", "d5"} and marked.shelved("d4").qrels["d4"] == 0
    assert marked.without("d5").unjudged == {"d2", "d4"}


def test_only_retrieved_docs_can_be_unjudged():
    shelf = Scenario(("a",), ("z",), {"a": 1, "z": 2}, tail=("t",))
    assert shelf.with_unjudged({"a", "t"}).qrels == {"z": 2}  # the hidden tail is retrieved too
    with pytest.raises(ValueError, match="only retrieved documents can be unjudged, not 'q', 'z'"):
        shelf.with_unjudged({"z", "q"})


def test_unmarking_an_unjudged_document_gives_its_grade_back():
    scn = Scenario(ranking=("d1", "d2", "d3"), grades={"d1": 3, "d2": 2, "d3": 1})
    marked = scn.with_unjudged({"d2", "d3"})
    assert marked.grades == {"d1": 3, "d2": 0, "d3": 0} and marked.qrels == {"d1": 3}
    assert marked.with_unjudged({"d3"}).grades == {"d1": 3, "d2": 2, "d3": 0}  # d2 back to 2, d3 still held
    assert marked.with_unjudged(()).grades == scn.grades
    assert marked.shelved("d2").qrels == {"d1": 3, "d2": 2}  # the shelf holds judged docs, with their grade
    assert marked.with_grade("d2", 1).with_unjudged(()).grades["d2"] == 1  # a grade given while marked wins


# --- aspects: the subtopics each document covers, by name (the diversity lesson) -----------------------------------


def test_aspects_become_ndevals_subtopic_judgments(scn):
    covered = scn.with_aspects("d1", [" price ", "range", "price"]).with_aspects("d4", ["price"])
    assert covered.aspects_of("d1") == ("price", "range")  # trimmed, a repeat kept once
    assert covered.aspect_names == ("price", "range")
    # each covering document's grade; d4 is graded 0, so its line says it covers nothing (ndeval: judgment > 0)
    assert covered.subtopic_qrels == {"price": {"d1": 3, "d4": 0}, "range": {"d1": 3}}
    assert covered.with_aspects("d1", []).aspects == {"d4": ("price",)}
    assert covered.without("d1").aspects == {"d4": ("price",)}
    assert covered.shelved("d1").aspects_of("d1") == ("price", "range")  # a shelved document keeps them
    assert covered != scn  # a list with aspects is another list (its link differs)


def test_an_unjudged_document_covers_nothing(scn):
    covered = scn.with_aspects("d2", ["price"]).with_unjudged(["d2"])
    assert covered.subtopic_qrels == {"price": {}}


def test_bad_aspects_are_refused(scn):
    with pytest.raises(ValueError, match="needs a name"):
        scn.with_aspects("d1", ["  "])
    with pytest.raises(ValueError, match="at most 40 characters"):
        scn.with_aspects("d1", ["x" * 41])
    with pytest.raises(ValueError, match="no document"):
        scn.with_aspects("zz", ["price"])
    many = scn.with_aspects("d1", [f"a{i}" for i in range(12)])
    with pytest.raises(ValueError, match="at most 12 different aspects"):
        many.with_aspects("d2", ["one more"])

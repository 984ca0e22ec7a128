"""ir_metrics_lab.core.url: the shared-link schema round-trips every scenario, and a tampered link never raises.

Each bad part of a link falls back to its own default with a warning naming the key; the rest is kept.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ir_metrics_lab.core import url
from ir_metrics_lab.core.scenario import MAX_ASPECTS, MAX_DOCS, SCALES, Scenario
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.teaching.examples import EXAMPLES

# --- the contract --------------------------------------------------------------------------------------------------


def test_the_documented_example_parses():
    scn, warnings = url.from_query_params({"docs": "d1,d2,d3", "grades": "0,3,1", "missing": "d9:2", "k": "3"})
    assert warnings == []
    assert scn.ranking == ("d1", "d2", "d3")
    assert scn.shelf == ("d9",)
    assert scn.grades == {"d1": 0, "d2": 3, "d3": 1, "d9": 2}
    assert scn.k == 3
    assert scn.conventions == TREC_EVAL
    assert scn.scale == 3  # largest grade 3: the 0-3 scale


def test_the_example_scenario_writes_the_example_link():
    scn = Scenario(("d1", "d2", "d3"), ("d9",), {"d1": 0, "d2": 3, "d3": 1, "d9": 2}, k=3)
    assert url.relative_link(scn) == "/?docs=d1,d2,d3&grades=0,3,1&missing=d9:2&k=3"


def test_every_key_is_written_when_not_default():
    conv = Conventions(threshold=2, gain="exp", idcg="retrieved", ap_denominator="retrieved")
    scn = Scenario(("a", "b"), (), {"a": 1, "b": 0}, {"a": "One", "b": ""}, k=2, conventions=conv, scale=4)
    assert url.to_query_params(scn) == {
        "docs": "a,b",
        "grades": "1,0",
        "titles": "One|",
        "k": "2",
        "t": "2",
        "gain": "exp",
        "idcg": "retrieved",
        "apden": "retrieved",
        "scale": "4",  # the grades alone would say binary
    }
    assert url.from_query_params(url.to_query_params(scn)) == (scn, [])


@pytest.mark.parametrize("key", list(EXAMPLES))
def test_presets_round_trip(key):
    scn = Scenario.from_example(EXAMPLES[key])
    assert url.from_query_params(url.to_query_params(scn)) == (scn, [])
    assert _through_a_real_url(scn) == (scn, [])


def _through_a_real_url(scn: Scenario) -> tuple[Scenario, list[str]]:
    """Write the link as text, parse it back the way a server does."""
    query = parse_qs(urlsplit(url.relative_link(scn)).query, keep_blank_values=True)
    return url.from_query_params({key: values[-1] for key, values in query.items()})


# --- hypothesis: any representable scenario round-trips ------------------------------------------------------------

IDS = st.text("abcdxyzAD019_-.|%&=#+? é<>/", min_size=1, max_size=6).map(str.strip).filter(bool)
ASPECT_NAMES = st.text(min_size=1, max_size=12).map(str.strip).filter(bool)


@st.composite
def scenarios(draw) -> Scenario:
    scale = draw(st.sampled_from(list(SCALES)))
    docs = draw(st.lists(IDS, unique=True, max_size=12))
    n_ranked = draw(st.integers(0, len(docs)))
    grades = {d: draw(st.integers(0, scale)) for d in docs}
    titles = {d: draw(st.text(max_size=20)) for d in docs}
    conventions = Conventions(
        threshold=draw(st.integers(1, scale)),
        gain=draw(st.sampled_from(["linear", "exp"])),
        idcg=draw(st.sampled_from(["all", "retrieved"])),
        ap_denominator=draw(st.sampled_from(["all", "retrieved"])),
    )
    k = draw(st.integers(1, url.MAX_K))
    names = draw(st.lists(ASPECT_NAMES, unique=True, max_size=MAX_ASPECTS))
    covering = st.lists(st.sampled_from(names), unique=True) if names else st.just([])
    aspects = {d: tuple(chosen) for d in docs if (chosen := draw(covering))}
    scn = Scenario(
        tuple(docs[:n_ranked]), tuple(docs[n_ranked:]), grades, titles, k, conventions, scale, aspects=aspects
    )
    return scn.with_unjudged(draw(st.sets(st.sampled_from(scn.ranking))) if scn.ranking else ())


@settings(max_examples=200, deadline=None)
@given(scenarios())
def test_round_trip(scn):
    assert url.from_query_params(url.to_query_params(scn)) == (scn, [])
    assert _through_a_real_url(scn) == (scn, [])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from([*url.SCHEMA_KEYS, "x", "embed"]), st.text(max_size=40), max_size=10))
def test_any_link_parses_to_a_valid_scenario(params):
    scn, warnings = url.from_query_params(params)  # never raises
    assert all(isinstance(w, str) and w.startswith("Link key") for w in warnings)
    assert len(scn.docs) == len(set(scn.docs)) <= MAX_DOCS
    assert all(doc and doc == doc.strip() and "," not in doc and ":" not in doc for doc in scn.docs)
    assert set(scn.grades) == set(scn.titles) == set(scn.docs)
    assert all(0 <= g <= scn.scale for g in scn.grades.values())
    assert 1 <= scn.k <= url.MAX_K
    assert 1 <= scn.conventions.threshold <= scn.scale
    assert url.from_query_params(url.to_query_params(scn)) == (scn, [])  # what was kept is a valid link


# --- bad links: a warning naming the key, a default for that part only ---------------------------------------------


def parse(**params: str) -> tuple[Scenario, str]:
    scn, warnings = url.from_query_params(params)
    return scn, "\n".join(warnings)


def test_unknown_key_is_ignored_with_a_warning():
    scn, warning = parse(docs="d1,d2", grades="1,0", colour="red")
    assert "'colour'" in warning and "ignored" in warning
    assert scn.ranking == ("d1", "d2") and scn.grades == {"d1": 1, "d2": 0}


def test_streamlits_own_embed_keys_are_not_warned_about():
    assert parse(docs="d1", grades="1", embed="true")[1] == ""


def test_non_numeric_grade_becomes_zero_and_keeps_the_others():
    scn, warning = parse(docs="d1,d2,d3", grades="abc,2,1.5", k="3")
    assert "Link key 'grades'" in warning and "'abc'" in warning and "'1.5'" in warning
    assert scn.grades == {"d1": 0, "d2": 2, "d3": 0}
    assert scn.k == 3


@pytest.mark.parametrize("k", ["-1", "0", "x", "2.5", "101", "", "99999999999999999999999"])
def test_bad_k_falls_back_to_five(k):
    scn, warning = parse(docs="d1,d2", grades="1,0", k=k)
    assert "Link key 'k'" in warning and "1 to 100" in warning
    assert scn.k == 5
    assert scn.ranking == ("d1", "d2") and scn.grades == {"d1": 1, "d2": 0}


def test_fewer_grades_than_docs_pads_with_zero():
    scn, warning = parse(docs="d1,d2,d3", grades="2,1")
    assert "Link key 'grades'" in warning and "2 grades for 3 documents" in warning
    assert scn.grades == {"d1": 2, "d2": 1, "d3": 0}


def test_more_grades_than_docs_drops_the_extra():
    scn, warning = parse(docs="d1,d2", grades="2,1,3")
    assert "Link key 'grades'" in warning and "3 grades for 2 documents" in warning
    assert scn.grades == {"d1": 2, "d2": 1}


def test_no_grades_key_means_all_unjudged_without_warning():
    scn, warning = parse(docs="d1,d2")
    assert warning == "" and scn.grades == {"d1": 0, "d2": 0} and scn.scale == 1


def test_titles_of_the_wrong_length_are_dropped():
    scn, warning = parse(docs="d1,d2", grades="1,0", missing="d9:1", titles="One|Two")
    assert "Link key 'titles'" in warning and "2 titles for 3 documents" in warning
    assert scn.titles == {"d1": "", "d2": "", "d9": ""}
    assert scn.grades == {"d1": 1, "d2": 0, "d9": 1}


def test_duplicate_ids_keep_the_first_rank_and_its_grade():
    scn, warning = parse(docs="d1,d2,d1", grades="1,2,3", titles="One|Two|Again")
    assert "Link key 'docs'" in warning and "'d1' is listed twice" in warning
    assert scn.ranking == ("d1", "d2") and scn.grades == {"d1": 1, "d2": 2}
    assert scn.titles == {"d1": "One", "d2": "Two"}


def test_missing_repeating_a_ranked_doc_is_dropped():
    scn, warning = parse(docs="d1", grades="1", missing="d1:3,d9:2")
    assert "Link key 'missing'" in warning and "'d1'" in warning
    assert scn.ranking == ("d1",) and scn.shelf == ("d9",) and scn.grades == {"d1": 1, "d9": 2}


def test_malformed_missing_entries():
    scn, warning = parse(docs="d1", grades="1", missing="d8,:2,d9:x")
    assert warning.count("Link key 'missing'") == 3
    assert scn.shelf == ("d8", "d9") and scn.grades == {"d1": 1, "d8": 0, "d9": 0}


def test_ten_thousand_documents_are_capped():
    docs = ",".join(f"d{i}" for i in range(10_000))
    scn, warning = parse(docs=docs, grades=",".join(["1"] * 10_000), missing="x:1")
    assert "Link key 'docs'" in warning and "10000 documents" in warning and f"at most {MAX_DOCS}" in warning
    assert "Link key 'missing'" in warning  # no room left for the shelf
    assert scn.ranking == tuple(f"d{i}" for i in range(MAX_DOCS)) and scn.shelf == ()
    assert set(scn.grades.values()) == {1}


def test_grades_outside_an_explicit_scale_become_zero():
    scn, warning = parse(docs="d1,d2", grades="1,3", scale="1")
    assert "Link key 'grades'" in warning and "0-1 scale" in warning
    assert scn.scale == 1 and scn.grades == {"d1": 1, "d2": 0}


def test_grades_beyond_four_become_zero_on_the_inferred_scale():
    scn, warning = parse(docs="d1,d2,d3", grades="2,7,-1", missing="d9:5")
    assert "the grade 7" in warning and "'-1'" in warning and "Link key 'missing'" in warning
    assert scn.scale == 4 and scn.grades == {"d1": 2, "d2": 0, "d3": 0, "d9": 0}


@pytest.mark.parametrize(("grades", "scale"), [("0,0", 1), ("1,0", 1), ("2,0", 3), ("3,1", 3), ("4,0", 4)])
def test_scale_is_inferred_from_the_largest_grade(grades, scale):
    assert parse(docs="a,b", grades=grades)[0].scale == scale


def test_bad_scale_is_inferred_instead():
    scn, warning = parse(docs="a,b", grades="2,0", scale="2")
    assert "Link key 'scale'" in warning and scn.scale == 3


@pytest.mark.parametrize(
    ("key", "value", "field", "default"),
    [
        ("gain", "EXP", "gain", "linear"),
        ("gain", "", "gain", "linear"),
        ("idcg", "some", "idcg", "all"),
        ("apden", "R", "ap_denominator", "all"),
        ("t", "0", "threshold", 1),
        ("t", "4", "threshold", 1),  # above the 0-3 scale
        ("t", "high", "threshold", 1),
    ],
)
def test_bad_conventions_fall_back_to_trec_eval(key, value, field, default):
    scn, warning = parse(docs="d1,d2", grades="3,1", k="2", **{key: value})
    assert f"Link key '{key}'" in warning
    assert getattr(scn.conventions, field) == default
    assert scn.ranking == ("d1", "d2") and scn.k == 2


def test_good_conventions_are_read():
    scn, warning = parse(docs="d1", grades="3", t="2", gain="exp", idcg="retrieved", apden="retrieved")
    assert warning == ""
    assert scn.conventions == Conventions(threshold=2, gain="exp", idcg="retrieved", ap_denominator="retrieved")


def test_ids_are_trimmed_and_empty_ids_rejected():
    scn, warning = parse(docs=" d1 ,, d2", grades="1,0,2")
    assert "Link key 'docs'" in warning and "empty document id at position 2" in warning
    assert scn.ranking == ("d1", "d2") and scn.grades == {"d1": 1, "d2": 2}


def test_an_empty_link_is_an_empty_playground():
    scn, warning = parse(docs="", grades="")
    assert warning == "" and scn.ranking == () and scn.shelf == ()


def test_ids_with_separators_have_no_link():
    scn = Scenario(("a,b", "c:d", "e"), (), {"a,b": 1, "c:d": 0, "e": 0})
    problems = url.link_problems(scn)
    assert len(problems) == 2 and "'a,b'" in problems[0] and "'c:d'" in problems[1]
    with pytest.raises(ValueError, match="no link"):
        url.to_query_params(scn)


def test_repeated_keys_use_the_last_value():
    scn, _ = url.from_query_params({"docs": ["a,b", "c,d"], "k": ["2", "3"]})
    assert scn.ranking == ("c", "d") and scn.k == 3


# --- titles ----------------------------------------------------------------------------------------------------------


def test_script_tag_titles_are_kept_as_plain_text():
    evil = "<script>alert('x')</script>"
    scn = Scenario(("d1", "d2"), (), {"d1": 1, "d2": 0}, {"d1": evil, "d2": "<b>bold</b> & 100% | more"})
    assert url.from_query_params(url.to_query_params(scn))[0].titles == scn.titles
    assert _through_a_real_url(scn)[0].titles == scn.titles
    parsed, warning = parse(docs="d1", grades="1", titles=evil)  # hand-written, not encoded
    assert warning == "" and parsed.titles == {"d1": evil}


def test_titles_cover_docs_then_missing():
    scn, warning = parse(docs="a,b", grades="1,0", missing="m:2", titles="Alpha|Beta%7Cpipe|Missed%20one")
    assert warning == ""
    assert scn.titles == {"a": "Alpha", "b": "Beta|pipe", "m": "Missed one"}


def test_full_link_puts_the_app_address_in_front():
    scn = Scenario(("d1",), (), {"d1": 1}, scale=1)
    assert url.full_link("http://host:8501/", scn) == "http://host:8501/?docs=d1&grades=1&k=5"
    assert url.full_link(None, scn) == "/?docs=d1&grades=1&k=5"


def test_defaults_match_trec_eval_and_the_scenario():
    assert url.DEFAULT_K == Scenario(()).k == 5
    assert dataclasses.replace(TREC_EVAL) == Conventions()


# --- a link without docs changes only the settings of the app's default list ------------------------------------------


def test_settings_only_link_keeps_the_base_list():
    base = Scenario.from_example(EXAMPLES["grades-32301"])
    scn, warnings = url.from_query_params({"gain": "exp", "k": "3"}, base=base)
    assert warnings == []
    assert scn == dataclasses.replace(base, k=3, conventions=Conventions(gain="exp"))


def test_list_keys_without_docs_are_ignored_with_a_warning():
    base = Scenario.from_example(EXAMPLES["grades-32301"])
    scn, warnings = url.from_query_params({"grades": "0,0,0,0,0", "missing": "d9:3", "titles": "x"}, base=base)
    assert [w.split(":")[0] for w in warnings] == ["Link key 'grades'", "Link key 'missing'", "Link key 'titles'"]
    assert scn == base


def test_without_a_base_a_link_without_docs_is_empty():
    assert url.from_query_params({"k": "3"})[0].ranking == ()


# --- unjudged documents ---------------------------------------------------------------------------------------------


def test_unjudged_docs_are_written_and_read_back():
    scn = Scenario(("d1", "d2", "d3"), ("d9",), {"d1": 3, "d2": 0, "d3": 1, "d9": 2}, k=3).with_unjudged({"d2"})
    assert url.to_query_params(scn) == {
        "docs": "d1,d2,d3",
        "grades": "3,0,1",
        "missing": "d9:2",
        "unjudged": "d2",
        "k": "3",
    }
    back, warnings = url.from_query_params(url.to_query_params(scn))
    assert warnings == [] and back.unjudged == {"d2"} and back.qrels == {"d1": 3, "d3": 1, "d9": 2}


def test_an_unjudged_id_that_is_not_ranked_is_ignored_with_a_warning():
    scn, warnings = url.from_query_params({"docs": "d1,d2", "missing": "d9:1", "unjudged": "d2,d9,zz"})
    assert scn.unjudged == {"d2"}
    assert warnings == [
        "Link key 'unjudged': 'd9' is not a ranked document in 'docs'; ignored. (see errors/share-link in the docs)",
        "Link key 'unjudged': 'zz' is not a ranked document in 'docs'; ignored. (see errors/share-link in the docs)",
    ]


# --- aspects (the diversity lesson's subtopics) ---------------------------------------------------------------------


def test_aspects_are_carried_by_name_per_document():
    titles = {"d1": "", "d2": "", "d9": ""}
    scn = Scenario(("d1", "d2"), ("d9",), {"d1": 2, "d2": 1, "d9": 1}, titles, aspects={"d1": ("price", "range")})
    scn = scn.with_aspects("d9", ["a, b | 100%"])
    params = url.to_query_params(scn)
    assert params["aspects"] == "price,range||a%2C b %7C 100%25"  # docs, then missing; a name's separators encoded
    assert url.from_query_params(params) == (scn, [])
    assert _through_a_real_url(scn) == (scn, [])


def test_a_link_without_aspects_still_loads_with_none():
    scn, warning = parse(docs="d1,d2", grades="1,0", k="2")  # a link shared before aspects existed
    assert warning == "" and scn.aspects == {} and "aspects" not in url.to_query_params(scn)


def test_aspect_lists_that_do_not_match_the_documents_are_dropped_with_a_warning():
    scn, warning = parse(docs="d1,d2", grades="1,1", aspects="price|range|safety")
    assert "Link key 'aspects'" in warning and "3 aspect lists for 2 documents" in warning
    assert scn.aspects == {} and scn.ranking == ("d1", "d2")


def test_a_bad_aspect_name_is_dropped_and_the_rest_kept():
    long = "x" * 41
    scn, warning = parse(docs="d1,d2", grades="1,1", aspects=f"price,,price|{long},range")
    assert "Link key 'aspects'" in warning and "needs a name" in warning and "at most 40 characters" in warning
    assert scn.aspects == {"d1": ("price",), "d2": ("range",)}


def test_more_aspects_than_the_limit_are_dropped_with_a_warning():
    names = ",".join(f"a{i}" for i in range(MAX_ASPECTS + 2))
    scn, warning = parse(docs="d1", grades="1", aspects=names)
    assert f"more than {MAX_ASPECTS} aspects" in warning and "'a12'" in warning
    assert len(scn.aspect_names) == MAX_ASPECTS


def test_aspects_without_docs_are_ignored_with_a_warning():
    base = Scenario(("a",), (), {"a": 1}, {"a": ""})
    scn, warnings = url.from_query_params({"aspects": "price"}, base=base)
    assert scn == base and any("Link key 'aspects'" in w and "no 'docs'" in w for w in warnings)

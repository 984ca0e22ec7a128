"""Shared links, export and presenter mode through app.py in AppTest.

A link is simulated by setting ``at.query_params`` before the first run, as the browser's address bar would.
Expected numbers come from the golden file (trec_eval, tests/data/golden_public.json) and by hand.
"""

from __future__ import annotations

import json
from math import log2
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ir_metrics_lab.shell import presenter
from tests.golden import PUBLIC
from tests.markdown_text import shown, styles

APP = str(Path(__file__).parents[1] / "app.py")
GOLDEN = {case["id"]: case["expected"] for case in PUBLIC}
SCHEMA = ("docs", "grades", "missing", "titles", "k", "t", "gain", "idcg", "apden", "scale")


# The Playground's "Share, export, present" expander: its link box, downloads and presenter toggle are drawn only once
# it is opened (ir_metrics_lab.parts.lazy_expander); a test opens it as a user would, through its state.
SHARE_BOX = "pg_share_export"


def playground(*, share_box_open: bool = True) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[SHARE_BOX] = share_box_open
    return at


def open_link(**params: str) -> AppTest:
    at = playground()
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def metric_values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def golden(case: str, metric: str) -> str:
    return f"{GOLDEN[case][metric]['mean']:.4f}"


def shown_order(at: AppTest) -> list[str]:
    for element in at.get("bidi_component"):
        data = json.loads(element.proto.json)
        if data.get("list") == "pg_list":
            return [item["id"] for item in data["items"]]
    raise AssertionError("no ranked list on the page")


def url_params(at: AppTest) -> dict[str, str]:
    return {key: at.query_params[key] for key in at.query_params}


def link_warning(at: AppTest) -> str:
    """The one warning on the page, without the Markdown escapes that keep user text literal."""
    assert len(at.warning) == 1, [w.value for w in at.warning]
    return at.warning[0].value.replace("\\", "")


# --- links reproduce the golden numbers ------------------------------------------------------------------------------


def test_link_reproduces_the_graded_list():
    at = open_link(docs="d1,d2,d3,d4,d5", grades="3,2,3,0,1", k="5")
    assert not at.exception and not at.warning
    values = metric_values(at)
    assert values["NDCG@5"] == golden("pub-seed001-rel-32301", "NDCG@5") == "0.9724"
    assert values["DCG@5"] == golden("pub-seed001-rel-32301", "DCG@5") == "6.1487"
    assert values["AP"] == golden("pub-seed001-rel-32301", "AP") == "0.9500"
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]


def test_link_with_a_missed_document_counts_it_in_idcg():
    at = open_link(docs="d1,d2,d3,d4,d5", grades="3,2,3,0,1", missing="d9:3", k="5")
    assert not at.exception and not at.warning
    values = metric_values(at)
    case = "pub-seed001-idcg-from-all-qrels"
    assert values["NDCG@5"] == golden(case, "NDCG@5") == "0.8047"
    assert values["R@5"] == golden(case, "R@5") == "0.8000"  # 4 of the 5 relevant docs; d9 was missed
    assert values["AP"] == golden(case, "AP") == "0.7600"
    assert at.button(key="pg_retrieve_d9")  # d9 is on the judged-but-not-retrieved shelf


def test_link_reproduces_retriever_a():
    at = open_link(docs="n1,n2,r1,r2,n3", grades="0,0,1,1,0", k="5")
    values = metric_values(at)
    case = "pub-seed000-retriever-A-middle"
    assert values["RR"] == golden(case, "RR") == f"{1 / 3:.4f}" == "0.3333"
    assert values["AP"] == golden(case, "AP") == f"{(1 / 3 + 2 / 4) / 2:.4f}" == "0.4167"
    assert values["P@5"] == golden(case, "P@5") == "0.4000"


def test_link_carries_k_and_conventions():
    at = open_link(docs="d1,d2,d3,d4,d5", grades="3,2,3,0,1", missing="d9:3", k="3", idcg="retrieved")
    # IDCG@3 from the retrieved grades only (3, 3, 2), not all judged (3, 3, 3): the blog shortcut
    assert metric_values(at)["NDCG@3"] == golden("pub-seed001-rel-32301", "NDCG@3")
    assert at.number_input(key="pg_k").value == 3
    assert at.radio(key="pg_idcg").value == "retrieved"


def test_the_page_shows_the_link_and_the_address_bar_holds_it():
    at = open_link(docs="d1,d2,d3", grades="0,3,1", missing="d9:2", k="3")
    assert at.code[0].value == "/?docs=d1,d2,d3&grades=0,3,1&missing=d9:2&k=3"
    assert url_params(at) == {"docs": "d1,d2,d3", "grades": "0,3,1", "missing": "d9:2", "k": "3"}
    assert at.button(key="pg_undo").disabled  # opening a link is not an undoable edit


def test_after_an_edit_the_address_bar_follows():
    at = open_link(docs="d1,d2,d3,d4,d5", grades="3,2,3,0,1", k="5")
    at.session_state["pg_list"] = {"edit": {"order": ["d4", "d1", "d2", "d3", "d5"], "nonce": "drag-1"}}
    at.run()
    assert url_params(at)["docs"] == "d4,d1,d2,d3,d5"
    assert url_params(at)["grades"] == "0,3,2,3,1"
    at.number_input(key="pg_k").set_value(3).run()
    assert url_params(at)["k"] == "3"
    at.radio(key="pg_gain").set_value("exp").run()
    assert url_params(at)["gain"] == "exp"
    assert at.code[0].value == "/?docs=d4,d1,d2,d3,d5&grades=0,3,2,3,1&k=3&gain=exp"


def captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def test_a_link_is_not_the_last_preset_but_a_preset_can_still_be_loaded():
    at = open_link(docs="n1,n2,r1,r2,n3", grades="0,0,1,1,0", k="5")
    picker = at.selectbox(key="pg_preset")
    assert picker.value is None and picker.placeholder == "Opened from a link"
    assert "Opened from a link" in captions(at)
    assert "28.19" not in captions(at) and "RAG Pipelines" not in captions(at)  # not the default preset's lesson
    picker.set_value("grades-32301").run()
    assert not at.exception
    assert at.selectbox(key="pg_preset").value == "grades-32301"
    assert "28.19" in captions(at) and "Opened from a link" not in captions(at)
    assert metric_values(at)["NDCG@5"] == golden("pub-seed001-rel-32301", "NDCG@5") == "0.9724"
    at.button(key="pg_undo").click().run()  # back to the link's list, and to its label
    assert metric_values(at)["RR"] == f"{1 / 3:.4f}"
    assert at.selectbox(key="pg_preset").value is None and "Opened from a link" in captions(at)


def test_without_a_link_the_playground_writes_the_preset():
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.warning
    assert url_params(at)["docs"] == "d1,d2,d3,d4,d5" and url_params(at)["grades"] == "3,2,3,0,1"
    assert at.selectbox(key="pg_preset").value == "grades-32301" and "28.19" in captions(at)


def test_other_pages_do_not_write_the_link():
    at = AppTest.from_file(APP, default_timeout=30).run()  # pages are known by url_path after a first run
    at.query_params.clear()  # the browser's navigation drops the playground's link
    at.switch_page("app_pages/play/ab.py").run()
    assert not at.exception and at.title[0].value == "Retriever A vs B"
    assert url_params(at) == {}


# --- bad links: a warning naming the key, the rest kept, no exception ------------------------------------------------


@pytest.mark.parametrize(
    ("params", "key", "problem"),
    [
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "k": "5", "colour": "red"}, "colour", "not part"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "abc,2,3,0,1", "k": "5"}, "grades", "abc"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "k": "-1"}, "k", "1 to 100"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "k": "x"}, "k", "1 to 100"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3", "k": "5"}, "grades", "3 grades for 5 documents"),
        ({"docs": "d1,d2,d3,d4,d5,d1", "grades": "3,2,3,0,1,0", "k": "5"}, "docs", "listed twice"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "titles": "a|b", "k": "5"}, "titles", "2 titles"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "scale": "1", "k": "5"}, "grades", "0-1 scale"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "gain": "cubic", "k": "5"}, "gain", "linear or exp"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "idcg": "none", "k": "5"}, "idcg", "all or retrieved"),
        ({"docs": "d1,d2,d3,d4,d5", "grades": "3,2,3,0,1", "apden": "1", "k": "5"}, "apden", "all or retrieved"),
    ],
)
def test_bad_link_warns_and_keeps_the_rest(params, key, problem):
    at = open_link(**params)
    assert not at.exception
    text = link_warning(at)
    assert f"Link key '{key}'" in text and problem in text
    assert shown_order(at)[:5] == ["d1", "d2", "d3", "d4", "d5"]
    assert at.number_input(key="pg_k").value == 5
    assert set(url_params(at)) <= set(SCHEMA)  # an unknown key is dropped from the address bar
    at.run()
    assert not at.warning  # shown once


def test_bad_grade_link_numbers():
    at = open_link(docs="d1,d2,d3,d4,d5", grades="abc,2,3,0,1", k="5")
    # d1's grade fell back to 0: hits at ranks 2, 3, 5 of R = 3 relevant docs
    assert metric_values(at)["AP"] == f"{(1 / 2 + 2 / 3 + 3 / 5) / 3:.4f}"
    assert url_params(at)["grades"] == "0,2,3,0,1"


def test_ten_thousand_documents_are_capped():
    at = open_link(docs=",".join(f"d{i}" for i in range(10_000)), grades=",".join(["1"] * 10_000), k="5")
    assert not at.exception
    assert "10000 documents" in link_warning(at)
    assert len(shown_order(at)) == 100
    assert len(url_params(at)["docs"].split(",")) == 100


def test_script_title_is_shown_as_text():
    at = open_link(docs="d1,d2", grades="1,0", titles="<script>alert(1)</script>|plain", k="2")
    assert not at.exception and not at.warning
    assert url_params(at)["titles"] == "<script>alert(1)</script>|plain"


def test_an_id_that_cannot_be_linked_is_explained():
    at = playground().run()
    at.text_input(key="pg_add_id").input("a,b")
    at.button(key="pg_add").click().run()
    assert not at.exception
    assert any("a,b" in shown(w.value) and "no link" in shown(w.value) for w in at.warning)
    assert not at.code  # no link to copy
    assert not any(key in url_params(at) for key in SCHEMA)  # the address bar no longer claims to hold the list


# --- export and presenter mode --------------------------------------------------------------------------------------


def test_export_buttons_exist():
    at = open_link(docs="d1,d2,d3,d4,d5", grades="3,2,3,0,1", missing="d9:3", k="5")
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    assert set(buttons) == {"Worked solution (.md)", "Numbers (.csv)", "Open as notebook (.ipynb)"}
    assert buttons["Worked solution (.md)"].url.endswith(".md")
    assert buttons["Numbers (.csv)"].url.endswith(".csv")


def test_a_closed_share_box_builds_no_link_and_no_export():
    """Closed, as on every new visit: no link box, no download (the exports are not even built), no toggle."""
    at = playground(share_box_open=False)
    at.query_params["docs"] = "d1,d2"
    at.run()
    assert not at.exception
    assert len(at.code) == 0 and at.get("download_button") == []
    assert "pg_presenter" not in [toggle.key for toggle in at.toggle]  # the sidebar's own toggle is there
    assert url_params(at) == {"docs": "d1,d2", "grades": "0,0", "k": "5"}  # the address bar still holds the link
    at.session_state[SHARE_BOX] = True  # opened
    at.run()
    assert at.code[0].value == "/?docs=d1,d2&grades=0,0&k=5" and len(at.get("download_button")) == 3


def test_presenter_mode_toggles():
    at = playground().run()
    at.toggle(key="pg_presenter").set_value(True).run()
    assert not at.exception
    assert at.session_state["presenter_mode"] is True
    at.toggle(key="pg_presenter").set_value(False).run()
    assert not at.exception
    assert at.session_state["presenter_mode"] is False


def test_presenter_mode_keeps_the_playground_settings_on_the_page():
    """Presenter mode draws no sidebar, where the Playground's settings are: k and the conventions are in an expander
    under the share one, and still drive the numbers."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["presenter_mode"] = True
    at.run()
    assert not at.exception and not at.sidebar.children
    at.number_input(key="pg_k").set_value(3).run()
    assert not at.exception
    assert [m.label for m in at.metric][:1] == ["NDCG@3"]


def _presenter_frame() -> None:
    """What app.py does on every page: the sidebar toggle and apply()."""
    from ir_metrics_lab.shell import presenter

    presenter.sidebar_toggle()
    presenter.apply(lambda: None)


def test_presenter_apply_injects_css_and_an_exit_button():
    at = AppTest.from_function(_presenter_frame, default_timeout=30).run()
    assert not at.exception and not styles(at) and not at.button
    at.sidebar.toggle(key=presenter.SIDEBAR_KEY).set_value(True).run()
    assert styles(at) == [presenter.CSS]
    at.button(key=presenter.EXIT_KEY).click().run()
    assert not at.exception and not styles(at) and not at.button
    assert at.sidebar.toggle(key=presenter.SIDEBAR_KEY).value is False


def test_the_presenter_toggle_drawn_again_defaults_to_presenter_mode():
    """A toggle the browser mounts late shows its default until it applies the value sent with it, and sends the
    default back with the next click: drawn in presenter mode its default must be "on" (or a page switch turned
    presenter mode off: 4 switches in 10 in Chromium), and "off" once Exit has turned it off."""
    at = AppTest.from_function(_presenter_frame, default_timeout=30).run()
    at.sidebar.toggle(key=presenter.SIDEBAR_KEY).set_value(True).run()
    toggle = at.sidebar.toggle(key=presenter.SIDEBAR_KEY)
    assert toggle.value is True and toggle.proto.default is True
    at.button(key=presenter.EXIT_KEY).click().run()
    toggle = at.sidebar.toggle(key=presenter.SIDEBAR_KEY)
    assert toggle.value is False and toggle.proto.default is False


def test_settings_only_link_applies_to_the_default_list():
    at = open_link(k="3", gain="exp")
    assert not at.exception and not at.warning
    assert shown_order(at) == ["d1", "d2", "d3", "d4", "d5"]
    # grades 3, 2, 3 at ranks 1-3 with gain 2^g - 1: 7, 3, 7; ideal 7, 7, 3
    dcg = 7 / log2(2) + 3 / log2(3) + 7 / log2(4)
    idcg = 7 / log2(2) + 7 / log2(3) + 3 / log2(4)
    assert metric_values(at)["NDCG_exp@3"] == f"{dcg / idcg:.4f}" == golden("pub-seed001-rel-32301", "NDCG_exp@3")
    assert url_params(at)["docs"] == "d1,d2,d3,d4,d5" and url_params(at)["gain"] == "exp"

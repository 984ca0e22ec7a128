"""The app on trec_eval's preference measures and yaap (ir_metrics_lab.parts.preferences,
metrics.preferences.preference_example, metrics.teaching.worked_example): what they are for and a worked example each
on the Conventions explorer; the playground's catalog picker says how its list is read by a measure of preferences. The
numbers are worked out by hand.
"""

from __future__ import annotations

import math
from pathlib import Path

from streamlit.testing.v1 import AppTest

from metrics.preferences.preference_example import preference_example
from metrics.teaching.worked_example import yaap_example
from tests.markdown_text import shown

ROOT = Path(__file__).parents[1]


def test_the_preference_example_by_hand():
    """Alice: d1 > d2, d1 > d3, d2 > d3, all fulfilled by the ranking d1, d2, d3; Bob: d2 > d1, not fulfilled."""
    steps = preference_example().steps
    assert steps[0].startswith(f"prefs_simp = 3 / 4 = {3 / 4:.4f}")
    assert steps[1].startswith(f"prefs_avgjg = (3 / 3 + 0 / 1) / 2 = {(1 + 0) / 2:.4f}")
    assert steps[2].startswith(f"prefs_pair = (0.5 + 1 + 1) / 3 = {2.5 / 3:.4f}")


def test_the_yaap_example_by_hand():
    """a and b relevant at ranks 1 and 3, z never retrieved: S = 1 + 2/3, R = 3."""
    steps = yaap_example().steps
    total = 1 + 2 / 3
    assert f"= {math.log((1 + total) / (1 + 3 - total)):.4f}" in steps[1]
    assert f"log(1 / 4) = {math.log(1 / 4):.4f}" in steps[2]


def test_the_conventions_explorer_explains_preferences_and_yaap():
    at = AppTest.from_file(str(ROOT / "app_pages" / "reference" / "conventions.py"), default_timeout=30).run()
    assert not at.exception
    ours = [m.value for m in at.markdown if "prefs" in m.value or "yaap" in m.value or "Preference" in m.value]
    text = " ".join(shown(value, allowed=("strong", "ul", "li")) for value in ours)
    assert "Preference judgments say which of two documents is better" in text
    assert "yaap (yet another average precision" in text
    assert "prefs_avgjg = (3 / 3 + 0 / 1) / 2 = 0.5000" in text


def test_the_catalog_picker_says_how_a_preference_measure_reads_the_list():
    at = AppTest.from_file(str(ROOT / "app_pages" / "play" / "playground.py"), default_timeout=30).run()
    at.session_state["pg_tab"] = "Any measure"
    at.run()
    at.selectbox(key="pg_any_measure").set_value("prefs_simp").run()
    assert not at.exception
    assert any("read as one user's preferences" in caption.value for caption in at.caption)
    at.selectbox(key="pg_any_measure").set_value("P@5").run()
    assert not any("read as one user's preferences" in caption.value for caption in at.caption)

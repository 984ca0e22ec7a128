"""ir_metrics_lab.core.family_display: where the app shows each family, keyed by the registry's family keys."""

from __future__ import annotations

import doctest

import pytest

from ir_metrics_lab.core import family_display
from ir_metrics_lab.core.family_display import Display
from metrics.catalog import registry


def test_the_examples_in_its_docstrings_hold():
    """lab_core's doctests are not collected by the suite (its testpaths are tests/, metrics/ and the README): run
    these."""
    result = doctest.testmod(family_display)
    assert result.attempted >= 6 and result.failed == 0


def test_every_display_names_a_declared_family_once():
    assert {d.family for d in family_display.DISPLAYS} <= {f.key for f in registry.FAMILIES}
    assert len({d.family for d in family_display.DISPLAYS}) == len(family_display.DISPLAYS)
    with pytest.raises(ValueError, match="undeclared family: 'nDCG'"):
        family_display._by_family([Display("nDCG")])
    with pytest.raises(ValueError, match="two displays of 'AP'"):
        family_display._by_family([Display("AP", card=1), Display("AP")])


def test_a_family_without_a_display_has_no_card_tab_curve_or_list():
    shown = family_display.display("gm_bpref")
    assert shown == Display("gm_bpref") and "gm_bpref" not in family_display.cards("order")
    assert family_display.card_k("gm_bpref", 5) == 5 and family_display.card_k("AP", 5) is None


def test_the_pooling_bias_table_sets_ap_beside_bpref_and_infap():
    assert family_display.listed("pooling_bias") == ("AP", "bpref", "infAP")


def test_a_tab_shows_beside_its_own_only_carded_families():
    """The playground computes the carded families (ir_metrics_lab.core.numbers.breakdowns): the formulas and charts a
    tab shows beside its own family's must be among them."""
    carded = {f.key for f in family_display.carded()}
    for shown in family_display.DISPLAYS:
        assert {*shown.beside, *(shown.versus or ())} <= carded, shown.family
        assert not shown.bars or shown.family in family_display.cards("set"), shown.family

"""Every formula the app and the site typeset parses in KaTeX: each family's definition under each convention, and its
worked formula on lists that take its different branches (a typical list, an empty one, one with nothing relevant).

The app draws them with st.latex and the site with KaTeX, both told not to throw, so a formula KaTeX cannot parse
shows as red source text instead of failing anything: only KaTeX itself can say it parses. The site's vendored copy
(docs/javascripts/katex/) is loaded into one page and given every formula with ``throwOnError``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics import parse_measure
from metrics.catalog.registry import families
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.teaching.formulas import latex
from scripts.docs_site import example_measure

KATEX = Path(__file__).resolve().parents[2] / "docs" / "javascripts" / "katex" / "katex.min.js"

CONVENTIONS = (
    TREC_EVAL,
    Conventions(gain="exp", idcg="retrieved", ap_denominator="retrieved", recall_rounding="plus_0.9", threshold=2),
)
LISTS = (
    (["d1", "d2", "d3", "d4", "d5"], {"d1": 3, "d2": 0, "d3": 1, "d5": 2, "d9": 2}),
    ([], {"d1": 1}),
    (["d1", "d2"], {"d1": 0, "d7": 0}),
)


def all_formulas() -> dict[str, str]:
    """Where each formula comes from -> its LaTeX."""
    formulas = {}
    for family in families():
        for conventions in CONVENTIONS:
            formulas[f"{family.key} definition, {conventions}"] = family.teaching.definition(conventions)
        measure = parse_measure(example_measure(family))
        for number, (ranking, qrels) in enumerate(LISTS):
            for conventions in CONVENTIONS:
                b = measure.compute(ranking, qrels, conventions)
                formulas[f"{measure} worked on list {number}, {conventions}"] = latex(b)
    return formulas


def test_every_formula_parses_in_katex(page) -> None:
    formulas = all_formulas()
    page.add_script_tag(content=KATEX.read_text(encoding="utf-8"))
    errors = page.evaluate(
        """formulas => Object.entries(formulas).flatMap(([where, tex]) => {
            try { katex.renderToString(tex, {displayMode: true, throwOnError: true}); return []; }
            catch (e) { return [where + ": " + e.message]; }
        })""",
        formulas,
    )
    assert len(formulas) > 200
    assert errors == [], "\n".join(errors)


if __name__ == "__main__":
    pytest.main([__file__])

"""The registry is the one declaration of each measure family: every consumer's view must follow from it."""

from __future__ import annotations

import ast
import inspect
import pickle
import re
import typing
from pathlib import Path

import pytest

from ir_metrics_lab.core import family_display
from metrics import Breakdown, Conventions, parse_measure
from metrics.catalog import registry
from metrics.catalog.measures import FUNCTIONS
from metrics.evaluation.engine import evaluate

CONVENTIONS = [
    Conventions(),
    Conventions(gain="exp"),
    Conventions(idcg="retrieved", ap_denominator="retrieved"),
    Conventions(threshold=2, gain="exp"),
]
RANKING = ["a", "x", "b", "c"]
QRELS = {"a": 2, "b": 1, "c": 0, "z": 3}


@pytest.mark.parametrize("declared", registry.FAMILIES, ids=lambda f: f.key)
def test_every_family_has_an_engine_kernel(declared):
    """The engine calls the family's own kernel on the prepared run: one value per evaluated query."""
    result = evaluate({"q1": RANKING, "q2": ["c"]}, {"q1": QRELS, "q2": {"c": 1}}, [parse_measure(declared.key)])
    assert callable(declared.kernel)
    assert len(result.per_query[declared.key]) == 2


@pytest.mark.parametrize("declared", registry.FAMILIES, ids=lambda f: f.key)
@pytest.mark.parametrize("conventions", CONVENTIONS, ids=repr)
def test_readable_function_returns_the_declared_family_and_terms(declared, conventions):
    for k in (None, 1, 3, 10):
        b = declared.function(RANKING, QRELS, k, conventions=conventions)
        assert isinstance(b, Breakdown)
        assert b.family == declared.key
        assert b.graded == declared.graded  # Breakdown.metric's _exp suffix
        assert set(b.terms) <= set(declared.teaching.terms)
        if declared.key != "RR":  # RR names its first relevant rank only when there is one
            assert set(b.terms) == set(declared.teaching.terms)


@pytest.mark.parametrize("declared", registry.FAMILIES, ids=lambda f: f.key)
@pytest.mark.parametrize("conventions", CONVENTIONS, ids=repr)
def test_every_family_renders_its_definition_and_worked_formula(declared, conventions):
    assert declared.teaching.definition(conventions).startswith(r"\mathrm")
    worked = declared.teaching.worked(declared.function(RANKING, QRELS, 3, conventions=conventions))
    assert worked.startswith(r"\begin{aligned}") and worked.endswith(r"\end{aligned}")


def test_every_canonical_name_and_spelling_parses_to_its_family():
    for name in registry.canonical_names():
        example = re.sub(r"@(multiple|level)$", "@0.5", name.replace("@k", "@5"))
        assert parse_measure(example).canonical == example
    for declared in registry.FAMILIES:
        for spelling in (declared.key, *declared.names.spellings):
            needs_cut = spelling == declared.trec_eval.name and declared.trec_eval.uncut
            assert parse_measure(spelling + ("_5" if needs_cut else "")).family == declared.key


def test_views_of_the_registry_follow_it():
    assert list(FUNCTIONS) == [f.key for f in registry.FAMILIES]
    shown = family_display.cards("order") + family_display.cards("set")
    assert sorted(shown) == sorted(d.family for d in family_display.DISPLAYS if d.card is not None)


def test_the_measure_table_names_every_familys_function():
    """The measure catalogue's table (the documentation site's, generated at build: scripts/docs_site.py)."""
    table = registry.markdown_table()
    assert all(f"`{f.function.__name__}`" in table for f in registry.FAMILIES)


def test_the_families_trec_eval_c_sets_to_zero_for_a_query_missing_from_the_run():
    """trec_eval.c scores such a query on its stand-in ranking, then "cleans up leftovers": num_ret, num_rel_ret,
    num_nonrel_judged_ret, unj, rbp_resid and a plain utility go to 0 (a utility with parameters keeps the stand-in's
    value); num_rel's 'all' line counts the qrels lines graded above 0 (m_num_rel.c)."""
    from metrics import parse_measure
    from metrics.evaluation.aggregate import zero_when_missing

    zeroed = {f.key for f in registry.FAMILIES if f.trec_eval.zero_when_missing is True}
    assert zeroed == {"NumRet", "NumRelRet", "NumNonRelJudgedRet", "unj", "RBP_resid"}
    assert zero_when_missing(parse_measure("utility")) and not zero_when_missing(parse_measure("utility.2,-1,0,0"))
    assert [f.key for f in registry.FAMILIES if f.trec_eval.stand_in is not None] == ["utility"]
    assert [f.key for f in registry.FAMILIES if f.trec_eval.counts_positive_judgments] == ["NumRel"]


def _exported_by_name(source: str) -> set[str]:
    """The names a package's ``__init__`` source both imports by name (``from module import name``, run at import,
    not under ``if TYPE_CHECKING:``) and lists in a literal ``__all__``: what editors and type checkers see."""
    tree = ast.parse(source)
    imported = {
        alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    listed = {
        element.value
        for node in tree.body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]
        for element in getattr(node.value, "elts", [])
        if isinstance(element, ast.Constant)
    }
    return imported & listed


def test_metrics_exports_every_familys_readable_function_by_name():
    """A new family's readable function must be imported and listed in metrics/__init__.py by hand: a name added at
    run time (``globals().update``) is invisible to editors and type checkers."""
    import metrics

    sample = "from metrics.families.dcg import dcg\nfrom metrics.x import ndcg\nglobals().update(bpref=1)\n"
    assert _exported_by_name(sample + '__all__ = ["dcg", "bpref"]') == {"dcg"}  # the check finds the two missing
    exported = _exported_by_name(Path(metrics.__file__).read_text(encoding="utf-8"))
    missing = [f.function.__name__ for f in registry.FAMILIES if f.function.__name__ not in exported]
    assert missing == []
    for declared in registry.FAMILIES:
        assert getattr(metrics, declared.function.__name__) is declared.function, declared.key


def test_metrics_exports_the_whole_run_entry_points_loaded_on_first_use():
    """``metrics.evaluate``, ``metrics.read_run`` and ``metrics.read_qrels``: the engine's and the readers' own
    functions, listed in ``__all__``; they load numpy and pyarrow only when first used
    (tests/test_ranking.py: importing metrics imports no numpy)."""
    import metrics
    from metrics import io

    assert {"evaluate", "read_run", "read_qrels"} <= set(metrics.__all__)
    assert (metrics.evaluate, metrics.read_run, metrics.read_qrels) == (evaluate, io.read_run, io.read_qrels)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        metrics.no_such_name  # noqa: B018


def _numpydoc_sections(doc: str | None) -> set[str]:
    """The titles of a numpydoc docstring's sections: a line of words underlined with dashes."""
    return {m[1] for m in re.finditer(r"^(\w[\w ]*)\n-{3,}$", doc or "", re.M)}


def _missing_sections(namespace: object, names: list[str]) -> dict[str, list[str]]:
    """{name: the numpydoc sections its docstring lacks} for the functions and classes among ``names`` (read with
    getattr, so lazily exported ones load): Parameters, Returns (functions only) and Examples. Data (constants, type
    aliases) is skipped by its kind."""
    missing = {}
    for name in names:
        obj = getattr(namespace, name)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        want = {"Parameters", "Examples"} if inspect.isclass(obj) else {"Parameters", "Returns", "Examples"}
        lacking = sorted(want - _numpydoc_sections(inspect.getdoc(obj)))
        if lacking:
            missing[name] = lacking
    return missing


def test_every_public_function_and_class_has_a_numpydoc_docstring():
    """Every function and class in ``metrics.__all__`` documents its Parameters, Returns (functions) and Examples,
    numpydoc style: what the API pages (mkdocstrings) and ``help()`` show."""
    import types

    import metrics

    def documented(ranking, qrels):
        """Documented.

        Parameters
        ----------
        ranking, qrels
            The inputs.

        Returns
        -------
        float
            The value.

        Examples
        --------
        >>> 1
        1
        """

    def bare(ranking, qrels):
        """A summary, and prose that names Parameters and Examples but has no sections."""

    class Bare:
        """A class with a summary only."""

    sample = types.SimpleNamespace(documented=documented, bare=bare, Bare=Bare, LIMIT=10, Alias=dict[str, int])
    assert _missing_sections(sample, ["documented", "bare", "Bare", "LIMIT", "Alias"]) == {
        "bare": ["Examples", "Parameters", "Returns"],
        "Bare": ["Examples", "Parameters"],
    }
    assert _missing_sections(metrics, list(metrics.__all__)) == {}


@pytest.mark.parametrize("declared", registry.FAMILIES, ids=lambda f: f.key)
def test_every_kernel_is_typed_as_the_engine_calls_it(declared):
    """Kernel(data: Prepared, measure: Measure) -> an array (metrics.catalog.family.Kernel); the family modules
    import Measure for annotations only (if TYPE_CHECKING)."""
    import numpy as np

    from metrics.catalog.family import Measure
    from metrics.core.prepared import Prepared

    hints = typing.get_type_hints(declared.kernel, localns={"Measure": Measure})
    assert hints == {"data": Prepared, "measure": Measure, "return": np.ndarray}


@pytest.mark.parametrize("declared", registry.FAMILIES, ids=lambda f: f.key)
def test_a_measure_pickles_with_its_familys_own_record(declared):
    """A Measure holds its family's record (so computing it needs no look-up in the registry); pickled, as for a Dask
    worker, the record travels by name and comes back as the declared one, lambdas and all."""
    measure = parse_measure(declared.key + ("@10" if declared.cutoff == "required" else ""))
    assert measure.record is declared and measure.family == declared.key
    again = pickle.loads(pickle.dumps(measure))
    assert again == measure and again.record is declared and repr(again) == repr(measure)


def test_a_family_declares_a_term_of_its_own_with_no_list_to_edit():
    from metrics.core.types import Term
    from metrics.families.bpref import PREFERENCE_SUM

    assert isinstance(PREFERENCE_SUM, Term) and not hasattr(Term, "PREFERENCE_SUM")  # bpref's, not types.py's
    assert PREFERENCE_SUM in registry.family("bpref").teaching.terms
    assert repr(Term("sum of preferences")) == "'sum of preferences'" and Term("hits") == Term.HITS == "hits"
    assert all(isinstance(term, Term) for f in registry.FAMILIES for term in f.teaching.terms)

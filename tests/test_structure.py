"""Rules about how the project's files depend on each other, checked on the source (no app run)."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
from pathlib import Path

import pytest

from tests.page_scripts import page_scripts

REPO = Path(__file__).resolve().parents[1]

# The app's package, in its two halves: the Streamlit side (these sub-packages) and the pure core below it.
STREAMLIT_SIDE = ("ir_metrics_lab/shell", "ir_metrics_lab/session", "ir_metrics_lab/parts", "ir_metrics_lab/classroom")
CORE = "ir_metrics_lab/core"
APP_PACKAGES = (*STREAMLIT_SIDE, CORE)  # the whole package but its launcher (__init__, __main__)


def _python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (REPO / folder).rglob("*.py"))


@functools.cache  # the Streamlit-loading checks walk the same modules' imports many times over
def _imported_modules(path: Path) -> frozenset[str]:
    """The modules ``path`` imports, with ``from package import module`` read as the module too."""
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
            modules.update(f"{node.module}.{a.name}" for a in node.names if _module_path(f"{node.module}.{a.name}"))
    return frozenset(modules)


def test_the_app_and_its_libraries_never_import_the_launcher():
    """ir_metrics_lab.__main__ (the ``ir-metrics-lab`` command) imports the core; where the app's files are is
    ir_metrics_lab.core.paths' fact, so nothing below the launcher reaches back into it."""
    launcher = {"ir_metrics_lab.__main__"}
    offenders = {
        str(path.relative_to(REPO)): sorted(_imported_modules(path) & launcher)
        for path in {*_python_files(*APP_PACKAGES, "metrics"), *page_scripts(), REPO / "app.py"}
    }
    assert {path: modules for path, modules in offenders.items() if modules} == {}


# The modules that own the session_state keys, one per thing a visitor's session holds (all in ir_metrics_lab/session/).
SESSION_STATE = tuple(
    f"ir_metrics_lab/session/{name}_state.py"
    for name in (
        "playground",
        "ab",
        "multi_query",
        "quiz",
        "live",
        "task",
        "dataset",
        "presenter",
        "first_paint",
        "widget",
    )
)


def _session_state_lines(path: Path) -> list[int]:
    """The lines of ``path`` that name ``session_state`` (``st.session_state``, an import of it)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if (isinstance(node, ast.Attribute) and node.attr == "session_state")
        or (isinstance(node, ast.Name) and node.id == "session_state")
        or (isinstance(node, ast.alias) and node.name == "session_state")
    ]


def test_pages_reach_session_state_only_through_the_session_state_modules():
    """The *_state modules of ir_metrics_lab.session (SESSION_STATE) own every session_state key, each the keys of one
    thing a session holds: a page, a part or the rest of session/ calls their functions (widget_value, sync_widget,
    scenario, ...), never ``st.session_state`` itself, so what the app keeps and how it survives page switches is read
    in those modules alone."""
    assert _session_state_lines(REPO / SESSION_STATE[0])  # the check finds them
    touching = {
        str(path.relative_to(REPO))
        for path in [*page_scripts(), REPO / "app.py", *_python_files("ir_metrics_lab/parts", "ir_metrics_lab/session")]
        if _session_state_lines(path)
    }
    assert touching == set(SESSION_STATE)


def _stops(source: str) -> list[int]:
    """The lines of ``source`` that call ``st.stop()``."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "stop"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "st"
    ]


def test_no_page_cuts_its_run_short_with_st_stop():
    """app.py sends the app's CSS (ir_metrics_lab.shell.css) and ends ir_metrics_lab.shell.first_paint's run after
    page.run(): a page that called
    st.stop() left the projector unstyled in presenter mode and a phone without its layout rules (Ask the class,
    Join a class). Pages return early instead (compare_runs.render says what else st.stop() skips)."""
    assert _stops("import streamlit as st\nif x:\n    st.stop()\nstop()\nself.st.stop") == [3]  # the check works
    stops = {
        str(path.relative_to(REPO)): lines
        for path in [*page_scripts(), *_python_files(*STREAMLIT_SIDE)]
        if (lines := _stops(path.read_text(encoding="utf-8")))
    }
    assert stops == {}


def _magic_lines(source: str) -> list[int]:
    """The lines of ``source`` with a bare expression Streamlit's magic would draw (not a call, not a docstring)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and id(node) not in docstrings
        and not isinstance(node.value, ast.Call | ast.Await | ast.Yield | ast.YieldFrom)
    ]


def test_no_script_of_the_app_relies_on_streamlit_magic():
    """.streamlit/config.toml turns magic off (a first visit's scripts compile without its syntax-tree pass,
    docs/performance.md): a bare expression in app.py or a page would silently draw nothing."""
    assert _magic_lines('"""doc"""\nx = 1\nx\nst.write(x)\ndef f():\n    """doc"""\n    "text"\n') == [3, 7]
    assert re.search(r"^magicEnabled = false$", (REPO / ".streamlit" / "config.toml").read_text(), re.M)
    bare = {
        str(path.relative_to(REPO)): lines
        for path in [REPO / "app.py", *page_scripts()]
        if (lines := _magic_lines(path.read_text(encoding="utf-8")))
    }
    assert bare == {}


# --- citations: every file the code, the tests and the docs name is in a clone ---

_PATH = re.compile(r"(?<![\w/.<\\-])((?:[\w.-]+/)+[\w.-]+\.(?:md|py|json|toml|sh|js|css|gz|png|txt))(?![\w/])")
_MARKDOWN_NAME = re.compile(r"(?<![\w/.<\\-])([\w.-]+\.md)\b")
_OUTPUT_NAMES = {"ir-metrics-scenario.md"}  # the playground's Markdown download: a file the app writes, not a citation
_WHEEL_APP = "ir_metrics_lab/app/"  # inside the wheel: pyproject.toml maps it to the repository's top level
_SECTION = re.compile(r"docs/conventions\.md(?:'s)? §(\d+)(?:\.(\d+))?")


def _citing_files() -> list[Path]:
    """The project's text files: the top level's, .ci/'s, and those of every folder a clone has (not .venv/, build/)."""
    folders = [REPO / ".ci"] + [
        path
        for path in REPO.iterdir()
        if path.is_dir() and not path.name.startswith(".") and not _ignored_by_git(path.name + "/")
    ]
    files = [path for path in REPO.iterdir() if path.is_file() and path.suffix in {".py", ".md", ".toml"}]
    for folder in folders:
        files += [
            path
            for path in folder.rglob("*")
            if path.is_file() and (path.suffix in {".py", ".md", ".sh", ".toml"} or path.name == "run")
        ]
    return files


def _ignored_by_git(path: str) -> bool:
    """Generated files (bench/out/, tests/artifacts/, ...): .gitignore'd, so a clone makes them, never has them."""
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=REPO).returncode == 0


def _cited_paths() -> dict[str, set[str]]:
    """{cited path: the files citing it}, for every path under one of the repository's top-level folders and every
    Markdown file named, with or without a folder (a bare name is one of the project's Markdown files)."""
    top_level = {path.name for path in REPO.iterdir()}
    cited: dict[str, set[str]] = {}
    for path in _citing_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        where = str(path.relative_to(REPO))
        for match in _PATH.finditer(text):
            name = match.group(1)
            if name.split("/")[0] in top_level or name.endswith(".md"):
                cited.setdefault(name.removeprefix(_WHEEL_APP), set()).add(where)
        for match in _MARKDOWN_NAME.finditer(text):
            if match.group(1) not in _OUTPUT_NAMES:
                cited.setdefault(match.group(1), set()).add(where)
    return cited


def test_every_file_the_code_tests_and_docs_cite_is_in_the_repository():
    markdown_names = {path.name for folder in ("", "docs", "bench", "tests") for path in (REPO / folder).glob("*.md")}
    missing = {
        name: sorted(by)
        for name, by in _cited_paths().items()
        if not (REPO / name).exists() and name not in markdown_names and not _ignored_by_git(name)
    }
    assert missing == {}, "cited but not in a clone (copy what is needed into the project, e.g. docs/)"


def test_the_cited_sections_of_the_conventions_exist():
    """``docs/conventions.md §2`` is a heading ``## 2.``; ``§3.9`` a heading ``### 3.9``, or item 9 of section 3's
    numbered list (``§4.4``)."""
    conventions = (REPO / "docs" / "conventions.md").read_text(encoding="utf-8")
    sections = {match.group(1): match.start() for match in re.finditer(r"^## (\d+)\. ", conventions, re.MULTILINE)}
    cited = {
        (match.group(1), match.group(2)): str(path.relative_to(REPO))
        for path in _citing_files()
        for match in _SECTION.finditer(path.read_text(encoding="utf-8", errors="replace"))
    }
    assert cited, "nothing cites docs/conventions.md by section: this test would check nothing"
    absent = []
    for (section, item), where in sorted(cited.items()):
        if section not in sections:
            absent.append((f"§{section}", where))
            continue
        start = sections[section]
        following = [s for s in sections.values() if s > start]
        body = conventions[start : min(following) if following else len(conventions)]
        if item and not re.search(rf"^(### {section}\.{item} |\s*{item}\. )", body, re.MULTILINE):
            absent.append((f"§{section}.{item}", where))
    assert absent == []


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(folder: str) -> dict[str, set[str]]:
    """Module -> the modules of the same folder it imports, anywhere in its source: inside functions, and under
    ``if TYPE_CHECKING:`` too (an import for annotations is still a dependency: two modules that need each other's
    types belong together, or one of the types elsewhere). ``from package import module`` counts as importing the
    module, not the package."""
    modules = {_module_name(path): path for path in _python_files(folder)}
    return {
        name: _imports_among(path.read_text(encoding="utf-8"), set(modules)) - {name} for name, path in modules.items()
    }


def _imports_among(source: str, modules: set[str]) -> set[str]:
    """The dotted ``modules`` that ``source`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            targets = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module for a in node.names
            ]
        else:
            continue
        found.update(target for target in targets if target in modules)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


@pytest.mark.parametrize("package", ["metrics", "ir_metrics_lab"])
def test_no_import_cycle(package):
    """Within metrics/ and within ir_metrics_lab/, counting imports for annotations only."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]  # the check finds one
    sample = "import a\nif TYPE_CHECKING:\n    from p import b\nelse:\n    import c\ndef f():\n    import d\nimport e"
    assert _imports_among(sample, {"a", "p.b", "c", "d", "x"}) == {"a", "p.b", "c", "d"}  # annotations' imports too
    graph = _import_graph(package)
    assert len(graph) > 20  # the modules were found
    assert _cycles(graph) == []


def _family_assignments(tree: ast.Module) -> list[list[ast.keyword]]:
    """The keyword arguments of each module-level ``NAME = Family(...)`` of a module."""
    return [
        node.value.keywords
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and getattr(node.value.func, "id", None) == "Family"
    ]


def _variant_keys(tree: ast.Module) -> list[str]:
    """The keys of a module's table of variants (``VARIANTS = (Variant(key=...), ...)``), in order; [] without one."""
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(target, "id", None) for target in node.targets] == ["VARIANTS"]
            and isinstance(node.value, ast.Tuple)
        ):
            rows = [row for row in node.value.elts if isinstance(row, ast.Call)]
            return [keyword.value.value for row in rows for keyword in row.keywords if keyword.arg == "key"]
    return []


def _family_calls(tree: ast.Module) -> int:
    """How many ``Family(...)`` calls a module holds, anywhere in it."""
    return sum(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Family" for node in ast.walk(tree))


def test_every_family_has_one_module_and_one_test_file():
    """metrics/families/<name>.py declares exactly one family (modules named _* hold shared code and declare none),
    and tests/families/test_<name>.py tests it: the README's recipe for adding a measure. Families that differ only by
    names and flags (prefs_simp, prefs_simp_ret, prefs_simp_imp) are instead a table of variants of one measure in
    one module: its VARIANTS, two rows or more whose keys name the module, and one Family(...) that builds each row's
    record; its test file is parametrised over the variants, naming each."""
    from metrics.catalog import registry

    table = 'VARIANTS = (Variant(key="x", order=1), Variant(key="x_ret", order=2))\ndef f(v):\n    return Family(key=v)'
    assert (_variant_keys(ast.parse(table)), _family_calls(ast.parse(table))) == (["x", "x_ret"], 1)  # the checks work
    declared, tables = {}, {}
    for path in _python_files("metrics/families"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls, variants = _family_assignments(tree), _variant_keys(tree)
        if path.stem.startswith("_"):
            assert calls == [] and variants == [], path
            continue
        if variants:  # a table of variants of one measure
            assert calls == [] and _family_calls(tree) == 1, path
            assert len(variants) > 1 and all(path.stem in key.lower() for key in variants), path
            declared.update(dict.fromkeys(variants, path.stem))
            tables[path.stem] = variants
            continue
        assert len(calls) == 1, path
        (key,) = [keyword.value.value for keyword in calls[0] if keyword.arg == "key"]  # keyword arguments only
        declared[key] = path.stem
    # every registered family, and its readable function, from the module that declares it
    assert {f.key: f.function.__module__.removeprefix("metrics.families.") for f in registry.FAMILIES} == declared
    missing = [name for name in declared.values() if not (REPO / "tests" / "families" / f"test_{name}.py").is_file()]
    assert missing == []
    assert {path.stem for path in (REPO / "tests" / "families").glob("test_*.py")} == {
        f"test_{n}" for n in declared.values()
    }
    unnamed = {}
    for name, variants in tables.items():
        text = (REPO / "tests" / "families" / f"test_{name}.py").read_text(encoding="utf-8")
        if "pytest.mark.parametrize" not in text or any(f'"{key}"' not in text for key in variants):
            unnamed[name] = variants
    assert unnamed == {}


def _measure_name(text: str) -> bool:
    """A family key or a measure in our spelling ("NDCG@10", "NDCG_exp@10", "P(rel=2)@5"), case as the registry
    writes it (so "gain" or "idcg", convention names, are not)."""
    from metrics import parse_measure
    from metrics.catalog import registry

    keys = {f.key for f in registry.FAMILIES} | {f"{f.key}_exp" for f in registry.FAMILIES if f.graded}
    if text.split("@")[0].split("(")[0] not in keys:
        return False
    try:
        parse_measure(text)
    except ValueError:
        return False
    return True


def _hard_coded_lists(source: str) -> list[str]:
    """The module-level tuples, lists, sets and dicts of ``source`` that spell out two or more measures (a family
    key or a measure name such as "NDCG@10"), by the names they are assigned to."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = node.value
        if not isinstance(value, ast.Tuple | ast.List | ast.Set | ast.Dict):
            continue
        items = value.keys if isinstance(value, ast.Dict) else value.elts
        spelled = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
        if sum(_measure_name(text) for text in spelled) >= 2:
            found.append(", ".join(getattr(target, "id", "?") for target in targets))
    return found


def test_pages_and_ui_take_their_measure_lists_from_the_registry():
    """No module-level tuple, list, set or dict in app_pages/ or ir_metrics_lab/ spells out two or more measures: such
    lists come from ir_metrics_lab.core.family_display (each family's Display: lists, offered, card, curve),
    metrics.catalog.registry (the default set) or another module of metrics/ that holds the fact
    (metrics.tools.profiles.MEASURES), so a new family reaches every page by its declarations."""
    assert _measure_name("NDCG@10") and _measure_name("HitRate") and not _measure_name("sample")  # the check works
    sample = 'A = ("AP", "sample")\nMEASURES = ("NDCG@10", "AP")\nT: dict = {"AP": 1, "RR@5": 2}'
    assert _hard_coded_lists(sample) == ["MEASURES", "T"]  # and finds the lists
    hard_coded = [
        (str(path.relative_to(REPO)), label)
        for path in _python_files("app_pages", *APP_PACKAGES)
        for label in _hard_coded_lists(path.read_text(encoding="utf-8"))
    ]
    assert hard_coded == []


def _family_checks(source: str) -> list[int]:
    """The lines of ``source`` that compare something with a family key (``x == "NDCG"``, ``f.key != "IDCG"``,
    ``family in ("AP", "RR")``): a branch on a family's name, where a family fact belongs."""
    from metrics.catalog import registry

    keys = {f.key for f in registry.FAMILIES}

    def named(node: ast.expr) -> bool:
        elements = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
        return any(isinstance(e, ast.Constant) and e.value in keys for e in elements)

    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Compare) and any(named(side) for side in (node.left, *node.comparators))
    ]


def test_no_branch_on_a_family_name_outside_the_families_and_the_lessons():
    """A family's behaviour is declared in its module (metrics/families/, e.g. Family.normaliser, scores_the_list);
    code elsewhere reads the fact instead of testing the name. A lesson page about a family may name it
    (app_pages/learn/lesson_*.py: "bpref skips unjudged documents")."""
    assert _family_checks('if f.key != "IDCG" or m in ("P", "x"):\n    pass\nok = name == "gain"') == [1, 1]
    checked = [
        path
        for path in _python_files(*APP_PACKAGES, "metrics", "app_pages")
        if "families" not in path.relative_to(REPO).parts[:2] and not path.name.startswith("lesson_")
    ]
    assert len(checked) > 50  # the folders were found
    branches = {
        str(path.relative_to(REPO)): lines
        for path in checked
        if (lines := _family_checks(path.read_text(encoding="utf-8")))
    }
    assert branches == {}


def _hard_coded_lists_anywhere(source: str) -> list[int]:
    """The lines of the tuples, lists, sets and dicts of ``source``, at any depth (function bodies too), that spell
    out two or more measures."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
            items = node.keys if isinstance(node, ast.Dict) else node.elts
            spelled = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
            if sum(_measure_name(text) for text in spelled) >= 2:
                found.append(node.lineno)
    return found


def test_pages_and_ui_spell_out_no_measure_list_in_their_functions_either():
    """As above, inside functions too (a page's ``for family in ("NDCG", "AP")``). The lessons may list the families
    they teach; ir_metrics_lab/core/family_display.py is the table that declares where the app shows each family."""
    sample = 'A = 1\ndef f(k):\n    return {"x": ("NDCG", "AP")}\ndef g():\n    return [("RR", 1), ("P", 2)]'
    assert _hard_coded_lists_anywhere(sample) == [3]  # the check works
    lists = {
        str(path.relative_to(REPO)): lines
        for path in _python_files("app_pages", *APP_PACKAGES)
        if not path.name.startswith("lesson_") and path.name != "family_display.py"
        if (lines := _hard_coded_lists_anywhere(path.read_text(encoding="utf-8")))
    }
    assert lists == {}


def _declared_keys(tree: ast.Module) -> set[str]:
    """The keys of the families a module declares: its ``NAME = Family(key=...)``, or its table's VARIANTS."""
    keys = {next(k.value.value for k in call if k.arg == "key") for call in _family_assignments(tree)}
    return keys | set(_variant_keys(tree))


def _other_families_named(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string in ``source`` (function bodies and f-strings' literal parts too) that names a
    family other than the ones the module declares (one, or a table's variants), or a measure of one ("NumRel",
    "NDCG@10", the "IDCG@" of f"IDCG@{k}"); in a module that declares none (a shared ``_*.py``), any family."""
    from metrics.catalog import registry

    tree = ast.parse(source)
    others = {f.key for f in registry.FAMILIES} - _declared_keys(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.split("@")[0] in others
    ]


def test_no_family_module_names_another_family():
    """A family's worked formula, labels and facts are its own: no family module holds another family's name (a
    branch on it, a label keyed by it; a table's variants are its own), and a shared ``_*.py`` names none (it takes
    what differs as parameters), nor does the code the preference and judgment-group families share
    (metrics/preferences, but for its worked example, which names the measures it teaches). A family built on
    another imports that module and reads its record (ndcg.py: ``IDCG.key``), so the dependency shows in its
    imports."""
    sample = (
        'X = Family(key="bpref", order=1)\n'
        'def worked(b, k):\n    if b.family == "gm_bpref":\n        return f"NumRel@{k}"\n    return "bpref"\n'
    )
    assert _other_families_named(sample) == [(3, "gm_bpref"), (4, "NumRel@")]  # the check works
    assert _other_families_named('def f(b):\n    return {"NumRet": 1, "bpref": 2}') == [(2, "NumRet"), (2, "bpref")]
    table = 'VARIANTS = (Variant(key="prefs_simp"), Variant(key="prefs_simp_ret"))\nX = ("prefs_simp_ret", "P")\n'
    assert _other_families_named(table) == [(2, "P")]  # a table's own variants are its own
    shared = [path for path in _python_files("metrics/preferences") if path.stem != "preference_example"]
    named = {
        str(path.relative_to(REPO)): found
        for path in [*_python_files("metrics/families"), *shared]
        if (found := _other_families_named(path.read_text(encoding="utf-8")))
    }
    assert named == {}


def _family_lookups(source: str) -> list[int]:
    """The lines of ``source`` that look a value up by a family's name: ``now["R"]``, ``values.get("NDCG")``."""
    from metrics.catalog import registry

    keys = {f.key for f in registry.FAMILIES}

    def named(node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) and node.value in keys

    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if (isinstance(node, ast.Subscript) and named(node.slice))
        or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and named(node.args[0])
        )
    ]


def test_no_lookup_by_a_family_name_outside_the_lessons():
    """The app reads what a family declares (its Display's ``beside``, ``versus``, ``bars``; its terms, Term.R),
    never a value looked up by a family's name (``now["IDCG"]``), which a new or renamed family would silently miss.
    A lesson page about a family may name it."""
    sample = 'now["R"]\nb.terms[Term.R]\nx.get("IDCG")\nd["gain"]\nnow[family]'
    assert _family_lookups(sample) == [1, 3]  # the check works
    checked = [path for path in _python_files(*APP_PACKAGES, "app_pages") if not path.name.startswith("lesson_")]
    lookups = {
        str(path.relative_to(REPO)): lines
        for path in checked
        if (lines := _family_lookups(path.read_text(encoding="utf-8")))
    }
    assert lookups == {}


def _module_path(module: str) -> Path | None:
    path = REPO / (module.replace(".", "/") + ".py")
    package = REPO / module.replace(".", "/") / "__init__.py"
    return path if path.is_file() else package if package.is_file() else None


def _loads_streamlit(module: str, seen: set[str] | None = None) -> bool:
    """Whether importing ``module`` (one of the project's, dotted) imports Streamlit, through the project's own
    modules it imports at any depth (function-level imports count too)."""
    seen = set() if seen is None else seen
    path = _module_path(module)
    if module in seen or path is None:
        return False
    seen.add(module)
    imported = _imported_modules(path)
    if any(name.split(".")[0] == "streamlit" for name in imported):
        return True
    return any(_loads_streamlit(name, seen) for name in imported if name != module)


# The layers, top down, each a few dotted prefixes: a module's layer is that of its longest prefix, and a module imports
# only from its own layer and the layers below it. Modules under no prefix stand on all of them: the launcher
# (ir_metrics_lab.__main__: test_the_app_and_its_libraries_never_import_the_launcher) and the package's __init__.
LAYERS = (
    ("app", "app_pages"),  # the pages: they render, they do not compute
    tuple(folder.replace("/", ".") for folder in STREAMLIT_SIDE),  # the app's Streamlit side
    (CORE.replace("/", "."),),  # the app's pure core
    ("metrics",),  # the library's face: its exports (metrics/__init__.py) and ``python -m metrics``
    ("metrics.cli",),  # the command lines
    # on scored runs: runs compared, tools, teaching (the preference measures' worked example too)
    ("metrics.compare", "metrics.tools", "metrics.teaching", "metrics.preferences.preference_example"),
    # whole runs scored: the engine, means, streamed and distributed runs; runs against preferences and judgment groups
    ("metrics.evaluation", "metrics.preferences.runs", "metrics.diversity.runs"),
    # the measures: each family's record, readable function and kernel, their registry and names, what the preference
    # and judgment-group families share (metrics.preferences: their files read, specification, kernels, formulas),
    # and the LaTeX building blocks their formulas are written with
    ("metrics.catalog", "metrics.families", "metrics.preferences", "metrics.diversity", "metrics.teaching.latex"),
    ("metrics.io",),  # runs and qrels read and written
    ("metrics.core",),  # what every measure is built on: rankings, judgments, Breakdowns, conventions, checks
)


def _layer(name: str) -> int | None:
    """The index in LAYERS of the dotted ``name``'s longest prefix, or None."""
    prefixes = [
        (len(prefix), depth)
        for depth, layer in enumerate(LAYERS)
        for prefix in layer
        if name == prefix or name.startswith(prefix + ".")
    ]
    return max(prefixes)[1] if prefixes else None


def _imported_names(source: str) -> list[tuple[int, str]]:
    """(line, dotted name) of each import in ``source``, inside functions too: ``from package import name`` is read
    as ``package.name``, and as ``package`` itself unless ``name`` is a module of its own (``from metrics import
    families`` imports the sub-package, not the package's exports)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            found.update((node.lineno, name) for name in names)
            if not all(_module_path(name) for name in names):
                found.add((node.lineno, node.module))
    return sorted(found)


def _upward_imports(module: str, source: str) -> list[tuple[int, str]]:
    """(line, name) of each import in ``source``, the source of the dotted ``module``, from a layer above its own."""
    own = _layer(module)
    if own is None:
        return []
    return [
        (line, name) for line, name in _imported_names(source) if (layer := _layer(name)) is not None and layer < own
    ]


def test_no_module_imports_a_layer_above_its_own():
    """The pages (app.py, app_pages/) on top; the app's Streamlit side (shell, session, parts, classroom); its pure
    core (ir_metrics_lab.core: the playground's Scenario, THE literal-text helper, lessons, figures, exports, the
    live class's store); metrics/ below, itself in layers from its command lines down to metrics.core. So the core
    never reaches up into the Streamlit side or a page, and no library module into the command lines."""
    sample = (
        "import ir_metrics_lab.session.playground_state\nfrom metrics import x\n"
        "def f():\n    from app_pages.play import quiz\nfrom ir_metrics_lab import parts\nfrom . import y\n"
    )
    expected = [(1, "ir_metrics_lab.session.playground_state"), (4, "app_pages.play.quiz"), (5, "ir_metrics_lab.parts")]
    assert _upward_imports("ir_metrics_lab.core.numbers", sample) == expected  # the check finds them
    sample = "from metrics.core.tables import number\nfrom metrics.cli.common import run\n"
    assert _upward_imports("metrics.tools.explain", sample) == [
        (2, "metrics.cli.common"),
        (2, "metrics.cli.common.run"),
    ]
    sample = "from metrics.teaching.latex import compact\nfrom metrics.teaching import formulas\n"
    sample += "from metrics import families\n"  # the sub-package, not the package's exports
    assert _upward_imports("metrics.families.ndcg", sample) == [(2, "metrics.teaching.formulas")]  # longest prefix
    paths = [*_python_files("app_pages", "ir_metrics_lab", "metrics"), REPO / "app.py"]
    upward = {
        str(path.relative_to(REPO)): found
        for path in paths
        if (found := _upward_imports(_module_name(path), path.read_text(encoding="utf-8")))
    }
    layered = {_layer(_module_name(path)) for path in paths}
    assert layered == {None, *range(len(LAYERS))}  # every layer has modules
    assert upward == {}


def test_the_pure_core_never_loads_streamlit():
    """ir_metrics_lab.core (the Scenario, the literal-text helper, lessons, figures, exports, the live class's
    store) loads no Streamlit, through no module at any depth, so it runs and is tested without a server."""
    assert _loads_streamlit("ir_metrics_lab.session.quiz_state") and not _loads_streamlit("metrics")  # tells them apart
    assert {"ir_metrics_lab.core.lessons.quiz", "ir_metrics_lab.session.quiz_state"} <= _imported_modules(
        REPO / "app_pages" / "play" / "quiz.py"
    )  # ``from ir_metrics_lab.session import quiz_state`` is read as the module
    modules = [_module_name(path) for path in _python_files(CORE)]
    assert {"ir_metrics_lab.core.classroom.questions", "ir_metrics_lab.core.markdown"} <= set(modules)
    assert [module for module in modules if _loads_streamlit(module)] == []


def test_no_folder_of_the_app_mixes_streamlit_and_pure_modules():
    """Each folder of ir_metrics_lab/ is wholly on one side: every module of the Streamlit side's folders loads
    Streamlit (directly or through the modules it imports), and none of the core's does. A package's ``__init__``
    (a docstring) and the launcher's package are the exceptions."""
    mixed = {}
    for folder in sorted({path.parent for path in _python_files("ir_metrics_lab")} - {REPO / "ir_metrics_lab"}):
        modules = [_module_name(path) for path in folder.glob("*.py") if path.stem != "__init__"]
        loading = {module for module in modules if _loads_streamlit(module)}
        if loading and loading != set(modules):
            mixed[str(folder.relative_to(REPO))] = sorted(set(modules) - loading)
    assert mixed == {}


def test_no_two_modules_of_metrics_share_a_name():
    """A module's name says which one it is (``metrics.teaching.blog_posts``, not a second ``sources``), so a search
    for a name finds one file. ``__init__`` and ``__main__`` are a package's own; the families' shared helpers
    (``_hits``) are named for what they share."""
    names: dict[str, list[str]] = {}
    for path in _python_files("metrics"):
        if path.stem not in {"__init__", "__main__"}:
            names.setdefault(path.stem, []).append(str(path.relative_to(REPO)))
    assert len(names) > 80  # the modules were found
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}


def test_user_text_reaches_a_chart_only_through_the_one_helper():
    """plotly reads labels as HTML: the app's charts escape user text with ir_metrics_lab.core.markdown.chart_label
    alone (a second escaper drifted: it wrote &quot;, which plotly shows as typed).
    ir_metrics_lab/core/brief/html_page.py writes a whole HTML document, attributes included, so it escapes quotes
    too."""
    allowed = {REPO / "ir_metrics_lab/core/markdown.py", REPO / "ir_metrics_lab/core/brief/html_page.py"}
    escaping = [
        f"{path.relative_to(REPO)}:{number}"
        for path in _python_files(*APP_PACKAGES, "app_pages")
        if path not in allowed
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "html.escape(" in line
    ]
    assert escaping == []


# --- size: a function reads on one screen, a folder lists on one screen ---

PRODUCT = ("metrics", "ir_metrics_lab", "app_pages")
MAX_FUNCTION_LINES = 60


def _docstring_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many lines the function's docstring spans (0 without one)."""
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first.end_lineno - first.lineno + 1
    return 0


def _long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[int, str, int]]:
    """(line, name, length) of each function of ``source`` longer than ``limit`` lines, ``def`` to last line, its
    docstring left out: a numpydoc docstring (Parameters, Returns, Notes, Examples) is read beside the code, not in it.
    """
    lengths = [
        (node.lineno, node.name, node.end_lineno - node.lineno + 1 - _docstring_lines(node))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    return [(line, name, length) for line, name, length in lengths if length > limit]


def test_no_product_function_is_over_60_lines():
    """A function of the product (metrics/, ir_metrics_lab/, app.py, app_pages/) fits on a screen, its docstring
    aside: a longer one is split by what it does (the brief's builders, the errata table, the URL parser, the poll
    runner were)."""
    sample = "def short():\n    return 1\n\n\ndef long():\n" + "    x = 1\n" * 60 + "    return x\n"
    assert _long_functions(sample) == [(5, "long", 62)]  # the check finds it
    documented = 'def documented():\n    """Summary.\n' + "    More.\n" * 70 + '    """\n    return 1\n'
    assert _long_functions(documented) == []  # and leaves the docstring out
    long = {
        f"{path.relative_to(REPO)}:{line} {name}": length
        for path in [*_python_files(*PRODUCT), REPO / "app.py"]
        for line, name, length in _long_functions(path.read_text(encoding="utf-8"))
    }
    assert long == {}


MAX_MODULES_PER_FOLDER = 15
# metrics/families holds one module per measure family, by the recipe (tests/families/ mirrors it); every other
# folder groups its modules into sub-packages past this size.
MANY_BY_DESIGN = {"metrics/families"}


def test_no_product_folder_holds_more_than_about_15_modules():
    """A folder lists on a screen: past about 15 modules it is split into sub-packages by concept."""
    folders = {path.parent for path in _python_files(*PRODUCT)}
    crowded = {
        str(folder.relative_to(REPO)): count
        for folder in folders
        if (count := len([p for p in folder.glob("*.py") if p.stem != "__init__"])) > MAX_MODULES_PER_FOLDER
        and str(folder.relative_to(REPO)) not in MANY_BY_DESIGN
    }
    assert len(folders) > 20  # the folders were found
    assert crowded == {}

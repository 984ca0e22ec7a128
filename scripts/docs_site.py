"""The documentation site's pages that are written from the code at every build (MkDocs hooks; mkdocs.yml names this
file), so none of them is committed or can go stale: a page per measure family from the registry, the command lines'
help from the installed commands, the Python API pages (mkdocstrings), the share-link keys from their schema module, a
page per error code from its registry (metrics.core.error_codes), the module map, the changelog, and the tutorials',
measures' and error codes' places in the navigation.

    .venv/bin/mkdocs build --strict    # or: .venv/bin/mkdocs serve

A new family, command, sub-package of metrics or tutorial gets its page with no edit here or in mkdocs.yml.
"""

from __future__ import annotations

import ast
import os
import pkgutil
import re
import subprocess
import sys
import textwrap
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

import griffe

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
REFERENCE = "reference"
MEASURES = f"{REFERENCE}/measures"
API = f"{REFERENCE}/api"
ERRORS = f"{REFERENCE}/errors"
TUTORIALS = "tutorials"
PLOTLY_JS = "javascripts/plotly.min.js"  # the plotly.js the installed plotly ships, for the tutorials' charts
# The small ranking every measure page works its example on: d2 judged non-relevant, d4 never judged, d9 judged
# relevant but not retrieved (so R counts it, IDCG ranks it, bpref and unj see the unjudged d4).
EXAMPLE_RANKING = ("d1", "d2", "d3", "d4", "d5")
EXAMPLE_QRELS = {"d1": 3, "d2": 0, "d3": 1, "d5": 2, "d9": 2}
EXAMPLE_CUTOFF = "3"
EXAMPLE_PARAMETER = "0.5"  # a recall level or a multiple of R, where the family's "@" sets one


# --- the module map (the architecture page) ---

# The map's order; other folders follow.
FIRST = ("ir_metrics_lab", "metrics", "app_pages", "scripts", "bench")
UNMAPPED = ("tests",)
_ABBREVIATIONS = re.compile(r"\b(e\.g|i\.e|vs|etc)\.$")
_SHORT = 40  # a first sentence shorter than this ("Lesson: user models.") is a title: the next one says more


def summary(docstring: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line (two when the first is a short title or a
    question).

    >>> summary("Means over queries (MRR, MAP) and which queries count. More.\\n\\nDetails.")
    'Means over queries (MRR, MAP) and which queries count.'
    >>> summary("Reads .gz files, e.g. runs.gz, and CSV files. Then parses.")
    'Reads .gz files, e.g. runs.gz, and CSV files.'
    >>> summary("Lesson: RR. Its mean over queries, MRR, and its cutoff. More.")
    'Lesson: RR. Its mean over queries, MRR, and its cutoff.'
    >>> summary("Is run B really better than run A? Paired statistics. More.")
    'Is run B really better than run A? Paired statistics.'
    """
    paragraph = " ".join(docstring.split("\n\n")[0].split())
    for match in re.finditer(r"[.!?](?=\s|$)", paragraph):
        sentence = paragraph[: match.end()]
        if not _ABBREVIATIONS.search(sentence) and len(sentence) >= _SHORT and not sentence.endswith("?"):
            return sentence
    return paragraph


def _ignored_by_git(path: Path) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=REPO).returncode == 0


def mapped_files() -> list[Path]:
    """Every Python file of the project but the tests: the top level's (app.py), then each folder's (FIRST's order,
    then the others by name), recursively; never a dot folder or a gitignored one (.venv/, build/)."""
    folders = sorted(
        (
            path
            for path in REPO.iterdir()
            if path.is_dir()
            and not path.name.startswith(".")
            and path.name not in UNMAPPED
            and not _ignored_by_git(path)
            and any(path.rglob("*.py"))
        ),
        key=lambda path: (FIRST.index(path.name) if path.name in FIRST else len(FIRST), path.name),
    )
    files = sorted(REPO.glob("*.py"))
    for folder in folders:
        files += sorted(folder.rglob("*.py"), key=lambda p: (p.parent.relative_to(REPO).parts, p.name))
    return files


def modules() -> list[tuple[str, str]]:
    """(path, summary of its docstring) of every file of mapped_files(). A module without a docstring is an error: the
    map would have a hole."""
    rows = []
    for path in mapped_files():
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        name = path.relative_to(REPO).as_posix()
        if not docstring:
            raise SystemExit(f"{name} has no module docstring: say in one sentence what it is for")
        rows.append((name, summary(docstring)))
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def module_map() -> str:
    """Every module with the first sentence of its docstring, as a Markdown table."""
    lines = ["| module | what it is for |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(text)} |" for name, text in modules()]
    return "\n".join(lines) + "\n"


def _package_summary(folder: Path) -> str:
    docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
    if not docstring:
        raise SystemExit(f"{folder.relative_to(REPO)}/__init__.py has no docstring: say what the package holds")
    return summary(docstring)


def _subpackages(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if (p / "__init__.py").is_file())


def _tree_rows(folder: Path, prefix: str) -> list[tuple[str, str, str]]:
    """(drawn name, the guides a wrapped line continues under, what it holds) of ``folder``'s sub-packages,
    recursively, as tree branches under ``prefix``."""
    children = _subpackages(folder)
    rows = []
    for i, child in enumerate(children):
        last = i == len(children) - 1
        below = prefix + ("    " if last else "│   ")
        guides = below + ("│" if _subpackages(child) else "")
        rows.append((f"{prefix}{'└── ' if last else '├── '}{child.name}/", guides, _package_summary(child)))
        rows += _tree_rows(child, below)
    return rows


TREE_WIDTH = 80  # a code block's width on the site at 1440 px, before it scrolls


def package_tree() -> str:
    """The packages of the product (ir_metrics_lab, metrics) and the page folders, drawn as a tree from the file tree,
    each with the first sentence of its docstring (a page folder: its pages)."""
    rows: list[tuple[str, str, str]] = []
    for top in ("ir_metrics_lab", "metrics"):
        rows.append((f"{top}/", "│", _package_summary(REPO / top)))
        rows += _tree_rows(REPO / top, "")
    sections = sorted(p for p in (REPO / "app_pages").iterdir() if p.is_dir() and any(p.glob("*.py")))
    rows.append(("app_pages/", "│", "one script per page, a folder per section of the navigation (app.py routes them)"))
    for i, section in enumerate(sections):
        last = i == len(sections) - 1
        pages = ", ".join(p.stem for p in sorted(section.glob("*.py")))
        rows.append((f"{'└── ' if last else '├── '}{section.name}/", "    " if last else "│   ", pages))
    width = max(len(name) for name, _, _ in rows) + 2
    lines = []
    for name, guides, text in rows:
        plain = text.replace("``", "")  # reST literals read as plain text in a drawing
        wrapped = textwrap.wrap(plain, TREE_WIDTH - width, break_long_words=False, break_on_hyphens=False)
        lines.append(f"{name:<{width}}{wrapped[0]}")
        lines += [f"{guides:<{width}}{more}" for more in wrapped[1:]]
    return "```text\n" + "\n".join(lines) + "\n```\n"


# --- the measure catalogue ---


def slug(family: Any) -> str:
    """A family's page name: its readable function's name (``ndcg``, ``capped-recall``), unique as the functions are
    and safe on a case-insensitive file system, where the keys (``P``, ``p_avgjg``...) might not be."""
    return family.function.__name__.replace("_", "-")


def example_measure(family: Any) -> str:
    """The family's measure as the worked example spells it: NDCG@3, AP, IPrec@0.5."""
    from metrics.catalog.registry import canonical_names

    names = [name for name in canonical_names() if name.split("@")[0] == family.key]
    cut = [name for name in names if "@" in name]
    if family.written == "cut" and cut:
        value = {"k": EXAMPLE_CUTOFF, "multiple": EXAMPLE_PARAMETER, "level": EXAMPLE_PARAMETER}
        return re.sub(r"@(k|multiple|level)$", lambda m: "@" + value[m[1]], cut[0])
    return family.key


def _code(name: str | None) -> str:
    return f"`{name}`" if name else "—"


def _names_table(family: Any) -> str:
    from metrics.catalog.registry import canonical_names

    ours = [name for name in canonical_names() if name.split("@")[0] in (family.key, f"{family.key}_exp")]
    trec = family.trec_eval
    rows = [
        ("IR Metrics Lab", ", ".join(_code(name) for name in ours)),
        (
            "trec_eval 10.0",
            ", ".join(_code(name) for name in (trec.name, trec.uncut) if name)
            + (f" (default cutoffs or values: {', '.join(f'{v:g}' for v in trec.defaults)})" if trec.defaults else "")
            if trec.name
            else "— (scored under trec_eval's rules all the same)",
        ),
        ("ir_measures", _code(family.names.ir_measures)),
        *((tool, _code(name)) for tool, name in family.names.tools.items()),
    ]
    if family.names.spellings:
        rows.append(("also read as", ", ".join(_code(name) for name in family.names.spellings)))
    return "| tool | name |\n|---|---|\n" + "\n".join(f"| {tool} | {_cell(name)} |" for tool, name in rows)


def _facts(family: Any) -> str:
    """Its conventions and defaults, as the record declares them."""
    from metrics.catalog.registry import default_measures

    trec = family.trec_eval
    values = family.values
    kinds = {
        "order": "order-aware: where in the list a document sits matters",
        "set": "set-based: the order inside the top k does not matter",
        "count": "a count",
        "curve": "a point of the precision-recall curve",
    }
    defaults = [name for name in default_measures() if name.split("@")[0] == family.key]
    facts = [
        ("kind", kinds.get(family.kind, family.kind)),
        (
            "cutoff",
            {"optional": "optional (`@k`)", "required": "required", "none": "none: the whole list"}.get(
                family.cutoff, family.cutoff
            ),
        ),
        (
            "graded",
            "yes: grades above the threshold weigh more (an `_exp` spelling gives 2^g − 1)"
            if family.graded
            else "no: a document is relevant or not (grade ≥ the threshold, `-l`, 1 by default)",
        ),
        ("values", f"from {values.range[0]:g} to {values.range[1]:g}" if values.range else "not bounded"),
        (
            "over queries",
            {
                "mean": "the mean (MAP-style)",
                "sum": "the sum",
                "geometric": "the geometric mean",
                "queries": "how many queries were evaluated",
                "none": "none: a string per query",
            }.get(values.summary, values.summary),
        ),
        ("judgments read", ", ".join(f"`-R {fmt}`" for fmt in trec.reads)),
        ("in the default measure set", ", ".join(f"`{name}`" for name in defaults) if defaults else "no"),
    ]
    if trec.name and not trec.per_query:
        facts.append(("`-q`", "trec_eval prints only its summary, no per-query line"))
    if trec.zero_when_missing is True:
        facts.append(("`-c`", "a query missing from the run scores 0"))
    rows = [f"| {name} | {text} |" for name, text in facts]
    rows += [
        f"| parameter `{p.name}` | {_cell(p.help)} Default {p.default if not p.gains else 'none'}. |"
        for p in family.params
    ]
    return "| | |\n|---|---|\n" + "\n".join(rows)


def _worked_example(family: Any) -> str:
    from metrics import parse_measure
    from metrics.core.tables import markdown_table
    from metrics.teaching.jupyter import STEP_COLUMNS, breakdown_latex, step_rows, value_text

    measure = example_measure(family)
    b = parse_measure(measure).compute(list(EXAMPLE_RANKING), EXAMPLE_QRELS)
    ranked = ", ".join(
        f"{doc} ({EXAMPLE_QRELS[doc]})" if doc in EXAMPLE_QRELS else f"{doc} (unjudged)" for doc in EXAMPLE_RANKING
    )
    missed = ", ".join(f"{doc} ({grade})" for doc, grade in EXAMPLE_QRELS.items() if doc not in EXAMPLE_RANKING)
    parts = [
        f"The ranking {ranked}, with {missed} judged but never retrieved (grades in brackets), under trec_eval's "
        f"conventions: **{measure} = {value_text(b)}**. Computed by `metrics` when this page was built.",
        breakdown_latex(b),
    ]
    if b.steps:
        parts.append(markdown_table(STEP_COLUMNS, step_rows(b)))
    return "\n\n".join(parts)


def measure_page(family: Any) -> str:
    from metrics.core.conventions import TREC_EVAL

    function = family.function
    sections = [
        f"# {family.key}: {family.title}",
        family.help,
        "## Definition",
        f"$$\n{family.teaching.definition(TREC_EVAL)}\n$$",
        "The formula under trec_eval 10.0's conventions, as the app's pages draw it. Which tools choose otherwise: "
        "[Conventions](/conventions.md); the app's *Conventions explorer* shows both on your own list.",
        "## Names",
        _names_table(family),
        "## Conventions and defaults",
        _facts(family),
        "## Worked example",
        _worked_example(family),
        "## Where it comes from",
        f"The readable function `{function.__module__}.{function.__name__}`, the specification the engine's kernel "
        "equals bit for bit:",
        f"::: {function.__module__}.{function.__name__}\n    options:\n      show_root_heading: false\n"
        "      show_source: true",
    ]
    return "\n\n".join(sections) + "\n"


def measures_index() -> str:
    """The catalogue's first page: the registry's own table of every family, each function linked to its page."""
    from metrics.catalog.registry import FAMILIES, markdown_table

    table = markdown_table()
    for family in FAMILIES:
        name = family.function.__name__
        table = table.replace(f"| `{name}` |", f"| [`{name}`]({slug(family)}.md) |", 1)
    return (
        "# Measures\n\n"
        "Every measure family the library computes, generated from its registry (`metrics.catalog.registry`) when "
        "this site is built: each page has the family's definition, its names in other tools, its conventions and "
        "defaults, an example worked on a small ranking, and the function it comes from. Names are case-insensitive "
        "wherever a measure is read (`-m`, the app's pickers); `k` stands for a cutoff.\n\n" + table
    )


# --- the command lines ---


def commands() -> list[tuple[str, str]]:
    """(name, ``NAME --help`` as it prints it) of every command the installed package declares (its console
    scripts), run as a user runs them, 100 columns wide."""
    scripts = sorted(
        entry.name for entry in distribution("ir-metrics-lab").entry_points if entry.group == "console_scripts"
    )
    bin_dir = Path(sys.executable).parent
    environment = {**os.environ, "COLUMNS": "100"}
    found = []
    for name in scripts:
        done = subprocess.run(
            [str(bin_dir / name), "--help"], capture_output=True, text=True, env=environment, check=True
        )
        found.append((name, done.stdout))
    return found


def cli_page() -> str:
    parts = [
        "# Command line",
        "What each installed command prints for `--help`, generated from its argument parser when this site is "
        "built. `ir-metrics` is also `python -m metrics`. "
        "Every command prints `NAME VERSION` for `--version` (but `ir-metrics -v` is trec_eval's: the trec_eval "
        "version reproduced, on stderr). Bad input exits with status 2 and one line on stderr naming the file, the "
        "line and the problem; see [Input formats](/reference/input-formats.md).",
    ]
    for name, text in commands():
        parts += [f"## `{name}`", f"```text\n{text.rstrip()}\n```"]
    return "\n\n".join(parts) + "\n"


# --- the share-link keys ---


def _rst_table(lines: list[str]) -> list[list[str]]:
    """The rows of a reST simple table (its lines from the first ``===`` border to the last), continuation lines (an
    empty first column) joined to the row above."""
    borders = [i for i, line in enumerate(lines) if re.fullmatch(r"=+( +=+)*", line.strip())]
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[borders[0]])]
    starts = [start for start, _ in spans] + [10**6]
    rows: list[list[str]] = []
    for line in lines[borders[1] + 1 : borders[-1]]:
        cells = [line[starts[i] : starts[i + 1]].strip() for i in range(len(spans))]
        if cells[0] or not rows:
            rows.append(cells)
        else:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
    header = [line[starts[i] : starts[i + 1]].strip() for i in range(len(spans)) for line in [lines[borders[0] + 1]]]
    return [header, *rows]


def _markdown_from_rst(text: str) -> str:
    return re.sub(r":\w+:`([^`]+)`", r"`\1`", text.replace("``", "`"))


def share_links_page() -> str:
    """The schema module's docstring, its table as Markdown; every key the module reads must be in the table."""
    from ir_metrics_lab.core import url

    doc = (url.__doc__ or "").strip().splitlines()
    borders = [i for i, line in enumerate(doc) if re.fullmatch(r"=+( +=+)*", line.strip())]
    rows = _rst_table(doc[borders[0] : borders[-1] + 1])
    keys = [row[0] for row in rows[1:]]
    if missing := [key for key in url.SCHEMA_KEYS if key not in keys]:
        raise SystemExit(f"{url.__name__}'s docstring has no row for the share-link keys {missing}")
    table = "\n".join(
        ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        + ["| " + " | ".join(_cell(_markdown_from_rst(cell)) for cell in row) + " |" for row in rows[1:]]
    )
    before = _markdown_from_rst("\n".join(doc[: borders[0]]).strip())
    after = _markdown_from_rst("\n".join(doc[borders[-1] + 1 :]).strip())
    ignored = ", ".join(f"`{key}`" for key in sorted(url.IGNORED_KEYS))
    return (
        "# Share links\n\n"
        f"A Playground scenario lives in the address bar, so a link reproduces it. Generated from the schema module, "
        f"`{url.__name__}`, when this site is built.\n\n{before}\n\n{table}\n\n{after}\n\n"
        f"Also read, and never part of a scenario: {ignored} (Streamlit's own, and presenter mode's switch: any "
        "page's link can add `presenter=1`). Every page has its own address (`/your-data`, `/quiz`, ...), and a link "
        "to the root (`/?...`) or to `/playground?...` opens the Playground.\n"
    )


# --- the error codes ---


def error_page(entry: Any) -> str:
    """The page of one error code (a metrics.core.error_codes.ErrorCode): what it means, how to fix the input, and an
    example of a refused input beside its fix."""
    return (
        f"# `{entry.code}`: {entry.title}\n\n{entry.meaning}\n\n## How to fix it\n\n{entry.fix}\n\n## Example\n\n"
        f"Refused:\n\n```text\n{entry.bad.rstrip()}\n```\n\nAccepted:\n\n```text\n{entry.good.rstrip()}\n```\n\n"
        f"Messages with this code end with `(see errors/{entry.code} in the docs)`. All codes: [Errors](index.md).\n"
    )


def errors_index() -> str:
    """The list of every error code, generated from the registry, each linked to its page."""
    from metrics.core.error_codes import CODES

    rows = "\n".join(f"| [`{code}`]({code}.md) | {entry.title} |" for code, entry in CODES.items())
    return (
        "# Errors\n\n"
        "Every refusal of bad input (a run's or qrels' line, a command-line option, a value typed in the app) ends "
        "with a code and the page that explains it: `(see errors/CODE in the docs)`. Files are named with their "
        "line (or row) where there is one, e.g. `run.txt, line 17: score 'high' is not a number (see "
        "errors/not-a-number in the docs)`. In Python, the error is a `metrics.io.InputError` (a `ValueError`) with "
        "the attributes `code`, `path`, `line` and `problem`. The formats themselves: [Input formats]"
        "(/reference/input-formats.md). Generated from `metrics.core.error_codes` when this site is built.\n\n"
        f"| Code | What it means |\n|---|---|\n{rows}\n"
    )


# --- the Python API ---


def api_packages() -> list[str]:
    """``metrics`` and each of its sub-packages, as found on disk."""
    import metrics

    found = [info.name for info in pkgutil.iter_modules(metrics.__path__) if info.ispkg]
    return ["metrics", *(f"metrics.{name}" for name in sorted(found))]


def api_page(package: str) -> str:
    import importlib

    if package == "metrics":
        return (
            "# `metrics`\n\nThe library's top level: the readable functions (one per measure family, each returning a "
            "`Breakdown`), the conventions and the measure parser. Whole runs are evaluated by "
            "the engine of `metrics.evaluation`, `evaluate`.\n\n"
            "::: metrics\n    options:\n      show_root_heading: false\n      show_submodules: false\n"
        )
    importlib.import_module(package)  # a package that fails to import fails the build here, by name
    return (
        f"# `{package}`\n\n::: {package}\n    options:\n      show_root_heading: false\n      show_submodules: true\n"
    )


def api_file(package: str) -> str:
    return f"{API}/{'index' if package == 'metrics' else package.split('.', 1)[1]}.md"


def fence_doctests(text: str) -> str:
    r"""A docstring's doctest examples (``>>>`` lines, their continuations and output, up to a blank line) as fenced
    ``pycon`` blocks, so the API pages show them as code: left as prose, Markdown reads ``[a]`` and ``[b]`` on two
    lines as a link.

    >>> fence_doctests("Adds.\n\n>>> [1]\n[1]\n\nMore.").splitlines()
    ['Adds.', '', '```pycon', '>>> [1]', '[1]', '```', '', 'More.']
    """
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not line.strip():
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


_MATH_ROLE = re.compile(r":math:`([^`]+)`")
_CODE_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|obj|exc):`~?([^`]+)`")


def markdown_math(text: str) -> str:
    r"""A docstring's reST the API pages would show as typed, in the Markdown they render: a ``.. math::`` line (and
    the more indented lines after it) as a ``$$`` block, which KaTeX typesets; ``:math:`x``` as ``\(x\)``; a
    ``:func:`f``` (or ``:class:``, ``:meth:``, ...) role as code, ```f```.

    >>> markdown_math("Sum.\n\n.. math:: a = b\n    + c\n\nThen :math:`x^2`, :func:`f`.").splitlines()
    ['Sum.', '', '$$', 'a = b', '+ c', '$$', '', 'Then \\(x^2\\), `f`.']
    """
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        i += 1
        if not stripped.startswith(".. math::"):
            out.append(line)
            continue
        indent = line[: len(line) - len(stripped)]
        body = [stripped.removeprefix(".. math::").strip()]
        while i < len(lines) and ((not lines[i].strip() and not body[-1]) or _indent(lines[i]) > len(indent)):
            body.append(lines[i].strip())
            i += 1
        out += [f"{indent}$$", *(f"{indent}{formula}" for formula in body if formula), f"{indent}$$"]
    return _CODE_ROLE.sub(r"`\1`", _MATH_ROLE.sub(r"\\(\1\\)", "\n".join(out)))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip()) if line.strip() else 0


class DocstringsAsMarkdown(griffe.Extension):
    """The griffe extension (mkdocs.yml) that readies every docstring for the API pages: its doctests fenced
    (fence_doctests), its formulas and roles in Markdown (markdown_math)."""

    def on_object(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(markdown_math(obj.docstring.value))


# --- MkDocs hooks ---


def _generated() -> dict[str, Any]:
    """Path under docs/ -> a function writing that page."""
    from metrics.catalog.registry import FAMILIES
    from metrics.core.error_codes import CODES

    pages: dict[str, Any] = {f"{MEASURES}/index.md": measures_index, f"{REFERENCE}/cli.md": cli_page}
    pages[f"{REFERENCE}/share-links.md"] = share_links_page
    pages.update({f"{MEASURES}/{slug(f)}.md": (lambda f=f: measure_page(f)) for f in FAMILIES})
    pages.update({api_file(package): (lambda p=package: api_page(p)) for package in api_packages()})
    pages["CHANGELOG.md"] = lambda: (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    pages[f"{ERRORS}/index.md"] = errors_index
    pages.update({f"{ERRORS}/{code}.md": (lambda e=entry: error_page(e)) for code, entry in CODES.items()})
    return pages


def _expand(nav: Any) -> Any:
    """The navigation with the generated sections filled in: the measures after their index, the API's pages after
    its index, the error codes' after theirs, the tutorials (docs/tutorials/*.ipynb, by name) after theirs."""
    from metrics.catalog.registry import FAMILIES

    if isinstance(nav, list):  # a generated section's pages take its index's place in the list
        return [page for item in nav for page in (_expand(item) if isinstance(item, str) else [_expand(item)])]
    if isinstance(nav, dict):
        return {title: _expand(value) for title, value in nav.items()}
    if nav == f"{MEASURES}/index.md":
        return [nav, *({f.key: f"{MEASURES}/{slug(f)}.md"} for f in FAMILIES)]
    if nav == f"{ERRORS}/index.md":
        from metrics.core.error_codes import CODES

        return [nav, *(f"{ERRORS}/{code}.md" for code in CODES)]
    if nav == f"{API}/index.md":
        return [nav, *({package: api_file(package)} for package in api_packages()[1:])]
    if nav == f"{TUTORIALS}/index.md":
        return [nav, *(f"{TUTORIALS}/{path.name}" for path in sorted((DOCS / TUTORIALS).glob("*.ipynb")))]
    return [nav] if isinstance(nav, str) else nav


def on_config(config: Any) -> Any:
    config.nav = _expand(config.nav)
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for path, write in _generated().items():
        files.append(File.generated(config, path, content=write()))
    import plotly

    files.append(
        File.generated(config, PLOTLY_JS, abs_src_path=str(Path(plotly.__file__).parent / "package_data/plotly.min.js"))
    )
    return files


MODULE_MAP = "<!-- module map: generated at build time by scripts/docs_site.py -->"


PACKAGE_TREE = "<!-- package tree: generated at build time by scripts/docs_site.py -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MODULE_MAP in markdown:
        markdown = markdown.replace(MODULE_MAP, module_map())
    if PACKAGE_TREE in markdown:
        markdown = markdown.replace(PACKAGE_TREE, package_tree())
    return markdown


def on_post_page(output: str, page: Any, config: Any) -> str:
    """A page with a plotly chart (a tutorial) loads plotly.js from the site, before the chart's own script runs."""
    if "plotly-graph-div" not in output:
        return output
    from mkdocs.utils import get_relative_url

    script = f'<script src="{get_relative_url(PLOTLY_JS, page.url)}"></script>'
    return output.replace("</head>", f"{script}\n</head>", 1)

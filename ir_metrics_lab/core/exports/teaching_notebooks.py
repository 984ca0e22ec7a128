"""The teaching notebooks (docs/notebooks/, written by scripts/write_notebooks.py): a lesson's words as its page
says them (ir_metrics_lab.core.lessons.lesson_text), its measures worked on the Playground's default list or on a
lesson page's own list, its traps and naming; and the two guides that are not lessons. Pure (no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

from ir_metrics_lab.core.exports.notebook_cells import code_cell, markdown_cell, notebook, scenario_source, setup
from ir_metrics_lab.core.lessons.lesson_text import GUIDES, LESSONS, NOTEBOOK_STEPS
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, Scenario

# File name (without .ipynb) -> lesson or guide key, in the order a course reads them.
TEACHING = {
    "01-precision-and-recall": "precision_recall",
    "02-reciprocal-rank": "rr",
    "03-average-precision": "ap",
    "04-dcg-and-ndcg": "ndcg",
    "05-pr-curve-and-r-precision": "pr_curve",
    "06-unjudged-documents": "unjudged",
    "07-rbp-and-err": "user_models",
    "08-evaluate-your-run": "evaluate_your_run",
    "09-why-two-tools-disagree": "why_tools_differ",
    "10-diversity-and-novelty": "diversity",
}
TEACHING_INTRO = (
    "Part of the IR Metrics Lab's teaching notebooks; the app's page of the same name lets you drag the list and "
    "watch every number follow. Run every cell from the top (*Run All*)."
)
DEFAULT_LIST = f"""\
from metrics.teaching.examples import EXAMPLES

# The Playground's default list: edit it (Scenario's methods return a new one) and run the cells below again.
SCENARIO = Scenario.from_example(EXAMPLES[{DEFAULT_EXAMPLE!r}])
ranking, qrels, k = list(SCENARIO.full_ranking), SCENARIO.qrels, SCENARIO.k
pd.DataFrame(numbers.scenario_table(SCENARIO))"""


# A lesson whose measures need more than the Playground's default list (aspects): its own list, from its page's example.
OWN_LISTS = {
    "diversity": """\
from ir_metrics_lab.core.lessons.diversity import repeated_aspect

# The lesson's example: seven documents on buying an electric car, the top 5 all on price. Edit it (Scenario's
# methods return a new one: .moved(doc, rank), .with_aspects(doc, names), .with_grade(doc, grade)) and run on.
SCENARIO = repeated_aspect()
ranking, qrels, k = list(SCENARIO.full_ranking), SCENARIO.qrels, SCENARIO.k
pd.DataFrame(numbers.scenario_table(SCENARIO))""",
}


def _steps(steps: Sequence[tuple[str, str]]) -> list[dict]:
    return [cell for text, code in steps for cell in (markdown_cell(text), code_cell(code))]


def teaching(name: str, scn: Scenario | None = None) -> dict:
    """The teaching notebook ``name`` (a TEACHING file name): a lesson's words as its page says them
    (ir_metrics_lab.core.lessons.lesson_text), its measures worked on the Playground's default list (or on ``scn``, the
    list a lesson page downloads it with), its traps and naming."""
    key = TEACHING[name]
    if key in GUIDES:
        title, intro, steps = GUIDES[key]
        return notebook([markdown_cell(f"# {title}\n\n{intro}\n\n{TEACHING_INTRO}"), *setup(), *_steps(steps)])
    lesson = LESSONS[key]
    cells = [markdown_cell(f"# {lesson.title}\n\n{lesson.intro}\n\n{TEACHING_INTRO}"), *setup()]
    if scn is None:
        cells += [markdown_cell("## The list"), code_cell(OWN_LISTS.get(key, DEFAULT_LIST))]
    else:
        own = "\n".join(
            [
                scenario_source("SCENARIO", scn),
                "ranking, qrels, k = list(SCENARIO.full_ranking), SCENARIO.qrels, SCENARIO.k",
            ]
        )
        cells += [
            markdown_cell(
                "## The list\n\nYour Playground list as the lesson page showed it: grades, k and conventions."
            ),
            code_cell(f"{own}\npd.DataFrame(numbers.scenario_table(SCENARIO))"),
        ]
    cells += _steps(NOTEBOOK_STEPS[key])
    cells.append(markdown_cell("## Traps\n\n" + "\n".join(f"- {trap}" for trap in lesson.traps)))
    if lesson.naming:
        cells.append(markdown_cell(lesson.naming))
    return notebook(cells)


def lesson_file(key: str) -> str:
    """The teaching notebook's name of the lesson ``key`` (ir_metrics_lab.core.lessons.lesson_text.LESSONS)."""
    return next(name for name, lesson in TEACHING.items() if lesson == key)

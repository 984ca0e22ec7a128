"""The one module that knows the session_state keys. Pages read and change the app's state only through it.

Getters supply defaults, so every page also runs on its own (``streamlit run app_pages/<section>/<page>.py`` or
AppTest.from_file).
Plain keys (not widget keys) hold the canonical state: Streamlit deletes a widget's key when a page that does not
render that widget runs, but plain keys survive page switches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TypeVar

import streamlit as st

from ir_metrics_lab.core import url
from ir_metrics_lab.core.lessons import quiz
from ir_metrics_lab.core.scenario import DEFAULT_EXAMPLE, Scenario
from metrics.teaching.examples import CAT_DOG_PARROT, EXAMPLES, RETRIEVER_A, RETRIEVER_B

T = TypeVar("T")  # the type of a widget's canonical value

UNDO_LIMIT = 200

_SCENARIO = "scenario"  # the playground's current Scenario
_PREVIOUS = "scenario_previous"  # the scenario before the last change: metric cards show the delta
_UNDO = "scenario_undo"
_REDO = "scenario_redo"
_AB = "ab_scenarios"  # {"A": Scenario, "B": Scenario}
_AB_ORIGIN = (
    "ab_origin"  # None: the preset; else the query and runs the two lists came from (ir_metrics_lab.session.drilldown)
)
_AB_LOADED = "ab_loaded"  # the two lists as opened from the runs, to tell whether they were edited since
_QUERIES = "multi_queries"  # {query id: Scenario}
_QUERY_TEXTS = "multi_query_texts"  # {query id: text}
_EXAMPLE_KEY = "scenario_example"  # the preset last loaded into the playground
_LINK_WARNINGS = "link_warnings"  # what was wrong with the shared link the session was opened with
_FROM_LINK = "scenario_from_link"  # True when the session's first scenario came from a shared link
_PRESENTER = "presenter_mode"  # bool: large type, no sidebar (ir_metrics_lab.shell.presenter)
_PRESENTER_LINK_READ = "presenter_link_read"  # the session's first run has read ?presenter= from the link
_ORIGIN = "scenario_origin"  # None: the preset example_key() (maybe edited); else where the scenario came from
_ORIGIN_UNDO = "scenario_origin_undo"  # the origins of the scenarios on the undo stack, in step with it
_ORIGIN_REDO = "scenario_origin_redo"
_DRILLDOWN_AREA = (
    "pg_drilldown"  # ir_metrics_lab.session.drilldown's message area: "Opened query Q of run: ..." names the origin
)
FROM_LINK = "Opened from a link"
FROM_RUN = "A query from your run"


def scenario() -> Scenario:
    """The playground's scenario. The first call of a session seeds it from the address bar when the URL carries a
    shared scenario (ir_metrics_lab.core.url's schema); otherwise from the default preset."""
    if _SCENARIO not in st.session_state:
        st.session_state[_SCENARIO] = _from_link() or Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE])
    return st.session_state[_SCENARIO]


def _from_link() -> Scenario | None:
    params = st.query_params.to_dict()
    if not url.has_scenario(params):
        return None
    scn, warnings = url.from_query_params(params, base=Scenario.from_example(EXAMPLES[DEFAULT_EXAMPLE]))
    st.session_state[_LINK_WARNINGS] = warnings
    st.session_state[_FROM_LINK] = True
    st.session_state[_ORIGIN] = FROM_LINK
    return scn


def opened_from_link() -> bool:
    return bool(st.session_state.get(_FROM_LINK))


def pop_link_warnings() -> list[str]:
    """The shared link's problems, once: the page shows them on its first render, then they are gone."""
    return st.session_state.pop(_LINK_WARNINGS, [])


def link_warnings() -> list[str]:
    """The shared link's problems, left in place (a new visitor's first run is followed by a second:
    ir_metrics_lab.shell.first_paint)."""
    return list(st.session_state.get(_LINK_WARNINGS, []))


def write_link() -> str | None:
    """Write the playground scenario into the address bar, so it is always a shareable link. Call it once per
    playground run, after every edit; never on other pages. Returns why there is no link, or None.

    Writing query params does not rerun the script; the URL is only rewritten when it differs."""
    try:
        params = url.to_query_params(scenario())
    except ValueError as error:
        params, problem = {}, str(error)
    else:
        problem = None
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)  # also drops unknown keys a tampered link carried (warned about)
    return problem


def previous() -> Scenario | None:
    """The scenario before the last change, or None before the first change."""
    return st.session_state.get(_PREVIOUS)


def origin() -> str | None:
    """Where the playground's scenario came from when it is not the last preset (``example_key()``), e.g.
    "Opened from a link" or "Opened query 7 of bm25"; None when it is that preset, edited or not."""
    return st.session_state.get(_ORIGIN)


def update(new: Scenario, *, new_baseline: bool = False) -> None:
    """Make ``new`` the current scenario; the old one goes on the undo stack. An edit keeps the origin; a scenario
    that brings a new hidden tail (a query opened from a run) is not the preset any more.

    ``new_baseline``: the scenario was loaded (a preset, an erratum, a run's query), not edited, so the metric cards
    show no change until the next edit: a change against an unrelated list would mean nothing."""
    current = scenario()
    if new == current:
        return
    undo_stack = st.session_state.setdefault(_UNDO, [])
    undo_stack.append(current)
    del undo_stack[:-UNDO_LIMIT]
    origins = st.session_state.setdefault(_ORIGIN_UNDO, [])
    origins.append(origin())
    del origins[:-UNDO_LIMIT]
    st.session_state[_REDO] = []
    st.session_state[_ORIGIN_REDO] = []
    st.session_state[_PREVIOUS] = None if new_baseline else current
    st.session_state[_SCENARIO] = new
    if new.tail and new.tail != current.tail:
        st.session_state[_ORIGIN] = FROM_RUN


def load(new: Scenario, origin_label: str) -> None:
    """Replace the playground with a scenario from elsewhere (an erratum, a convention's example, a run's query),
    undoable; ``origin_label`` is what the example picker shows instead of a preset. A new baseline: no deltas."""
    update(new, new_baseline=True)
    st.session_state[_ORIGIN] = origin_label


def can_undo() -> bool:
    return bool(st.session_state.get(_UNDO))


def can_redo() -> bool:
    return bool(st.session_state.get(_REDO))


def _pop_origin(stack: str) -> str | None:
    origins = st.session_state.get(stack, [])
    return origins.pop() if origins else None


def undo() -> None:
    if can_undo():
        current = scenario()
        st.session_state.setdefault(_REDO, []).append(current)
        st.session_state.setdefault(_ORIGIN_REDO, []).append(origin())
        st.session_state[_PREVIOUS] = current
        st.session_state[_SCENARIO] = st.session_state[_UNDO].pop()
        st.session_state[_ORIGIN] = _pop_origin(_ORIGIN_UNDO)


def redo() -> None:
    if can_redo():
        current = scenario()
        st.session_state.setdefault(_UNDO, []).append(current)
        st.session_state.setdefault(_ORIGIN_UNDO, []).append(origin())
        st.session_state[_PREVIOUS] = current
        st.session_state[_SCENARIO] = st.session_state[_REDO].pop()
        st.session_state[_ORIGIN] = _pop_origin(_ORIGIN_REDO)


def load_example(key: str) -> None:
    """Replace the playground with a preset (undoable)."""
    st.session_state[_EXAMPLE_KEY] = key
    update(Scenario.from_example(EXAMPLES[key]), new_baseline=True)
    st.session_state[_ORIGIN] = None


def example_key() -> str:
    """The preset the playground last loaded (Reset goes back to it)."""
    return st.session_state.get(_EXAMPLE_KEY, DEFAULT_EXAMPLE)


def reset() -> None:
    """Reload the last preset (undoable)."""
    load_example(example_key())


def ab() -> dict[str, Scenario]:
    """The two retrievers of the A vs B page, over the same documents."""
    if _AB not in st.session_state:
        reset_ab()
    return st.session_state[_AB]


def set_ab(side: str, new: Scenario) -> None:
    ab()[side] = new


def reset_ab() -> None:
    st.session_state[_AB] = {"A": Scenario.from_example(RETRIEVER_A), "B": Scenario.from_example(RETRIEVER_B)}
    st.session_state.pop(_AB_ORIGIN, None)
    st.session_state.pop(_AB_LOADED, None)


def load_ab(a: Scenario, b: Scenario, query_id: str, names: tuple[str, str]) -> None:
    """Put two real rankings on the A vs B page: query ``query_id`` of the runs ``names`` (A's, B's), until Reset
    brings the preset back."""
    st.session_state[_AB] = {"A": a, "B": b}
    st.session_state[_AB_ORIGIN] = (query_id, *names)
    st.session_state[_AB_LOADED] = {"A": a, "B": b}


def ab_edited(side: str) -> bool:
    """True when that A vs B list is no longer the run's ranking it was opened with (dragged or regraded; another
    cutoff k leaves the list as it was)."""
    loaded = st.session_state.get(_AB_LOADED)
    if loaded is None:
        return False
    now, then = ab()[side], loaded[side]
    return (now.full_ranking, now.grades) != (then.full_ranking, then.grades)


def ab_origin() -> tuple[str, str, str] | None:
    """(query id, run A's name, run B's name) when the A vs B lists came from two runs, or None for the preset."""
    return st.session_state.get(_AB_ORIGIN)


def _queries() -> dict[str, Scenario]:
    if _QUERIES not in st.session_state:
        reset_queries()
    return st.session_state[_QUERIES]


def _query_texts() -> dict[str, str]:
    _queries()
    return st.session_state[_QUERY_TEXTS]


def queries() -> Mapping[str, Scenario]:
    """The multi-query page's queries, each with its own list and grades (read-only: change them with set_query,
    add_query and remove_query)."""
    return MappingProxyType(_queries())


def query_texts() -> Mapping[str, str]:
    return MappingProxyType(_query_texts())


def set_query(query_id: str, new: Scenario) -> None:
    _queries()[query_id] = new


def add_query(query_id: str, new: Scenario, text: str = "") -> None:
    """Add a query (or replace the one with that id) with its list and its text."""
    if not query_id:
        raise ValueError("a query needs an id")
    _queries()[query_id] = new
    _query_texts()[query_id] = text


def remove_query(query_id: str) -> None:
    _queries().pop(query_id, None)
    _query_texts().pop(query_id, None)


def set_query_text(query_id: str, text: str) -> None:
    if query_id not in _queries():
        raise ValueError(f"no query {query_id!r}")
    _query_texts()[query_id] = text


def reset_queries() -> None:
    example = CAT_DOG_PARROT
    st.session_state[_QUERIES] = {q: Scenario.from_example(example, q) for q in example.queries}
    st.session_state[_QUERY_TEXTS] = {q: query.text for q, query in example.queries.items()}


# --- bookkeeping for the ranked-list component and the widgets that mirror canonical values ---

_LIST_EDITS_SEEN = "list_edits_seen"  # {component key: id of the last browser edit applied}
_ANNOUNCEMENTS = "list_announcements"  # {component key: sentence for the screen reader after the rerun}
_PUSHED = "widgets_pushed"  # {widget key: the canonical value last written into that widget}
_MESSAGES = "page_messages"  # {area: (level, text)}: outcome of a button callback, shown on the next render


def component_edit(key: str) -> object:
    """The ``edit`` state value of the ranked-list component ``key`` (None before the first edit)."""
    value = st.session_state.get(key)
    try:
        return value.get("edit") if value is not None else None
    except AttributeError:
        return None


def edit_is_new(key: str, edit_id: str) -> bool:
    return st.session_state.get(_LIST_EDITS_SEEN, {}).get(key) != edit_id


def mark_edit_seen(key: str, edit_id: str) -> None:
    st.session_state.setdefault(_LIST_EDITS_SEEN, {})[key] = edit_id


def set_announcement(key: str, text: str) -> None:
    st.session_state.setdefault(_ANNOUNCEMENTS, {})[key] = text


def pop_announcement(key: str) -> str:
    return st.session_state.get(_ANNOUNCEMENTS, {}).pop(key, "")


def sync_widget(widget_key: str, value: T) -> T:
    """Make the widget ``widget_key`` show the canonical ``value``; returns ``value``, which the caller passes as the
    widget's default (``value=``, ``default=``, or ``index=`` through ``option_index``) in the same run.

    A widget the browser mounts late (ir_metrics_lab.shell.first_paint.later, or drawn again after a page switch) shows
    its default until it has applied the value sent with it, and a browser that missed that value sends the default back
    with the next interaction: an upload then lost Evaluate's measures, and presenter mode turned itself off. So the
    default is always the canonical value, and session_state is written only for a widget already on screen whose
    canonical value changed (undo, preset, reset): what the user typed (even if invalid) stays until then."""
    pushed = st.session_state.setdefault(_PUSHED, {})
    if widget_key in st.session_state and pushed.get(widget_key) != value:
        st.session_state[widget_key] = value
    pushed[widget_key] = value
    return value


def options_with(options: Sequence[object], chosen: Sequence[object]) -> list[object]:
    """``options`` and then any of ``chosen`` not among them: the options of a multiselect that accepts new ones,
    so that what the user added is still a valid default when the widget is drawn again."""
    return [*options, *(value for value in chosen if value not in options)]


def option_index(options: Sequence[object], value: object) -> int | None:
    """The ``index`` that makes a radio or selectbox show ``value`` (None, no choice, when it is not an option)."""
    options = list(options)
    return options.index(value) if value in options else None


def widget_value(widget_key: str, default: object = None) -> object:
    return st.session_state.get(widget_key, default)


def choice_index(widget_key: str, allowed: Sequence[object], default: object) -> int:
    """The ``index`` to give the choice widget ``widget_key`` (one of ``allowed``, ``default`` at first).

    The index is what the browser shows until it has applied a value sent with the element, and a browser that mounts
    the widget late (a new visitor's first run is followed by a second: ir_metrics_lab.shell.first_paint) can miss that
    value: so a widget that holds nothing yet gets its value from the index alone, and one that holds an allowed value
    gets that value's index. Only a value no longer allowed (another measure) is replaced through session_state, which
    reaches the widget on screen by then; the index is then 0, as Streamlit warns (with a stack trace in the log) when a
    run gives a widget both a session_state value and another index."""
    allowed = list(allowed)
    if widget_key not in st.session_state:
        return allowed.index(default)
    current = st.session_state[widget_key]
    if current in allowed:
        return allowed.index(current)
    st.session_state[widget_key] = default
    return 0


def clear_widgets(*widget_keys: str) -> None:
    """Empty text inputs after their form succeeded (only from a callback: the widgets are drawn afterwards)."""
    for widget_key in widget_keys:
        st.session_state[widget_key] = ""


def set_message(area: str, level: str, text: str) -> None:
    """Keep a callback's outcome ("error", "warning", "success") for the area's next render. ``text`` is plain text
    (it may quote ids and titles): the area shows it through ir_metrics_lab.core.markdown.plain.

    ir_metrics_lab.session.drilldown announces a query it opened in the playground here ("Opened query Q of run: its top
    N ..."); the part before the colon becomes the scenario's origin, so the example picker names the query, not a
    preset."""
    st.session_state.setdefault(_MESSAGES, {})[area] = (level, text)
    if area == _DRILLDOWN_AREA and text.startswith("Opened query"):
        st.session_state[_ORIGIN] = text.split(":", 1)[0]


def pop_message(area: str) -> tuple[str, str] | None:
    return st.session_state.get(_MESSAGES, {}).pop(area, None)


def set_ab_grade(doc: str, grade: int) -> None:
    """A and B rank the same documents, so a grade is a property of the document: change it in both lists."""
    scenarios = ab()
    for side, scn in scenarios.items():
        if doc in scn.docs:
            scenarios[side] = scn.with_grade(doc, grade)


def set_ab_k(k: int) -> None:
    scenarios = ab()
    for side, scn in scenarios.items():
        scenarios[side] = scn.with_settings(k=k)


def apply_ab_edit(side: str, new: Scenario) -> None:
    """An edit made in one A/B list: its order stays on that side; a grade change applies to both sides."""
    before = ab()[side]
    for doc in new.docs:
        if new.grades.get(doc) != before.grades.get(doc):
            set_ab_grade(doc, new.grades[doc])
    set_ab(side, ab()[side].reordered(new.ranking) if sorted(new.ranking) == sorted(before.ranking) else new)


# --- the quiz's score: first attempts and the last feedback, per (seed, exercise); survive page switches ---

_QUIZ_ATTEMPTS = "quiz_attempts"  # {(seed, exercise index): first attempt correct}
_QUIZ_FEEDBACK = (
    "quiz_feedback"  # {(seed, exercise index): ir_metrics_lab.core.lessons.quiz.Feedback of the last check}
)
_QUIZ_ORDERS = "quiz_orders"  # {(seed, exercise index): the order a reorder exercise's list was left in}
QUIZ_SEED = "quiz_seed"  # the widget key of the quiz's seed box


def start_quiz_seed(initial: Callable[[], int]) -> None:
    """Give the seed box its first value (``initial()``, e.g. the link's ``?seed=``) when it has none yet."""
    if QUIZ_SEED not in st.session_state:
        st.session_state[QUIZ_SEED] = initial()


def next_quiz_seed() -> None:
    """The "New set" button's on_click: the next seed (the box shows it on the rerun)."""
    st.session_state[QUIZ_SEED] = int(st.session_state[QUIZ_SEED]) + 1


def quiz_order(seed: int, index: int, start: Sequence[str]) -> tuple[str, ...]:
    """The order the learner left reorder exercise ``index`` of set ``seed`` in; ``start`` until it is first moved."""
    return st.session_state.setdefault(_QUIZ_ORDERS, {}).setdefault((seed, index), tuple(start))


def set_quiz_order(seed: int, index: int, order: Sequence[str]) -> None:
    st.session_state.setdefault(_QUIZ_ORDERS, {})[(seed, index)] = tuple(order)


def quiz_attempts() -> Mapping[tuple[int, int], bool]:
    """{(seed, exercise index): whether the first attempt was right}, read-only (ir_metrics_lab.core.lessons.quiz.tally
    counts it)."""
    return MappingProxyType(st.session_state.setdefault(_QUIZ_ATTEMPTS, {}))


def record_quiz_attempt(seed: int, index: int, correct: bool) -> None:
    """Only the first attempt at an exercise counts (ir_metrics_lab.core.lessons.quiz.record), so retrying until right
    does not inflate it."""
    quiz.record(st.session_state.setdefault(_QUIZ_ATTEMPTS, {}), (seed, index), correct)


def quiz_feedback(seed: int, index: int) -> object | None:
    """The feedback of the last check of exercise ``index`` of set ``seed`` (a
    ir_metrics_lab.core.lessons.quiz.Feedback), or None."""
    return st.session_state.get(_QUIZ_FEEDBACK, {}).get((seed, index))


def set_quiz_feedback(seed: int, index: int, feedback: object) -> None:
    st.session_state.setdefault(_QUIZ_FEEDBACK, {})[(seed, index)] = feedback


# --- presenter mode (ir_metrics_lab.shell.presenter draws it) ---


def presenter_on() -> bool:
    return bool(st.session_state.get(_PRESENTER, False))


def set_presenter(on: bool) -> None:
    st.session_state[_PRESENTER] = bool(on)


def first_look_at_presenter_link() -> bool:
    """True once per session: the link's ``?presenter=`` is read on the first run only, so Exit stays exited."""
    if st.session_state.get(_PRESENTER_LINK_READ):
        return False
    st.session_state[_PRESENTER_LINK_READ] = True
    return True


# --- your own data: loaded files and the page's settings (ir_metrics_lab.session.datasets draws the widgets) ---

# {slot: ir_metrics_lab.session.datasets.Loaded}: parsed files outlive page switches, uploader widgets don't
_LOADED = "dataset_loaded"
_UPLOAD_CHANGED = "dataset_upload_changed"  # slots whose uploader the user changed since they were last read
_DATASET_SETTINGS = "dataset_settings"  # {name: value}: source, sample system, measures, complete


def loaded_file(slot: str) -> object | None:
    """The file loaded into ``slot`` (a ir_metrics_lab.session.datasets.Loaded, possibly holding an error), or None."""
    return st.session_state.get(_LOADED, {}).get(slot)


def set_loaded_file(slot: str, loaded: object) -> None:
    st.session_state.setdefault(_LOADED, {})[slot] = loaded


def clear_loaded_file(slot: str) -> None:
    st.session_state.get(_LOADED, {}).pop(slot, None)


def mark_upload_changed(slot: str) -> None:
    """The uploader's on_change: the script reads the new file (or its removal) on this run."""
    st.session_state.setdefault(_UPLOAD_CHANGED, set()).add(slot)


def upload_changed(slot: str) -> bool:
    return slot in st.session_state.get(_UPLOAD_CHANGED, set())


def upload_handled(slot: str) -> None:
    """Clear the flag only once the file was read: a run cut short by the next upload's rerun reads it again."""
    st.session_state.get(_UPLOAD_CHANGED, set()).discard(slot)


def dataset_setting(name: str, default: object = None) -> object:
    return st.session_state.get(_DATASET_SETTINGS, {}).get(name, default)


def set_dataset_setting(name: str, value: object) -> None:
    st.session_state.setdefault(_DATASET_SETTINGS, {})[name] = value


def shown_setting(widget_key: str, default: object, setting: str | None = None) -> object:
    """What the widget ``widget_key``, seeded from the dataset setting ``setting`` (by default its own key), shows:
    its value, or before it is drawn (ir_metrics_lab.shell.first_paint.later) the saved setting it will show."""
    return widget_value(widget_key, dataset_setting(setting or widget_key, default))


_FIRST_PAINT = "first_paint_done"  # ir_metrics_lab.shell.first_paint: the session's first screen has been painted


def first_paint_done() -> bool:
    return bool(st.session_state.get(_FIRST_PAINT, False))


def set_first_paint_done() -> None:
    st.session_state[_FIRST_PAINT] = True
    st.session_state[_SECOND_RUN] = True


_SECOND_RUN = (
    "first_paint_second_run"  # ir_metrics_lab.shell.first_paint: this run follows the first paint (app.py ends it)
)


def second_run() -> bool:
    return bool(st.session_state.get(_SECOND_RUN, False))


def end_second_run() -> None:
    st.session_state.pop(_SECOND_RUN, None)


_FORMULA_ROOMS = "first_paint_formula_rooms"  # ir_metrics_lab.shell.first_paint: the rooms this run left formulas in


def formula_rooms() -> int:
    return st.session_state.get(_FORMULA_ROOMS, 0)


def count_formula_room() -> int:
    """Count one more formula room in this run; its number, 0 first (a key)."""
    number = formula_rooms()
    st.session_state[_FORMULA_ROOMS] = number + 1
    return number


def reset_formula_rooms() -> None:
    st.session_state[_FORMULA_ROOMS] = 0


# --- live class (ir_metrics_lab.classroom.live_class draws it; the polls themselves live in the database,
# ir_metrics_lab.core.classroom.store) ---

_LIVE_TEACHER = "live_teacher"  # (join code, teacher token) of the poll this session runs
_LIVE_STUDENT = "live_student"  # this session's student id; also in its address bar (?s=), so a reload keeps it
_LIVE_MESSAGE = "live_message"  # what the last live-class action said (an error, a confirmation), shown once
_LIVE_FROM_QUIZ = "live_from_quiz"  # a question handed over by the quiz's "Ask the class", until asked or discarded


def live_teacher() -> tuple[str, str] | None:
    return st.session_state.get(_LIVE_TEACHER)


def set_live_teacher(code: str | None, token: str | None = None) -> None:
    st.session_state[_LIVE_TEACHER] = (code, token) if code and token else None


def live_student() -> str | None:
    return st.session_state.get(_LIVE_STUDENT)


def set_live_student(student: str) -> None:
    st.session_state[_LIVE_STUDENT] = student


def set_live_message(kind: str, text: str) -> None:
    st.session_state[_LIVE_MESSAGE] = (kind, text)


def pop_live_message(*, keep: bool = False) -> tuple[str, str] | None:
    """The last live-class message, taken (shown once), or with ``keep`` left for the next run: a new visitor's
    first run is followed by a second one (ir_metrics_lab.shell.first_paint), which must show it too."""
    return st.session_state.get(_LIVE_MESSAGE) if keep else st.session_state.pop(_LIVE_MESSAGE, None)


def live_from_quiz() -> dict | None:
    """The question a quiz exercise handed to Ask the class (ir_metrics_lab.core.classroom.questions JSON), if any."""
    return st.session_state.get(_LIVE_FROM_QUIZ)


def set_live_from_quiz(question: dict | None) -> None:
    st.session_state[_LIVE_FROM_QUIZ] = question

"""A playground Scenario as URL query parameters, and back. Pure (no Streamlit).

The schema is a contract: links shared in class must keep working.

======== =============================================================== =========================
key      value                                                           default when absent
======== =============================================================== =========================
docs     retrieved doc ids in rank order, comma-separated                 (no documents)
grades   one integer grade per id in ``docs``, comma-separated            0 for every document
missing  judged but not retrieved docs as ``id:grade``, comma-separated   (empty shelf)
unjudged ids in ``docs`` that were never judged (no qrels line; grade 0)  every document is judged
titles   one title per doc (``docs`` then ``missing``), each              no titles
         percent-encoded, joined with ``|``
aspects  per doc (``docs`` then ``missing``) the aspects it covers,       no document covers an
         each name percent-encoded, joined with ``,``; the docs'         aspect
         entries joined with ``|`` (an empty entry: none)
k        cutoff, a whole number 1..100                                    5
t        relevance threshold, 1..scale                                    1 (trec_eval)
gain     ``linear`` or ``exp``                                            linear (trec_eval)
idcg     ``all`` or ``retrieved``                                         all (trec_eval)
apden    ``all`` or ``retrieved``                                         all (trec_eval)
scale    rating scale 1, 3 or 4 (written only when the grades alone       inferred from the largest
         would not tell it)                                               grade: <=1 -> 1, <=3 -> 3,
                                                                          else 4
======== =============================================================== =========================

Example: ``/?docs=d1,d2,d3&grades=0,3,1&missing=d9:2&k=3``; with aspects (the diversity lesson's),
``/?docs=d1,d2&grades=2,1&aspects=price,range|price``.

**Document ids** are trimmed; an empty id is rejected. Ids cannot contain ``,`` or ``:`` (the separators), so a
scenario holding such an id (or one with surrounding spaces) has no link: :func:`to_query_params` raises ValueError
naming it. Titles can be any text: ``<script>`` stays the literal text, because the app only ever shows titles as text.

:func:`from_query_params` never raises. A bad part of a link (an unknown key, a grade ``abc``, ``k=-1``, lists of
different lengths, duplicate ids, too many documents, a grade outside the scale, an unknown convention) falls back to
its default, and a warning naming the key and the problem says so; the rest of the link is kept.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from urllib.parse import quote, unquote, urlencode

from ir_metrics_lab.core import words
from ir_metrics_lab.core.scenario import MAX_ASPECTS, MAX_DOCS, SCALES, Scenario, check_aspect
from metrics.core.conventions import TREC_EVAL, Conventions
from metrics.core.errors import pointer

MAX_K = MAX_DOCS  # the playground's k input allows 1..100 as well
DEFAULT_K = Scenario(()).k
SCHEMA_KEYS = (
    "docs", "grades", "missing", "titles", "aspects", "unjudged", "k", "t", "gain", "idcg", "apden", "scale"
)  # fmt: skip
LIST_KEYS = ("docs", "grades", "missing", "titles", "aspects", "unjudged", "scale")
# Streamlit's own, and ir_metrics_lab.shell.presenter's switch
IGNORED_KEYS = frozenset({"embed", "embed_options", "presenter"})
CHOICES = {"gain": ("linear", "exp"), "idcg": ("all", "retrieved"), "apden": ("all", "retrieved")}
UNREPRESENTABLE = (",", ":")
# A title is percent-encoded except for these printable ASCII characters, so '|' and '%' (and non-ASCII) are encoded
# and the link stays readable; unquote() reverses it.
TITLE_SAFE = "".join(chr(c) for c in range(32, 127) if chr(c) not in "%|")
ASPECT_SAFE = TITLE_SAFE.replace(",", "")  # an aspect's name: a comma separates names
SHOWN_CHARS = 30  # a bad value is quoted in the warning up to this length


def infer_scale(grades: Mapping[str, int] | list[int]) -> int:
    """The smallest rating scale holding every grade: binary up to 1, 0-3 up to 3, else 0-4."""
    top = max(grades.values() if isinstance(grades, Mapping) else grades, default=0)
    return 1 if top <= 1 else 3 if top <= 3 else 4


def link_problems(scn: Scenario) -> list[str]:
    """Why ``scn`` cannot be written as a link (empty when it can)."""
    problems = []
    for doc in scn.docs:
        bad = [c for c in UNREPRESENTABLE if c in doc]
        if bad:
            problems.append(f"document id {doc!r} contains {' and '.join(repr(c) for c in bad)}, a link separator")
        elif doc != doc.strip() or not doc:
            problems.append(f"document id {doc!r} is empty or has surrounding spaces")
    return problems


def to_query_params(scn: Scenario) -> dict[str, str]:
    """The scenario as query parameters (defaults left out). Raises ValueError if an id cannot be carried."""
    problems = link_problems(scn)
    if problems:
        raise ValueError("this scenario has no link: " + "; ".join(problems))
    grades = {**scn.qrels, **dict.fromkeys(scn.unjudged, 0)}
    params = {"docs": ",".join(scn.ranking), "grades": ",".join(str(grades[d]) for d in scn.ranking)}
    if scn.shelf:
        params["missing"] = ",".join(f"{d}:{grades[d]}" for d in scn.shelf)
    if any(scn.title(d) for d in scn.docs):
        params["titles"] = "|".join(quote(scn.title(d), safe=TITLE_SAFE) for d in scn.docs)
    if scn.aspects:
        params["aspects"] = "|".join(",".join(quote(a, safe=ASPECT_SAFE) for a in scn.aspects_of(d)) for d in scn.docs)
    if unjudged := [d for d in scn.ranking if d in scn.unjudged]:  # the hidden tail is not in a link either
        params["unjudged"] = ",".join(unjudged)
    params["k"] = str(scn.k)
    conv = scn.conventions
    if conv.threshold != TREC_EVAL.threshold:
        params["t"] = str(conv.threshold)
    for key, value, default in (
        ("gain", conv.gain, TREC_EVAL.gain),
        ("idcg", conv.idcg, TREC_EVAL.idcg),
        ("apden", conv.ap_denominator, TREC_EVAL.ap_denominator),
    ):
        if value != default:
            params[key] = value
    if scn.scale != infer_scale(grades):
        params["scale"] = str(scn.scale)
    return params


def relative_link(scn: Scenario) -> str:
    """``/?docs=...``: the playground is the app's default page, served at ``/`` (its own path shows a 404 modal)."""
    return "/?" + urlencode(to_query_params(scn), quote_via=quote, safe=",:|")


def app_address(context_url: str | None, headers: Mapping[str, str] | None = None) -> str | None:
    """The app's address for absolute links: ``st.context.url`` on the default page (scheme, host and any base
    path, no page path), else ``http://`` + the Host header; None when neither is known (AppTest).

    >>> app_address("https://lab.example.org/ir/")
    'https://lab.example.org/ir'
    >>> app_address(None, {"Host": "127.0.0.1:8501"})
    'http://127.0.0.1:8501'
    >>> app_address(None, {}) is None
    True
    """
    if context_url:
        return context_url.rstrip("/")
    host = (headers or {}).get("Host") or (headers or {}).get("host")
    return f"http://{host}" if host else None


def full_link(app_url: str | None, scn: Scenario) -> str:
    """The link with the app's address in front (``st.context.url``, without a page path), if known."""
    return (app_url or "").rstrip("/") + relative_link(scn)


# --- parsing ---------------------------------------------------------------------------------------------------


def _shown(value: str) -> str:
    return repr(value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS] + "…")


def _whole(text: str) -> int | None:
    """A whole number written in ASCII digits (optionally signed), else None. Long strings are refused, not parsed."""
    text = text.strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or len(digits) > 9 or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def _split(value: str) -> list[str]:
    return [] if value.strip() == "" else value.split(",")


def _title(raw: str, doc: str, warnings: list[str], key: str = "titles") -> str:
    """A percent-decoded title (or, with ``key`` 'aspects', an aspect's name). Bytes that are not UTF-8
    (``%E0%A4%A``: a cut-off character) become U+FFFD, with a warning, so the user knows the link was damaged
    rather than seeing a stray symbol."""
    try:
        return unquote(raw, errors="strict")
    except UnicodeDecodeError:
        _warn(
            warnings,
            key,
            f"the {'title' if key == 'titles' else 'aspect'} {_shown(raw)} of {_shown(doc)} has broken "
            "percent-encoding (bytes that are not UTF-8 text); "
            "they are shown as \ufffd.",
        )
        return unquote(raw, errors="replace")


def _warn(warnings: list[str], key: str, text: str) -> None:
    warnings.append(f"Link key '{key}': {text} {pointer('share-link')}")


def from_query_params(params: Mapping[str, str], base: Scenario | None = None) -> tuple[Scenario, list[str]]:
    """Parse a link's query parameters. Never raises: each bad part falls back to its default with a warning
    that starts with ``Link key '<key>':``.

    A link without ``docs`` (``/?gain=exp``) changes only the settings of ``base`` (the app passes its default
    preset); its ``grades``, ``missing`` and ``titles`` need ``docs`` and are ignored with a warning. Without a
    base, a link without ``docs`` is an empty playground."""
    warnings: list[str] = []
    get = _schema_values(params, base, warnings)
    listed = _ranked(get, warnings)
    _shelved(listed, _split(get.get("missing", "")), warnings)
    scale = _scale(get, listed, warnings)
    titles = _titles(get, listed, warnings)
    k = _cutoff(get, warnings)
    conventions = _conventions(get, scale, warnings)
    scn = Scenario(
        tuple(listed.ranking), tuple(listed.shelf), listed.grades, titles, k=k, conventions=conventions, scale=scale,
        aspects=_aspects(get, listed, warnings),
    )  # fmt: skip
    return scn.with_unjudged(_unjudged(get, listed.ranking, warnings)), warnings


def _schema_values(params: Mapping[str, str], base: Scenario | None, warnings: list[str]) -> dict[str, str]:
    """The link's values of the schema's keys (a repeated key: its last value), with a warning for every other key;
    a link without ``docs`` takes its list from ``base``, if it has a link."""
    get: dict[str, str] = {}
    for key, value in params.items():
        if isinstance(value, list | tuple):  # repeated keys: the last one wins, as st.query_params[key] does
            value = value[-1] if value else ""
        if key in SCHEMA_KEYS:
            get[key] = str(value)
        elif str(key).lower() not in IGNORED_KEYS:
            unknown = f"Link key {_shown(str(key))}: not part of a scenario link; ignored."
            warnings.append(f"{unknown} {pointer('share-link')}")
    if "docs" not in get and base is not None and not link_problems(base):
        for key in ("grades", "missing", "titles", "aspects", "unjudged"):
            if get.pop(key, None) is not None:
                _warn(warnings, key, "ignored, because the link has no 'docs' to go with it.")
        list_params = {key: value for key, value in to_query_params(base).items() if key in LIST_KEYS}
        get = {"k": str(base.k), **list_params, **get}
    return get


@dataclasses.dataclass
class _Listed:
    """The link's documents as read so far: the ranked ids and the shelf's, each with its position in 'docs' or
    'missing' (so titles stay aligned while bad ids are dropped), their grades, and how many entries 'docs' and
    'missing' held."""

    ranking: list[str]
    positions: list[int]
    grades: dict[str, int]
    written_docs: int
    shelf: list[str] = dataclasses.field(default_factory=list)
    shelf_positions: list[int] = dataclasses.field(default_factory=list)
    written_missing: int = 0


def _ranked(get: Mapping[str, str], warnings: list[str]) -> _Listed:
    """'docs' and 'grades': the ranked list, bad ids dropped, a grade per id (0 where missing or bad)."""
    raw_docs = [d.strip() for d in _split(get.get("docs", ""))]
    raw_grades = _split(get["grades"]) if "grades" in get else None
    if raw_grades is not None and len(raw_grades) != len(raw_docs):
        fix = "the missing grades are 0" if len(raw_grades) < len(raw_docs) else "the extra grades are ignored"
        _warn(
            warnings,
            "grades",
            f"{words.count(len(raw_grades), 'grade')} for {words.count(len(raw_docs), 'document')} in 'docs'; {fix}.",
        )
    if len(raw_docs) > MAX_DOCS:
        _warn(
            warnings,
            "docs",
            f"{len(raw_docs)} documents; the playground holds at most {MAX_DOCS}, so the first {MAX_DOCS} are kept.",
        )
    listed = _Listed([], [], {}, len(raw_docs))
    for i, doc in enumerate(raw_docs[:MAX_DOCS]):
        if not doc:
            _warn(warnings, "docs", f"empty document id at position {i + 1}; ignored.")
        elif ":" in doc:
            _warn(warnings, "docs", f"the id {_shown(doc)} contains ':', which ids cannot; ignored.")
        elif doc in listed.ranking:
            _warn(warnings, "docs", f"the document {_shown(doc)} is listed twice; only its first rank is kept.")
        else:
            listed.ranking.append(doc)
            listed.positions.append(i)
    for doc, i in zip(listed.ranking, listed.positions, strict=True):
        text = raw_grades[i] if raw_grades is not None and i < len(raw_grades) else "0"
        listed.grades[doc] = _grade(text, "grades", doc, warnings)
    return listed


def _shelved(listed: _Listed, raw_missing: list[str], warnings: list[str]) -> None:
    """'missing': ``id:grade`` pairs (judged, not retrieved) added to the shelf of ``listed``."""
    listed.written_missing = len(raw_missing)
    for j, item in enumerate(raw_missing):
        doc, colon, text = item.partition(":")
        doc = doc.strip()
        if not doc:
            _warn(warnings, "missing", f"the entry {_shown(item)} has no document id; ignored.")
        elif doc in listed.ranking or doc in listed.shelf:
            _warn(warnings, "missing", f"the document {_shown(doc)} is already listed; only its first mention is kept.")
        elif len(listed.ranking) + len(listed.shelf) >= MAX_DOCS:
            _warn(warnings, "missing", f"more than {MAX_DOCS} documents in all; {_shown(doc)} is ignored.")
        else:
            listed.shelf.append(doc)
            listed.shelf_positions.append(j)
            if not colon:
                _warn(warnings, "missing", f"the entry {_shown(item)} has no ':grade'; using grade 0.")
                listed.grades[doc] = 0
            else:
                listed.grades[doc] = _grade(text, "missing", doc, warnings)


def _grade(text: str, key: str, doc: str, warnings: list[str]) -> int:
    grade = _whole(text)
    if grade is None or grade < 0:
        _warn(warnings, key, f"the grade {_shown(text)} of {_shown(doc)} is not a whole number >= 0; using 0.")
        return 0
    return grade


def _scale(get: Mapping[str, str], listed: _Listed, warnings: list[str]) -> int:
    """'scale': explicit, else inferred from the largest grade; grades above it fall back to 0 (in ``listed``)."""
    scale = None
    if "scale" in get:
        scale = _whole(get["scale"])
        if scale not in SCALES:
            options = ", ".join(map(str, SCALES))
            _warn(warnings, "scale", f"{_shown(get['scale'])} is not one of {options}; inferred from the grades.")
            scale = None
    if scale is None:
        scale = infer_scale(listed.grades)
    for doc, grade in listed.grades.items():
        if grade > scale:
            key = "missing" if doc in listed.shelf else "grades"
            _warn(warnings, key, f"the grade {grade} of {_shown(doc)} is outside the 0-{scale} scale; using 0.")
            listed.grades[doc] = 0
    return scale


def _titles(get: Mapping[str, str], listed: _Listed, warnings: list[str]) -> dict[str, str]:
    """'titles': one per entry, in docs order then missing order; all empty unless the counts match."""
    titles = dict.fromkeys((*listed.ranking, *listed.shelf), "")
    if "titles" not in get:
        return titles
    raw_titles = get["titles"].split("|")
    expected = listed.written_docs + listed.written_missing
    if len(raw_titles) != expected:
        _warn(
            warnings,
            "titles",
            f"{words.count(len(raw_titles), 'title')} for {words.count(expected, 'document')} "
            "('docs' then 'missing'); titles are left empty.",
        )
        return titles
    placed = list(zip(listed.ranking, listed.positions, strict=True))
    placed += [(doc, listed.written_docs + j) for doc, j in zip(listed.shelf, listed.shelf_positions, strict=True)]
    for doc, i in placed:
        titles[doc] = _title(raw_titles[i], doc, warnings)
    return titles


def _aspects(get: Mapping[str, str], listed: _Listed, warnings: list[str]) -> dict[str, tuple[str, ...]]:
    """'aspects': one entry per doc, in docs order then missing order; none unless the counts match. A name that is
    empty, too long or one too many is dropped with a warning."""
    if not get.get("aspects"):
        return {}
    entries = get["aspects"].split("|")
    expected = listed.written_docs + listed.written_missing
    if len(entries) != expected:
        _warn(
            warnings,
            "aspects",
            f"{words.count(len(entries), 'aspect list')} for {words.count(expected, 'document')} "
            "('docs' then 'missing'); no document covers an aspect.",
        )
        return {}
    placed = list(zip(listed.ranking, listed.positions, strict=True))
    placed += [(doc, listed.written_docs + j) for doc, j in zip(listed.shelf, listed.shelf_positions, strict=True)]
    aspects: dict[str, tuple[str, ...]] = {}
    named: set[str] = set()
    for doc, i in placed:
        kept: list[str] = []
        for raw in _split(entries[i]):
            try:
                name = check_aspect(_title(raw, doc, warnings, "aspects"))
            except ValueError as error:
                _warn(warnings, "aspects", f"an aspect of {_shown(doc)}: {error}; ignored.")
                continue
            if name not in named and len(named) >= MAX_ASPECTS:
                _warn(warnings, "aspects", f"more than {MAX_ASPECTS} aspects; {_shown(name)} is ignored.")
            elif name not in kept:
                named.add(name)
                kept.append(name)
        if kept:
            aspects[doc] = tuple(kept)
    return aspects


def _cutoff(get: Mapping[str, str], warnings: list[str]) -> int:
    """'k': a whole number from 1 to MAX_K, else the default."""
    k = DEFAULT_K
    if "k" in get:
        value = _whole(get["k"])
        if value is None or not 1 <= value <= MAX_K:
            _warn(warnings, "k", f"{_shown(get['k'])} is not a whole number from 1 to {MAX_K}; using k = {k}.")
        else:
            k = value
    return k


def _conventions(get: Mapping[str, str], scale: int, warnings: list[str]) -> Conventions:
    """'t' (1..scale), 'gain', 'idcg' and 'apden': trec_eval's choice for each one absent or bad."""
    threshold = TREC_EVAL.threshold
    if "t" in get:
        value = _whole(get["t"])
        if value is None or not 1 <= value <= scale:
            _warn(
                warnings,
                "t",
                f"the relevance threshold {_shown(get['t'])} is not a whole number from 1 to {scale}; "
                f"using {threshold}.",
            )
        else:
            threshold = value
    chosen = {"gain": TREC_EVAL.gain, "idcg": TREC_EVAL.idcg, "apden": TREC_EVAL.ap_denominator}
    for key, options in CHOICES.items():
        if key in get:
            if get[key] in options:
                chosen[key] = get[key]
            else:
                _warn(warnings, key, f"{_shown(get[key])} is not {' or '.join(options)}; using {chosen[key]}.")
    return dataclasses.replace(
        TREC_EVAL, threshold=threshold, gain=chosen["gain"], idcg=chosen["idcg"], ap_denominator=chosen["apden"]
    )


def _unjudged(get: Mapping[str, str], ranking: list[str], warnings: list[str]) -> list[str]:
    """'unjudged': ids from docs (the ranked list) that have no judgment."""
    unjudged = []
    for doc in dict.fromkeys(d.strip() for d in _split(get.get("unjudged", ""))):
        if doc in ranking:
            unjudged.append(doc)
        else:
            _warn(warnings, "unjudged", f"{_shown(doc)} is not a ranked document in 'docs'; ignored.")
    return unjudged


def has_scenario(params: Mapping[str, str]) -> bool:
    """Whether a link carries a scenario at all (any schema key present)."""
    return any(key in params for key in SCHEMA_KEYS)

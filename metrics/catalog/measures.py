"""Measure names, as users and trec_eval spell them, parsed into Measures (metrics.catalog.family) of the registry's
families."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable

from metrics.catalog import registry
from metrics.catalog.family import Measure, number_in_name
from metrics.core.conventions import Gain
from metrics.core.errors import InputError
from metrics.core.judgments import Gains
from metrics.core.types import Breakdown

MetricFunction = Callable[..., Breakdown]

FUNCTIONS: dict[str, MetricFunction] = {f.key: f.function for f in registry.FAMILIES}  # a view of the registry
"""Each family's key -> its readable function (``FUNCTIONS["NDCG"]`` is ``ndcg``): a view of the registry."""

# trec_eval's spellings with a cutoff or parameter: P_10, ndcg_cut.10, iprec_at_recall_0.50
_NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
_TREC_CUTOFF = re.compile(rf"^(?P<name>[a-z_0-9-]+?)[_.](?P<k>{_NUMBER}(?:,{_NUMBER})*)$")
# ours and ir_measures': NDCG@10, P(rel=2)@5, RBP(p=0.8)
_CALL = re.compile(r"^(?P<name>[a-z0-9][a-z_0-9-]*)(?:\((?P<args>[^()]*)\))?(?:@(?P<at>[^@]*))?$")
# trec_eval's name=value parameters after a dot: ndcg.1=3,2=9,4=4.5 (a gain map), rbp.p=0.8
_TREC_PAIRS = re.compile(r"^(?P<name>[a-z_0-9]+?)\.(?P<pairs>[a-z0-9]+=[^,=]+(?:,[a-z0-9]+=[^,=]+)*)$")
_ARGUMENT = re.compile(r"(?:[^,{]|\{[^}]*\})+")  # one name=value, a {level: gain} map kept whole
MAX_CUTOFF = 10**9  # no ranking is longer; a larger k is a typo, and numpy would overflow on it

DEFAULT_MEASURES = registry.default_measures()
"""The names of the measures :func:`metrics.evaluate` scores when given none, and the command line, the leaderboard and
the app's Compare runs show unless told otherwise (metrics.catalog.registry.default_measures lists them)."""


def _quoted(text: str) -> str:
    """A measure name as an error quotes it: whole if short, else its first 40 characters and its length."""
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}… ({len(text):,} characters)"


def _spelling(name: str) -> tuple[registry.Family, Gain] | None:
    """The family and gain a lower-case name spells: ``ndcg_exp`` is NDCG with exponential gain."""
    if (found := registry.spelled(name)) is not None:
        return found, "linear"
    stem = name.removesuffix("_exp")
    if stem != name and (found := registry.spelled(stem)) is not None and found.graded and stem == found.key.lower():
        return found, "exp"
    return None


def _unknown(spelled: str) -> InputError:
    return InputError(
        "measure-unknown",
        f"unknown measure {_quoted(spelled)}; known: {', '.join(registry.canonical_names())} and trec_eval's names "
        "(P_10, recall_100, map, map_cut_10, recip_rank, ndcg_cut_10, success_10)",
    )


def _cutoff(spelled: str, text: str, trec: bool) -> int:
    """A positive whole number; in trec_eval's spelling a fraction is truncated as trec_eval does (ndcg_cut.23.4
    is ndcg_cut_23)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 1 or not re.fullmatch(r"\d+(\.\d*)?" if trec else r"\d+", text):
        raise InputError(
            "measure-cutoff", f"measure {_quoted(spelled)}: the cutoff after the name must be a positive integer"
        )
    if value > MAX_CUTOFF:
        shown = text if len(text) <= 40 else f"{text[:40]}… ({len(text):,} digits)"
        raise InputError(
            "measure-cutoff",
            f"measure {_quoted(spelled)}: the cutoff {shown} is beyond the largest allowed, {MAX_CUTOFF:,}",
        )
    return int(value)


def _parameter(spelled: str, declared: registry.Family, name: str, text: str) -> tuple[str, float | tuple]:
    try:
        spec = declared.param(name)
    except ValueError:
        accepted = ", ".join(["rel", *(p.name for p in declared.params)])
        raise InputError(
            "measure-parameters",
            f"measure {_quoted(spelled)}: {declared.key} has no parameter {name!r} (accepted: {accepted})",
        ) from None
    if spec.gains:
        return name, _gain_map(spelled, spec, text)
    listed = isinstance(spec.default, tuple)
    items = text.split(",") if listed else [text]
    if not listed and len(items) != len(text.split(",")):
        raise InputError("measure-parameters", f"measure {_quoted(spelled)}: {name} takes one value, got {text!r}")
    values = []
    for item in items:
        try:
            value = float(item)
        except ValueError:
            value = math.nan
        if not (spec.low <= value <= spec.high) or (spec.integer and not value.is_integer()):
            kind = "an integer" if spec.integer else "a number"
            bounds = f"from {number_in_name(spec.low)} to {number_in_name(spec.high)}"
            raise InputError(
                "measure-parameters", f"measure {_quoted(spelled)}: {name} must be {kind} {bounds}, got {item!r}"
            )
        values.append(value)
    return name, tuple(values) if listed else values[0]


def _gain_map(spelled: str, spec: registry.Param, text: str) -> Gains:
    """``{1:3,2:9,4:4.5}`` (or trec_eval's pairs, already in that form): each level a whole number >= 0, listed once,
    each gain a number in the declared range. The order is kept: trec_eval's ideal ranking can depend on it."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise InputError(
            "measure-parameters",
            f"measure {spelled!r}: write {spec.name} as {{level:gain,...}}, e.g. {spec.name}={{1:3,2:9}}",
        )
    pairs: list[tuple[int, float]] = []
    for item in filter(None, (part.strip() for part in body[1:-1].split(","))):
        level, colon, gain = (piece.strip() for piece in item.partition(":"))
        try:
            value = float(gain)
        except ValueError:
            value = math.nan
        if not colon or not re.fullmatch(r"\d+", level) or not (spec.low <= value <= spec.high):
            raise InputError(
                "measure-parameters",
                f"measure {spelled!r}: each {spec.name} entry is level:gain with a whole level >= 0 and a gain from "
                f"{number_in_name(spec.low)} to {number_in_name(spec.high)}, got {item!r}",
            )
        if any(int(level) == listed for listed, _ in pairs):
            raise InputError("measure-parameters", f"measure {spelled!r}: level {int(level)} has two gains")
        pairs.append((int(level), value))
    return tuple(pairs)


def _trec_pairs(spelled: str, declared: registry.Family, pairs: str) -> list[tuple[str, str]]:
    """trec_eval's ``ndcg.1=3,2=9`` / ``rbp.p=0.8``: whole-number names are one gain map, the others parameters."""
    items = [item.partition("=")[::2] for item in pairs.split(",")]
    gains = [f"{level}:{gain}" for level, gain in items if level.isdigit()]
    named = [(name, value) for name, value in items if not name.isdigit()]
    if gains:
        gain_param = next((p.name for p in declared.params if p.gains), None)
        if gain_param is None:
            raise InputError("measure-parameters", f"measure {spelled!r}: {declared.key} takes no gain map")
        named.append((gain_param, "{" + ",".join(gains) + "}"))
    return named


def parse_measure(text: str) -> Measure:
    """Read a measure name, as we, trec_eval or ir_measures spell it, case-insensitively.

    Ours (``NDCG@10``, ``R_cap@100``), trec_eval's (``ndcg_cut_10``, ``P.5``, ``iprec_at_recall_0.50``,
    ``ndcg.1=3,2=9``) or ir_measures' (``nDCG@10``, ``P(rel=2)@5``, ``RBP(p=0.8)``).

    Parameters
    ----------
    text : str
        The measure's name; surrounding spaces are ignored.

    Returns
    -------
    Measure
        Its family, cutoff, gain, parameters and relevance level; ``canonical`` is our spelling of it, ``compute``
        scores one ranking.

    Raises
    ------
    ValueError
        If the name is no known measure (the message lists the known ones), or its cutoff, a parameter or a relevance
        level is malformed or out of range, or a family that needs a cutoff has none.

    See Also
    --------
    evaluate : takes the names themselves.

    Examples
    --------
    >>> parse_measure("nDCG@10").canonical, parse_measure("ndcg_cut_10").canonical, parse_measure("P.5").canonical
    ('NDCG@10', 'NDCG@10', 'P@5')
    >>> parse_measure("map").canonical, parse_measure("recip_rank").canonical, parse_measure("success_1").canonical
    ('AP', 'RR', 'HitRate@1')
    >>> parse_measure("P(rel=2)@5").canonical
    'P(rel=2)@5'
    >>> round(parse_measure("RBP(p=0.8)").compute(["a", "x"], {"a": 1}).value, 4)
    0.2
    >>> parse_measure("P@0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    metrics.core.errors.InputError: measure 'P@0': the cutoff after the name must be a positive integer (see errors/...)
    """
    spelled = text.strip()
    lowered = spelled.lower()
    trec = _TREC_CUTOFF.match(lowered)
    pairs = _TREC_PAIRS.match(lowered)
    if pairs and (found := _spelling(pairs["name"])):
        declared, gain = found
        given = _trec_pairs(spelled, declared, pairs["pairs"])
        params = [_parameter(spelled, declared, key, value) for key, value in given]
        return Measure(spelled, declared, None, gain, tuple(params))
    if trec and (found := _spelling(trec["name"])) and found[0].trec_eval.params and "," in trec["k"]:
        return _with_trec_values(spelled, *found, trec["k"].split(","))
    if trec and "@" not in lowered and "(" not in lowered and (found := _spelling(trec["name"])):
        name, args, at, trec_spelling = trec["name"], None, trec["k"], True
    elif (call := _CALL.match(lowered)) and (found := _spelling(call["name"])):
        name, args, at, trec_spelling = call["name"], call["args"], call["at"], False
    else:
        raise _unknown(spelled)
    declared, gain = found
    params, rel = _arguments(spelled, declared, args)
    k = None
    dotted = declared.trec_eval.param or declared.at_param  # what trec_eval's NAME.x sets, when not a cutoff
    if at is not None and trec_spelling and dotted is not None:
        params.append(_parameter(spelled, declared, dotted, at))
    elif at is not None and declared.at_param is not None:
        params.append(_parameter(spelled, declared, declared.at_param, at))
    elif at is not None:
        if "," in at:
            raise InputError(
                "measure-cutoff", f"measure {_quoted(spelled)}: one cutoff per measure name (P_5, P_10), or -m P.5,10"
            )
        k = _cutoff(spelled, at, trec_spelling)
    if (k is None and declared.cutoff == "required") or (
        k is None and name == (declared.trec_eval.name or "").lower() and declared.trec_eval.uncut
    ):
        raise InputError("measure-cutoff", f"measure {_quoted(spelled)} needs a cutoff, e.g. {name}_10")
    return Measure(spelled, declared, k, gain, tuple(params), rel)


def _with_trec_values(spelled: str, declared: registry.Family, gain: Gain, values: list[str]) -> Measure:
    """trec_eval's ``NAME.x,y,...`` (``utility.1,-1,0,0``): one value for each parameter trec_eval's NAME sets, in
    its order."""
    if len(values) != len(declared.trec_eval.params):  # trec_eval: "improper number of coefficients"
        names = ", ".join(declared.trec_eval.params)
        raise InputError(
            "measure-parameters",
            f"measure {spelled!r}: {declared.key} takes {len(declared.trec_eval.params)} values ({names})",
        )
    pairs_given = zip(declared.trec_eval.params, values, strict=True)
    given = [_parameter(spelled, declared, key, value) for key, value in pairs_given]
    return Measure(spelled, declared, None, gain, tuple(given))


def _arguments(
    spelled: str, declared: registry.Family, args: str | None
) -> tuple[list[tuple[str, float | tuple]], int | None]:
    """ir_measures' ``(name=value, ...)``: the parameters, and the relevance level ``rel`` (None when not given)."""
    params: list[tuple[str, float | tuple]] = []
    rel = None
    for item in filter(None, (part.strip() for part in _ARGUMENT.findall(args or ""))):
        key, equals, value = (piece.strip() for piece in item.partition("="))
        if not equals:
            raise InputError(
                "measure-parameters", f"measure {_quoted(spelled)}: write each parameter as name=value, e.g. rel=2"
            )
        if key == "rel":
            if not re.fullmatch(r"-?\d+", value):
                raise InputError(
                    "measure-parameters",
                    f"measure {_quoted(spelled)}: rel must be an integer relevance level, got {value!r}",
                )
            rel = int(value)
        else:
            params.append(_parameter(spelled, declared, key, value))
    return params, rel


def parse_measures(measures: Iterable[str | Measure]) -> list[Measure]:
    """Each name parsed (a Measure passes as it is), in order, the first of any measure named twice.

    >>> [m.name for m in parse_measures(["AP", "P@5", "AP"])]
    ['AP', 'P@5']
    """
    parsed: dict[str, Measure] = {}
    for measure in measures:
        measure = measure if isinstance(measure, Measure) else parse_measure(measure)
        parsed.setdefault(measure.name, measure)
    return list(parsed.values())

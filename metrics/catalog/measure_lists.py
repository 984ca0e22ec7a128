"""Measure lists as the CLI's -m takes them: ours (``NDCG@10,AP``) and trec_eval's (``-m official``, ``-m P``,
``-m P.5,10``, ``-m iprec_at_recall..10,.20``, ``-m 11pt_avg..25,.5,.75``), expanded into one name per value.

A bare trec_eval name that trec_eval expands (P, recall, success, map_cut, ndcg_cut, iprec_at_recall, Rprec_mult)
stands for its default cutoffs or levels, as in trec_eval; a nickname (official, all_trec, set) for its measures.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from metrics.catalog import registry
from metrics.catalog.measures import DEFAULT_MEASURES, parse_measure
from metrics.core.errors import InputError

_NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
_PREVIOUS = re.compile(rf"^(?P<stem>.*?[_.@])(?P<number>{_NUMBER}(?:,{_NUMBER})*)$")  # P.5 -> P. and 5


def _trec_family(name: str, *, uncut: bool = False) -> registry.Family | None:
    """The family whose trec_eval name this bare name is, case-insensitively: the name that takes cutoffs or
    parameters (P, ndcg_cut), and with ``uncut`` also the whole-list one (ndcg, map)."""
    found = registry.spelled(name.lower())
    names = (found.trec_eval.name, found.trec_eval.uncut if uncut else None) if found is not None else ()
    return found if any((n or "").lower() == name.lower() for n in names) else None


def _defaults(name: str) -> list[str] | None:
    """trec_eval's expansion of a bare name: P -> P_5 ... P_1000; iprec_at_recall -> iprec_at_recall_0.00 ..."""
    family = _trec_family(name)
    if family is None or not family.trec_eval.defaults:
        return None
    if family.at_param:
        return [f"{name}_{value:.2f}" for value in family.trec_eval.defaults]
    return [f"{name}_{int(cutoff)}" for cutoff in family.trec_eval.defaults]


def _joins(name: str, item: str) -> bool:
    """Does ``item`` continue the parameter list of this trec_eval-spelled measure (NAME.params) rather than name a
    measure of its own? A pair joins a gain map (ndcg.1=3,2=9); a number joins 11pt_avg's recall levels or
    utility's four coefficients."""
    stem, dot, _ = name.partition(".")
    family = _trec_family(stem, uncut=True) if dot else None
    if family is None:
        return False
    if "=" in item:
        return any(p.gains for p in family.params)
    dotted = family.trec_eval.param or family.at_param
    return (dotted is not None and isinstance(family.param(dotted).default, tuple)) or len(family.trec_eval.params) > 1


def measure_names(options: Sequence[str] | None) -> list[str]:
    """Split -m values on commas; a bare number repeats the previous measure at that value, as in trec_eval
    (-m P.5,10 = P.5 and P.10), or joins its list (-m 11pt_avg..25,.5). No option: our default measures.

    >>> measure_names(["P.5,10", "map", "iprec_at_recall..1,.2"])
    ['P.5', 'P.10', 'map', 'iprec_at_recall..1', 'iprec_at_recall..2']
    >>> measure_names(["success"])
    ['success_1', 'success_5', 'success_10']
    """
    if not options:
        return list(DEFAULT_MEASURES)
    names: list[str] = []
    # trec_eval keeps one parameter list per measure: that of the first -m giving it one (-m P.7 -m P.3 is P_7;
    # -m P -m P.7 and -m official -m P.7 are P_7 too). Each trec_eval-spelled name: (measure, -m index, explicit).
    source: dict[str, tuple[str, int, bool]] = {}

    def add(name: str, index: int) -> None:
        if name not in names:
            names.append(name)
            origin = _trec_origin(name)
            if origin is not None:
                source[name] = (origin[0], index, origin[1])

    for index, option in enumerate(options):
        if not option.strip():
            raise InputError("measure-list", "an empty -m; name a measure such as NDCG@10, map or P.5,10")
        if option.strip() in registry.TREC_EVAL_NICKNAMES:
            for name in registry.TREC_EVAL_NICKNAMES[option.strip()]:
                for expanded in _defaults(name) or [name]:
                    add(expanded, index)
            continue
        for item in (part.strip() for part in option.split(",")):
            if not item:
                raise InputError("measure-list", f"measure list {option!r} has an empty item")
            if names and re.fullmatch(rf"{_NUMBER}|\d+={_NUMBER}", item) and _joins(names[-1], item):
                joined = f"{names[-1]},{item}"  # -m ndcg.1=3,2=9 and -m utility.2,-1,0,0 are one measure each
                if names[-1] in source:
                    source[joined] = source.pop(names[-1])
                names[-1] = joined
                continue
            if re.fullmatch(_NUMBER, item) and names:
                previous = names[-1]
                match = _PREVIOUS.match(previous)
                if match is None:
                    raise InputError(
                        "measure-list", f"measure list {option!r}: {item} follows {previous!r}, which has no cutoff"
                    )
                add(match["stem"] + item, index)
                continue
            for expanded in _defaults(item) or [item]:
                add(expanded, index)
    first_given: dict[str, int] = {}
    for measure, index, explicit in source.values():
        if explicit:
            first_given[measure] = min(index, first_given.get(measure, index))
    return [
        name
        for name in names
        if name not in source
        or source[name][0] not in first_given
        or (source[name][2] and source[name][1] == first_given[source[name][0]])
    ]


def _trec_origin(name: str) -> tuple[str, bool] | None:
    """For a trec_eval-spelled name, its trec_eval measure and whether its parameters were given (P.7: ("p", True);
    P_5 from a bare P or a nickname: ("p", False)); None for any other name (P@5, NDCG@10)."""
    stem, dot, rest = name.partition(".")
    if dot and rest and _trec_family(stem, uncut=True) is not None:
        return stem.lower(), True
    if _trec_family(name, uncut=True) is not None:
        return name.lower(), False
    base, underscore, _ = name.rpartition("_")
    if underscore and _trec_family(base) is not None and _defaults(base):
        return base.lower(), False
    return None


def without_text_measures(names: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the names of measures valued by numbers, those valued by a string per query: relstring), for what ranks or
    compares runs. The names parse.

    >>> without_text_measures(["map", "relstring", "P_5"])
    (['map', 'P_5'], ['relstring'])
    """
    numbers = [name for name in names if not registry.family(parse_measure(name).family).values.text]
    return numbers, [name for name in names if name not in numbers]

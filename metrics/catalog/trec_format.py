"""trec_eval's output, line for line: its measure names, its order, its number formats.

trec_eval prints each query's lines (with -q), query by query, then the summary ("all") lines, each block in the
order of its measure table (registry.TREC_EVAL_ORDER), a measure's cutoffs in increasing order:
``%-22s\\t%s\\t%6.4f`` for a value, ``%ld`` for a count (num_ret, num_q, ...), ``%s`` for runid.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from metrics.catalog import registry
from metrics.catalog.family import Measure
from metrics.core.errors import InputError

RUNID = "runid"  # not a measure of a ranking: the run's tag, printed in the summary only
# trec_eval's printf formats, kept as its C source spells them
VALUE_LINE, COUNT_LINE, STRING_LINE = "%-22s\t%s\t%6.4f", "%-22s\t%s\t%d", "%-22s\t%s\t%s"  # C: %ld for counts
NAN_LINE = "%-22s\t%s\t%6s"  # %6.4f of a NaN: "  -nan"


def trec_name(measure: Measure) -> str:
    """The name trec_eval prints for this measure: P_10, map, iprec_at_recall_0.50, set_F_0.5, ndcg_1=3,2=9,
    utility_2,-1,0,0, relstring_20. Parameters other than cutoffs are echoed as typed, as trec_eval does."""
    family = registry.family(measure.family)
    if family.trec_eval.name is None or measure.gain == "exp" or measure.rel is not None:
        raise InputError(
            "measure-format", f"{measure.name!r} is not a trec_eval measure; --format trec_eval prints trec_eval's only"
        )
    if family.at_param:
        return f"{family.trec_eval.name}_{measure.param(family.at_param):3.2f}"  # trec_eval's "%s_%3.2f"
    base = family.trec_eval.uncut if measure.k is None and family.trec_eval.uncut else family.trec_eval.name
    if any(name != "collection" for name, _ in measure.params):  # set_F.0.5, 11pt_avg..25,.5, utility.2,-1,0,0
        stem, dot, typed = measure.name.partition(".")
        return f"{base}_{typed}" if dot and stem.lower() == base.lower() else f"{base}_{_printable(measure)}"
    if measure.k is None:
        if family.trec_eval.defaults and not family.trec_eval.uncut:
            example = f"{family.trec_eval.name}_10"
            raise InputError(
                "measure-cutoff",
                f"{measure.name!r}: trec_eval's {family.trec_eval.name} needs a cutoff, e.g. {example}",
            )
        return base
    if not family.trec_eval.defaults and not family.trec_eval.cut:
        raise InputError("measure-cutoff", f"{measure.name!r}: trec_eval's {family.trec_eval.name} takes no cutoff")
    return f"{family.trec_eval.name}_{measure.k}"


def _printable(measure: Measure) -> str:
    """A measure's parameters the way trec_eval's -m would take them (for a measure named in our syntax)."""
    printed = []
    for name, value in measure.params:
        if name == "collection":  # trec_eval's -N, not a parameter of the name
            continue
        if isinstance(value, tuple):
            printed += [f"{v[0]}={v[1]:g}" if isinstance(v, tuple) else f"{v:g}" for v in value]
        else:
            printed.append(f"{value:g}")
    return ",".join(printed)


def _order(measure: Measure) -> tuple:
    family = registry.family(measure.family)
    base = family.trec_eval.uncut if measure.k is None and family.trec_eval.uncut else family.trec_eval.name
    at = measure.param(family.at_param) if family.at_param else 0.0
    return (
        registry.TREC_EVAL_ORDER.index(base) if base in registry.TREC_EVAL_ORDER else len(registry.TREC_EVAL_ORDER),
        measure.k or 0,
        at,
    )


def lines(result, runid: str | None, *, per_query: bool, summary: bool = True) -> list[str]:
    """trec_eval's output lines for an engine Evaluation. ``runid`` is printed first in the summary when given."""
    return text(result, runid, per_query=per_query, summary=summary).split("\n")[:-1]


def text(result, runid: str | None, *, per_query: bool, summary: bool = True) -> str:
    """trec_eval's output for an engine Evaluation, every line ending in a line break (:func:`lines`, joined)."""
    return "".join(pieces(result, runid, per_query=per_query, summary=summary))


def pieces(result, runid: str | None, *, per_query: bool, summary: bool = True, zscores: bool = False) -> Iterator[str]:
    """:func:`text` in pieces (a block of queries' lines, a summary line), made as they are written: the output of
    a large run is never held whole (at 30,000 queries and -m all_trec, ~100 MB of text and as much in Python
    floats). ``zscores``: the values are z-scores (trec_eval -Z), printed as it prints them: each name after a ``Z``,
    counts with ``%6.4f`` too (runid and relstring as always)."""
    ordered = sorted(result.measures, key=_order)
    names = [trec_name(m) for m in ordered]
    families = [registry.family(m.family) for m in ordered]
    if zscores:
        names = [name if family.values.text else f"Z{name:<22}" for name, family in zip(names, families, strict=True)]
        families = [
            dataclasses.replace(family, values=dataclasses.replace(family.values, count=False)) for family in families
        ]
    if per_query:
        yield from _query_blocks(result, ordered, names, families)
    if summary:
        if runid is not None:
            yield STRING_LINE % (RUNID, "all", runid) + "\n"
        for measure, name, family in zip(ordered, names, families, strict=True):
            if family.values.summary != "none":
                yield _line(name, "all", result.means[measure.name], family.values.count) + "\n"


_QUERIES_AT_ONCE = 1024  # queries formatted at a time: only their values become Python floats


def _query_blocks(result, ordered, names, families) -> Iterator[str]:
    """The queries' lines (with -c, queries missing from the run too), _QUERIES_AT_ONCE queries a string, each
    query's formatted by one printf-style
    template per run holding every line of a query: 2,000 formattings of ~95 values each instead of 190,000 of one
    (at 2,000 queries and -m all_trec, 0.15 s -> 0.04 s). A query with a NaN value (printed -nan) takes _line."""
    measures = zip(ordered, names, families, strict=True)
    shown = [(m, n, f) for m, n, f in measures if m.name in result.texts or f.trec_eval.per_query]
    if not shown or not result.queries:
        return
    template = "".join(
        # the line's format with the measure's name already in place (its % doubled): "P_10   ...\t%s\t%6.4f\n"
        (STRING_LINE if m.name in result.texts else COUNT_LINE if f.values.count else VALUE_LINE).replace(
            "%-22s", f"{n:<22}".replace("%", "%%"), 1
        )
        + "\n"
        for m, n, f in shown
    )
    import numpy as np

    nan = np.zeros(len(result.queries), dtype=bool)
    for measure, _, _ in shown:
        if measure.name not in result.texts:
            nan |= np.isnan(result.per_query[measure.name])
    for first in range(0, len(result.queries), _QUERIES_AT_ONCE):
        stop = first + _QUERIES_AT_ONCE
        columns = [
            # relstring: a string per query, in quotes (m_relstring.c)
            [f"'{t}'" for t in result.texts[m.name][first:stop]] if m.name in result.texts
            else result.per_query[m.name][first:stop].tolist()
            for m, _, _ in shown
        ]  # fmt: skip
        blocks = []
        for index, query in enumerate(result.queries[first:stop]):
            if nan[first + index]:
                blocks.append(_query_lines(query, index, shown, columns))
            else:
                args: list[object] = []
                for column in columns:
                    args += (query, column[index])
                blocks.append(template % tuple(args))
        yield "".join(blocks)


def _query_lines(query: str, index: int, shown, columns) -> str:
    """One query's lines, line by line (the way for a query with a NaN value); ``index``: its place in columns."""
    out = []
    for (_, name, family), column in zip(shown, columns, strict=True):
        value = column[index]
        text = isinstance(value, str)  # relstring
        out.append(STRING_LINE % (name, query, value) if text else _line(name, query, value, family.values.count))
    return "".join(line + "\n" for line in out)


def _line(name: str, query: str, value: float, count: bool) -> str:
    if value != value:  # NaN: trec_eval's 0/0, whose x86 default NaN has its sign bit set (glibc prints -nan)
        return NAN_LINE % (name, query, "-nan")
    if count:
        return COUNT_LINE % (name, query, int(value))
    return VALUE_LINE % (name, query, value)


def runid_requested(names: Sequence[str]) -> bool:
    return any(name.strip().lower() == RUNID for name in names)

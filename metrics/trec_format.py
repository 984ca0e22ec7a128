"""trec_eval's output, line for line: its measure names, its order, its number formats.

trec_eval prints each query's lines (with -q), query by query, then the summary ("all") lines, each block in the
order of its measure table (registry.TREC_EVAL_ORDER), a measure's cutoffs in increasing order:
``%-22s\\t%s\\t%6.4f`` for a value, ``%ld`` for a count (num_ret, num_q, ...), ``%s`` for runid.
"""

from __future__ import annotations

from collections.abc import Sequence

from metrics import registry
from metrics.measures import Measure

RUNID = "runid"  # not a measure of a ranking: the run's tag, printed in the summary only
# trec_eval's printf formats, kept as its C source spells them
VALUE_LINE, COUNT_LINE, STRING_LINE = "%-22s\t%s\t%6.4f", "%-22s\t%s\t%d", "%-22s\t%s\t%s"  # C: %ld for counts


def trec_name(measure: Measure) -> str:
    """The name trec_eval prints for this measure: P_10, map, iprec_at_recall_0.50, set_F_0.5, 11pt_avg."""
    family = registry.family(measure.family)
    if family.trec_eval is None or measure.gain == "exp" or measure.rel is not None:
        raise ValueError(f"{measure.name!r} is not a trec_eval measure; --format trec_eval prints trec_eval's only")
    if family.at_param:
        return f"{family.trec_eval}_{measure.param(family.at_param):3.2f}"  # trec_eval's "%s_%3.2f"
    dotted = family.trec_param
    if dotted and any(name == dotted for name, _ in measure.params):
        _, dot, printed = measure.name.partition(".")  # trec_eval echoes the parameters as typed
        return f"{family.trec_eval}_{printed}" if dot else f"{family.trec_eval}_{_printable(measure.param(dotted))}"
    if measure.k is None:
        if family.trec_defaults and not family.trec_eval_uncut:
            example = f"{family.trec_eval}_10"
            raise ValueError(f"{measure.name!r}: trec_eval's {family.trec_eval} needs a cutoff, e.g. {example}")
        return family.trec_eval_uncut or family.trec_eval
    if not family.trec_defaults:
        raise ValueError(f"{measure.name!r}: trec_eval's {family.trec_eval} takes no cutoff")
    return f"{family.trec_eval}_{measure.k}"


def _printable(value) -> str:
    values = value if isinstance(value, tuple) else (value,)
    return ",".join(f"{v:g}" for v in values)


def _order(measure: Measure) -> tuple:
    family = registry.family(measure.family)
    base = family.trec_eval_uncut if measure.k is None and family.trec_eval_uncut else family.trec_eval
    at = measure.param(family.at_param) if family.at_param else 0.0
    return registry.TREC_EVAL_ORDER.index(base) if base in registry.TREC_EVAL_ORDER else len(
        registry.TREC_EVAL_ORDER
    ), measure.k or 0, at


def lines(result, runid: str | None, *, per_query: bool, summary: bool = True) -> list[str]:
    """trec_eval's output lines for an engine Evaluation. ``runid`` is printed first in the summary when given."""
    ordered = sorted(result.measures, key=_order)
    names = [trec_name(m) for m in ordered]
    families = [registry.family(m.family) for m in ordered]
    out: list[str] = []
    if per_query:
        columns = [result.per_query[m.name].tolist() for m in ordered]
        missing = set(result.only_in_qrels)  # with -c they count in the means, but trec_eval prints no lines
        for index, query in enumerate(result.queries):
            if query in missing:
                continue
            for name, family, column in zip(names, families, columns, strict=True):
                if family.per_query:
                    out.append(_line(name, query, column[index], family.count))
    if summary:
        if runid is not None:
            out.append(STRING_LINE % (RUNID, "all", runid))
        for measure, name, family in zip(ordered, names, families, strict=True):
            out.append(_line(name, "all", result.means[measure.name], family.count))
    return out


def _line(name: str, query: str, value: float, count: bool) -> str:
    if count:
        return COUNT_LINE % (name, query, int(value))
    return VALUE_LINE % (name, query, value)


def runid_requested(names: Sequence[str]) -> bool:
    return any(name.strip().lower() == RUNID for name in names)

"""The words every brief shares: numbers to four decimals (signed for a difference), p-values, shares, lists in
prose, a clause as a sentence, a tool's conventions in words, and the brief's last section (how the numbers were
made) with its link back to the app. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata

from ir_metrics_lab.core.brief.model import PAGES, Inputs
from metrics.tools.settings import SWITCHES, Setting, described


def number(x: float) -> str:
    return f"{x:.4f}"


def signed(x: float) -> str:
    return f"{x:+.4f}"


def p_text(p: float) -> str:
    """'p = 0.0123', or 'p < 0.0001' (four decimals, as the app and the CLI print)."""
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "0%"


def joined(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def sentence(text: str) -> str:
    """A clause as a sentence: its first letter in capitals (only that one: ids keep their case), a full stop."""
    return text[:1].upper() + text[1:] + "."


def setting_words(setting: Setting, switches: Sequence[str] = SWITCHES) -> str:
    return "; ".join(described(switch, getattr(setting, switch)) for switch in switches)


def _version() -> str:
    try:
        return metadata.version("ir-metrics-lab")
    except metadata.PackageNotFoundError:  # a clone run without pip install
        return "(from source)"


def made(inputs: Inputs, *extra: tuple[str, str], given: str = "") -> tuple[tuple[str, str], ...]:
    """The brief's "How these numbers were made": ``extra`` (conventions, statistics, command line), then the input
    files (or ``given``: where else the numbers came from) and the day, with the app's version."""
    files = [f"qrels {inputs.qrels}"] if inputs.qrels else []
    files += [f"{name}: {path}" for name, path in inputs.runs.items()]
    return (
        *extra,
        ("Inputs", given or "; ".join(files)),
        ("Made", f"{inputs.made_on.isoformat()}, with IR Metrics Lab {_version()} (numbers equal trec_eval 10.0's)"),
    )


def page_link(inputs: Inputs, kind: str, text: str) -> tuple[tuple[str, str], ...]:
    """A link back to the page that makes a ``kind`` brief, when the app's address is known."""
    return ((text, f"{inputs.app_url.rstrip('/')}/{PAGES[kind]}"),) if inputs.app_url else ()

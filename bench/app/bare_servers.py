"""The bare one-``st.metric`` page (bench/app/bare_metric_page.py) served in several variants at once, one server
each, for the benchmarks that measure the app's pages against it (first_visit_floor, layout_shift_floor,
code_box_cost)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.browser import conftest as browser_tests

PAGE = Path(__file__).with_name("bare_metric_page.py")


def command_for(options: list[str]) -> Callable[[int], list[str]]:
    """``streamlit run bare_metric_page.py -- OPTIONS`` on a port, as the browser tests start the app."""

    def command(port: int) -> list[str]:
        cmd = browser_tests.streamlit_run(port)
        cmd[cmd.index("app.py")] = str(PAGE)
        return [*cmd, "--", *options]

    return command


@contextmanager
def bare_page_servers(variants: dict[str, list[str]], log_prefix: str) -> Iterator[dict[str, str]]:
    """Each variant's options served on a server of its own; yields each variant's base URL, and stops them all."""
    logs = Path(tempfile.mkdtemp(prefix=log_prefix))
    started = []
    try:
        bases = {}
        for i, (name, options) in enumerate(variants.items()):
            proc, bases[name] = browser_tests.start_server(logs / f"{i}.log", command=command_for(options))
            started.append(proc)
        yield bases
    finally:
        for proc in started:
            browser_tests.stop_server(proc)

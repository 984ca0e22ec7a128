"""The ``ir-metrics-lab`` command's argument handling (ir_metrics_lab.__main__, ir_metrics_lab.core.cli_args.split).
Starting the installed command for real is tests/browser/test_installed_wheel.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ir_metrics_lab.__main__ import main, streamlit_arguments
from ir_metrics_lab.core.cli_args import parse, split
from ir_metrics_lab.core.paths import APP_DIR, APP_SCRIPT, PAGES_DIR, PLAYGROUND_PAGE, SAMPLES_DIR
from ir_metrics_lab.session import datasets

REPO = Path(__file__).resolve().parents[1]


def test_in_a_clone_the_app_is_the_repository_top_level():
    assert (APP_DIR, APP_SCRIPT, PAGES_DIR, SAMPLES_DIR) == (
        REPO,
        REPO / "app.py",
        REPO / "app_pages",
        REPO / "data" / "samples",
    )
    assert datasets.SAMPLE_QRELS == REPO / "data" / "samples" / "qrels.txt.gz"
    assert PLAYGROUND_PAGE == REPO / "app_pages" / "play" / "playground.py"


def test_streamlit_options_pass_through_and_the_apps_go_after_the_separator():
    argv = ["--server.port", "8600", "--run", "a.run", "b.run", "--qrels", "q.txt", "--server.headless", "true"]
    assert streamlit_arguments(argv) == [
        "run", str(APP_SCRIPT),
        "--server.port", "8600", "--server.headless", "true",
        "--", "--run", "a.run", "b.run", "--qrels", "q.txt",
    ]  # fmt: skip


def test_without_app_options_there_is_no_separator():
    assert streamlit_arguments(["--server.port", "8600"]) == ["run", str(APP_SCRIPT), "--server.port", "8600"]
    assert streamlit_arguments([]) == ["run", str(APP_SCRIPT)]


@pytest.mark.parametrize(
    ("argv", "ours", "others"),
    [
        (["--qrels=q", "--run=a", "--theme.base", "dark"], ["--qrels=q", "--run=a"], ["--theme.base", "dark"]),
        (["--qrels", "q", "extra"], ["--qrels", "q"], ["extra"]),  # --qrels takes one path
        (["--run", "a", "b", "--qrels", "q"], ["--run", "a", "b", "--qrels", "q"], []),  # --run takes several
        (["--run", "--qrels", "q"], ["--run", "--qrels", "q"], []),  # the app reports the missing path
        (["--server.port", "1", "--", "--run", "a", "--x"], ["--run", "a", "--x"], ["--server.port", "1"]),
    ],
)
def test_split_keeps_each_side_in_order(argv, ours, others):
    assert split(argv) == (ours, others)


def test_what_split_gives_the_app_parses_as_before():
    ours, _ = split(["--server.port", "8600", "--run", "a", "b", "--qrels", "q"])
    assert parse(ours).runs == ("a", "b") and parse(ours).qrels == "q" and not parse(ours).problems


def test_help_is_ours_and_names_the_app_options(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ir-metrics-lab") and "--run RUN" in out and "--qrels QRELS" in out


def test_a_misspelled_app_option_stops_with_a_hint(capsys):
    assert main(["--server.port", "8600", "--qrel", "q.txt"]) == 2
    assert capsys.readouterr().err == "ir-metrics-lab: unknown option '--qrel' (did you mean --qrels?)\n"


@pytest.mark.parametrize("argv", [["--help"], ["--qrel", "q.txt"]])
def test_help_and_typos_answer_without_loading_streamlit(argv):
    # Importing Streamlit took ~2.5 s and, from ui/__init__.py, printed its "missing ScriptRunContext" warning.
    program = (
        "import sys; from ir_metrics_lab.__main__ import main; code = main(sys.argv[1:]); "
        "print('streamlit loaded' if 'streamlit' in sys.modules else 'streamlit not loaded', file=sys.stderr); "
        "sys.exit(code)"
    )
    done = subprocess.run([sys.executable, "-c", program, *argv], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == (0 if argv == ["--help"] else 2)
    assert done.stderr.splitlines()[-1] == "streamlit not loaded"
    assert "ScriptRunContext" not in done.stderr + done.stdout

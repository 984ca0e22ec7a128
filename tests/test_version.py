"""One version number: pyproject.toml's, read back from the installed package by metrics.__version__, the commands'
--version and the changelog's latest release."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import metrics

REPO = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_metrics_version_is_the_packages():
    assert metrics.__version__ == VERSION


def test_the_commands_print_their_name_and_the_version():
    """The installed console scripts, beside this interpreter (pyproject.toml's [project.scripts])."""
    for command in ("ir-metrics", "ir-metrics-compare"):
        script = Path(sys.executable).with_name(command)
        done = subprocess.run([script, "--version"], capture_output=True, text=True, check=True)
        assert done.stdout == f"{command} {VERSION}\n"


def test_trec_evals_v_still_names_trec_evals_version_and_ours():
    done = subprocess.run([sys.executable, "-m", "metrics", "-v"], capture_output=True, text=True, check=True)
    assert done.stderr == f"trec_eval version 10.0-rc3 (as reproduced by ir-metrics {VERSION})\n"


def test_the_changelogs_latest_release_is_this_version():
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d[^\]]*)\] - \d{4}-\d{2}-\d{2}$", changelog, re.MULTILINE)
    assert releases[0] == VERSION

"""The import paths metrics/ had before its regrouping (metrics._moved) still work for one release, with a
warning."""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path

import pytest

from metrics import _moved

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_path_is_the_new_module_with_a_deprecation_warning(old):
    new = _moved.MOVED[old]
    assert not (REPO / (old.replace(".", "/") + ".py")).exists()  # moved, not copied
    module = importlib.import_module(new)
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=rf"{old} has moved to {new}"):
        assert importlib.import_module(old) is module
    assert module.__spec__.name == new  # the alias did not take over the module's own spec


def test_the_warning_points_at_the_importing_line():
    sys.modules.pop("metrics.engine", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from metrics.engine import evaluate  # noqa: F401
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name]


def test_an_unknown_path_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("metrics.no_such_module")

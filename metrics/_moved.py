"""The import paths metrics/ had before it was regrouped into sub-packages, kept working for one release.

``import metrics.engine`` (or ``from metrics.registry import FAMILIES``) gives the module at its new path
(``metrics.evaluation.engine``) with a DeprecationWarning that names that path; the old name and the new one are
the same module object, so state set through one is seen through the other.

Written by hand: the standard library's import hooks (importlib.abc.MetaPathFinder) are the way to alias a module
name, and no maintained package does it for a list of names. The finder is installed at every import of metrics, so
it follows the finder protocol (find_spec) without importlib.abc, whose import took 11 ms of every start; the loader
is built on the first old path asked for.
"""

from __future__ import annotations

import functools
import sys
import warnings

# old path -> new path; the old paths go in the release after 0.1
MOVED = {
    "metrics._checks": "metrics.core.checks",
    "metrics._cli": "metrics.cli.common",
    "metrics.aggregate": "metrics.evaluation.aggregate",
    "metrics.combine": "metrics.evaluation.combine",
    "metrics.conventions": "metrics.core.conventions",
    "metrics.diagnosis": "metrics.teaching.diagnosis",
    "metrics.distributed": "metrics.evaluation.distributed",
    "metrics.engine": "metrics.evaluation.engine",
    "metrics.examples": "metrics.teaching.examples",
    "metrics.explain": "metrics.tools.explain",
    "metrics.family": "metrics.catalog.family",
    "metrics.formulas": "metrics.teaching.formulas",
    "metrics.judged_coverage": "metrics.evaluation.judged_coverage",
    "metrics.judgments": "metrics.core.judgments",
    "metrics.latex": "metrics.teaching.latex",
    "metrics.lazy_numpy": "metrics.core.lazy_numpy",
    "metrics.leaderboard": "metrics.compare.leaderboard",
    "metrics.measure_lists": "metrics.catalog.measure_lists",
    "metrics.measures": "metrics.catalog.measures",
    "metrics.pairing": "metrics.compare.pairing",
    "metrics.prepared": "metrics.core.prepared",
    "metrics.ranking": "metrics.core.ranking",
    "metrics.registry": "metrics.catalog.registry",
    "metrics.run_tag": "metrics.io.run_tag",
    "metrics.significance": "metrics.compare.significance",
    "metrics.sources": "metrics.teaching.blog_posts",
    "metrics.streaming": "metrics.evaluation.streaming",
    "metrics.swaps": "metrics.teaching.swaps",
    "metrics.sweep": "metrics.teaching.sweep",
    "metrics.tool_profiles": "metrics.tools.profiles",
    "metrics.tool_settings": "metrics.tools.settings",
    "metrics.trec_format": "metrics.catalog.trec_format",
    "metrics.types": "metrics.core.types",
}


@functools.cache
def _alias_loader() -> type:
    """The loader of an old path (an importlib.abc.InspectLoader), defined once one is imported."""
    import importlib.abc
    import importlib.util

    class _Alias(importlib.abc.InspectLoader):
        def __init__(self, old: str, new: str):
            self.old, self.new = old, new

        def create_module(self, spec):
            warnings.warn(
                f"{self.old} has moved to {self.new}; the old import path will be removed in the next release",
                DeprecationWarning,
                stacklevel=2,  # warnings skips the import machinery's frames: this is the importing line
            )
            module = importlib.import_module(self.new)
            self._spec = module.__spec__  # importlib sets __spec__ to the alias's after this: put it back
            return module

        def exec_module(self, module) -> None:
            module.__spec__ = self._spec  # the module was run when it was imported under its new name

        def get_source(self, fullname: str):
            return None

        def get_code(self, fullname: str):
            """``python -m OLD`` (runpy asks for the code, not the module): the new module's."""
            return importlib.util.find_spec(self.new).loader.get_code(self.new)

    return _Alias


class _Finder:
    """A meta path finder (importlib.abc.MetaPathFinder's protocol) of the old paths."""

    def find_spec(self, fullname, path, target=None):
        if fullname not in MOVED:
            return None
        import importlib.machinery
        import importlib.util

        origin = importlib.util.find_spec(MOVED[fullname]).origin  # what ``python -m`` reports as the file it runs
        loader = _alias_loader()(fullname, MOVED[fullname])
        return importlib.machinery.ModuleSpec(fullname, loader, origin=origin)

    def invalidate_caches(self) -> None:
        pass


def install() -> None:
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.append(_Finder())

"""``np``: numpy, imported on first use.

The measure registry collects every family's module, kernels included, and ``import metrics`` (or the CLI's
``--help``) must not load numpy: the CLI sets numpy's thread options and opts out of huge pages before numpy's first
import. Kernels write ``np.bincount(...)`` as usual; the first attribute read imports numpy and keeps the attribute,
so later reads are plain attribute lookups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING


class _Numpy:
    def __getattr__(self, name: str):
        import numpy

        value = getattr(numpy, name)
        setattr(self, name, value)  # found on the instance from now on: __getattr__ is not called again
        return value


if TYPE_CHECKING:  # a type checker sees numpy itself: ``np.ndarray`` in an annotation, numpy's own signatures
    import numpy as np
else:
    np = _Numpy()

r"""Breakdown -> LaTeX: the metric's formula with the user's own numbers substituted. Pure (no Streamlit).

Each family declares its definition and worked formula (metrics.catalog.registry); this module shows any of them.

>>> from metrics import dcg
>>> print(latex(dcg(["d1", "d2"], {"d1": 3, "d2": 2}, k=2)))  # doctest: +NORMALIZE_WHITESPACE
\begin{aligned}
\rule{0pt}{1.6em}\mathrm{DCG@2} &= \sum_{i=1}^{2} \frac{g_i}{\log_2(i+1)} \\
&= \frac{3}{\log_2 2} + \frac{2}{\log_2 3} \\
&= 4.2619
\end{aligned}
"""

from __future__ import annotations

from metrics.catalog.registry import family as declared
from metrics.core.conventions import Conventions
from metrics.core.types import Breakdown
from metrics.teaching.latex import MAX_TERMS

__all__ = ["MAX_TERMS", "definition", "latex"]


def definition(family: str, conventions: Conventions) -> str:
    """The symbolic formula of a metric family under the given conventions (no numbers).

    >>> from metrics import TREC_EVAL
    >>> definition("P", TREC_EVAL)
    '\\\\mathrm{P@k} = \\\\frac{\\\\mathrm{hits@}k}{k}'
    """
    return declared(family).teaching.definition(conventions)


def latex(b: Breakdown) -> str:
    """The worked formula of any Breakdown: definition, the user's numbers substituted, the result."""
    return declared(b.family).teaching.worked(b)

"""The built-in scenarios that show a convention split (ir_metrics_lab.core.lessons.conventions_table loads them as
its fixes) or an erratum of the blog posts (ir_metrics_lab.core.lessons.errata), as data. Pure."""

from __future__ import annotations

import dataclasses

from ir_metrics_lab.core.scenario import Scenario
from metrics.teaching.examples import CAT_DOG_PARROT, GRADES_32301


def with_conventions(scn: Scenario, **changes: object) -> Scenario:
    """``scn`` with some of its conventions changed (``threshold=2``, ``gain="exp"``)."""
    return scn.with_settings(conventions=dataclasses.replace(scn.conventions, **changes))


def example_ap_denominator() -> Scenario:
    """Golden ``pub-seed000-ap-denominator``: R = 3, r3 never retrieved, z judged 0 at rank 1."""
    grades = {"z": 0, "r1": 1, "n1": 0, "r2": 1, "n2": 0, "r3": 1}
    return Scenario(("z", "r1", "n1", "r2", "n2"), ("r3",), grades, k=5, scale=1)


def example_ap_at_k() -> Scenario:
    """R = 10 relevant docs, ranking [r0, n1, r1, r2, n2], k = 3 (trec ``map_cut_3`` = 0.1667)."""
    shelf = tuple(f"r{i}" for i in range(3, 10))
    grades = {d: 1 for d in ("r0", "r1", "r2", *shelf)} | {"n1": 0, "n2": 0}
    return Scenario(("r0", "n1", "r1", "r2", "n2"), shelf, grades, k=3, scale=1)


def example_rcap() -> Scenario:
    """The R_cap example of "Metrics for Information Retrieval": relevant at ranks 1-3, 6-8 and 10 (R = 7), k = 5."""
    ranking = tuple(f"d{i}" for i in range(1, 11))
    grades = {d: int(d in {"d1", "d2", "d3", "d6", "d7", "d8", "d10"}) for d in ranking}
    return Scenario(ranking, (), grades, k=5, scale=1)


def example_tie_pair() -> Scenario:
    """Golden ties ``tie-relevant-vs-nonrelevant-pair``: a (relevant) and b tie; a was inserted first."""
    return Scenario(("a", "b"), (), {"a": 1, "b": 0}, k=2, scale=1)


def example_threshold() -> Scenario:
    """qrels {a:1, b:2, c:3, d:0, e:1, f:2}, ranking [a, b, c, d, e, g], threshold 2 (f never retrieved)."""
    grades = {"a": 1, "b": 2, "c": 3, "d": 0, "e": 1, "g": 0, "f": 2}
    scn = Scenario(("a", "b", "c", "d", "e", "g"), ("f",), grades, k=5, scale=3)
    return with_conventions(scn, threshold=2)


def example_recall_rounding() -> Scenario:
    """R = 2, relevant at ranks 1 and 4: recall levels 0.6 and 0.7 ask for 1 relevant doc (lround(1.2), lround(1.4))
    or 2 (⌊1.2 + 0.9⌋, ⌊1.4 + 0.9⌋), so their interpolated precision is 1 or 2/4."""
    grades = {"r1": 1, "n1": 0, "n2": 0, "r2": 1}
    return Scenario(("r1", "n1", "n2", "r2"), (), grades, k=4, scale=1)


def example_graded() -> Scenario:
    return Scenario.from_example(GRADES_32301)


def example_rr_cutoff() -> Scenario:
    """Q3 of "Metrics for Information Retrieval": the first relevant doc is at rank 3 and k = 2."""
    return Scenario.from_example(CAT_DOG_PARROT, "Q3")

"""A leaderboard of N runs on one qrels: the mean of each measure per run, the best per column, and beside each value
the runs it beats significantly, named by letter as ranx's ``compare`` does (``0.5876ᵇᶜ``: better than runs b and c).

Every pair of runs is tested per measure (paired t-test or randomization test, from metrics.compare.significance) and
the p-values of that measure's N(N-1)/2 pairs are corrected together (Holm or Bonferroni). Run i beats run j on a
measure when its mean is higher and the corrected p-value is at most alpha.

Large inputs: :func:`evaluate_runs` reads the runs one at a time and keeps only their per-query values (an
Evaluation), so the peak memory is about one run's. Pure: no Streamlit; the CLI is ``ir-metrics-compare``.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import PurePath
from typing import TYPE_CHECKING

import numpy as np

from metrics.compare.significance import (
    N_PERMUTATIONS,
    SEED,
    TIE,
    Scores,
    bonferroni,
    holm,
    paired_t_test,
    randomization_test,
)
from metrics.core.tables import html_table
from metrics.evaluation.aggregate import mean

if TYPE_CHECKING:
    from metrics.evaluation.engine import Evaluation
    from metrics.evaluation.options import EvaluationOptions

ALPHA = 0.05
TESTS = {"t-test": "paired t-test", "randomization": "randomization test"}
CORRECTIONS = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "no correction"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_RUNS = len(LETTERS)
# Unicode superscript letters; 'q' has none, so ranx-style letters use U+107A5 (MODIFIER LETTER SMALL Q).
SUPERSCRIPT = dict(zip(LETTERS, "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ𐞥ʳˢᵗᵘᵛʷˣʸᶻ", strict=True))
_RUN_SUFFIXES = re.compile(r"(\.(gz|run|runs|txt|trec|tsv|csv|res|out))+$", re.IGNORECASE)


def run_name(path: str) -> str:
    """A run's name from its file name: ``runs/bm25.run.gz`` -> ``bm25``.

    >>> run_name("runs/bm25.run.gz"), run_name("dense.trec"), run_name(".gz")
    ('bm25', 'dense', '.gz')
    """
    base = PurePath(path).name
    return _RUN_SUFFIXES.sub("", base) or base


def unique_names(names: Iterable[str]) -> list[str]:
    """Names made distinct by a suffix: ``["run", "run"]`` -> ``["run", "run (2)"]``."""
    out: list[str] = []
    for name in names:
        candidate, n = name, 1
        while candidate in out:
            n += 1
            candidate = f"{name} ({n})"
        out.append(candidate)
    return out


# --- reading N runs, one at a time ---


def evaluate_runs(
    runs: Sequence[tuple[str, object]],
    qrels,
    measures: Sequence[str],
    *,
    options: EvaluationOptions | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    stream: bool | None = None,
    dask=None,
    **keywords,
) -> dict[str, Evaluation]:
    """{name: metrics.evaluation.engine.Evaluation} of each (name, run source) against the same qrels, every run under
    the same options (``options=``, or its fields as keywords: ``conventions``, ``complete``, ...; see
    metrics.evaluation.options).

    Runs are read and evaluated one at a time and only the Evaluation (per-query values) is kept, so memory stays
    near one run's. ``progress(i, n, name)`` is called before run i (0-based) is read, and once more with i = n.
    A run source is anything metrics.io.read_run accepts (a path, bytes, a Run).

    ``stream``: read each run file in blocks of whole queries (metrics.evaluation.streaming; None: only a file over 1
    GiB). ``dask``: evaluate the runs on one Dask cluster (``local[:N]``, ``tcp://HOST:PORT`` or a Client; see
    metrics.evaluation.distributed), all at once: runs x partitions tasks. The numbers are the same either way.
    ``piece_bytes``: bytes of run text read at a time when streaming or sending blocks to Dask (None: the default).
    """
    from metrics.evaluation.engine import evaluate
    from metrics.evaluation.options import given
    from metrics.evaluation.streaming import evaluate_stream, too_large_to_read_whole
    from metrics.io import read_qrels, read_run

    if "piece_bytes" in keywords and not keywords["piece_bytes"]:  # None (the CLI without --block-bytes): the default
        del keywords["piece_bytes"]
    options = given(options, keywords)
    qrels = read_qrels(qrels)
    if dask is not None:  # every run's partitions on the cluster at once (runs x partitions tasks)
        from metrics.evaluation.distributed import evaluate_runs_dask

        def started(index: int) -> None:
            if progress:
                progress(index, len(runs), runs[index][0])

        sources = [source for _, source in runs]
        evaluated = evaluate_runs_dask(dask, sources, qrels, measures, options=options, progress=started)
        evaluations = {name: evaluation for (name, _), evaluation in zip(runs, evaluated, strict=True)}
    else:
        evaluations = {}
        for index, (name, source) in enumerate(runs):
            if progress:
                progress(index, len(runs), name)
            if stream or (stream is None and too_large_to_read_whole(source)):
                evaluations[name] = evaluate_stream(source, qrels, measures, options=options)
            else:
                # errors name the file, not the run; a doc given twice is refused in judged queries only (trec_eval)
                run = read_run(source, max_docs=options.cut(), queries=qrels.query)
                evaluations[name] = evaluate(run, qrels, measures, options=options)
                del run  # the parsed rows go before the next run is read
    if progress:
        progress(len(runs), len(runs), "")
    return evaluations


# --- the table ---


@dataclass(frozen=True)
class PairTest:
    """One pair of runs on one measure: the raw and corrected p-values and which run is better (None: equal means)."""

    measure: str
    a: str
    b: str
    p_value: float
    adjusted: float
    better: str | None
    significant: bool


@dataclass(frozen=True)
class Leaderboard:
    """Means per run and measure over the queries every run was evaluated on, with the pairwise tests."""

    runs: tuple[str, ...]  # in the order given; run i has letter LETTERS[i]
    measures: tuple[str, ...]
    queries: tuple[str, ...]  # the queries in every run's evaluation (the means and tests use these)
    means: dict[str, dict[str, float]]  # measure -> run -> mean
    per_query: dict[str, dict[str, np.ndarray]]  # measure -> run -> values aligned with queries
    pairs: tuple[PairTest, ...]
    test: str
    correction: str
    alpha: float
    n_permutations: int
    seed: int
    left_out: int = 0  # queries evaluated in some runs but not all

    @property
    def letters(self) -> dict[str, str]:
        return {run: LETTERS[i] for i, run in enumerate(self.runs)}

    def beats(self, measure: str, run: str) -> list[str]:
        """The runs that ``run`` beats significantly on ``measure``, in the runs' order."""
        beaten = {
            other
            for p in self.pairs
            if p.measure == measure and p.significant and p.better == run
            for other in (p.a, p.b)
            if other != run
        }
        return [r for r in self.runs if r in beaten]

    def best(self, measure: str) -> list[str]:
        """The runs with the highest mean on ``measure`` (several when they tie)."""
        top = max(self.means[measure].values())
        return [r for r in self.runs if self.means[measure][r] >= top - TIE]

    def pair(self, measure: str, a: str, b: str) -> PairTest:
        for p in self.pairs:
            if p.measure == measure and {p.a, p.b} == {a, b}:
                return p
        raise KeyError((measure, a, b))

    def caption(self) -> str:
        """What the marks mean, with the test, the correction and alpha: true of this table."""
        n_pairs = len(self.runs) * (len(self.runs) - 1) // 2
        test = TESTS[self.test]
        if self.test == "randomization":
            test += f" ({self.n_permutations:,} permutations, seed {self.seed})"
        if self.correction == "none":
            corrected = "not corrected for multiple comparisons"
        else:
            corrected = (
                f"{CORRECTIONS[self.correction]}-corrected over the {n_pairs} pair{'s' * (n_pairs != 1)} of runs"
            )
        return (
            f"Means over the {len(self.queries):,} quer{'y' if len(self.queries) == 1 else 'ies'} every run was "
            f"evaluated on. Best per column in bold. A superscript letter names a run that the value's run beats "
            f"significantly: {test}, {corrected} per measure, p ≤ {self.alpha:g}."
        )

    # --- exports ---

    def cell(self, measure: str, run: str, digits: int = 4) -> str:
        """The value with its superscript letters, e.g. ``0.5876ᵇᶜ``."""
        return f"{self.means[measure][run]:.{digits}f}" + "".join(
            SUPERSCRIPT[self.letters[r]] for r in self.beats(measure, run)
        )

    def to_text(self, digits: int = 4) -> str:
        header = ["", "run", *self.measures]
        rows = [
            [self.letters[run], run]
            + [("*" if run in self.best(m) else " ") + self.cell(m, run, digits) for m in self.measures]
            for run in self.runs
        ]
        widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
        lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [header, *rows]]
        return (
            "\n".join(lines)
            + "\n\n* best per column. "
            + self.caption().replace("Best per column in bold. ", "")
            + "\n"
        )

    def to_csv(self, digits: int = 4) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["letter", "run", *(c for m in self.measures for c in (m, f"{m} beats", f"{m} best"))])
        for run in self.runs:
            cells = []
            for m in self.measures:
                cells += [f"{self.means[m][run]:.{digits}f}", " ".join(self.letters[r] for r in self.beats(m, run))]
                cells.append("yes" if run in self.best(m) else "")
            writer.writerow([self.letters[run], run, *cells])
        return buffer.getvalue()

    def to_markdown(self, digits: int = 4) -> str:
        def value(m: str, run: str) -> str:
            number = f"{self.means[m][run]:.{digits}f}"
            number = f"**{number}**" if run in self.best(m) else number
            letters = ",".join(self.letters[r] for r in self.beats(m, run))
            return number + (f"<sup>{letters}</sup>" if letters else "")

        lines = [
            "| | run | " + " | ".join(_markdown_escape(m) for m in self.measures) + " |",
            "|---|---|" + "---:|" * len(self.measures),
        ]
        lines += [
            f"| {self.letters[run]} | {_markdown_escape(run)} | "
            + " | ".join(value(m, run) for m in self.measures)
            + " |"
            for run in self.runs
        ]
        return "\n".join(lines) + "\n\n" + self.caption() + "\n"

    def _repr_html_(self) -> str:
        """Jupyter: the table as to_text draws it (best per column starred), with its caption."""
        rows = [
            [self.letters[run], run, *(("*" if run in self.best(m) else "") + self.cell(m, run) for m in self.measures)]
            for run in self.runs
        ]
        return html_table(["", "run", *self.measures], rows, caption="* best per column. " + self.caption())

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def to_latex(self, digits: int = 4) -> str:
        """A booktabs table: best per column in bold, the beaten runs as superscript letters (ranx's style)."""

        def value(m: str, run: str) -> str:
            number = f"{self.means[m][run]:.{digits}f}"
            number = f"\\textbf{{{number}}}" if run in self.best(m) else number
            letters = "".join(self.letters[r] for r in self.beats(m, run))
            return number + (f"$^{{{letters}}}$" if letters else "")

        lines = [
            "% requires \\usepackage{booktabs}",
            "\\begin{table}[t]",
            "\\centering",
            "\\begin{tabular}{cl" + "r" * len(self.measures) + "}",
            "\\toprule",
            " & Run & " + " & ".join(_latex_escape(m) for m in self.measures) + " \\\\",
            "\\midrule",
        ]
        lines += [
            f"{self.letters[run]} & {_latex_escape(run)} & "
            + " & ".join(value(m, run) for m in self.measures)
            + " \\\\"
            for run in self.runs
        ]
        lines += [
            "\\bottomrule",
            "\\end{tabular}",
            "\\caption{" + _latex_escape(self.caption()) + "}",
            "\\end{table}",
        ]
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict:
        return {
            "runs": [
                {
                    "letter": self.letters[run],
                    "run": run,
                    "means": {m: self.means[m][run] for m in self.measures},
                    "beats": {m: self.beats(m, run) for m in self.measures},
                }
                for run in self.runs
            ],
            "measures": list(self.measures),
            "best": {m: self.best(m) for m in self.measures},
            "queries": len(self.queries),
            "left_out_queries": self.left_out,
            "test": self.test,
            "correction": self.correction,
            "alpha": self.alpha,
            "n_permutations": self.n_permutations if self.test == "randomization" else None,
            "seed": self.seed if self.test == "randomization" else None,
            "pairs": [
                {
                    "measure": p.measure,
                    "a": p.a,
                    "b": p.b,
                    "p_value": p.p_value,
                    "p_adjusted": p.adjusted,
                    "better": p.better,
                    "significant": p.significant,
                }
                for p in self.pairs
            ],
        }


def _markdown_escape(text: str) -> str:
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$&])", r"\\\1", text)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "≤": r"$\leq$",
}


def _latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


# --- building it ---


def pair_p_value(a: np.ndarray, b: np.ndarray, test: str, *, n_permutations: int = N_PERMUTATIONS, seed: int = SEED):
    """The two-sided p-value of one pair: metrics.compare.significance's paired t-test or randomization test."""
    if test == "t-test":
        return paired_t_test(a, b).p_value
    if test == "randomization":
        return randomization_test(a, b, n_permutations=n_permutations, seed=seed).p_value
    raise ValueError(f"unknown test {test!r}: choose one of {', '.join(TESTS)}")


def correct(p_values: Sequence[float], correction: str) -> list[float]:
    """Adjusted p-values for one family of tests (Holm, Bonferroni, or unchanged)."""
    if correction == "holm":
        return holm(p_values)
    if correction == "bonferroni":
        return bonferroni(p_values)
    if correction == "none":
        return list(p_values)
    raise ValueError(f"unknown correction {correction!r}: choose one of {', '.join(CORRECTIONS)}")


def judge(
    measure: str, means: Mapping[str, float], p_values: Mapping[tuple[str, str], float], correction: str, alpha: float
) -> list[PairTest]:
    """One measure's pairs: the p-values corrected together, and the better run of each pair significant when its
    corrected p is at most ``alpha`` (equal means: no better run, never significant)."""
    tested = list(p_values)
    adjusted = correct([p_values[pair] for pair in tested], correction)
    judged = []
    for (a, b), p_adjusted in zip(tested, adjusted, strict=True):
        difference = means[a] - means[b]
        better = None if abs(difference) <= TIE else (a if difference > 0 else b)
        significant = better is not None and p_adjusted <= alpha and not math.isnan(p_adjusted)
        judged.append(PairTest(measure, a, b, p_values[(a, b)], p_adjusted, better, significant))
    return judged


def common_queries(evaluations: Mapping[str, Evaluation]) -> tuple[tuple[str, ...], int]:
    """The queries every run was evaluated on (in the first run's order), and how many others some runs have."""
    sets = [set(e.queries) for e in evaluations.values()]
    every = set.intersection(*sets) if sets else set()
    first = next(iter(evaluations.values()), None)
    queries = tuple(q for q in first.queries if q in every) if first is not None else ()
    return queries, len(set.union(*sets) - every) if sets else 0


def from_evaluations(
    evaluations: Mapping[str, Evaluation],
    *,
    test: str = "t-test",
    correction: str = "holm",
    alpha: float = ALPHA,
    n_permutations: int = N_PERMUTATIONS,
    seed: int = SEED,
) -> Leaderboard:
    """The leaderboard of runs already evaluated on the same measures ({name: metrics.evaluation.engine.Evaluation})."""
    runs = tuple(evaluations)
    if len(runs) < 2:
        raise ValueError(f"a leaderboard needs at least 2 runs, got {len(runs)}")
    if len(runs) > MAX_RUNS:
        raise ValueError(f"at most {MAX_RUNS} runs (one letter each), got {len(runs)}")
    queries, left_out = common_queries(evaluations)
    measures = tuple(next(iter(evaluations.values())).per_query)
    per_query: dict[str, dict[str, np.ndarray]] = {m: {} for m in measures}
    for run, evaluation in evaluations.items():
        if tuple(evaluation.per_query) != measures:
            raise ValueError(f"run {run!r} was evaluated on other measures than {runs[0]!r}")
        index = {q: i for i, q in enumerate(evaluation.queries)}
        rows = np.fromiter((index[q] for q in queries), dtype=np.int64, count=len(queries))
        for m in measures:
            per_query[m][run] = evaluation.per_query[m][rows]
    return from_values(
        runs,
        queries,
        per_query,
        test=test,
        correction=correction,
        alpha=alpha,
        n_permutations=n_permutations,
        seed=seed,
        left_out=left_out,
    )


def from_values(
    runs: Sequence[str],
    queries: Sequence[str],
    per_query: Mapping[str, Mapping[str, Scores]],
    *,
    test: str = "t-test",
    correction: str = "holm",
    alpha: float = ALPHA,
    n_permutations: int = N_PERMUTATIONS,
    seed: int = SEED,
    left_out: int = 0,
) -> Leaderboard:
    """The leaderboard of aligned per-query values: ``per_query[measure][run][i]`` is query ``queries[i]``."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}: choose one of {', '.join(TESTS)}")
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}: choose one of {', '.join(CORRECTIONS)}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    runs = tuple(runs)
    values = {m: {r: np.asarray(per_query[m][r], dtype=np.float64) for r in runs} for m in per_query}
    means = {m: {r: mean(values[m][r].tolist()) if len(queries) else 0.0 for r in runs} for m in values}
    pairs: list[PairTest] = []
    for m in values:
        raw = {
            (a, b): pair_p_value(values[m][a], values[m][b], test, n_permutations=n_permutations, seed=seed)
            for a, b in combinations(runs, 2)
        }
        pairs += judge(m, means[m], raw, correction, alpha)
    return Leaderboard(
        runs, tuple(values), tuple(queries), means, values, tuple(pairs), test, correction, alpha, n_permutations,
        seed, left_out,
    )  # fmt: skip


# --- where runs differ ---


def disagreement(values: Mapping[str, Sequence[float]]) -> np.ndarray:
    """Per query, how far apart the runs are: the range (max - min) of their values."""
    matrix = np.vstack([np.asarray(v, dtype=np.float64) for v in values.values()])
    return matrix.max(axis=0) - matrix.min(axis=0) if matrix.size else np.zeros(0)


def query_order(queries: Sequence[str], values: Mapping[str, Sequence[float]], by: str = "disagreement") -> list[int]:
    """Row indices of ``queries`` sorted by ``disagreement`` (largest first), by ``mean`` (lowest first: the hard
    queries), or as given (``query``). Ties keep the queries' order."""
    if by == "query":
        return list(range(len(queries)))
    if by == "disagreement":
        key = -disagreement(values)
    elif by == "mean":
        key = np.vstack([np.asarray(v, dtype=np.float64) for v in values.values()]).mean(axis=0)
    else:
        raise ValueError(f"unknown order {by!r}")
    return np.argsort(key, kind="stable").tolist()


def win_tie_loss(
    values: Mapping[str, Sequence[float]], tie: float = TIE
) -> dict[tuple[str, str], tuple[int, int, int]]:
    """{(row run, column run): (queries the row run wins, ties, loses)} for every ordered pair of different runs."""
    runs = list(values)
    arrays = {r: np.asarray(values[r], dtype=np.float64) for r in runs}
    out = {}
    for a in runs:
        for b in runs:
            if a != b:
                d = arrays[a] - arrays[b]
                out[(a, b)] = (int((d > tie).sum()), int((np.abs(d) <= tie).sum()), int((d < -tie).sum()))
    return out

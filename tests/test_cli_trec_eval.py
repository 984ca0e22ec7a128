"""``--format trec_eval``: line for line what trec_eval prints, checked against text built here from pytrec_eval's
values (trec_eval's C code) and trec_eval's documented output: its measure order (measures.c), its names
(``P_5``, ``iprec_at_recall_0.10``), ``%-22s\\t%s\\t%6.4f`` for values and ``%ld`` for counts, per-query lines
for every measure but num_q and gm_map, then the ``all`` lines (sums for num_*, geometric mean for gm_map), added
as trec_eval adds them.
"""

from __future__ import annotations

import math

import pytrec_eval
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import SCORED_QUERIES, nonempty_scored_rankings, scored_judgments, scored_qrels_sets, scored_runs

from metrics import rank_by_score
from metrics.cli.ir_metrics import main

# trec_eval's measure table order (measures.c), for the measures checked here
ORDER = [
    "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall",
    "P", "recall", "infAP", "Rprec_mult", "utility", "11pt_avg", "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut",
    "map_cut", "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
    "num_nonrel_judged_ret",
]  # fmt: skip
# trec_eval's bpref reads past its per-level counts when -l is above a query's top grade + 1: checked at -l 1 only
LEVEL_1_ONLY = {"bpref", "infAP"}
SUMMARY_ONLY = {"num_q", "gm_map"}
COUNTS = {"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}
TAG = "myrun"


def write_files(tmp_path, run, qrels):
    (tmp_path / "run.txt").write_text(
        "".join(f"{q} Q0 {d} {i} {s!r} {TAG}\n" for q, docs in run.items() for i, (d, s) in enumerate(docs.items()))
    )
    lines = [f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()]
    (tmp_path / "qrels.txt").write_text("".join(lines))
    return str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt")


def expected_text(run, qrels, measures, *, level=1, judged_only=False, max_docs=None, per_query=True) -> str:
    """trec_eval's output, built from pytrec_eval's per-query values and trec_eval's printing rules."""
    if max_docs is not None:
        run = {q: {d: s for d, s in docs.items() if d in rank_by_score(docs)[:max_docs]} for q, docs in run.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(
        qrels, set(measures), relevance_level=level, judged_docs_only_flag=judged_only
    )
    values = evaluator.evaluate(run)
    names = sorted(next(iter(values.values())), key=lambda n: (ORDER.index(_base(n)), _param(n)))
    lines = []
    if per_query:
        for q in sorted(values):
            lines += [_line(n, q, values[q][n]) for n in names if _base(n) not in SUMMARY_ONLY]
    lines.append(f"{'runid':<22}\tall\t{TAG}")
    for n in names:
        lines.append(_line(n, "all", _summary(n, [values[q][n] for q in sorted(values)])))
    return "".join(line + "\n" for line in lines)


def _summary(name: str, per_query: list[float]) -> float:
    """trec_eval's all line (meas_acc.c, meas_avg.c): the per-query values added one after the other in its query
    order, in C doubles, then a count's sum, gm_map's exp of the mean (pytrec_eval gives its log per query), or the
    mean. pytrec_eval's compute_aggregated_measure adds with numpy's pairwise sum, in any order it is given: its
    mean of 0.00875 can sit one rounding below trec_eval's."""
    total = 0.0
    for value in per_query:
        total += value
    if _base(name) in COUNTS:
        return total
    return math.exp(total / len(per_query)) if _base(name) == "gm_map" else total / len(per_query)


def _base(name: str) -> str:
    for base in sorted(ORDER, key=len, reverse=True):
        if name == base or name.startswith(base + "_"):
            return base
    raise AssertionError(name)


def _param(name: str) -> float:
    rest = name[len(_base(name)) + 1 :]
    return float(rest) if rest else 0.0


def _line(name: str, query: str, value: float) -> str:
    if _base(name) in COUNTS:
        return f"{name:<22}\t{query}\t{int(value)}"  # C's %-22s and %ld
    return f"{name:<22}\t{query}\t{value:6.4f}"  # C's %6.4f


def run_trec_format(capsys, qrels_path, run_path, *options):
    # pytrec_eval is trec_eval 9.0.x: its recall levels ask for floor(l*R + 0.9) relevant documents
    status = main([qrels_path, run_path, "--format", "trec_eval", "--recall-rounding", "plus_0.9", *options])
    out = capsys.readouterr().out
    assert status == 0
    return out


# P_200's mean over four queries is 0.00875: trec_eval 10.0 and we print 0.0088; a mean taken as pytrec_eval's
# compute_aggregated_measure takes it, 0.0087
HALF_WAY_RUN = {
    "q10": {"d0": 0.0},
    "q1": {"d0": 0.0, "d1": 0.0, "d2": 0.0},
    "q2": {"d0": 0.0, "d1": 0.0},
    "Q4": {"d11": 0.0},
}
HALF_WAY_QRELS = {
    "q10": {"d0": 1},
    "Q4": {"d0": 0, "d11": 1},
    "q1": {"d0": 1, "d1": 1, "d2": 1},
    "q2": {"d0": 1, "d1": 1},
}


@st.composite
def runs_with_an_evaluated_query(draw):
    """A run and qrels in which one query is evaluated whatever -J and -M: its first-ranked document is judged.

    Built, not filtered: rejecting examples without such a query failed Hypothesis' filter health check at random.
    """
    run, qrels = draw(scored_runs), draw(scored_qrels_sets)
    query = draw(st.sampled_from(SCORED_QUERIES))
    run[query] = draw(nonempty_scored_rankings)
    qrels[query] = {**draw(scored_judgments), rank_by_score(run[query])[0]: draw(st.integers(0, 4))}
    return run, qrels


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(runs_with_an_evaluated_query(), st.integers(1, 2), st.booleans(), st.sampled_from([None, 1, 3]))
@example((HALF_WAY_RUN, HALF_WAY_QRELS), 1, False, None)
def test_trec_eval_format_is_trec_evals_output(tmp_path, capsys, run_and_qrels, level, judged_only, max_docs):
    run, qrels = run_and_qrels
    qrels = {q: docs for q, docs in qrels.items() if docs and max(docs.values()) >= 0}
    run = {q: docs for q, docs in run.items() if docs}
    if judged_only:
        # A query with no judged document in its top: trec_eval divides 0 by 0 (nan) where we print 0. Such queries
        # leave the run.
        top = {q: rank_by_score(docs)[:max_docs] if max_docs else list(docs) for q, docs in run.items() if q in qrels}
        run = {q: docs for q, docs in run.items() if q not in top or any(qrels[q].get(d, -1) >= 0 for d in top[q])}
    evaluated = [q for q in run if q in qrels]
    paths = write_files(tmp_path, run, qrels)
    options = ["-q", f"-l{level}", *(["-J"] if judged_only else []), *([f"-M{max_docs}"] if max_docs else [])]
    measures = [m for m in ORDER if level == 1 or m not in LEVEL_1_ONLY]
    ours = run_trec_format(capsys, *paths, *options, "-m", ",".join(["runid", *measures]))
    expected = expected_text(
        {q: run[q] for q in evaluated}, qrels, measures, level=level, judged_only=judged_only, max_docs=max_docs
    )
    assert ours.splitlines() == expected.splitlines()


def test_official_is_trec_evals_default_set_in_its_order(tmp_path, capsys):
    """No -m: trec_eval's official measures. Those we have are checked line for line; the whole set needs bpref."""
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"x": 1.0, "y": 0.5}}
    qrels = {"q1": {"a": 1, "c": 2, "z": 1}, "q2": {"y": 1}}
    paths = write_files(tmp_path, run, qrels)
    measures = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "recip_rank",
                "iprec_at_recall", "P"]  # fmt: skip
    ours = run_trec_format(capsys, *paths, "-m", "runid," + ",".join(measures))
    assert ours == expected_text(run, qrels, measures, per_query=False)
    assert ours.splitlines()[0] == "runid                 \tall\tmyrun"


def test_comments_extra_columns_and_the_last_lines_tag_as_trec_eval_reads_them(tmp_path, capsys):
    """trec_eval skips '#' lines, ignores a run's fields after the 6th, and prints the tag of the run's last line."""
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"x": 1.0, "y": 0.5}}
    qrels = {"q1": {"a": 1, "c": 2, "z": 1}, "q2": {"y": 1, "w": 0}}
    (tmp_path / "run.txt").write_text(
        "# run made by a test: the tag of the last line is the runid\n"
        "q1 Q0 a 1 3.0 first 0.97 extra\n"
        "q1 Q0 b 2 2.0 first\n"
        "  # q1 Q0 d 3 9.0 first\n"
        "q1 Q0 c 3 1.0 first x\n"
        f"q2 Q0 x 1 1.0 first\nq2 Q0 y 2 0.5 {TAG} 1 2 3\n# trailing comment\n"
    )
    (tmp_path / "qrels.txt").write_text("# assessor 7\nq1 0 a 1\nq1 0 c 2\n#q1 0 b 2\nq1 0 z 1\nq2 0 y 1\nq2 0 w 0\n")
    measures = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank", "P", "bpref"]
    ours = run_trec_format(
        capsys, str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), "-q", "-m", "runid," + ",".join(measures)
    )
    assert ours.splitlines() == expected_text(run, qrels, measures).splitlines()


def test_parameters_are_printed_as_trec_eval_names_them(tmp_path, capsys):
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}}
    qrels = {"q1": {"a": 1, "c": 2, "z": 1}}
    paths = write_files(tmp_path, run, qrels)
    options = ["-mP.5,7,3", "-mndcg_cut.10,20,23.4", "-miprec_at_recall..10,.20", "-n", "-q"]
    ours = run_trec_format(capsys, *paths, *options)
    names = [line.split("\t")[0].rstrip() for line in ours.splitlines()]
    # trec_eval sorts a measure's cutoffs, truncates 23.4 to 23 and prints levels with %3.2f
    assert names == [
        "iprec_at_recall_0.10", "iprec_at_recall_0.20", "P_3", "P_5", "P_7", "ndcg_cut_10", "ndcg_cut_20",
        "ndcg_cut_23",
    ]  # fmt: skip
    p3 = next(line for line in ours.splitlines() if line.startswith("P_3 "))
    assert p3 == f"P_3                   \tq1\t{2 / 3:6.4f}"


def test_sums_and_geometric_mean_by_hand(tmp_path, capsys):
    run = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"y": 2.0, "b": 1.0}}
    qrels = {"q1": {"a": 1}, "q2": {"b": 1, "c": 1}}
    paths = write_files(tmp_path, run, qrels)
    ours = dict(
        line.split("\t")[0::2] for line in run_trec_format(capsys, *paths, "-m", "num_ret,num_rel,gm_map").splitlines()
    )
    # AP: q1 1/1 = 1, q2 (1/2) / 2 = 0.25; gm = exp((log 1 + log 0.25) / 2) = 0.5
    assert ours == {"num_ret               ": "4", "num_rel               ": "3", "gm_map                ": "0.5000"}
    assert math.isclose(math.exp((math.log(1) + math.log(0.25)) / 2), 0.5)


def test_parameter_lists_are_one_measure_each_and_echoed_as_typed(tmp_path, capsys):
    """trec_eval's -m ndcg.1=3,2=9 and -m utility.2,-1,0,0 are one measure each, printed as name_<params as typed>;
    relstring prints its string per query and no 'all' line."""
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}}
    qrels = {"q1": {"a": 1, "c": 2, "z": 1}}
    paths = write_files(tmp_path, run, qrels)
    ours = run_trec_format(capsys, *paths, "-q", "-mndcg.1=3,2=9", "-mutility.2,-1,0,0", "-mrelstring")
    lines = ours.splitlines()
    # gains 1 -> 3, 2 -> 9: DCG = 3/log2(2) + 0 + 9/log2(4) = 7.5; ideal 9, 3, 3: 9 + 3/log2(3) + 3/2
    ndcg = 7.5 / (9 + 3 / math.log2(3) + 1.5)
    assert f"{'ndcg_1=3,2=9':<22}\tq1\t{ndcg:6.4f}" in lines
    # utility: 2 relevant retrieved x 2, 1 non-relevant (unjudged) retrieved x -1, c = d = 0: 3
    assert f"{'utility_2,-1,0,0':<22}\tq1\t{3.0:6.4f}" in lines
    assert f"{'relstring':<22}\tq1\t'1-2'" in lines  # grades of a, b (no qrels line: '-'), c, quoted
    assert not any(line.startswith("relstring") and "\tall\t" in line for line in lines)

"""Record trec_eval 10.0's exact output over random and edge-case inputs: tests/data/trec_eval10/corpus.jsonl.gz.

    python -m scripts.make_trec_eval_corpus /path/to/trec_eval [--quicktest /path/to/trec_eval/test]

Each input (a qrels text and a run text) is scored by the binary under every option set below; its stdout and exit
status are stored byte for byte. Where trec_eval 10.0 is wrong on valid input (a crash, a refusal, uninitialised
memory: tests/data/trec_eval10/defects.json says which and why), the case also stores the answer trec_eval gives
on the repaired input, which is the answer the project must give. With --quicktest (the test/ folder of
usnistgov/trec_eval), the inputs and outputs of trec_eval's `make quicktest` are copied to
tests/data/trec_eval10/quicktest/ and checked against the binary first.

The corpus is deterministic for a given seed and binary. Lines of the JSONL: one "meta" record (its "cases": how many
case records follow), then "input" records ({"id", "qrels", "run"[, "files"]}) and "case" records ({"input", "args",
"rc", "stdout"[, "defect", "expected"]}). An input's "files" ({name: text}) are more files its cases name: an argument
``{name}`` stands for the path of file ``name`` (``-Z {zscores}``). Each kind of input (LIVE: plain, z-scores, ...) is
drawn from a generator of its own, so adding a kind changes no input or case of the others. Where trec_eval prints a
value it read from memory (memory_reads), no input repairs it: "expected" leaves those lines out and names them in
its "unchecked" ([measure, query] each).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from metrics.catalog.registry import TREC_EVAL_ORDER  # trec_eval's 57 names, in measures.c's order

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "trec_eval10"

# trec_eval 10.0's all_trec list (measures.c), each measure asked for alone
ALL_TREC = [
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
    "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG",
    "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
]  # fmt: skip
# trec_eval 10.0's measures in no nickname that we have too, each asked for alone and under the options that change
# it. Never with rbp: trec_eval computes yaap just before rbp, whose uninitialised min and max (m_rbp.c) then hold
# yaap's leftovers and give garbage (README, "Known differences")
OUTSIDE_NICKNAMES = ["yaap"]
OPTIONS_FOR_ONE_MEASURE = [["-c", "-q"], ["-J", "-q"], ["-M3", "-q"], ["-l0", "-q"], ["-l2"], ["-c", "-J"]]

# Option sets as trec_eval users type them: glued and separate, nicknames, parameters, repeated -m.
OPTION_SETS: list[list[str]] = [
    [], ["-q"], ["-c"], ["-c", "-q"], ["-J"], ["-J", "-q"], ["-M", "3"], ["-M3", "-q"], ["-N", "20"], ["-N20"],
    ["-n"], ["-n", "-q"], ["-l0"], ["-l", "0", "-q"], ["-l2"], ["-l", "2", "-q"], ["-l3", "-c"],
    ["-m", "official"], ["-m", "official", "-q"], ["-mofficial"], ["-m", "set"], ["-q", "-m", "set"],
    ["-m", "all_trec"], ["-q", "-m", "all_trec"], ["-c", "-q", "-m", "all_trec"], ["-c", "-m", "all_trec"],
    ["-J", "-m", "all_trec"], ["-J", "-q", "-m", "all_trec"], ["-l0", "-m", "all_trec"],
    ["-l2", "-q", "-m", "all_trec"], ["-M", "3", "-q", "-m", "all_trec"], ["-N", "50", "-m", "all_trec"],
    ["-n", "-q", "-m", "all_trec"], ["-c", "-J", "-q", "-m", "all_trec"], ["-c", "-l2", "-m", "all_trec"],
    *[["-q", "-m", name] for name in ALL_TREC + OUTSIDE_NICKNAMES],
    *[[*options, "-m", name] for name in OUTSIDE_NICKNAMES for options in OPTIONS_FOR_ONE_MEASURE],
    ["-q", "-m", "official", "-m", "yaap"], ["-q", "-m", "yaap", "-m", "rbp_resid", "-m", "unj"],
    ["-m", "P.7"], ["-q", "-mP.5,7,3"], ["-m", "P.2", "-m", "map"], ["-m", "recall.20,2000"],
    ["-q", "-m", "iprec_at_recall..10,.20,.25,.75,.50"], ["-m", "iprec_at_recall.0.6"],
    ["-q", "-m", "11pt_avg..25,.5,.75"],
    ["-m", "Rprec_mult.5.0,0.2,0.35"], ["-q", "-m", "utility.2,-1,-1,0"], ["-c", "-m", "utility.2,-1,-1,0"],
    ["-N", "20", "-m", "utility.1,-1,0,1"], ["-q", "-N20", "-m", "utility.1,-1,0,1"], ["-mutility.2,-1,0,0"],
    ["-q", "-m", "ndcg.1=3,2=9,4=4.5"], ["-m", "ndcg_cut.10,20,23.4"], ["-m", "success.2,5,20"],
    ["-q", "-m", "set_F.0.5"], ["-m", "set_F.2"], ["-q", "-m", "relstring.20"], ["-m", "map_cut.3,7"],
    ["-q", "-m", "rbp.p=0.5"], ["-q", "-m", "rbp_resid.p=0.5"], ["-m", "ndcg_rel.1=2,2=5"], ["-q", "-m", "G.1=3"],
    ["-q", "-m", "Rndcg", "-l0"], ["-q", "-m", "11pt_avg", "-J"], ["-q", "-m", "unj.5"],
    ["-m", "P.7", "-m", "P.3"], ["-m", "P", "-m", "P.7"], ["-m", "P.7", "-m", "P"], ["-m", "map", "-m", "map"],
    ["-m", "official", "-m", "all_trec"], ["-q", "-m", "P.7", "-m", "map", "-m", "P.3"],
    ["-m", "set", "-m", "official"], ["-q", "-m", "ndcg_cut.5", "-m", "ndcg_cut.10"],
    ["-q", "-c", "-m", "num_rel", "-l2"], ["-c", "-q", "-m", "utility.1,-1,0,1", "-N", "30"],
    ["-l0", "-q", "-m", "map"], ["-q", "-M", "1", "-m", "recip_rank"],
    # trec_eval's names beyond all_trec, and its other options (-D LEVEL.QID evaluates QID alone; the levels given
    # here print no debugging text for these measures)
    ["-q", "-m", "dcg"], ["-q", "-m", "ideal_dcg"], ["-q", "-m", "dcg.1=3,2=9"], ["-m", "ideal_dcg.1=2,3=0.5"],
    ["-J", "-q", "-m", "dcg", "-m", "ideal_dcg"], ["-D", "0.301", "-q", "-m", "all_trec"], ["-D0.q5", "-q"],
    ["-D", "1", "-q", "-m", "map"], ["-o", "-q"], ["-T", "trec_results", "-m", "set"],
    # qrels read as judgment groups (the iter field names the group), and a group measure asked without them
    ["-q", "-R", "qrels_jg", "-m", "qrels_jg"], ["-q", "-m", "map_avgjg"],
]  # fmt: skip


def random_input(rng: random.Random, negatives: bool | None = None) -> tuple[str, str]:
    """A qrels and a run text: a few queries, graded and negative grades, ties, qrels-only and run-only queries.
    ``negatives=True``: grades below 0 in every input, and more of them."""
    style = rng.choice(["numeric", "prefixed", "mixed"])
    n_queries = rng.randint(1, 6)
    if style == "numeric":
        qids = [str(301 + i) for i in range(n_queries)]
    elif style == "prefixed":
        qids = [f"q{i}" for i in rng.sample(range(1, 40), n_queries)]
    else:  # lengths differ: trec_eval sorts query ids as strings
        qids = [str(i) for i in rng.sample(range(1, 120), n_queries)]
    drawn = rng.random() < 0.3  # drawn even when forced: the draws after it stay those of the other kinds
    forced = negatives is not None
    negatives = negatives if forced else drawn
    top = rng.choice([1, 2, 3, 4])
    grades = list(range(0, top + 1)) + ([-1, -2] if negatives else [])
    below = ([1.5, 1.0] if forced else [0.5, 0.3]) if negatives else []
    weights = [4.0] + [3.0 / g for g in range(1, top + 1)] + below
    score_mode = rng.choice(["ties", "floats", "close", "ints", "mixed_sign", "exp"])
    separator = rng.choice([" ", "\t", "  ", " \t"])
    qrels_lines, run_lines = [], []
    qrels_only = rng.random() < 0.15
    run_only = rng.random() < 0.3
    tag = rng.choice(["run1", "STANDARD", "my.run"])
    for index, qid in enumerate(qids):
        pool = [f"d{j}" for j in range(rng.randint(3, 25))]
        judged = rng.sample(pool, rng.randint(1, len(pool)))
        query_grades = rng.choices(grades, weights, k=len(judged))
        if all(g < 0 for g in query_grades):
            query_grades[0] = 0  # all-negative queries are an edge case of their own (trec_eval fails on them)
        iteration = rng.choice(["0", "0", "Q0", "1"])
        for doc, grade in zip(judged, query_grades, strict=True):
            qrels_lines.append(separator.join([qid, iteration, doc, str(grade)]))
        if qrels_only and index == len(qids) - 1 and len(qids) > 1:
            continue
        retrieved = rng.sample(pool, rng.randint(1, len(pool)))
        run_lines += _ranking(rng, qid, retrieved, score_mode, separator, tag)
    if run_only:
        run_lines += _ranking(rng, "999", [f"d{j}" for j in range(rng.randint(1, 5))], score_mode, separator, tag)
    if rng.random() < 0.5:
        rng.shuffle(qrels_lines)
    if rng.random() < 0.5:
        rng.shuffle(run_lines)
    return "".join(line + "\n" for line in qrels_lines), "".join(line + "\n" for line in run_lines)


def _ranking(rng, qid, docs, score_mode, separator, tag) -> list[str]:
    lines = []
    for rank, doc in enumerate(docs, 1):
        if score_mode == "ties":
            score = rng.choice(["1", "0.5", "0.25", "0"])
        elif score_mode == "floats":
            score = f"{rng.random() * 20:.6f}"
        elif score_mode == "close":  # equal in single precision, distinct in double
            score = f"0.{rng.choice(['1000000001', '1000000002', '1000000003', '1'])}"
        elif score_mode == "ints":
            score = str(rng.randint(-3, 10))
        elif score_mode == "mixed_sign":
            score = f"{rng.uniform(-5, 5):.3f}"
        else:
            score = f"{rng.uniform(1, 9):.2f}e{rng.randint(-3, 2)}"
        rank_text = rng.choice([str(rank), "0", str(len(docs) - rank + 1)])
        lines.append(separator.join([qid, "Q0", doc, rank_text, score, tag]))
    return lines


# Hand-made inputs: each (name, qrels, run), scored under EDGE_OPTION_SETS.
EDGE_INPUTS: list[tuple[str, str, str]] = [
    ("close doubles", "1 0 a 1\n1 0 b 0\n", "1 Q0 a 1 0.1000000001 t\n1 Q0 b 2 0.1000000002 t\n"),
    ("equal scores: doc id descending", "1 0 a 1\n1 0 b 0\n1 0 c 1\n", "1 Q0 a 1 1 t\n1 Q0 b 2 1 t\n1 Q0 c 3 1 t\n"),
    ("tab-led qrels line", "\t1 0 a 1\n1 0 b 1\n", "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n"),
    ("tab-led run line", "1 0 a 1\n1 0 b 1\n", "\t1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n"),
    ("spaces and tabs around fields", "1\t0\ta\t1 \n1  0  b  2\n", "1\tQ0\ta\t1\t2\tt \n1 Q0 b 2 1 t\n"),
    ("comment lines", "# judged\n1 0 a 1\n1 0 b 0\n", "# my run\n1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n"),
    ("two comment lines in qrels", "# one\n# two\n1 0 a 1\n", "1 Q0 a 1 2 t\n"),
    ("comment last in qrels", "1 0 a 1\n# end\n", "1 Q0 a 1 2 t\n"),
    ("qrels-only query", "1 0 a 1\n2 0 b 1\n2 0 c 2\n", "1 Q0 a 1 2 t\n1 Q0 z 2 1 t\n"),
    ("run-only query", "1 0 a 1\n", "1 Q0 a 1 2 t\n2 Q0 a 1 2 t\n"),
    ("query with no relevant", "1 0 a 0\n1 0 b 0\n2 0 a 1\n", "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n2 Q0 a 1 1 t\n"),
    ("all grades negative", "1 0 a -1\n1 0 b -2\n2 0 a 1\n", "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n2 Q0 a 1 1 t\n"),
    ("negative grades", "1 0 a -1\n1 0 b 2\n1 0 c 1\n", "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n"),
    ("query ids sort as strings", "10 0 a 1\n9 0 a 1\n100 0 b 1\n", "9 Q0 a 1 1 t\n10 Q0 a 1 1 t\n100 Q0 a 1 1 t\n"),
    ("nothing judged retrieved", "1 0 a 1\n", "1 Q0 x 1 2 t\n1 Q0 y 2 1 t\n"),
    ("high grades", "1 0 a 5\n1 0 b 3\n1 0 c 1\n1 0 d 0\n", "1 Q0 d 1 4 t\n1 Q0 c 2 3 t\n1 Q0 b 3 2 t\n1 Q0 a 4 1 t\n"),
    ("scores in exponent form", "1 0 a 1\n1 0 b 1\n", "1 Q0 a 1 1e-3 t\n1 Q0 b 2 2E-4 t\n"),
    ("extra run columns", "1 0 a 1\n", "1 Q0 a 1 2 t extra more\n"),
    ("different tags", "1 0 a 1\n2 0 a 1\n", "1 Q0 a 1 2 first\n2 Q0 a 1 2 last\n"),
    ("one of many relevant, 200 retrieved", "".join(f"1 0 d{i} {i % 3}\n" for i in range(60)),
     "".join(f"1 Q0 d{i} {i} {300 - i} t\n" for i in range(200))),
]  # fmt: skip
EDGE_OPTION_SETS = [
    [], ["-q"], ["-c", "-q"], ["-q", "-m", "all_trec"], ["-c", "-q", "-m", "all_trec"], ["-J", "-q", "-m", "all_trec"],
    ["-l0", "-q", "-m", "all_trec"], ["-l2", "-q", "-m", "all_trec"], ["-q", "-m", "yaap"], ["-c", "-q", "-m", "yaap"],
]  # fmt: skip

# The `make quicktest` commands of trec_eval 10.0 (its Makefile): (output, args); every argument naming a file of its
# test/ folder is one of the test's files.
QUICKTEST = [
    ("out.test", ["qrels.test", "results.test"]),
    ("out.test", ["qrels.test.with-comments", "results.test"]),
    ("out.comment.test", ["qrels.comment.test", "results.comment.test"]),
    ("out.test.a", ["-m", "all_trec", "qrels.test", "results.test"]),
    ("out.test.aq", ["-m", "all_trec", "-q", "qrels.test", "results.test"]),
    ("out.test.aqc", ["-m", "all_trec", "-q", "-c", "qrels.test", "results.trunc"]),
    ("out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100", "qrels.test", "results.trunc"]),
    ("out.test.aql", ["-m", "all_trec", "-mrelstring.20", "-q", "-l2", "qrels.rel_level", "results.test"]),
    ("out.test.meas_params", [
        "-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000", "-m",
        "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
        "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20", "qrels.test", "results.test",
    ]),
    ("out.test.aqZ", ["-q", "-m", "all_trec", "-Z", "zscores_file", "qrels.test", "results.test"]),
    ("out.test.prefs", ["-m", "all_prefs", "-q", "-R", "prefs", "prefs.test", "prefs.results.test"]),
    ("out.test.prefs", ["-m", "all_prefs", "-q", "-R", "prefs", "prefs.comment.test", "prefs.results.test"]),
    ("out.test.qrels_prefs", ["-m", "all_prefs", "-q", "-R", "qrels_prefs", "qrels.test", "results.test"]),
    ("out.test.qrels_jg", ["-m", "qrels_jg", "-q", "-R", "qrels_jg", "qrels.123", "results.test"]),
    ("out.test.qrels_jg", ["-m", "qrels_jg", "-q", "-R", "qrels_jg", "qrels.comments.123", "results.test"]),
]  # fmt: skip


def run_binary(
    binary: str, args: list[str], qrels: str, run: str, workdir: Path, files: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """The binary's (exit status, stdout, stderr) on these inputs. ``files``: more files an option names, each
    written to the work folder, an argument ``{name}`` standing for its path (``-Z {zscores}``)."""
    (workdir / "qrels").write_text(qrels)
    (workdir / "run").write_text(run)
    args = with_files(args, files or {}, workdir)
    done = subprocess.run(
        [binary, *args, str(workdir / "qrels"), str(workdir / "run")], capture_output=True, timeout=60
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def with_files(args: list[str], files: dict[str, str], workdir: Path) -> list[str]:
    """The arguments with each ``{name}`` replaced by the path of file ``name``, written to ``workdir``."""
    for file_name, text in files.items():
        (workdir / file_name).write_text(text)
    return [str(workdir / arg[1:-1]) if arg[1:-1] in files and arg.startswith("{") else arg for arg in args]


def answer(binary: str, args: list[str], qrels: str, run: str, workdir: Path, files: dict[str, str] | None = None):
    """trec_eval's answer to a case and, where trec_eval 10.0 is wrong on it, the answer the project must give:
    (rc, stdout, stderr, defect or None, {"rc", "stdout"} on the repaired input or None)."""
    files = files or {}
    rc, out, err = run_binary(binary, args, qrels, run, workdir, files)
    repaired = {**files, "zscores": with_sentinels(files["zscores"])} if "zscores" in files else files
    found = diagnose(args, qrels, run, rc)
    if found is not None:
        defect, fixed_qrels, fixed_run, fixed_args = found
        fixed_rc, fixed_out, _ = run_binary(binary, fixed_args, fixed_qrels, fixed_run, workdir, repaired)
        return rc, out, err, defect, unchecked(fixed_args, fixed_qrels, fixed_run, fixed_rc, fixed_out)
    if repaired is not files:  # a lookup past the end of the file's lines is silent: compare with the repaired file
        fixed_rc, fixed_out, _ = run_binary(binary, args, qrels, run, workdir, repaired)
        if (fixed_rc, fixed_out) != (rc, out):
            return rc, out, err, "zscore_lookup_past_the_end", {"rc": fixed_rc, "stdout": fixed_out}
    expected = unchecked(args, qrels, run, rc, out)
    if "unchecked" in expected:
        return rc, out, err, "prefs_rnonrel_reads_memory", expected
    return rc, out, err, None, None


def unchecked(args: list[str], judgments: str, run: str, rc: int, stdout: str) -> dict:
    """{"rc", "stdout"} of an answer, without the lines trec_eval 10.0 read from memory (memory_reads), then named
    in "unchecked" ([measure, query] each): no input repairs them, so they are compared with nothing."""
    lines = memory_reads(args, judgments, run, stdout) if rc == 0 else []
    if not lines:
        return {"rc": rc, "stdout": stdout}
    kept = "".join(line + "\n" for line in stdout.splitlines() if _line_key(line) not in lines)
    return {"rc": rc, "stdout": kept, "unchecked": lines}


def _line_key(line: str) -> list[str]:
    """A line of trec_eval's output as [measure, query]."""
    return [field.strip() for field in line.split("\t")[:2]]


def memory_reads(args: list[str], judgments: str, run: str, stdout: str) -> list[list[str]]:
    """The lines of ``stdout`` ([measure, query]) whose value trec_eval 10.0 read from memory past the query's
    judgments, and the summary line of each such measure. m_prefs_avgjg_Rnonrel.c (and _ret) recount a
    one-subgroup group with fewer relevant documents R than non-relevant ones (levels 0 and below) against R
    entries read from the start of its lowest level in its list of the query's one-subgroup groups (each by level
    descending, then docid rank): levels below 0 can leave fewer than R entries from there to the list's end
    (_ret reads R retrieved ones, and stops at the first one not retrieved)."""
    rel_format = _rel_format(args)
    if rel_format not in ("prefs", "qrels_prefs"):
        return []
    judged: dict[str, dict[str, dict[str, dict[str, float]]]] = {}  # query -> group -> subgroup -> doc -> level
    for line in judgments.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        query, group, *subgroup, doc, level = fields if rel_format == "prefs" else [*fields[:2], "0", *fields[2:]]
        judged.setdefault(query, {}).setdefault(group, {}).setdefault(subgroup[0], {})[doc] = float(level)
    rankings = _preference_rankings(run, _max_docs(args))
    evaluated = set(rankings) if "-c" not in args else set(rankings) | set(judged)
    alone = _debug_query(args)
    found: list[list[str]] = []
    for query in sorted(evaluated & set(judged) & ({alone} if alone else evaluated)):
        groups = judged[query]
        docs = {doc for subgroups in groups.values() for levels in subgroups.values() for doc in levels}
        shown = [doc for doc in rankings.get(query, []) if doc in docs]
        docid = {doc: i for i, doc in enumerate([*shown, *sorted(docs - set(shown), key=str.encode)])}
        pool, starts = [], {}  # trec_eval's list, and where each group's lowest level starts in it
        for group in sorted(groups, key=str.encode):
            if len(groups[group]) == 1:
                (levels,) = groups[group].values()
                entries = sorted(levels, key=lambda doc, lv=levels: (-lv[doc], docid[doc]))
                starts[group] = len(pool) + [levels[doc] for doc in entries].index(min(levels.values()))
                pool += entries
        for group, start in starts.items():
            (levels,) = groups[group].values()
            relevant = sum(level > 0 for level in levels.values())
            if relevant < len(levels) - relevant and start + relevant > len(pool):
                found.append(["prefs_avgjg_Rnonrel", query])
            seen = [doc for doc in levels if docid[doc] < len(shown)]
            relevant = sum(levels[doc] > 0 for doc in seen)
            read = pool[start : start + relevant]
            if relevant < len(seen) - relevant and len(read) < relevant and all(docid[d] < len(shown) for d in read):
                found.append(["prefs_avgjg_Rnonrel_ret", query])
    measures = {measure for measure, _ in found}
    printed = [_line_key(line) for line in stdout.splitlines()]
    return [key for key in printed if key in found or (key[1] == "all" and key[0] in measures)]


def _preference_rankings(run: str, max_docs: int | None) -> dict[str, list[str]]:
    """Each query's documents as form_prefs_counts.c ranks them: score descending, then doc id ascending; -M cut."""
    scored: dict[str, list[tuple[float, bytes, str]]] = {}
    for line in run.splitlines():
        fields = line.split()
        if fields:
            scored.setdefault(fields[0], []).append((-float(fields[4]), fields[2].encode(), fields[2]))
    return {query: [doc for *_, doc in sorted(docs)][:max_docs] for query, docs in scored.items()}


def _max_docs(args: list[str]) -> int | None:
    for index, arg in enumerate(args):
        if arg == "-M":
            return int(args[index + 1])
        if arg.startswith("-M"):
            return int(arg[2:])
    return None


def _debug_query(args: list[str]) -> str | None:
    """The query -D LEVEL.QID evaluates alone, if any."""
    for index, arg in enumerate(args):
        value = args[index + 1] if arg == "-D" else arg[2:] if arg.startswith("-D") else None
        if value is not None and "." in value:
            return value.split(".", 1)[1]
    return None


# Sorts after every id the generators write: trec_eval's binary searches never run past a line of this name.
SENTINEL = "~~~~"


def with_sentinels(zscores: str) -> str:
    """A z-score file with a line for a query named SENTINEL and, for each query, a line for a measure named
    SENTINEL: no id sorts after them, so trec_eval's binary searches (convert_zscores.c, which look one line past
    the last) stay within the file's lines, and nothing looks them up."""
    queries = {line.split()[0] for line in zscores.splitlines() if line.strip()}
    if not queries:
        return zscores  # an empty file: refused as it is
    return zscores + "".join(f"{query} {SENTINEL} 0 1\n" for query in sorted(queries | {SENTINEL}))


ZSCORE_MEASURES = [
    "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall_0.00",
    "iprec_at_recall_0.50", "P_5", "P_10", "P_20", "recall_10", "ndcg", "set_P", "set_F", "utility", "11pt_avg",
]  # fmt: skip
ZSCORE_OPTION_SETS = [
    ["-q", "-Z", "{zscores}"], ["-q", "-m", "all_trec", "-Z", "{zscores}"], ["-c", "-q", "-Z", "{zscores}"],
    ["-n", "-q", "-m", "set", "-Z", "{zscores}"], ["-q", "-J", "-m", "11pt_avg", "-m", "gm_map", "-Z", "{zscores}"],
    ["-c", "-q", "-m", "num_q", "-m", "num_rel", "-m", "relstring", "-Z", "{zscores}"],
]  # fmt: skip


def zscore_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    qrels, run = random_input(rng)
    return qrels, run, {"zscores": random_zscores(rng, qrels)}


JUDGMENT_GROUP_OPTION_SETS = [
    ["-q", "-R", "qrels_jg", "-m", "qrels_jg"], ["-c", "-q", "-R", "qrels_jg", "-m", "qrels_jg"],
    ["-J", "-q", "-R", "qrels_jg", "-m", "qrels_jg"], ["-M3", "-q", "-R", "qrels_jg", "-m", "qrels_jg"],
    ["-l2", "-q", "-R", "qrels_jg", "-m", "qrels_jg"], ["-l0", "-R", "qrels_jg", "-m", "qrels_jg"],
    ["-c", "-J", "-q", "-R", "qrels_jg", "-m", "qrels_jg"], ["-n", "-q", "-Rqrels_jg", "-m", "P_avgjg.3,7"],
    ["-q", "-R", "qrels_jg", "-m", "Rprec_mult_avgjg.0.5,1.5", "-m", "map_avgjg"], ["-R", "qrels_jg", "-m", "num_q"],
    ["-R", "qrels_jg"], ["-R", "qrels_jg", "-m", "map"], ["-q", "-D", "0.301", "-R", "qrels_jg", "-m", "qrels_jg"],
]  # fmt: skip


def judgment_group_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    """A qrels_jg text (qid group docno grade) and a run: random_input's judgments, each given by one to three
    groups (users), who agree with it more often than not."""
    qrels, run = random_input(rng)
    lines = []
    for line in qrels.splitlines():
        query, _, doc, grade = line.split()
        for group in rng.sample(["u1", "u2", "user3"], rng.randint(1, 3)):
            given = grade if rng.random() < 0.6 else rng.choice(["0", "1", "2", "-1"])
            lines.append(rng.choice([" ", "\t"]).join([query, group, doc, given]))
    rng.shuffle(lines)
    return "".join(line + "\n" for line in lines), run, {}


PREFS_OPTION_SETS = [
    ["-q", "-R", "prefs", "-m", "all_prefs"], ["-c", "-q", "-R", "prefs", "-m", "all_prefs"],
    ["-M3", "-q", "-R", "prefs", "-m", "all_prefs"], ["-J", "-q", "-R", "prefs", "-m", "prefs"],
    ["-l2", "-R", "prefs", "-m", "all_prefs"], ["-n", "-q", "-Rprefs", "-m", "prefs_pair", "-m", "prefs_avgjg_Rnonrel"],
    ["-q", "-R", "prefs", "-m", "num_q", "-m", "prefs_simp_imp"], ["-R", "prefs"], ["-R", "prefs", "-m", "map"],
    ["-q", "-m", "prefs_simp"], ["-q", "-D", "0.q1", "-R", "prefs", "-m", "all_prefs"],
]  # fmt: skip
QRELS_PREFS_OPTION_SETS = [
    ["-q", "-R", "qrels_prefs", "-m", "all_prefs"], ["-c", "-q", "-R", "qrels_prefs", "-m", "all_prefs"],
    ["-M5", "-q", "-R", "qrels_prefs", "-m", "all_prefs"], ["-q", "-Rqrels_prefs", "-m", "prefs"],
    ["-c", "-M3", "-R", "qrels_prefs", "-m", "all_prefs"],
]  # fmt: skip


def prefs_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    """A prefs text (qid group subgroup docno level) and a run (ties among the scores often: preferences break them
    by doc id ascending). Each group (a user) ranks documents in its mind (levels 0 to 4, some 0.5 apart) and states
    some of them in one to three subgroups, so a group never contradicts itself; levels stay 0 or more (levels
    below 0 are prefs_edge_input's)."""
    queries = [f"q{i}" for i in rng.sample(range(1, 9), rng.randint(1, 4))]
    lines, run_lines = [], []
    tag = rng.choice(["prefs_run", "t"])
    for query in queries:
        pool = [f"d{j}" for j in range(rng.randint(2, 14))]
        for group in rng.sample(["u1", "u2", "u3", "user4"], rng.randint(1, 3)):
            mind = {doc: rng.choice([0, 0, 1, 2, 3, 4, 1.5]) for doc in rng.sample(pool, rng.randint(2, len(pool)))}
            for subgroup in rng.sample(["s1", "s2", "s3"], rng.choice([1, 1, 2, 3])):
                for doc in rng.sample(sorted(mind), rng.randint(1, len(mind))):
                    lines.append(" ".join([query, group, subgroup, doc, str(mind[doc])]))
        if query != queries[-1] or rng.random() < 0.8:  # now and then a query the run lacks
            for rank, doc in enumerate(rng.sample([*pool, "x1", "x2"], rng.randint(0, len(pool) + 2)), 1):
                run_lines.append(f"{query} Q0 {doc} {rank} {rng.choice(['1', '2', '0.5', str(20 - rank)])} {tag}")
    if not run_lines:
        run_lines.append(f"{queries[0]} Q0 x1 1 1 {tag}")
    rng.shuffle(lines)
    rng.shuffle(run_lines)
    return "".join(line + "\n" for line in lines), "".join(line + "\n" for line in run_lines), {}


def qrels_prefs_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    """random_input's qrels and run, read as preferences: grades 0 or more (below 0: qrels_prefs_edge_input), and
    now and then a query judged by two groups (the second field)."""
    qrels, run = random_input(rng)
    lines = []
    for line in qrels.splitlines():
        query, group, doc, grade = line.split()
        lines.append(" ".join([query, rng.choice([group, group, group, "other"]), doc, str(max(int(grade), 0))]))
    return "".join(line + "\n" for line in lines), run, {}


# Inputs where trec_eval reads the judgments oddly, in every format: grades and levels below 0, fractional levels,
# groups with one document, queries only in the judgments or only in the run, under each option that changes what is
# judged. -D 0.q1 evaluates q1 alone (every such input has a q1); never with -c (README, Known differences).
EDGE_JUDGED_OPTIONS = [
    ["-q"], ["-c", "-q"], ["-J", "-q"], ["-M2", "-q"], ["-M", "5", "-c"], ["-l0", "-q"], ["-l2", "-q"],
    ["-q", "-D", "0.q1"], ["-c", "-J", "-l2", "-M3"],
]  # fmt: skip
PREFS_EDGE_OPTION_SETS = [
    *[[*options, "-R", "prefs", "-m", "all_prefs"] for options in EDGE_JUDGED_OPTIONS],
    ["-q", "-R", "prefs", "-m", "prefs_avgjg_Rnonrel", "-m", "prefs_avgjg_Rnonrel_ret"],
]
QRELS_PREFS_EDGE_OPTION_SETS = [
    *[[*options, "-R", "qrels_prefs", "-m", "all_prefs"] for options in EDGE_JUDGED_OPTIONS],
    ["-q", "-Rqrels_prefs", "-m", "prefs_avgjg_Rnonrel", "-m", "prefs_avgjg_Rnonrel_ret"],
]
JUDGMENT_GROUP_EDGE_OPTION_SETS = [[*options, "-R", "qrels_jg", "-m", "qrels_jg"] for options in EDGE_JUDGED_OPTIONS]
ZSCORE_EDGE_OPTION_SETS = [
    *[[*options, "-Z", "{zscores}"] for options in EDGE_JUDGED_OPTIONS], ["-q", "-m", "all_trec", "-Z", "{zscores}"],
]  # fmt: skip
EDGE_LEVELS = ["-2", "-1", "-0.5", "0", "0", "0", "0.5", "1", "1", "1.5", "2", "2.25", "3"]


def _edge_queries(rng: random.Random) -> list[str]:
    """q1 (which -D 0.q1 names) and up to three more."""
    return ["q1", *(f"q{i}" for i in rng.sample(range(2, 12), rng.randint(0, 3)))]


def _edge_run(rng: random.Random, queries: list[str], pools: dict[str, list[str]], tag: str) -> str:
    """A run of the queries but, now and then, the last one (judged only), and now and then a query it alone has."""
    lines = []
    for query in queries:
        if query == queries[-1] and len(queries) > 1 and rng.random() < 0.3:
            continue
        docs = rng.sample([*pools[query], "x1", "x2"], rng.randint(1, len(pools[query]) + 2))
        for rank, doc in enumerate(docs, 1):
            lines.append(f"{query} Q0 {doc} {rank} {rng.choice(['1', '2', '0.5', str(20 - rank)])} {tag}")
    if rng.random() < 0.3:
        lines.append(f"q99 Q0 d0 1 1 {tag}")
    rng.shuffle(lines)
    return "".join(line + "\n" for line in lines)


def prefs_edge_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    """A prefs text and a run as prefs_input's, but levels below 0 and fractional (EDGE_LEVELS), groups with one
    document, and groups of one subgroup more often (their lowest level, when below 0, can hold fewer documents
    than the group's relevant ones: m_prefs_avgjg_Rnonrel.c then reads past it)."""
    queries = _edge_queries(rng)
    pools = {query: [f"d{j}" for j in range(rng.randint(1, 10))] for query in queries}
    lines = []
    for query in queries:
        for group in rng.sample(["u1", "u2", "u3", "user4"], rng.randint(1, 3)):
            mind = {doc: rng.choice(EDGE_LEVELS) for doc in rng.sample(pools[query], rng.randint(1, len(pools[query])))}
            subgroups = rng.sample(["s1", "s2", "s3"], rng.choice([1, 1, 1, 2, 3]))
            for subgroup in subgroups:  # one subgroup states the whole mind, as a qrels_prefs group does
                stated = sorted(mind) if len(subgroups) == 1 else rng.sample(sorted(mind), rng.randint(1, len(mind)))
                lines += [" ".join([query, group, subgroup, doc, mind[doc]]) for doc in stated]
    rng.shuffle(lines)
    return "".join(line + "\n" for line in lines), _edge_run(rng, queries, pools, "prefs_edge"), {}


def qrels_prefs_edge_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    """A qrels text read as preferences (qid group docno level) and a run: one to three groups per query, levels
    below 0 and fractional (EDGE_LEVELS), groups with one document."""
    queries = _edge_queries(rng)
    pools = {query: [f"d{j}" for j in range(rng.randint(1, 10))] for query in queries}
    lines = []
    for query in queries:
        for group in rng.sample(["0", "1", "Q0", "other"], rng.randint(1, 3)):
            for doc in rng.sample(pools[query], rng.randint(1, len(pools[query]))):
                lines.append(rng.choice([" ", "\t"]).join([query, group, doc, rng.choice(EDGE_LEVELS)]))
    rng.shuffle(lines)
    return "".join(line + "\n" for line in lines), _edge_run(rng, queries, pools, "qrels_prefs_edge"), {}


def _with_q1(qrels: str, run: str) -> tuple[str, str]:
    """The texts with the judged query that sorts first renamed q1 (which -D 0.q1 names). random_input's run has no
    other query named q1 (its one query the qrels lack is 999)."""
    first = min(_qids(qrels))

    def renamed(text: str) -> str:
        return "".join(
            ("q1" + line.lstrip()[len(first) :] if line.split() and line.split()[0] == first else line) + "\n"
            for line in text.splitlines()
        )

    return renamed(qrels), renamed(run)


def judgment_group_edge_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    """judgment_group_input's kind of input, grades below 0 in each, and a user now and then who judged one
    document."""
    qrels, run = _with_q1(*random_input(rng, negatives=True))
    lines = []
    for line in qrels.splitlines():
        query, _, doc, grade = line.split()
        for group in rng.sample(["u1", "u2", "user3"], rng.randint(1, 3)):
            given = grade if rng.random() < 0.6 else rng.choice(["0", "1", "2", "-1", "-2"])
            lines.append(rng.choice([" ", "\t"]).join([query, group, doc, given]))
    loner = rng.choice(sorted(_qids(qrels)))
    lines.append(f"{loner} lone_user {rng.choice(['d0', 'd1', 'x1'])} {rng.choice(['-1', '0', '1', '2'])}")
    rng.shuffle(lines)
    return "".join(line + "\n" for line in lines), run, {}


def zscore_edge_input(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    """zscore_input's kind of input, grades below 0 in each."""
    qrels, run = _with_q1(*random_input(rng, negatives=True))
    return qrels, run, {"zscores": random_zscores(rng, qrels)}


def random_zscores(rng: random.Random, qrels: str) -> str:
    """A z-score file for a qrels text: for most of its queries (and one it does not have) a mean and standard
    deviation of some measures, among them standard deviations of 0 (a value equal to the mean gives 0) and means a
    value can equal exactly (0, 0.2, 1)."""
    queries = [*sorted(_qids(qrels)), "999"]
    lines = []
    for query in queries:
        if rng.random() < 0.2:
            continue  # a query the file does not name: its values are all -1000000
        for measure in rng.sample(ZSCORE_MEASURES, rng.randint(1, len(ZSCORE_MEASURES))):
            mean = rng.choice(["0", "0.2", "1", "3", f"{rng.uniform(0, 1):.4f}"])
            deviation = rng.choice(["0", "0", "0.1", "0.25", "1", f"{rng.uniform(0.01, 2):.3f}"])
            lines.append(f"{query} {measure} {mean} {deviation}")
    rng.shuffle(lines)
    return "".join(line + "\n" for line in lines)


def _qids(text: str) -> set[str]:
    return {line.split()[0] for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")}


def _without_comments(text: str) -> str:
    return "".join(line + "\n" for line in text.splitlines() if not line.lstrip().startswith("#"))


def _with_stand_in(text: str, queries: list[str]) -> str:
    """One more judgment per query, grade 0, of a document no run retrieves: at any -l of 1 or more it changes no
    measure of a query with nothing relevant, and trec_eval no longer fails on the query."""
    return text + "".join(f"{q} 0 trec_eval_stand_in_doc 0\n" for q in sorted(queries))


def _grade(line: str) -> int:
    """A qrels line's grade; 0 for a line of another format (a prefs line read as qrels: trec_eval refuses it)."""
    fields = line.split()
    return int(fields[3]) if len(fields) == 4 and fields[3].lstrip("-").isdigit() else 0


def _rel_format(args: list[str]) -> str:
    for index, arg in enumerate(args):
        if arg == "-R":
            return args[index + 1]
        if arg.startswith("-R"):
            return arg[2:]
    return "qrels"


def _level(args: list[str]) -> int:
    for index, arg in enumerate(args):
        if arg == "-l":
            return int(args[index + 1])
        if arg.startswith("-l"):
            return int(arg[2:])
    return 1


# The kinds of random input: (a draw of (qrels, run, files), their option sets, how many the corpus holds). The live
# differential test (tests/test_trec_eval10_corpus.py) draws from each.
LIVE = {
    "plain": (lambda rng: (*random_input(rng), {}), OPTION_SETS, None),
    "zscores": (zscore_input, ZSCORE_OPTION_SETS, 15),
    "judgment_groups": (judgment_group_input, JUDGMENT_GROUP_OPTION_SETS, 20),
    "prefs": (prefs_input, PREFS_OPTION_SETS, 25),
    "qrels_prefs": (qrels_prefs_input, QRELS_PREFS_OPTION_SETS, 15),
    "prefs_edge": (prefs_edge_input, PREFS_EDGE_OPTION_SETS, 40),
    "qrels_prefs_edge": (qrels_prefs_edge_input, QRELS_PREFS_EDGE_OPTION_SETS, 40),
    "judgment_groups_edge": (judgment_group_edge_input, JUDGMENT_GROUP_EDGE_OPTION_SETS, 20),
    "zscores_edge": (zscore_edge_input, ZSCORE_EDGE_OPTION_SETS, 20),
}


def diagnose(args: list[str], qrels: str, run: str, rc: int) -> tuple[str, str, str, list[str]] | None:
    """The trec_eval 10.0 defect behind a failure on valid input, and the repaired input: (name, qrels, run, args).
    Each name is a row of tests/data/trec_eval10/defects.json."""
    if rc == 0:
        return None
    comment_lines = [line for line in qrels.splitlines() if line.lstrip().startswith("#")]
    if comment_lines:
        return "qrels_comment_lines", _without_comments(qrels), run, args
    all_negative = []  # (other formats than qrels: trec_eval does not fail on them)
    if _rel_format(args) == "qrels":
        queries = _qids(qrels)
        lines = [line for line in qrels.splitlines() if line.split()]
        all_negative = [q for q in queries if all(_grade(line) < 0 for line in lines if line.split()[0] == q)]
    if all_negative and _level(args) >= 1:
        return "all_grades_negative", _with_stand_in(qrels, all_negative), run, args
    missing = _qids(qrels) - _qids(run)
    if missing and "-c" not in args:
        kept = "".join(line + "\n" for line in qrels.splitlines() if line.split() and line.split()[0] not in missing)
        return "qrels_query_missing_from_run", kept, run, args
    return None


SEED, RANDOM_INPUTS = 2110, 45  # the committed corpus's (tests/test_trec_eval10_corpus.py checks it holds them all)


def planned_inputs(seed: int, count: int) -> list[tuple[str, str, str, dict[str, str], list[list[str]]]]:
    """The corpus's inputs: (name, qrels, run, files, option sets), the edge inputs, then ``count`` random ones, then
    each other kind of LIVE. Each kind draws from a generator of its own, so adding one changes no input of the
    others."""
    rng = random.Random(seed)
    inputs = [(f"edge {name}", qrels, run, {}, EDGE_OPTION_SETS) for name, qrels, run in EDGE_INPUTS]
    inputs += [(f"random {i}", *random_input(rng), {}, OPTION_SETS) for i in range(count)]
    for offset, (kind, (draw, option_sets, kind_count)) in enumerate(LIVE.items()):
        if kind != "plain":
            kind_rng = random.Random(seed + offset)
            inputs += [(f"{kind} {i}", *draw(kind_rng), option_sets) for i in range(kind_count)]
    return inputs


def case_args(name: str, option_sets: list[list[str]]) -> list[list[str]]:
    """The option sets an input is recorded under."""
    if name == "edge all grades negative":  # no repaired input has its judgments at -l0 (0 is relevant, -1 not)
        return [args for args in option_sets if _level(args) != 0]
    return option_sets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="the trec_eval 10.0 executable")
    parser.add_argument("--quicktest", help="usnistgov/trec_eval's test/ folder (copied with its outputs)")
    parser.add_argument("--inputs", type=int, default=RANDOM_INPUTS, help="random inputs (each under every option set)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", default=str(DATA / "corpus.jsonl.gz"))
    options = parser.parse_args(argv)
    version = subprocess.run([options.binary, "-v"], capture_output=True, text=True).stderr.strip()
    defects = json.loads((DATA / "defects.json").read_text())
    if options.quicktest:
        copy_quicktest(options.binary, Path(options.quicktest))
        record_alone(options.binary, Path(options.quicktest))
    inputs = planned_inputs(options.seed, options.inputs)
    planned = sum(len(case_args(name, sets)) for name, *_, sets in inputs)
    meta = {"kind": "meta", "trec_eval": version, "seed": options.seed, "option_sets": len(OPTION_SETS)}
    records = [{**meta, "inputs": options.inputs, "cases": planned}]
    failures: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for number, (name, qrels, run, files, option_sets) in enumerate(inputs):
            input_id = f"i{number:03d}"
            record = {"kind": "input", "id": input_id, "name": name, "qrels": qrels, "run": run}
            records.append({**record, "files": files} if files else record)
            for args in case_args(name, option_sets):
                rc, out, err, defect, expected = answer(options.binary, args, qrels, run, work, files)
                case = {"kind": "case", "input": input_id, "args": args, "rc": rc, "stdout": out}
                if rc != 0:
                    case["stderr"] = err.strip().splitlines()[0] if err.strip() else ""
                if defect is not None:
                    assert defect in defects, defect
                    case["defect"] = defect
                    case["expected"] = expected
                    failures[defect] = failures.get(defect, 0) + 1
                elif rc != 0:
                    failures[f"rc {rc} undiagnosed"] = failures.get(f"rc {rc} undiagnosed", 0) + 1
                records.append(case)
    out = Path(options.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(out, "wb", compresslevel=9, mtime=0) as handle:
        handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode())
    cases = sum(r["kind"] == "case" for r in records)
    print(f"{cases} cases over {len(inputs)} inputs -> {out} ({out.stat().st_size:,} bytes); failures: {failures}")
    return 0


# Each name of trec_eval 10.0's measures.c asked for alone with -q on trec_eval's own test inputs, in the format its
# measure reads: (the name, -R format, judgments file, run file). The outputs go to quicktest/alone.json.gz.
PREFERENCE_MEASURES = {name for name in TREC_EVAL_ORDER if name.startswith("prefs_")}
GROUP_MEASURES = {"map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}
ALONE = [
    (name, "prefs", "prefs.test", "prefs.results.test") if name in PREFERENCE_MEASURES
    else (name, "qrels_jg", "qrels.123", "results.test") if name in GROUP_MEASURES
    else (name, "qrels", "qrels.test", "results.test")
    for name in TREC_EVAL_ORDER
]  # fmt: skip


def record_alone(binary: str, source: Path) -> None:
    """trec_eval's output for each measures.c name alone (ALONE), gzip'd into the quicktest folder."""
    records = []
    for name, rel_format, judgments, run in ALONE:
        args = ["-q", "-m", name, "-R", rel_format, judgments, run]
        done = subprocess.run([binary, *args[:-2], str(source / judgments), str(source / run)], capture_output=True)
        records.append({"args": args, "rc": done.returncode, "stdout": done.stdout.decode()})
    with gzip.GzipFile(DATA / "quicktest" / "alone.json.gz", "wb", 9, mtime=0) as handle:
        handle.write((json.dumps(records, indent=0) + "\n").encode())


def copy_quicktest(binary: str, source: Path) -> None:
    """trec_eval's own test inputs and expected outputs, checked against the binary, gzip'd into the project."""
    target = DATA / "quicktest"
    target.mkdir(parents=True, exist_ok=True)
    names = {name for output, args in QUICKTEST for name in [output, *args] if (source / name).is_file()}
    commands = []
    for output, args in QUICKTEST:
        files = [str(source / arg) if arg in names else arg for arg in args]
        printed = subprocess.run([binary, *files], capture_output=True, check=True).stdout
        if printed != (source / output).read_bytes():
            sys.exit(f"the binary does not reproduce trec_eval's {output}: is it trec_eval 10.0?")
        commands.append({"args": args, "output": output})
    for name in sorted(names):
        with (source / name).open("rb") as src, gzip.GzipFile(target / f"{name}.gz", "wb", 9, mtime=0) as dst:
            shutil.copyfileobj(src, dst)
    (target / "commands.json").write_text(json.dumps(commands, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())

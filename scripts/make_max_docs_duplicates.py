"""Record trec_eval 10.0 on runs giving a doc twice (-M, -c, -D, -J): tests/data/trec_eval10/max_docs_duplicates.json.

    python -m scripts.make_max_docs_duplicates /path/to/trec_eval

trec_eval sorts each query's results (score descending; ties by doc id descending, or ascending for preferences),
cuts them to the top -M, and only then refuses a doc given twice (form_res_rels.c, form_res_rels_jg.c,
form_prefs_counts.c): a copy beyond the cut is accepted. It checks a query only when it evaluates it (trec_eval.c's
main loop: the queries judged, with -D LEVEL.QID that one), so a doc twice for a query only the run has is accepted,
with -c too. Each case stores the binary's stdout and exit status for one
input (judgments and run text) and one argument list; tests/test_max_docs_duplicates.py replays them through every
reader. Deterministic: the inputs are written out below.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "trec_eval10" / "max_docs_duplicates.json"

QRELS = "q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d5 2\nq2 0 a 1\nq2 0 b 0\nq2 0 c 1\n"
QRELS_JG = "q1 u1 d1 1\nq1 u2 d2 1\nq1 u1 d3 0\nq1 u2 d5 2\nq2 u1 a 1\nq2 u1 b 0\nq2 u2 c 1\n"
PREFS = "q1 u1 s1 d1 2\nq1 u1 s1 d2 1\nq1 u1 s1 d3 0\nq2 u1 s1 a 2\nq2 u1 s1 b 1\nq2 u1 s1 c 0\nq2 u2 s1 c 1\n"

# In file order, already by score: d1 again at rank 4 of q1, a again at rank 4 of q2.
BEYOND = (
    "q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 2.0 r\nq1 Q0 d3 3 1.5 r\nq1 Q0 d1 4 1.0 r\nq1 Q0 d5 5 0.5 r\n"
    "q2 Q0 a 1 2.0 r\nq2 Q0 c 2 1.0 r\nq2 Q0 b 3 0.7 r\nq2 Q0 a 4 0.5 r\n"
)
# Not in score order (the readers sort everything): d2 again at rank 3 of q1.
UNSORTED = "q2 Q0 b 1 1.0 r\nq1 Q0 d2 1 0.1 r\nq1 Q0 d1 2 3.0 r\nq2 Q0 a 2 4.0 r\nq1 Q0 d2 3 2.0 r\nq1 Q0 d3 4 1.0 r\n"
# Ties at the cut, given out of trec_eval's order: c twice at 1.0. trec_eval orders q1 (doc id descending) x c c b a
# (-M 2 accepts it, -M 3 refuses); preferences order it x a b c c (-M 4 accepts, -M 5 refuses).
TIES = "q1 Q0 x 1 2.0 r\nq1 Q0 a 2 1.0 r\nq1 Q0 b 3 1.0 r\nq1 Q0 c 4 1.0 r\nq1 Q0 c 5 1.0 r\nq2 Q0 a 1 1.0 r\n"
TIES_QRELS = "q1 0 a 1\nq1 0 c 1\nq1 0 x 0\nq2 0 a 1\n"
TIES_QRELS_JG = "q1 u1 a 1\nq1 u2 c 1\nq1 u1 x 0\nq2 u1 a 1\n"
TIES_PREFS = "q1 u1 s1 a 2\nq1 u1 s1 c 1\nq1 u1 s1 x 0\nq1 u1 s1 b 1\nq2 u1 s1 a 1\nq2 u1 s1 b 0\n"
# q3 is in no judgments: its x twice is never checked. UNJUDGED_TOO adds zz twice (a doc nobody judged) to judged q2.
UNJUDGED = "q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 2.0 r\nq3 Q0 x 1 3.0 r\nq3 Q0 x 2 1.0 r\nq2 Q0 a 1 2.0 r\nq2 Q0 b 2 1.0 r\n"
UNJUDGED_TOO = UNJUDGED + "q2 Q0 zz 3 0.5 r\nq2 Q0 zz 4 0.4 r\n"

MEASURES = ["-m", "P.2,3", "-m", "map", "-m", "ndcg", "-m", "num_ret", "-m", "recip_rank", "-m", "relstring.6"]
GROUP_MEASURES = ["-m", "map_avgjg", "-m", "P_avgjg.2,3", "-m", "Rprec_mult_avgjg"]
PREFS_MEASURES = ["-m", "all_prefs"]


def _cuts(cuts: list[str], extra: list[str]) -> list[list[str]]:
    return [[*cut, *extra] for cut in cuts]


# zz twice in judged q2: refused, also under -c and -J; accepted when -D evaluates q1 alone, or -M cuts it
ONLY_TOO = [["-q"], ["-c", "-q"], ["-J", "-q"], ["-D", "0.q1", "-q"], ["-D", "0.q2"], ["-M", "2", "-q"]]

# (name, judgments, run, -R format, argument lists)
INPUTS = [
    ("beyond", QRELS, BEYOND, "qrels", _cuts([["-M", "3"], ["-M3", "-q"], ["-M", "2", "-q"], ["-M4"], []], MEASURES)),
    ("beyond all_trec", QRELS, BEYOND, "qrels", [["-M", "3", "-q", "-m", "all_trec"], ["-M1", "-c", "-q"]]),
    ("unsorted", QRELS, UNSORTED, "qrels", _cuts([["-M", "2", "-q"], ["-M3", "-q"], ["-M", "1"], ["-M4"]], MEASURES)),
    ("ties", TIES_QRELS, TIES, "qrels", _cuts([["-M", "2", "-q"], ["-M3", "-q"], ["-M", "1", "-J", "-q"]], MEASURES)),
    ("groups beyond", QRELS_JG, BEYOND, "qrels_jg", _cuts([["-M", "3", "-q"], ["-M4", "-q"]], GROUP_MEASURES)),
    ("groups ties", TIES_QRELS_JG, TIES, "qrels_jg", _cuts([["-M", "2", "-q"], ["-M3", "-q"]], GROUP_MEASURES)),
    ("prefs beyond", PREFS, BEYOND, "prefs", _cuts([["-M", "3", "-q"], ["-M4", "-q"], ["-M2"]], PREFS_MEASURES)),
    ("prefs unsorted", PREFS, UNSORTED, "prefs", _cuts([["-M", "2", "-q"], ["-M3", "-q"], ["-M4"]], PREFS_MEASURES)),
    ("prefs ties", TIES_PREFS, TIES, "prefs", _cuts([["-M", "3", "-q"], ["-M4", "-q"], ["-M5", "-q"]], PREFS_MEASURES)),
    (
        "run only",
        QRELS,
        UNJUDGED,
        "qrels",
        _cuts([["-q"], ["-c", "-q"], ["-J", "-q"], ["-M", "1"], ["-D", "0.q1"]], MEASURES),
    ),
    ("run only too", QRELS, UNJUDGED_TOO, "qrels", _cuts(ONLY_TOO, MEASURES)),
    ("groups run only", QRELS_JG, UNJUDGED, "qrels_jg", _cuts([["-q"], ["-c", "-q"], ["-M1"]], GROUP_MEASURES)),
    ("groups run only too", QRELS_JG, UNJUDGED_TOO, "qrels_jg", _cuts(ONLY_TOO, GROUP_MEASURES)),
    ("prefs run only", PREFS, UNJUDGED, "prefs", _cuts([["-q"], ["-c", "-q"], ["-M1"]], PREFS_MEASURES)),
    ("prefs run only too", PREFS, UNJUDGED_TOO, "prefs", _cuts(ONLY_TOO, PREFS_MEASURES)),
]


def record(binary: str) -> list[dict]:
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, judgments, run, rel_format, arg_lists in INPUTS:
            judgments_path, run_path = Path(tmp) / "judgments", Path(tmp) / "run"
            judgments_path.write_text(judgments)
            run_path.write_text(run)
            for args in arg_lists:
                full = [*args, "-R", rel_format] if rel_format != "qrels" else args
                done = subprocess.run(
                    [binary, *full, str(judgments_path), str(run_path)], capture_output=True, text=True, check=False
                )
                case = {"name": name, "args": full, "judgments": judgments, "run": run, "rc": done.returncode}
                cases.append({**case, "stdout": done.stdout, "stderr": done.stderr.strip()})
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="the trec_eval 10.0 executable")
    options = parser.parse_args(argv)
    cases = record(options.binary)
    OUT.write_text(json.dumps(cases, indent=1) + "\n")
    refused = sum(case["rc"] != 0 for case in cases)
    print(f"{len(cases)} cases ({refused} refused) -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

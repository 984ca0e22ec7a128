"""Record ndeval 4.5's exact output over random and edge-case inputs: tests/data/ndeval45/corpus.jsonl.gz.

    python -m scripts.make_ndeval_corpus /path/to/ndeval [--seed 45] [--readme-example QRELS RUN]

Each input (a subtopic qrels text and a run text) is scored by the binary under a few option sets; its stdout and
exit status are stored byte for byte (and its stderr, for the record: our messages differ on purpose). The corpus is
deterministic for a given seed and binary. Lines of the JSONL: one "meta" record, then "input" records ({"id",
"qrels", "run"}) and "case" records ({"input", "args", "rc", "stdout", "stderr"}).

With --readme-example, the command of the track's README (``ndeval -c -traditional qrels.txt run.txt``, and the
same without options) is run on the TREC 2012 Web track's qrels-for-ndeval.txt (zuacubd/trec-web-track-2009-2014,
2012/, commit c341048) and its 2012 baseline run (trec-web/trec-web-2014, data/runs/baselines/2012/ql/
results-cata-filtered.txt, commit eb769d1): both files, gzipped, and the outputs go to tests/data/ndeval45/trec2012/.

tests/test_ndeval45_corpus.py replays it through ``ir-ndeval``'s main in-process, and with NDEVAL_BIN set draws more
inputs from the generators here (``draw_input``, ``OPTION_SETS``) and scores them live by the binary.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "ndeval45" / "corpus.jsonl.gz"

# Option sets as ndeval users type them (options first, one dash), defaults and the edges of alpha and beta.
OPTION_SETS: list[list[str]] = [
    [], ["-c"], ["-traditional"], ["-M", "5"], ["-M", "1"], ["-M", "25", "-traditional"], ["-alpha", "0.2"],
    ["-alpha", "1"], ["-alpha", "0"], ["-beta", "0.9"], ["-beta", "0"], ["-beta", "1"], ["-alpha", "0", "-beta", "1"],
    ["-alpha", "0.75", "-beta", "0.25", "-c"], ["-c", "-traditional", "-M", "3"], ["-a"], ["-ca"], ["-ac"],
    ["-riskAlpha", "2"], ["-alpha", "0.3x"], ["-alpha", "x"], ["-M", "4abc"], ["-", "-c"], ["-traditional", "-M", "2"],
]  # fmt: skip
# option lines ndeval refuses (its usage line) or answers alone (-help, -version)
REFUSED_OPTIONS: list[list[str]] = [
    ["-alpha", "1.5"], ["-alpha", "-0.1"], ["-beta", "2"], ["-M", "0"], ["-M", "-3"], ["-M", "x"], ["-x"], ["-cx"],
    ["-riskAlpha", "-1"], ["-help"], ["-version"],
]  # fmt: skip


def _doc_pool(rng: random.Random) -> list[str]:
    """Document ids whose byte order differs from their numeric order and case order."""
    names = ["d", "D", "doc-", "clueweb09-en0000-", "a_", "Z"]
    return [f"{rng.choice(names)}{rng.randint(0, 60)}" for _ in range(rng.randint(5, 45))]


def _topic_text(rng: random.Random, topic: int) -> str:
    """A run's topic field: the number, zero-padded, or after a task prefix ("wt09-12")."""
    return rng.choice([str(topic), str(topic), str(topic), f"wt09-{topic}", f"{topic:03d}", f"q-{topic}"])


def draw_input(rng: random.Random) -> tuple[str, str]:
    """A random subtopic qrels text and run text: a few topics, some in one file only, repeated qrels lines, grades
    above 1, documents judged 0 for every subtopic, ties of score, gaps in ranks, rankings shorter and longer than
    ndeval's depth of 20."""
    topics = rng.sample([1, 2, 3, 5, 8, 13, 21, 100, 1000009], rng.randint(1, 5))
    qrels, run = [], []
    run_id = rng.choice(["run1", "my.run", "UWat-x"])
    for topic in topics:
        pool = _doc_pool(rng)
        if rng.random() < 0.85:  # a topic judged
            subtopics = rng.sample(range(0, 9), rng.randint(1, 6))
            for doc in rng.sample(pool, rng.randint(1, len(pool))):
                for subtopic in rng.sample(subtopics, rng.randint(1, len(subtopics))):
                    judgment = rng.choice([0, 0, 1, 1, 1, 2, 3]) if rng.random() < 0.9 else 0
                    qrels.append(f"{topic} {subtopic} {doc} {judgment}")
                    if rng.random() < 0.03:  # a repeated (subtopic, doc): ndeval counts both lines
                        qrels.append(f"{topic} {subtopic} {doc} {rng.choice([0, 1])}")
        if rng.random() < 0.85:  # a topic retrieved
            docs = rng.sample(pool + [f"unjudged{i}" for i in range(10)], rng.randint(1, min(30, len(set(pool)))))
            docs = list(dict.fromkeys(docs))
            ranks = rng.sample(range(0, 3 * len(docs) + 1), len(docs))
            scores = [round(rng.uniform(0, 5), rng.choice([0, 1, 3])) for _ in docs]
            text = _topic_text(rng, topic)
            for doc, rank, score in zip(docs, ranks, scores, strict=True):
                run.append(f"{text} Q0 {doc} {rank} {score} {run_id}")
    rng.shuffle(qrels)
    rng.shuffle(run)
    if not qrels:
        qrels.append(f"{topics[0]} 1 d0 1")
    if not run:
        run.append(f"{topics[0]} Q0 d0 1 1.0 {run_id}")
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


QRELS = "1 1 d1 1\n1 2 d2 1\n1 2 d1 0\n2 1 x 0\n3 0 a 1\n"
RUN = "1 Q0 d1 1 3 r\n1 Q0 d3 2 2 r\n2 Q0 x 1 1 r\n4 Q0 z 1 1 r\n"
# (qrels, run, option sets): the edges of ndeval's readers and its defects, each scored as the binary scores it
EDGES: list[tuple[str, str, list[list[str]]]] = [
    (QRELS, RUN, [[], ["-c"], *REFUSED_OPTIONS]),
    (QRELS, "5 Q0 z 1 1 r\n", [[], ["-c"]]),  # no topic in both files: amean 0 / 0
    ("1 1 d1 0\n", "1 Q0 d1 1 1 r\n", [[]]),  # no relevant subtopic: nNRBP 0 / 0
    ("1 1 d1 1\n1 1 d1 0\n1 2 d2 1\n", RUN, [[]]),  # a pair judged twice: the last line decides
    ("1 1 d1 0\n1 1 d1 1\n1 2 d2 1\n", RUN, [[]]),
    ("1 1 d1 1\n1 1 d1 1\n1 2 d2 1\n", "1 Q0 d1 1 1 r\n1 Q0 d2 2 1 r\n", [[]]),  # counted twice by MAP-IA
    ("1 1 d1 1\r\n1 2 d2 1\t extra fields\n", "1\tQ0\td2\t1\t1\tr\textra\r\n1 Q0 d1 2 1 r", [[]]),
    ("1 1 d1 1\n1 2 d2 1\n", "abc 1 d2 1 1 r\n", [[]]),  # no "-": ndeval reads the next field as the topic
    ("1 1 d1 1\n1 2 d2 1\n", "abc  1 d2 1 1 r\n", [[]]),  # ... unless two characters separate them: refused
    ("1 1 d1 1\n", "abc Q0 d1 1 1 r\n", [[]]),
    ("1 1 d1 1\n", "-1 Q0 d1 1 1 r\n", [[]]),  # "-1": the topic after the "-"
    ("1 1 d1 1\n", "1- Q0 d1 1 1 r\n", [[]]),
    ("1 1 d1 1\n", "x-y-1 Q0 d1 1 1 r\n", [[]]),
    ("1000009 1 d1 1\n", "1000009 Q0 d1 1 1 r\n", [[]]),  # the largest number ndeval reads
    ("1000010 1 d1 1\n", "1 Q0 d1 1 1 r\n", [[]]),
    ("1 1 d1 1\n", "1 Q0 d1 1000010 1 r\n", [[]]),
    ("1 1 d1 -1\n", RUN, [[]]),
    ("1 1 d1 1.0\n", RUN, [[]]),
    ("1 x d1 1\n", RUN, [[]]),
    ("1 1 d1\n", RUN, [[]]),
    ("1 1 d1 1\n\n", RUN, [[]]),
    ("", RUN, [[]]),
    (QRELS, "", [[]]),
    (QRELS, "1 Q0 d1 1 3\n", [[]]),
    (QRELS, "1 Q0 d1 -1 3 r\n", [[]]),
    (QRELS, "1 Q0 d1 1 3 r\n1 Q0 d2 1 2 r\n", [[], ["-traditional"]]),  # a repeated rank
    (QRELS, "1 Q0 d1 1 3 r\n1 Q0 d1 2 2 r\n", [[], ["-M", "1"], ["-traditional"]]),  # a repeated docno, cut or not
    (QRELS, "2 Q0 b 1 3 r\n2 Q0 b 2 2 r\n1 Q0 a 5 1 r\n1 Q0 a 5 1 r\n", [[]]),
    (QRELS, "1 Q0 d1 0 1 r\n1 Q0 d2 7 1 r\n1 Q0 d3 3 1e1 r\n", [[], ["-traditional"]]),
    (QRELS, "1 Q0 d1 1 0x1p3 r\n1 Q0 d2 2 inf r\n1 Q0 d3 3 3.5abc r\n", [["-traditional"]]),
    (QRELS, "1 Q0 d1 1 -0 r\n1 Q0 d2 2 0 r\n1 Q0 d3 3 -1e-320 r\n", [["-traditional"]]),
]


def score(binary: str, args: list[str], qrels: str, run: str, folder: Path) -> dict:
    """The binary's exit status, stdout and stderr on these texts."""
    (folder / "qrels").write_bytes(qrels.encode())
    (folder / "run").write_bytes(run.encode())
    done = subprocess.run([binary, *args, "qrels", "run"], cwd=folder, capture_output=True, timeout=60)
    return {"rc": done.returncode, "stdout": done.stdout.decode(), "stderr": done.stderr.decode()}


def records(binary: str, seed: int, inputs: int) -> list[dict]:
    rng = random.Random(seed)
    drawn = [(*draw_input(rng), rng.sample(OPTION_SETS, 3)) for _ in range(inputs)]
    found: list[dict] = []
    with tempfile.TemporaryDirectory() as folder:
        for number, (qrels, run, option_sets) in enumerate(EDGES + drawn):
            found.append({"kind": "input", "id": number, "qrels": qrels, "run": run})
            for args in option_sets:
                found.append(
                    {"kind": "case", "input": number, "args": args, **score(binary, args, qrels, run, Path(folder))}
                )
    return found


README_EXAMPLE = ROOT / "tests" / "data" / "ndeval45" / "trec2012"
README_ARGS = [["-c", "-traditional"], []]  # the README's command, and ndeval's defaults


def readme_example(binary: str, qrels: Path, run: Path) -> None:
    README_EXAMPLE.mkdir(parents=True, exist_ok=True)
    for source, name in ((qrels, "qrels-for-ndeval.txt.gz"), (run, "results-cata-filtered.txt.gz")):
        with gzip.GzipFile(README_EXAMPLE / name, "wb", mtime=0) as out:
            out.write(source.read_bytes())
    outputs = []
    for args in README_ARGS:
        done = subprocess.run([binary, *args, str(qrels), str(run)], capture_output=True, check=True, timeout=600)
        outputs.append({"args": args, "stdout": done.stdout.decode()})
    (README_EXAMPLE / "outputs.json").write_text(json.dumps(outputs, indent=1) + "\n")
    print(f"{README_EXAMPLE.relative_to(ROOT)}: {len(outputs)} outputs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", help="an ndeval 4.5 binary")
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--inputs", type=int, default=150, help="random inputs (default 150)")
    parser.add_argument("--readme-example", nargs=2, metavar=("QRELS", "RUN"), type=Path, help="TREC 2012's files")
    options = parser.parse_args()
    if options.readme_example:
        readme_example(options.binary, *options.readme_example)
        return
    found = records(options.binary, options.seed, options.inputs)
    cases = sum(1 for r in found if r["kind"] == "case")
    meta = {
        "kind": "meta",
        "ndeval": "4.5",
        "seed": options.seed,
        "cases": cases,
        "made_by": "scripts/make_ndeval_corpus.py",
    }
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(CORPUS, "wb", mtime=0) as out:
        for record in [meta, *found]:
            out.write((json.dumps(record, sort_keys=True) + "\n").encode())
    print(f"{CORPUS.relative_to(ROOT)}: {cases} cases")


if __name__ == "__main__":
    main()

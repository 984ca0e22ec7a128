"""Whole-process benchmark: our CLI vs pytrec_eval vs ranx, reading TREC files and scoring per query.

    python -m bench.generate                                # once: bench/data/
    python -m bench.library.compare_tools                   # msmarco-like, dl-like, scaling; default reps
    python -m bench.library.compare_tools --datasets dl --reps 3
    python -m bench.library.compare_tools --quick           # smoke run: small files, 2 reps
    python -m bench.library.compare_tools --tools ours,trec_eval --trec-eval-src PATH/TO/trec_eval/src  # vs -O2

Each measurement is a fresh interpreter (subprocess) that reads qrels + run and writes NDCG@10, AP, RR@10, R@100 and
P@10 per query to bench/out/. Wall time is taken around the child; peak memory is the child's max RSS from
/usr/bin/time (getrusage of a launcher when it is missing). Tools run interleaved (A, B, C, A, B, C, ...) so machine
noise hits all of them; ratios are medians of the per-repetition pairs. Once per dataset, our per-query values are
checked against pytrec_eval's (and ranx's): a benchmark whose outputs disagree would be worthless. Our timed
command is the plain text one (4 decimals), so the check reruns it once, untimed, with --format json (full
precision).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.paths import DATA, OUT, REPO

PY = sys.executable
MEASURES = ("NDCG@10", "AP", "RR@10", "R@100", "P@10")
TIME = shutil.which("time") and Path("/usr/bin/time").exists()
TREC_EVAL: list[Path] = []  # the trec_eval binary built with -O2 at bench time (build_trec_eval)

# name -> (qrels, run, default reps); the scaling family reuses the msmarco-like file as its ~7M point.
DATASETS = {
    "msmarco": ("msmarco", 3),
    "dl": ("dl", 5),
}
SCALE = (("10k", "scale-10k", 5), ("100k", "scale-100k", 5), ("1M", "scale-1M", 5), ("7M", "msmarco", 3))
QUICK_SCALE = SCALE[:2]


def files(stem: str) -> tuple[Path, Path]:
    return DATA / f"{stem}.qrels", DATA / f"{stem}.run"


def command(tool: str, qrels: Path, run: Path, out: Path) -> tuple[list[str], Path | None]:
    """The argv, and where stdout goes (our CLI prints to stdout; the reference scripts take an output path)."""
    if tool == "ours":
        args = [PY, "-m", "metrics", str(qrels), str(run), "-q"]
        for m in MEASURES:
            args += ["-m", m]
        return args, out
    if tool == "pytrec_eval":
        return [PY, str(Path(__file__).with_name("reference_pytrec_eval.py")), str(qrels), str(run), str(out)], None
    if tool == "trec_eval":  # its recip_rank has no cutoff: RR over the whole list, where the others take RR@10
        args = [str(TREC_EVAL[0]), "-q", "-m", "ndcg_cut.10", "-m", "map", "-m", "recip_rank", "-m", "recall.100"]
        return [*args, "-m", "P.10", str(qrels), str(run)], out
    if tool == "ranx":
        return [PY, str(Path(__file__).with_name("reference_ranx.py")), str(qrels), str(run), str(out)], None
    if tool == "read-floor":  # parse the run's three useful columns with pyarrow.csv and stop: the I/O + parse floor
        code = (
            "import sys, pyarrow as pa, pyarrow.csv as c;"
            "c.read_csv(sys.argv[1], c.ReadOptions(column_names=list('abcdef'), block_size=1 << 22),"
            " c.ParseOptions(delimiter=' ', quote_char=False), c.ConvertOptions(include_columns=list('ace'),"
            " column_types={'a': pa.string(), 'c': pa.string(), 'e': pa.float64()}))"
        )
        return [PY, "-c", code, str(run)], None
    if tool == "floor":  # interpreter + the imports any columnar reader needs; the cost below which nothing goes
        return [PY, "-c", "import numpy, pyarrow.csv"], None
    raise ValueError(tool)


@dataclass
class Sample:
    wall: float
    peak_mib: float
    cpu: float = math.nan  # user + sys seconds of the child: less sensitive than wall to other load on the machine


@dataclass
class Result:
    dataset: str
    rows: int
    samples: dict[str, list[Sample]] = field(default_factory=dict)
    agreement: dict[str, object] = field(default_factory=dict)


def measure(argv: list[str], stdout: Path | None) -> Sample:
    """Run one child to completion; wall clock around it, peak RSS of the child alone."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        if TIME:
            full = ["/usr/bin/time", "-f", "%e %M %U %S", "-o", tf.name, *argv]
        else:  # a launcher whose only child is the tool, so RUSAGE_CHILDREN is the tool's peak
            launcher = (
                "import resource, subprocess, sys; r = subprocess.run(sys.argv[2:]).returncode;"
                "open(sys.argv[1], 'w').write('0 %d' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
                "sys.exit(r)"
            )
            full = [PY, "-c", launcher, tf.name, *argv]
        out = open(stdout, "w") if stdout else subprocess.DEVNULL  # noqa: SIM115 - closed below
        try:
            t0 = time.perf_counter()
            proc = subprocess.run(full, stdout=out, stderr=subprocess.PIPE, cwd=REPO, text=True)
            wall = time.perf_counter() - t0
        finally:
            if stdout:
                out.close()
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        fields = Path(tf.name).read_text().strip().splitlines()[-1].split()
        cpu = float(fields[2]) + float(fields[3]) if len(fields) >= 4 else math.nan
        return Sample(wall, int(fields[1]) / 1024, cpu)


def count_rows(path: Path) -> int:
    n = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            n += chunk.count(b"\n")
    return n


# ---------------------------------------------------------------- agreement

_ALIASES = {
    "ndcg@10": "NDCG@10", "ndcg_cut_10": "NDCG@10", "ndcg_cut.10": "NDCG@10",
    "ap": "AP", "map": "AP",
    "rr@10": "RR@10", "mrr@10": "RR@10", "recip_rank@10": "RR@10",
    "r@100": "R@100", "recall@100": "R@100", "recall_100": "R@100",
    "p@10": "P@10", "precision@10": "P@10", "p_10": "P@10",
}  # fmt: skip


def parse_per_query(path: Path) -> dict[tuple[str, str], float]:
    """(measure, qid) -> value from either `measure qid value` lines (trec_eval -q style, any whitespace, tolerant of
    column order) or a wide table with a header naming qid and measure columns (TSV/CSV)."""
    text = path.read_text()
    if text.lstrip().startswith("{"):  # our --format json: {"all": {m: v}, "queries": {q: {m: v}}}
        doc = json.loads(text)
        rows = {**doc.get("queries", {}), "all": doc.get("all", {})}
        return {
            (_ALIASES[m.lower()], q): float(v) for q, vs in rows.items() for m, v in vs.items() if m.lower() in _ALIASES
        }
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if not lines:
        return {}
    sep = "," if "," in lines[0] and "\t" not in lines[0] else None
    header = [h.strip() for h in lines[0].split(sep)]
    known = [_ALIASES.get(h.lower()) for h in header]
    out: dict[tuple[str, str], float] = {}
    if sum(k is not None for k in known) >= 2:  # wide
        qcol = next(i for i, h in enumerate(header) if h.lower() in ("qid", "query", "query_id"))
        for ln in lines[1:]:
            cells = [c.strip() for c in ln.split(sep)]
            for i, name in enumerate(known):
                if name:
                    out[(name, cells[qcol])] = float(cells[i])
        return out
    for ln in lines:
        cells = ln.split(sep)
        if len(cells) != 3:
            continue
        names = [i for i, c in enumerate(cells) if c.strip().lower() in _ALIASES]
        if not names:
            continue
        m = names[0]
        rest = [c.strip() for i, c in enumerate(cells) if i != m]
        try:  # value is the last column in trec_eval's layout; accept qid-last too
            value, qid = float(rest[1]), rest[0]
        except ValueError:
            value, qid = float(rest[0]), rest[1]
        out[(_ALIASES[cells[m].strip().lower()], qid)] = value
    return out


def compare(a: Path, b: Path) -> dict[str, object]:
    """Max |a - b| per measure over the (measure, qid) both report, the mean rows ('all') included."""
    va, vb = parse_per_query(a), parse_per_query(b)
    common = va.keys() & vb.keys()
    per_measure: dict[str, float] = {}
    for key in common:
        per_measure[key[0]] = max(per_measure.get(key[0], 0.0), abs(va[key] - vb[key]))
    worst = max(common, key=lambda k: abs(va[k] - vb[k]), default=None)
    return {
        "compared": len(common),
        "only_first": len(va.keys() - vb.keys()),
        "only_second": len(vb.keys() - va.keys()),
        "max_abs_diff": max(per_measure.values(), default=math.nan),
        "per_measure": per_measure,
        "worst": None if worst is None else [*worst, va[worst], vb[worst]],
    }


# ---------------------------------------------------------------- running


def build_trec_eval(source: Path) -> Path:
    """trec_eval 10.0 from its unmodified sources, built with -O2 in a temporary folder (never committed)."""
    folder = Path(tempfile.mkdtemp(prefix="trec_eval_O2_")) / "src"
    shutil.copytree(source, folder)
    flags = '-O2 -I. -Wall -Wno-unused-but-set-variable -DVERSIONID=\\"10.0\\"'
    subprocess.run(["make", "-s", "-C", str(folder), f"CFLAGS={flags}", "trec_eval"], check=True, capture_output=True)
    return folder / "trec_eval"


def available(tools: list[str]) -> list[str]:
    ok = []
    for tool in tools:
        if tool == "trec_eval":
            if TREC_EVAL:
                ok.append(tool)
            else:
                print("note: trec_eval needs --trec-eval-src; skipped", file=sys.stderr)
            continue
        probe = {
            "ours": [PY, "-m", "metrics", "--help"],
            "pytrec_eval": [PY, "-c", "import pytrec_eval"],
            "ranx": [PY, "-c", "import ranx"],
            "read-floor": [PY, "-c", "import pyarrow.csv"],
        }[tool]
        if subprocess.run(probe, cwd=REPO, capture_output=True).returncode == 0:
            ok.append(tool)
        else:
            print(f"note: {tool} is not available; skipped", file=sys.stderr)
    return ok


def warm_ranx() -> None:
    """ranx's numba kernels compile on first use (~40 s) and are cached on disk; pay that once, untimed."""
    qrels, run = files("scale-10k")
    t0 = time.perf_counter()
    argv, _ = command("ranx", qrels, run, OUT / "ranx-warmup.tsv")
    subprocess.run(argv, cwd=REPO, capture_output=True, check=True)
    print(f"ranx warm-up (untimed, fills numba's cache): {time.perf_counter() - t0:.1f} s", file=sys.stderr)


def bench(name: str, stem: str, tools: list[str], reps: int) -> Result:
    qrels, run = files(stem)
    result = Result(name, count_rows(run), {t: [] for t in tools})
    outs = {t: OUT / f"{name}.{t}.tsv" for t in tools}
    for rep in range(reps):
        for tool in tools:
            argv, stdout = command(tool, qrels, run, outs[tool])
            s = measure(argv, stdout)
            result.samples[tool].append(s)
            print(
                f"  {name} rep {rep + 1}/{reps} {tool:12s} {s.wall:7.3f} s {s.peak_mib:7.0f} MiB  cpu {s.cpu:6.2f} s",
                file=sys.stderr,
            )
        if rep == 0 and "pytrec_eval" in tools:
            for other in tools:
                if other == "ours":  # text prints 4 decimals; check the full-precision json of the same run
                    argv, _ = command("ours", qrels, run, outs["ours"])
                    exact = OUT / f"{name}.ours.json"
                    with open(exact, "w") as f:
                        subprocess.run([*argv, "--format", "json"], stdout=f, cwd=REPO, check=True)
                    result.agreement[other] = compare(exact, outs["pytrec_eval"])
                elif other not in ("pytrec_eval", "floor", "read-floor"):
                    result.agreement[other] = compare(outs[other], outs["pytrec_eval"])
    return result


def median(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


def paired_ratio(result: Result, a: str, b: str, attr: str) -> float:
    pairs = zip(result.samples.get(a, []), result.samples.get(b, []), strict=False)
    return median([getattr(x, attr) / getattr(y, attr) for x, y in pairs])


def tools_table(results: list[Result]) -> str:
    rows = [
        "| dataset | run rows | tool | wall median (s) | peak RSS median (MiB) | CPU median (s) | ours/tool time "
        "| ours/tool memory | ours/tool CPU |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        for tool, samples in r.samples.items():
            if tool == "ours" or "ours" not in r.samples:
                ratio_t = ratio_m = ratio_c = "—"
            else:
                ratio_t = f"{paired_ratio(r, 'ours', tool, 'wall'):.3f}x"
                ratio_m = f"{paired_ratio(r, 'ours', tool, 'peak_mib'):.3f}x"
                ratio_c = f"{paired_ratio(r, 'ours', tool, 'cpu'):.3f}x"
            wall = median([s.wall for s in samples])
            peak = median([s.peak_mib for s in samples])
            cpu = median([s.cpu for s in samples])
            rows.append(
                f"| {r.dataset} | {r.rows:,} | {tool} (n={len(samples)}) | {wall:.3f} | {peak:.0f} | {cpu:.2f} "
                f"| {ratio_t} | {ratio_m} | {ratio_c} |"
            )
    return "\n".join(rows)


def agreement_lines(results: list[Result]) -> str:
    lines = []
    for r in results:
        for tool, a in r.agreement.items():
            per = ", ".join(f"{m} {d:.1e}" for m, d in sorted(a["per_measure"].items()))
            verdict = "OK" if a["compared"] and a["max_abs_diff"] <= 1e-9 else "DISAGREE"
            lines.append(
                f"- {r.dataset}: {tool} vs pytrec_eval, {a['compared']:,} (measure, query) values compared, "
                f"max |diff| {a['max_abs_diff']:.2e} [{verdict}] ({per}); only in {tool}: {a['only_first']}, "
                f"only in pytrec_eval: {a['only_second']}"
                + ("" if verdict == "OK" or not a["worst"] else f"; worst {a['worst']}")
            )
    return "\n".join(lines)


def scaling_table(points: list[Result], floor: Result | None) -> str:
    rows = [
        "| size | run rows | ours wall median (s) | ours peak RSS median (MiB) | ours CPU median (s) | wall ns per row "
        "| marginal wall ns per row | marginal CPU ns per row |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    if floor is not None:
        f = floor.samples["floor"]
        rows.append(
            f"| floor: `python -c 'import numpy, pyarrow.csv'` (n={len(f)}) | 0 | {median([s.wall for s in f]):.3f} "
            f"| {median([s.peak_mib for s in f]):.0f} | {median([s.cpu for s in f]):.2f} | — | — | — |"
        )
    prev = None
    for p in points:
        s = p.samples["ours"]
        wall, peak = median([x.wall for x in s]), median([x.peak_mib for x in s])
        cpu = median([x.cpu for x in s])
        if prev is None:
            marginal = marginal_cpu = "—"
        else:  # cost of the extra rows since the previous size: flat when cost is linear
            marginal = f"{(wall - prev[1]) / (p.rows - prev[0]) * 1e9:.0f}"
            marginal_cpu = f"{(cpu - prev[2]) / (p.rows - prev[0]) * 1e9:.0f}"
        rows.append(
            f"| {p.dataset} (n={len(s)}) | {p.rows:,} | {wall:.3f} | {peak:.0f} | {cpu:.2f} | "
            f"{wall / p.rows * 1e9:,.0f} | {marginal} | {marginal_cpu} |"
        )
        prev = (p.rows, wall, cpu)
    return "\n".join(rows)


def compile_ours() -> None:
    """Write the bytecode of metrics/, as pip does for an installed package (pytrec_eval's and ranx's modules have
    theirs). An editable install run with PYTHONDONTWRITEBYTECODE set would otherwise compile every module of
    metrics/ in every timed process: about 20 ms of each run."""
    import compileall

    compileall.compile_dir(REPO / "metrics", quiet=1)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default="msmarco,dl,scale", help="comma list of msmarco, dl, scale")
    ap.add_argument("--reps", type=int, help="repetitions per tool (default: 5 small, 3 at ~7M rows)")
    ap.add_argument(
        "--tools",
        default="ours,pytrec_eval,ranx,read-floor",
        help="read-floor: a process that only parses the run with pyarrow.csv (the floor for ours)",
    )
    ap.add_argument("--quick", action="store_true", help="smoke run: dl-like + the 10k/100k scale points, 2 reps")
    ap.add_argument("--trec-eval-src", type=Path, help="trec_eval 10.0's src/: built here with -O2 (tool trec_eval)")
    args = ap.parse_args(argv)
    if args.trec_eval_src:
        TREC_EVAL.append(build_trec_eval(args.trec_eval_src))
    OUT.mkdir(parents=True, exist_ok=True)
    wanted = args.datasets.split(",")
    if args.quick:
        wanted = [d for d in wanted if d != "msmarco"]
    reps = args.reps or (2 if args.quick else None)
    scale = QUICK_SCALE if args.quick else SCALE
    stems = [DATASETS[d][0] for d in wanted if d in DATASETS] + ([s for _, s, _ in scale] if "scale" in wanted else [])
    missing = [s for s in stems if not all(p.exists() for p in files(s))]
    if missing:
        sys.exit(f"missing {missing} in {DATA}: run `python -m bench.generate` first")
    tools = available(args.tools.split(","))
    if "ours" in tools:
        compile_ours()
    if "ranx" in tools:
        warm_ranx()

    results: list[Result] = []
    for d in wanted:
        if d in DATASETS:
            stem, default_reps = DATASETS[d]
            print(f"{d}-like ({stem}.run)", file=sys.stderr)
            results.append(bench(f"{d}-like", stem, tools, reps or default_reps))

    points: list[Result] = []
    floor = None
    if "scale" in wanted and "ours" in tools:
        floor = bench("floor", "scale-10k", ["floor"], reps or 5)
        for label, stem, default_reps in scale:
            reuse = next((r for r in results if r.dataset == "msmarco-like"), None) if stem == "msmarco" else None
            if reuse is not None:  # the ~7M point was just timed interleaved with the others
                points.append(Result(label, reuse.rows, {"ours": reuse.samples["ours"]}))
                continue
            print(f"scale {label} ({stem}.run)", file=sys.stderr)
            points.append(bench(label, stem, ["ours"], reps or default_reps))

    print(
        f"\nMachine: {os.cpu_count()} CPUs; Python {sys.version.split()[0]}; "
        f"peak memory from {'/usr/bin/time %M' if TIME else 'getrusage(RUSAGE_CHILDREN)'}; "
        f"ratios = median of interleaved per-repetition pairs.\n"
    )
    if results:
        print(tools_table(results))
        print("\nAgreement with pytrec_eval (per query and means, measures both compute):\n")
        print(agreement_lines(results) or "- (pytrec_eval or the other tools not run)")
    if points:
        print("\nScaling (ours):\n")
        print(scaling_table(points, floor))
    dump = {
        "results": [
            r.__dict__ | {"samples": {t: [s.__dict__ for s in v] for t, v in r.samples.items()}}
            for r in [*results, *points, *([floor] if floor else [])]
        ],
    }
    (OUT / "results.json").write_text(json.dumps(dump, indent=1, default=str))


if __name__ == "__main__":
    main()

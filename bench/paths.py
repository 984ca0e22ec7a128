"""Where the benchmarks' files are: the repository they run from, the generated inputs (bench/data/) and what they
write (bench/out/); both are .gitignore'd."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench" / "data"  # bench.generate writes the synthetic runs and qrels here
OUT = REPO / "bench" / "out"

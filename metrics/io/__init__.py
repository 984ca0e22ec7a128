"""Readers for TREC runs and qrels (also .gz, CSV/TSV with a header, DataFrames and dicts), with errors that
name the file, the line and the problem.

A fast path parses with pyarrow; only when it fails do we scan line by line, to find and describe the first
bad line. pandas is never imported here unless the input already is a DataFrame or a dict.

One module, one job:

=============== ================================================================================================
readers.py      ``read_run`` / ``read_qrels``: the entry points, whatever the source
model.py        the ``Run`` and ``Qrels`` objects they return
rules.py        what a value must be (ids, scores, grades) and ``InputError``: one statement for both paths
sources.py      byte sources (a path or bytes), gzip decided by content, the lines of the slow path
layout.py       layout sniffing: TREC columns or a CSV/TSV header
fast.py         the pyarrow fast path (and whitespace squeezing)
scan.py         the line-by-line scanner that describes the first bad line
frames.py       DataFrame and dict input
parquet.py      Parquet files and datasets in (pyarrow.dataset), a run written partitioned by query, hash spills
stream.py       a run read a piece at a time, regrouped into blocks of whole queries (metrics.evaluation.streaming)
order.py        trec_eval's order: grouping, score ties (as doubles), doc ids descending
duplicates.py   a doc given twice for a query, a judgment given twice
parallel.py     the threading helper (two halves on two cores)
arrays.py       Arrow <-> numpy helpers (metrics.evaluation.engine uses them too)
hashing.py      string fingerprints and doc hashes with numpy
=============== ================================================================================================
"""

from metrics.io.hashing import doc_hash, fingerprint, pair_key
from metrics.io.layout import ALIASES, QRELS_COLUMNS, RUN_COLUMNS
from metrics.io.model import Qrels, Run
from metrics.io.readers import read_qrels, read_run
from metrics.io.rules import MAPPING_ADVICE, MAX_GRADE, MAX_ID_BYTES, InputError, quoted

__all__ = [
    "ALIASES",
    "MAPPING_ADVICE",
    "MAX_GRADE",
    "MAX_ID_BYTES",
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "InputError",
    "Qrels",
    "Run",
    "doc_hash",
    "fingerprint",
    "pair_key",
    "quoted",
    "read_qrels",
    "read_run",
]

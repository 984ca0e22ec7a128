"""Readers for TREC runs and qrels (also .gz, CSV/TSV with a header, DataFrames and dicts), with errors that
name the file, the line and the problem.

A fast path parses with pyarrow; only when it fails do we scan line by line, to find and describe the first
bad line. pandas is never imported here unless the input already is a DataFrame or a dict.

One module, one job; three sub-packages group the readers of text files, those of columnar input, and the array
helpers every reader and the engine share:

======================= ========================================================================================
readers.py              ``read_run`` / ``read_qrels``: the entry points, whatever the source
model.py                the ``Run`` and ``Qrels`` objects they return
rules.py                what a value must be (ids, scores, grades), each refusal with its error code (``InputError``,
                        metrics.core.errors): one statement for both paths
order.py                trec_eval's order: grouping, score ties (as doubles), doc ids descending
duplicates.py           a doc given twice for a query, a judgment given twice
subtopic_qrels.py       ndeval 4.5's subtopic qrels (``topic subtopic docno judgment``), read as ndeval reads them
ndeval_run.py           a run as ndeval 4.5 reads, orders, checks and cuts it (ir-ndeval)
text/sources.py         byte sources (a path or bytes), gzip decided by content, the lines of the slow path
text/layout.py          layout sniffing: TREC columns or a CSV/TSV header
text/fast.py            the pyarrow fast path (and whitespace squeezing)
text/scan.py            the line-by-line scanner that describes the first bad line
text/stream.py          a run read a piece at a time, regrouped into blocks of whole queries
                        (metrics.evaluation.streaming)
text/plain.py           a small, plain TREC file read in plain Python, no pyarrow (the CLI's small runs)
text/run_tag.py         the run's tag (trec_eval's runid)
text/fields.py          the other files trec_eval reads, a fixed number of fields per line (-Z, -R)
columnar/frames.py      DataFrame and dict input
columnar/parquet.py     Parquet files and datasets in (pyarrow.dataset), a run written partitioned by query, hash
                        spills
arrays/conversions.py   Arrow <-> numpy helpers (metrics.evaluation.engine uses them too)
arrays/hashing.py       string fingerprints and doc hashes with numpy
arrays/parallel.py      the threading helper (two halves on two cores)
======================= ========================================================================================
"""

from typing import TYPE_CHECKING

from metrics.io.rules import MAPPING_ADVICE, MAX_GRADE, MAX_ID_BYTES, InputError, quoted
from metrics.io.text.layout import ALIASES, QRELS_COLUMNS, RUN_COLUMNS

if TYPE_CHECKING:
    from metrics.io.arrays.hashing import doc_hash, fingerprint, pair_key
    from metrics.io.model import Qrels, Run
    from metrics.io.readers import read_qrels, read_run

# Imported on first use (PEP 562): they load pyarrow, which a small file read in plain Python (text/plain.py) never
# needs.
_LAZY = {
    "doc_hash": "arrays.hashing",
    "fingerprint": "arrays.hashing",
    "pair_key": "arrays.hashing",
    "Qrels": "model",
    "Run": "model",
    "read_qrels": "readers",
    "read_run": "readers",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


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

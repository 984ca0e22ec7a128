"""Runs and qrels as text files: TREC columns or CSV/TSV with a header, gzip'd or not, read whole (pyarrow's fast
path, the line scanner naming the first bad line), a piece at a time (stream), or in plain Python when small (plain);
and the other files of fixed fields trec_eval reads (-Z, -R)."""

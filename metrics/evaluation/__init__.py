"""Whole runs scored: the vectorized engine, means over queries, and the same numbers for runs of any size (streamed in
blocks, or on a Dask cluster)."""

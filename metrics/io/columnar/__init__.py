"""Runs and qrels as columnar input: DataFrames (pandas, polars) and dicts already in memory, and Parquet files and
datasets; a run written to Parquet, partitioned by query."""

"""The library's benchmarks: the command line and the engine against trec_eval, pytrec_eval and ranx (time, memory,
agreement), trec_eval's whole catalog, the run shapes, the leaderboard, one ranking, large runs (streamed, Parquet,
Dask)."""

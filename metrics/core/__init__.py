"""The objects and rules every measure is built on: rankings and judgments, the Breakdown a readable function returns,
the convention switches, input checks, and the prepared arrays the engine's kernels read."""

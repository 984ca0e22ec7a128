"""The objects and rules every measure is built on: rankings and judgments, the Breakdown a readable function returns,
the convention switches, input checks, the error every refusal of bad input raises and its codes (errors.py,
error_codes.py), and the prepared arrays the engine's kernels read."""

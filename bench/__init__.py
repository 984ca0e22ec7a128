"""Benchmarks, not tests: the library against the reference tools, the app's speed, a class on one server. Run from
the repository root as modules (``python -m bench.NAME``); bench/README.md lists them. Not installed with the
package."""

"""The project's own scripts (sample data, reference records, the README's tables, the notebooks, serving a class),
run from the repository root as modules, ``python -m scripts.NAME``, and imported by the tests and the benchmarks.
Not installed with the package."""

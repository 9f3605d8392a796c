"""Harnesses shared by the tests (`tests/`) and the benchmarks (`bench/`), so a benchmark never
imports a test module. Like `tests/` and `bench/`, not part of the installed product."""

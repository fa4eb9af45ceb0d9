"""Benchmarks: `python bench/run.py` (see docs/benchmarks.md)."""

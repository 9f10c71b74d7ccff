"""Benchmarks: scripts that print figures (never tests). Run with `make bench`."""

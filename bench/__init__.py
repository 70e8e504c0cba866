"""Benchmarks, runnable with one command each, printing ratios."""

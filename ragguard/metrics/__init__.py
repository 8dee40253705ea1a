"""Metrics on the live path (per-trace aggregates), run summaries, and evaluator-vs-human
agreement for the benchmarks and head training. Reference-based (golden-set) metrics live in
``ragguard.goldsets``."""

"""Metrics: per-trace live aggregates and evaluator-vs-human agreement."""

"""Batch runners for the command line: several local processes, or a Ray cluster."""

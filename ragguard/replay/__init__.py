"""``ragguard replay``: re-evaluate a trace log with another config, diff the verdicts
against those logged live, and write a self-contained HTML report."""

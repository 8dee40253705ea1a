"""Process plumbing every layer above may use: caches, exit and fork hooks, sampling,
timing, live counters, the JSONL reader."""

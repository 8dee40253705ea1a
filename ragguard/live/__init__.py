"""What runs beside a live pipeline: the Monitor (sampling, background or guard evaluation,
the guard's action), the shared models, the bounded worker queue, the evaluation child
process, and the counters (``stats``). Framework front ends (``ragguard.adapters``) capture
requests and hand them to a Monitor; they never evaluate.

This package's ``__init__`` imports nothing, so the exporters can read ``live.stats`` (a
leaf) without loading the runtime."""

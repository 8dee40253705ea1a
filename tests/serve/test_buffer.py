"""The trace buffer's byte bound: span bytes held, waiting and kept traces together, never
pass ``max_bytes``; kept (evaluated) traces go first, then the oldest waiting ones
(counted); the gauges read what is really held."""

from __future__ import annotations

from ragguard.serve.buffer import BufferSettings, TraceBuffer
from tests.support.serve_fixtures import span

MB = 1_000_000


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


def big(trace: int, *, root: bool = False, size: int = 2 * MB):
    trace_id = f"{trace:032x}"
    parent = None if root else "f" * 16
    return span("a" * 16, parent, {"input.value": "x" * size}, start=1, end=2, trace_id=trace_id)


def test_span_bytes_are_bounded_and_kept_traces_go_first() -> None:
    clock = Clock()
    buffer = TraceBuffer(BufferSettings(max_bytes=5 * MB, grace_s=1.0), clock)
    buffer.add([big(1, root=True), big(2, root=True)])
    assert buffer.held_bytes > 4 * MB and buffer.held_traces == 2
    clock.now = 2.0
    assert len(buffer.due()) == 2  # evaluated, kept for late spans
    assert (buffer.waiting.traces, buffer.kept.traces) == (0, 2)
    assert buffer.held_traces == 2 and buffer.held_spans == 2  # still held: counted
    buffer.add([big(3)])
    assert buffer.held_bytes <= 5 * MB
    assert buffer.counts["kept_released"] == 1 and buffer.counts["traces_evicted"] == 0
    added = buffer.add([big(4), big(5)])
    assert buffer.held_bytes <= 5 * MB
    assert buffer.kept.traces == 0  # every kept trace went before a waiting one
    assert added.evicted == [f"{3:032x}"]
    assert buffer.waiting.bytes == buffer.held_bytes


def test_eighty_twelve_megabyte_spans_stay_within_the_bound() -> None:
    buffer = TraceBuffer(BufferSettings(max_bytes=100 * MB), Clock())
    for trace in range(80):
        buffer.add([big(trace + 1, size=12 * MB)])
    assert buffer.held_bytes <= 100 * MB
    assert buffer.held_traces == 8 and buffer.counts["traces_evicted"] == 72


def test_released_traces_are_not_kept() -> None:
    clock = Clock()
    buffer = TraceBuffer(BufferSettings(grace_s=0.0), clock)
    buffer.add([big(1, root=True)])
    (due,) = buffer.due()
    buffer.release(due.trace_id)
    assert buffer.held_traces == buffer.held_spans == buffer.held_bytes == 0


def test_due_hands_over_at_most_the_limit_and_keeps_the_rest() -> None:
    clock = Clock()
    buffer = TraceBuffer(BufferSettings(grace_s=0.0), clock)
    buffer.add([big(n, root=True, size=10) for n in range(1, 6)])
    assert buffer.rooted == 5
    assert [d.trace_id for d in buffer.due(2)] == [f"{1:032x}", f"{2:032x}"]
    assert buffer.rooted == 3 and len(buffer.due(0)) == 0
    assert len(buffer.due()) == 3 and buffer.rooted == 0


def test_a_kept_trace_is_held_compressed_and_a_late_span_brings_all_its_spans_back() -> None:
    clock = Clock()
    buffer = TraceBuffer(BufferSettings(grace_s=1.0), clock)
    first = [
        span("a" * 16, None, {"input.value": "question " * 200}, start=1, end=2, trace_id="1" * 32),
        span(
            "b" * 16,
            "a" * 16,
            {"retrieval.documents": ["passage " * 400]},
            start=1,
            end=2,
            trace_id="1" * 32,
        ),
    ]
    buffer.add(first)
    clock.now = 2.0
    (due,) = buffer.due()
    assert due.spans == first and due.revision == 0
    (kept,) = (held for _, held in buffer._done.values())
    assert kept.spans == {} and 0 < len(kept.packed) < 1_000  # 5 KB of spans, compressed
    assert buffer.held_spans == 2 and buffer.held_bytes > 4_000  # counted at wire size
    late = span(
        "c" * 16, "a" * 16, {"output.value": "late answer"}, start=1, end=2, trace_id="1" * 32
    )
    buffer.add([late])
    clock.now = 4.0
    (again,) = buffer.due()
    assert again.revision == 1
    assert again.spans == [*first, late]

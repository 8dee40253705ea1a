"""The trace buffer's bounds: span bytes held, waiting and kept traces together, never pass
``max_bytes``; kept (evaluated) traces are let go to make room, and a batch that waiting
traces leave no room for is refused whole: an acknowledged waiting trace is never evicted
(a burst of rootless traces cannot push out complete ones). The gauges and counts read
what is really held and what happened."""

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
    added = buffer.add([big(4)])
    assert buffer.held_bytes <= 5 * MB
    assert buffer.kept.traces == 0  # every kept trace went before a waiting one
    assert added.accepted == 1 and buffer.waiting.traces == 2
    assert buffer.waiting.bytes == buffer.held_bytes
    refused = buffer.add([big(5)])  # waiting traces alone fill it: refused, none evicted
    assert refused.refused and refused.accepted == 0
    assert sorted(d.trace_id for d in buffer.drain()) == [f"{3:032x}", f"{4:032x}"]


def test_eighty_twelve_megabyte_spans_stay_within_the_bound() -> None:
    buffer = TraceBuffer(BufferSettings(max_bytes=100 * MB), Clock())
    for trace in range(80):
        buffer.add([big(trace + 1, size=12 * MB)])
    assert buffer.held_bytes <= 100 * MB
    assert buffer.held_traces == 8 and buffer.counts["batches_refused"] == 72


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


def test_a_burst_of_rootless_traces_never_evicts_acknowledged_complete_ones() -> None:
    """20 complete traces, then one batch of 100 one-span traces without roots at a cap of
    50: the batch is refused (the receiver answers 429), the 20 are all still there."""
    clock = Clock()
    buffer = TraceBuffer(BufferSettings(max_traces=50, grace_s=5.0), clock)
    complete = [f"{n:032x}" for n in range(1, 21)]
    for trace_id in complete:
        assert buffer.add([big(int(trace_id, 16), root=True, size=10)]).accepted == 1
    burst = buffer.add([big(1000 + n, size=10) for n in range(100)])
    assert burst.refused and burst.accepted == 0
    assert buffer.counts["batches_refused"] == 1 and buffer.counts["spans_refused"] == 100
    assert (buffer.waiting.traces, buffer.rooted) == (20, 20)
    clock.now = 5.0
    assert sorted(d.trace_id for d in buffer.due()) == complete


def test_rootless_batches_past_the_byte_bound_are_refused_not_evicting() -> None:
    """Byte pressure from waiting spans alone: later batches are refused, earlier ones all
    stay, and the counts say so (no eviction is counted as one at max_traces)."""
    buffer = TraceBuffer(BufferSettings(max_bytes=20 * MB, idle_timeout_s=600), Clock())
    size = MB // 2 - 1000
    batches = [[big(n + 1, size=size) for n in range(r * 4, r * 4 + 4)] for r in range(60)]
    outcomes = [buffer.add(batch) for batch in batches]
    taken = [o for o in outcomes if not o.refused]
    assert len(taken) == 10 and all(o.accepted == 4 for o in taken)
    assert buffer.counts["batches_refused"] == 50
    assert buffer.waiting.traces == 40 and buffer.held_bytes <= 20 * MB
    assert buffer.counts["spans_accepted"] == 40 and buffer.counts["spans_refused"] == 200


def test_a_batch_larger_than_the_whole_buffer_is_taken_as_far_as_it_fits() -> None:
    buffer = TraceBuffer(BufferSettings(max_traces=3), Clock())
    added = buffer.add([big(n + 1, size=10) for n in range(5)])
    assert (added.accepted, added.over_capacity, added.refused) == (3, 2, False)
    assert buffer.counts["spans_rejected"] == 2 and buffer.waiting.traces == 3

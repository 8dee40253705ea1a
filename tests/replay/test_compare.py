"""The paired comparison of two runs: summary numbers on each side, a paired bootstrap
interval, spans paired by (trace, start, end), traces in one file only counted."""

import pytest

from ragguard.replay.comparison import compare, paired_intervals
from ragguard.schema import Evaluation, Metrics, SpanEvaluation
from tests.support.frozen_evaluations import with_spans


def run(verdicts: dict[str, list[bool]], offset: int = 0) -> dict[str, Evaluation]:
    """Evaluations whose spans have these verdicts (support 0.9 or 0.1 at eta 0.5)."""
    out = {}
    for trace_id, supported in verdicts.items():
        spans = [
            SpanEvaluation(
                text=f"claim {i}",
                start=10 * i + offset,
                end=10 * i + 8,
                kind="objective",
                support=0.9 if ok else 0.1,
                supported=ok,
            )
            for i, ok in enumerate(supported)
        ]
        metrics = Metrics(
            hallucination=not all(supported), support_rate=sum(supported) / len(supported)
        )
        out[trace_id] = Evaluation(
            trace_id=trace_id, items=[], spans=spans, metrics=metrics, thresholds={"support": 0.5}
        )
    return out


def test_a_worse_run_is_worse_beyond_the_interval_and_changed_traces_come_worst_first():
    base = run({f"t{i}": [True, True, True] for i in range(40)})
    flipped = {f"t{i}": [True, True, True] for i in range(40)}
    flipped["t3"] = [False, False, True]
    flipped |= {f"t{i}": [True, False, True] for i in range(10, 30)}
    result = compare(base, run(flipped))
    rate = result.metric("unsupported_span_rate")
    assert rate.base == 0.0 and rate.new == pytest.approx(22 / 120)
    assert 0 < rate.low < rate.new < rate.high and rate.verdict == "worse"
    assert result.metric("support_rate").verdict == "worse"
    assert result.traces[0].trace_id == "t3" and result.traces[0].worsening == 2
    assert len(result.traces) == 21 and result.traces[0].new == "2 unsupported claims"
    assert result.spans.transitions[("supported", "unsupported")] == 22
    assert result.unmatched == (0, 0)


def test_an_unchanged_run_has_no_change_and_a_small_one_is_no_clear_change():
    base = run({f"t{i}": [True, False] for i in range(30)})
    assert compare(base, base).metric("unsupported_span_rate").verdict == "no change"
    nudged = run({**{f"t{i}": [True, False] for i in range(30)}, "t0": [False, False]})
    assert compare(base, nudged).metric("unsupported_span_rate").verdict == "no clear change"


def test_traces_in_one_file_only_are_counted_and_left_out_of_the_pairs():
    base = run({"a": [True], "b": [True], "only-base": [False]})
    new = run({"a": [True], "b": [False], "only-new": [True]})
    result = compare(base, new)
    assert result.paired == 2 and result.only_base == ["only-base"]
    assert result.only_new == ["only-new"]
    assert result.metric("unsupported_span_rate").base == 0.0  # only the paired traces


def test_spans_pair_by_offsets_and_unmatched_ones_are_counted():
    base = run({"a": [True, True]})
    new = run({"a": [True, True, True]}, offset=1)  # split elsewhere: no offsets match
    reworded = {i: {"text": span.text + " (reworded)"} for i, span in enumerate(new["a"].spans)}
    new["a"] = with_spans(new["a"], reworded)
    assert compare(base, new).unmatched == (2, 3)


def test_the_interval_is_paired_a_shared_trace_effect_cancels():
    """Traces differ a lot from each other, the change is the same small shift on each: a
    paired interval is narrow where an unpaired one would straddle zero."""
    verdicts = {f"t{i}": [j < i % 5 for j in range(5)] for i in range(50)}
    shifted = {f"t{i}": [j < i % 5 + 1 for j in range(5)] for i in range(50)}
    (low, high) = paired_intervals(list(run(verdicts).values()), list(run(shifted).values()))[
        "support_rate"
    ]
    assert low == pytest.approx(0.2) and high == pytest.approx(0.2)

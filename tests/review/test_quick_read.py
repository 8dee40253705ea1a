"""The quick read of a trace log: only a line's evaluation is decoded, and a line the quick
read is unsure of, or one a drawn span comes from, is read whole. Hostile or damaged lines
must never be sampled on what the quick read alone saw."""

import json
from datetime import UTC, datetime

import pytest

from ragguard.review import draw, open_source
from ragguard.review.source import quick_evaluation
from ragguard.runtime import to_record
from ragguard.schema import Evaluation, Trace
from tests.support.review_fixtures import LIVE_LOG, live_records, write_log


def _line(record):
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _spans(n, supported=True):
    return [
        {"text": f"c{i}", "kind": "objective", "support": 0.8, "supported": supported}
        for i in range(n)
    ]


def _record(trace_id, spans, **extra):
    evaluation = {"trace_id": trace_id, "spans": spans}
    return {"trace_id": trace_id, "query": "q?", "response": "r", **extra, "evaluation": evaluation}


def test_every_line_of_the_example_log_is_read_quickly_and_exactly():
    for record in live_records():
        raw = _line(record)
        assert quick_evaluation(raw) == json.loads(raw)["evaluation"]


def test_a_line_the_writer_wrote_is_read_quickly():
    record = live_records()[0]
    trace = Trace.parse({k: v for k, v in record.items() if k not in ("evaluation", "logged_at")})
    raw = to_record(trace, Evaluation.model_validate(record["evaluation"]), datetime.now(UTC))
    assert raw is not None and quick_evaluation(raw) == json.loads(raw)["evaluation"]


HOSTILE = {
    "an evaluation key in the trace's metadata": _line(
        _record("m", _spans(2), metadata={"evaluation": {"spans": _spans(9)}})
    ),
    "an evaluation key first in a span's object": _line(
        _record("f", [{**_spans(1)[0], "x": {"evaluation": {"spans": _spans(5)}}}])
    ),
    "quotes and keys inside strings": _line(
        _record("s", _spans(1), query='","evaluation":{"spans":[{"kind":"objective"}]}}\n')
    ),
}
UNSURE = {
    "an evaluation nested in the evaluation": _line(
        _record("n", [{**_spans(1)[0], "x": {"y": 1, "evaluation": {"spans": _spans(5)}}}])
    ),
    "spaces after the separators": (json.dumps(_record("w", _spans(2))) + "\n").encode(),
    "a carriage return": _line(_record("r", _spans(2)))[:-1] + b"\r\n",
    "a cut last line": _line(_record("c", _spans(2)))[:-1],
    "a record glued after a cut one": _line(_record("g", _spans(2)))[:40]
    + _line(_record("h", _spans(3))),
    "a key after the evaluation": _line({**_record("k", _spans(2)), "extra": 1}),
    "not valid UTF-8": _line(_record("u", _spans(2))).replace(b'"c0"', b'"\xff"'),
    "a byte-order mark": b"\xef\xbb\xbf" + _line(_record("b", _spans(2))),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_lines_are_read_quickly_as_a_full_parse_reads_them(name):
    raw = HOSTILE[name]
    assert quick_evaluation(raw) == json.loads(raw)["evaluation"]


@pytest.mark.parametrize("name", UNSURE)
def test_the_quick_read_is_unsure_of_lines_not_in_the_writers_shape(name):
    assert quick_evaluation(UNSURE[name]) is None


def test_a_sample_over_hostile_lines_is_the_one_a_full_parse_gives(tmp_path):
    """Every span drawn (the sample is bigger than the log): the spans and counts are
    those of the lines a full parse reads."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join([*HOSTILE.values(), *UNSURE.values()]))
    sample = draw(open_source(str(path)), 100, seed=0, progress=False)
    drawn = sorted((d.record.evaluation["trace_id"], d.span) for d in sample.drawn)
    # the glued record's whole part (h) is recovered as the full reader does; the cut line,
    # the bad UTF-8 line and the nested one's objective spans are read whole
    expected = {"m": 2, "f": 1, "s": 1, "n": 1, "w": 2, "r": 2, "h": 3, "k": 2, "b": 2}
    assert drawn == sorted((t, i) for t, n in expected.items() for i in range(n))
    assert sample.population.spans == sum(expected.values())
    assert len(sample.population.bad) == 3  # the cut line, the cut record, bad UTF-8


def test_a_line_broken_in_its_trace_part_is_never_drawn(tmp_path):
    good = [_record(f"ok-{i}", _spans(1)) for i in range(3)]
    broken = _line(_record("broken", _spans(4))).replace(b'"query":"q?"', b'"query":"q?",,')
    assert quick_evaluation(broken) is not None  # the quick read cannot tell
    path = write_log(tmp_path / "log.jsonl", good)
    path.write_bytes(path.read_bytes() + broken)
    sample = draw(open_source(str(path)), 100, seed=0, progress=False)
    assert sorted(d.record.evaluation["trace_id"] for d in sample.drawn) == ["ok-0", "ok-1", "ok-2"]
    assert sample.population.spans == 3 and len(sample.population.bad) == 1
    assert "not valid JSON" in str(sample.population.bad[0])


def test_only_lines_a_span_is_drawn_from_are_read_whole(tmp_path):
    records = [_record(f"t-{i}", _spans(2)) for i in range(400)]
    sample = draw(
        open_source(str(write_log(tmp_path / "log.jsonl", records))), 5, seed=2, progress=False
    )
    assert sample.population.spans == 800 and len(sample.drawn) == 5
    assert sample.population.read_whole < 100


def test_the_progress_bar_advances_line_by_line_through_one_file() -> None:
    """The bytes read so far grow with each line, not only at a file's end, so the bar of a
    single large log moves while it is read."""
    source = open_source(str(LIVE_LOG))
    done = [read for read, _ in source.lines([])]
    assert len(done) > 2
    assert done == sorted(done) and done[0] > 0 and done[-1] <= source.size()
    assert len(set(done)) == len(done)

import json
from datetime import UTC, datetime, timedelta

from ragguard.cli import main
from ragguard.exporters.base import Finished
from ragguard.exporters.tracelog import TraceLog
from ragguard.replay.cards import highlight
from ragguard.replay.diff import diff_trace
from ragguard.replay.report import ReportBuilder
from ragguard.replay.run import load_done
from ragguard.replay.svg import Series, bin_counts, histogram, line_chart, nice_ceiling
from ragguard.replay.timeline import time_buckets
from ragguard.runtime.log_record import LoggedTrace
from ragguard.schema import SpanReason
from tests.support.frozen_evaluations import with_spans
from tests.support.replay_fixtures import INJECTION, RESPONSE, evaluation, trace

PARIS = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889."


def test_diff_pairs_spans_and_counts_verdict_and_relevance_changes():
    live = evaluation(second_supported=True)
    replay = evaluation(d2_relevant=True, support_threshold=0.6)
    added = replay.spans[0].model_copy(update={"text": "New.", "start": 90, "end": 94})
    replay = replay.model_copy(update={"spans": (*replay.spans, added)})
    diff = diff_trace(live, replay)
    assert [(c.live, c.replay, c.replay_support) for c in diff.spans] == [
        ("supported", "unsupported", 0.55),
        ("absent", "supported", 0.9),
    ]
    assert [(c.id, c.live, c.replay) for c in diff.items] == [("d2", False, True)]
    assert diff.transitions[("supported", "supported")] == 1
    assert diff.transitions[("subjective", "subjective")] == 1
    assert diff.replay_thresholds["support"] == 0.6 and diff.changed
    assert not diff_trace(live, live).changed


def test_bins_clip_to_the_edges_and_axis_tops_are_round():
    assert bin_counts([0.0, 0.05, 0.5, 1.0, 1.2, -0.1], 10) == [3, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert [nice_ceiling(v) for v in (0.0, 0.03, 0.11, 0.33, 0.9)] == [0.04, 0.04, 0.12, 0.4, 1.0]


def test_charts_are_svg_with_escaped_text_and_gaps_for_empty_buckets():
    svg = histogram("RS <b>", [Series("a&b", [1, 3], "#000")], x_label="score")
    assert svg.startswith("<svg") and "RS &lt;b&gt;" in svg and "a&amp;b" in svg
    # 3 of 4 in the top bin: 75% of an 80% axis, 180 px tall from y=40
    assert svg.count("<polygon") == 1 and "80%</text>" in svg and ",51.2 " in svg
    line = line_chart(
        "rate", ["8h", "9h", "10h"], [Series("s", [0.5, None, 1.0], "#000")], y_label="r"
    )
    assert line.count("<polyline") == 2 and line.count("<circle") == 2


def test_highlight_marks_unsupported_spans_in_context_and_escapes_everything():
    spans = evaluation().spans
    html = highlight(RESPONSE, spans, {spans[1].text: "supported"})
    assert "<script>" not in html and "<img" not in html and "&lt;script&gt;" in html
    assert '<mark class="span-unsupported changed"' in html and "live: supported" in html
    assert html.count("<mark") == 1 and '<span class="span-subjective"' in html
    moved = [spans[2].model_copy(update={"start": 500, "end": 520})]  # found by its text
    assert '<span class="span-subjective" title="subjective">I think it is lovely.</span>' in (
        highlight(RESPONSE, moved)
    )


def test_report_shows_why_a_span_is_unsupported():
    builder = ReportBuilder()
    replay = evaluation("t0", support_threshold=0.6)
    reason = SpanReason(check="number", claim="50", evidence="100", item="d1")
    replay = with_spans(replay, {1: {"reasons": (reason,)}})
    builder.add(LoggedTrace("log.jsonl", 1, trace("t0"), evaluation("t0"), None), replay)
    html = builder.render(title="r", meta={})
    assert (
        '<ul class="reasons">' in html and "number: &#x27;50&#x27; vs &#x27;100&#x27; in d1" in html
    )
    assert "; number: &#x27;50&#x27;" in highlight(RESPONSE, replay.spans)  # the mark's title


def test_timeline_buckets_pick_a_round_width():
    start = datetime(2025, 6, 2, 8, 22, tzinfo=UTC)
    first, width, count = time_buckets([start, start + timedelta(hours=11, minutes=30)])
    assert (first.hour, first.minute, width, count) == (8, 0, timedelta(hours=1), 12)


def test_report_is_self_contained_and_shows_the_diff():
    builder = ReportBuilder()
    moment = datetime(2025, 6, 2, 9, tzinfo=UTC)
    for index in range(3):
        live = evaluation(f"t{index}", second_supported=True)
        logged = LoggedTrace("log.jsonl", index + 1, trace(f"t{index}"), live, moment)
        builder.add(logged, evaluation(f"t{index}", support_threshold=0.6))
    html = builder.render(title="<report>", meta={"config": "<strict>.toml"})
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script" not in html and "onerror=" not in html.replace("onerror=&quot;", "")
    assert html.count("<svg") == 4 and "&lt;strict&gt;.toml" in html
    assert "<b>3</b><span>span verdicts changed" in html
    assert "support 0.500 (3 traces)" in html and "support 0.600 (3 traces)" in html


def test_load_done_cuts_a_partial_last_line(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text(evaluation("a").model_dump_json() + "\n" + '{"trace_id": "b", "ite')
    done, cut = load_done(out)
    assert list(done) == ["a"] and cut == len('{"trace_id": "b", "ite')
    assert out.read_text().endswith("}\n")


def _live_log(path, guard):
    traces = [
        {
            "trace_id": f"r{index}",
            "query": f"Where is the Eiffel Tower? {INJECTION}",
            "items": [{"id": "d1", "text": PARIS}],
            "response": answer,
        }
        for index, answer in enumerate(
            ["It is in Paris [1].", "It is in Berlin [1].", "It was completed in 1889 [1]."]
        )
    ]
    moments = iter(datetime(2025, 6, 2, 8, tzinfo=UTC) + timedelta(hours=h) for h in range(3))
    log = TraceLog(path, clock=lambda: next(moments))
    for raw, result in zip(traces, guard.evaluate_many(traces), strict=True):
        log.export([Finished(trace(**raw), result)])
    log.shutdown()
    with path.open("a") as handle:
        handle.write('{"trace_id": "cut')  # the process died mid-line


def test_replay_cli_resumes_reports_the_partial_line_and_writes_the_report(tmp_path, capsys, guard):
    log, out, report = tmp_path / "live.jsonl", tmp_path / "out.jsonl", tmp_path / "r.html"
    _live_log(log, guard)
    config = tmp_path / "strict.toml"
    config.write_text("[support]\nthreshold = 0.99\n")
    args = ["replay", str(log), "-c", str(config), "-o", str(out), "--report", str(report)]
    assert main([*args, "--limit", "2"]) == 0
    assert [json.loads(line)["trace_id"] for line in out.read_text().splitlines()] == ["r0", "r1"]
    assert main(args) == 1  # the partial last line was skipped
    captured = capsys.readouterr()
    assert "live.jsonl line 4" in captured.err and "partial last line" in captured.err
    assert "skipped 2 traces already replayed" in captured.out
    replayed = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["trace_id"] for r in replayed] == ["r0", "r1", "r2"]
    assert {r["thresholds"]["support"] for r in replayed} == {0.99}
    html = report.read_text()
    assert "<b>3</b><span>traces replayed" in html and "&lt;script&gt;" in html
    assert "<script>" not in html and "support 0.990 (3 traces)" in html
    assert main(args) == 1  # nothing left to replay (no summary of nothing); line 4 still cut
    captured = capsys.readouterr().out
    assert "skipped 3 traces already replayed" in captured
    assert "summary" not in captured and "n/a" not in captured


def test_replay_of_a_missing_log_is_a_clean_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such log" in capsys.readouterr().err


def test_timeline_points_hold_enough_traces_and_say_how_many():
    """A working day of 42 traces: hourly points would hold 3 or 4 traces each and swing
    between 0% and 100%; the width grows until a point holds about 10."""
    start = datetime(2025, 6, 2, 8, tzinfo=UTC)
    moments = [start + timedelta(minutes=13 * i) for i in range(42)]
    _, width, count = time_buckets(moments, min_traces=10)
    assert width == timedelta(hours=3) and count == 4
    assert time_buckets(moments)[1] == timedelta(hours=1)  # no minimum: the finest width

    builder = ReportBuilder()
    for index, moment in enumerate(moments):
        live = evaluation(f"t{index}")
        builder.add(LoggedTrace("log.jsonl", index + 1, trace(f"t{index}"), live, moment), live)
    html = builder.render(title="r", meta={})
    assert "One point per 3 hours" in html and "(n 14)" in html


def test_a_plain_traces_file_fills_the_replay_thresholds_and_citation_rows():
    builder = ReportBuilder()
    for index in range(2):
        logged = LoggedTrace("traces.jsonl", index + 1, trace(f"t{index}"), None, None)
        builder.add(logged, evaluation(f"t{index}", support_threshold=0.6))
    html = builder.render(title="r", meta={})
    row = html.split("<th>thresholds</th>", 1)[1].split("</tr>", 1)[0]
    assert "support 0.600 (2 traces)" in row
    assert "<th>citation precision</th>" in html and "<th>citation recall</th>" in html


def test_replay_report_on_a_traces_file_as_the_readme_says(tmp_path, capsys):
    """The README names `replay --report` on a traces file; it gives a report with each
    claim's verdict, and a trace without items counts as no context, not as a
    hallucination."""
    from tests.support.docs_blocks import ROOT

    readme = (ROOT / "README.md").read_text()
    assert "`replay --report` also reads a traces file such as `examples/traces.jsonl`" in readme
    lines = (ROOT / "examples" / "traces.jsonl").read_text().splitlines()[:2]
    bare = {"trace_id": "bare", "query": "Where is it?", "response": "It is in Paris."}
    traces, report = tmp_path / "traces.jsonl", tmp_path / "report.html"
    traces.write_text("\n".join([*lines, json.dumps(bare)]) + "\n")
    assert main(["replay", str(traces), "--report", str(report)]) == 0
    html = report.read_text()
    assert "<th>traces with no context</th><td>0</td><td>1</td>" in html.replace("\n", "")
    assert "hallucination rate (traces with a verdict)" in html

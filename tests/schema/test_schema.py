import json

import pytest

from ragguard import Trace, TraceValidationError
from ragguard.runtime.jsonl import read_traces


def test_errors_name_the_nested_field():
    with pytest.raises(TraceValidationError) as raised:
        Trace.parse(
            {
                "trace_id": "t",
                "query": "q",
                "response": "r",
                "items": [{"id": "a", "text": "x"}, {"text": "y"}],
            }
        )
    assert raised.value.field == "items[1].id"
    assert raised.value.trace_id == "t"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"query": "   "}, "query"),
        ({"items": [{"id": "a", "text": "x"}, {"id": "a", "text": "y"}]}, "<trace>"),
        ({"items": [{"id": "a"}]}, "items[0]"),
        ({"response": None}, "response"),
    ],
)
def test_bad_traces_are_rejected_with_their_field(change, field):
    data = {"trace_id": "t", "query": "q", "response": "r", "items": [], **change}
    with pytest.raises(TraceValidationError) as raised:
        Trace.parse(data)
    assert raised.value.field == field


def test_unknown_fields_survive_a_round_trip():
    trace = Trace.parse(
        {"trace_id": "t", "query": "q", "response": "r", "reference": {"answer": "a"}}
    )
    assert json.loads(trace.model_dump_json())["reference"] == {"answer": "a"}


def test_reader_reports_bad_lines_in_place_and_keeps_the_rest(tmp_path):
    first, second = (json.dumps({"trace_id": t, "query": "q", "response": "r"}) for t in "ab")
    path = tmp_path / "traces.jsonl"
    path.write_text(f'{first}\n{{not json\n\n[1, 2]\n{second}\n{{"trace_id": "c"')
    entries = list(read_traces(path))
    assert [n for n, _ in entries] == [1, 2, 4, 5, 6]
    kinds = [type(e).__name__ for _, e in entries]
    assert kinds == [
        "Trace",
        "TraceValidationError",
        "TraceValidationError",
        "Trace",
        "TraceValidationError",
    ]
    assert "partial last line" in str(entries[-1][1])
    assert entries[1][1].line == 2


@pytest.mark.parametrize(
    ("response", "spans"),
    [
        # decomposed accents in the response, composed in the spans
        (
            "Le muse\u0301e est ouvert. Il ferme le lundi.",
            ["Le musée est ouvert.", "Il ferme le lundi."],
        ),
        # no-break and narrow spaces, and a run of spaces
        ("Es kostet 1\u202f000 Euro.  Das  ist viel.", ["Es kostet 1 000 Euro.", "Das ist viel."]),
        # a zero-width joiner inside a Hindi word, curly quotes
        ("यह बड़ा\u200d है। उसने “हाँ” कहा।", ["यह बड़ा है।", 'उसने "हाँ" कहा।']),
    ],
)
def test_response_spans_align_whatever_the_unicode_form(response, spans):
    trace = Trace(trace_id="t", query="q", response=response, response_spans=spans)
    from ragguard.schema.align import span_offsets

    located = span_offsets(trace.response, spans)
    assert [response[start:end] for _, start, end in located] == [t for t, _, _ in located]
    assert len(located) == len(spans)


def test_a_span_does_not_align_inside_a_letter_and_its_accent():
    with pytest.raises(TraceValidationError):
        Trace.parse(
            {"trace_id": "t", "query": "q", "response": "यह बड़ा है।", "response_spans": ["यह बड"]}
        )
    with pytest.raises(TraceValidationError):
        Trace.parse(
            {
                "trace_id": "t",
                "query": "q",
                "response": "Le muse\u0301e.",
                "response_spans": ["Le muse"],
            }
        )

import json

import pytest

from ragguard import Trace, TraceValidationError
from ragguard.io import read_traces


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

"""A lone surrogate (JSON's "\\ud800" with no pair) in any text of a trace is refused where it
is, with the field and the line, as a bad query already was; never "evaluation failed:
UnicodeEncodeError" from deep inside a model or a log."""

import json

import pytest

from ragguard.errors import TraceValidationError
from ragguard.schema import Trace
from tests.support.cli_process import run_ragguard

GOOD = {
    "trace_id": "ok",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is in Paris.", "metadata": {"a": "é"}}],
    "response": "It is in Paris \U0001f600.",  # a whole pair is fine
}


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("response", {"response": "It is in \ud800 Paris."}),
        ("items[0].text", {"items": [{"id": "d1", "text": "Paris \udfff."}]}),
        (
            "items[0].metadata",
            {"items": [{"id": "d1", "text": "Paris.", "metadata": {"t": "\ud83d"}}]},
        ),
        ("response_spans", {"response_spans": ["It is in Paris \ud800"]}),
    ],
)
def test_a_lone_surrogate_is_refused_at_its_field(field, change):
    with pytest.raises(TraceValidationError) as caught:
        Trace.parse(json.dumps({**GOOD, **change}), line=7)
    assert caught.value.field == field and caught.value.line == 7
    assert "lone surrogate" in str(caught.value)


def test_the_command_names_the_line_and_field_and_evaluates_the_rest(tmp_path):
    lines = [
        {**GOOD, "trace_id": "bad-item", "items": [{"id": "d1", "text": "Paris \ud800."}]},
        {**GOOD, "trace_id": "bad-response", "response": "It is in \ud800 Paris."},
        GOOD,
    ]
    traces = tmp_path / "traces.jsonl"
    traces.write_text("".join(json.dumps(line) + "\n" for line in lines))  # \ud800 escaped
    out = tmp_path / "out.jsonl"
    done = run_ragguard("evaluate", str(traces), "--out", str(out))
    assert "line 1, trace 'bad-item': items[0].text: a lone surrogate" in done.stderr
    assert "line 2, trace 'bad-response': response: a lone surrogate" in done.stderr
    assert "UnicodeEncodeError" not in done.stderr
    assert [json.loads(line)["trace_id"] for line in out.read_text().splitlines()] == ["ok"]

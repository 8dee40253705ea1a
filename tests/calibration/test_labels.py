"""The one labelled format: a trace with response_spans and a parallel labels list, the
older claim/evidence lines as one-span traces, and errors that name the field and line;
evaluated spans map 1:1 to the entries, punctuation-only ones included."""

import json

import pytest

from ragguard.calibration.labels import as_labelled, read_labelled
from ragguard.errors import TraceValidationError
from ragguard.train.datasets import read_labels

TRACE = {
    "trace_id": "t1",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is a lattice tower in Paris, France."}],
    "response": "It is in Paris [1].\n\n)\n\nIt is in Rome.",
    "response_spans": ["It is in Paris [1].", "\n\n)", "\n\n", "It is in Rome."],
    "labels": [True, None, None, False],
}


def test_a_labelled_trace_keeps_one_label_per_entry() -> None:
    labelled = as_labelled(TRACE, line=3)
    assert labelled.labels == (True, None, None, False) and labelled.line == 3
    assert labelled.trace.response_spans == TRACE["response_spans"]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"labels": [True]}, "labels", "one entry per response_spans entry (4), got 1"),
        ({"labels": [True, None, None, "yes"]}, "labels[3]", "must be true, false or null"),
        ({"response_spans": None}, "response_spans", "needs the spans its labels refer to"),
        ({"answer_relevant": 2}, "answer_relevant", "must be true, false or null"),
        ({"labels": [1, None, None, 0]}, "labels[0]", "not 1 (1 and 0 are read only as"),
        ({"answer_relevant": 0}, "answer_relevant", "not 0 (1 and 0 are read only as"),
    ],
)
def test_a_bad_line_names_the_field_and_the_line(change, field, message) -> None:
    with pytest.raises(TraceValidationError) as caught:
        as_labelled({**TRACE, **change}, line=7)
    assert caught.value.field == field and caught.value.line == 7
    assert message in str(caught.value)


def test_claim_evidence_lines_are_one_span_traces(tmp_path) -> None:
    path = tmp_path / "labels.jsonl"
    lines = [
        {"claim": "Paris is in France.", "evidence": "Paris is the capital of France.", "label": 1},
        {"claim": "x", "evidence": 3, "label": 1},
        TRACE,
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    first, second, third = read_labelled(path)
    assert first.labels == (True,) and first.trace.response_spans == ["Paris is in France."]
    assert first.trace.items[0].text == "Paris is the capital of France."
    assert isinstance(second, TraceValidationError) and second.line == 2
    assert second.field == "evidence"
    assert third.labels == (True, None, None, False)


def test_train_reads_the_labelled_format(tmp_path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(json.dumps(TRACE) + "\n")
    pairs = list(read_labels(path, "support"))
    assert [(p.statement, p.label) for p in pairs] == [
        ("It is in Paris [1].", 1),
        ("It is in Rome.", 0),
    ]
    assert pairs[0].context == TRACE["items"][0]["text"]


def test_evaluated_spans_map_one_to_one_to_the_entries(guard) -> None:
    labelled = as_labelled(TRACE)
    evaluation = guard.evaluate(labelled.trace)
    assert len(evaluation.spans) == len(TRACE["response_spans"])
    kinds = [span.kind for span in evaluation.spans]
    assert kinds == ["objective", "empty", "empty", "objective"]
    assert evaluation.spans[1].support is None and evaluation.spans[1].supported is None
    assert evaluation.metrics.n_objective == 2
    assert evaluation.spans[3].supported is False

"""The trace contract: no ``items`` key is no context (no verdict), ``items: []`` is nothing
retrieved (unsupported, said so), and a misspelt field or another tool's passages key
is refused with the field to use, instead of every claim being checked against nothing."""

import json

import pytest

from ragguard import Guard
from ragguard.errors import TraceValidationError
from ragguard.metrics.summary import RunSummary
from ragguard.runtime.jsonl import read_traces
from ragguard.runtime.log_record import read_log
from ragguard.schema import NO_CONTEXT, Trace
from ragguard.schema.fields import PASSAGE_NAMES, PRODUCT_FIELDS, edit_distance

BASE = {
    "trace_id": "t1",
    "query": "Where is the Eiffel Tower?",
    "response": "The Eiffel Tower is in Berlin. I think it is lovely.",
}
PASSAGES = [{"id": "d1", "text": "The Eiffel Tower is a lattice tower in Paris, France."}]


@pytest.fixture(scope="module")
def guard():
    return Guard()


def test_no_items_key_gives_no_support_verdict(guard):
    evaluation = guard.evaluate(BASE)
    claim = evaluation.spans[0]
    assert claim.kind == "objective"
    assert claim.supported is None and claim.support is None
    assert claim.unscored_reason == NO_CONTEXT and claim.reasons == ()
    assert evaluation.metrics.hallucination is None and evaluation.metrics.no_context
    summary = RunSummary()
    summary.add(evaluation)
    assert "traces with no context" in summary.render(0.0, 0.0)


def test_an_empty_items_list_is_evaluated_and_says_nothing_was_retrieved(guard):
    evaluation = guard.evaluate({**BASE, "items": []})
    claim = evaluation.spans[0]
    assert claim.supported is False and claim.support == 0.0
    assert [r.check for r in claim.reasons] == ["nothing_retrieved"]
    assert str(claim.reasons[0]) == (
        "nothing_retrieved: 'The Eiffel Tower is in Berlin.' vs no retrieved item"
    )
    assert evaluation.metrics.hallucination is True and not evaluation.metrics.no_context


@pytest.mark.parametrize("key", PASSAGE_NAMES)
def test_another_tools_passages_key_is_refused_naming_items(key):
    with pytest.raises(TraceValidationError) as raised:
        Trace.parse({**BASE, key: ["The Eiffel Tower is in Paris."]}, line=4)
    assert raised.value.field == key and raised.value.line == 4
    assert "`items`" in raised.value.message and "--format ragas|deepeval" in raised.value.message


@pytest.mark.parametrize(
    ("key", "meant"),
    [("itmes", "items"), ("reponse", "response"), ("Items", "items")],
)
def test_a_misspelt_field_is_refused_with_the_field_meant(key, meant):
    data = {**BASE, key: PASSAGES if meant == "items" else "x"}
    if meant == "response":
        data.pop("response")
    with pytest.raises(TraceValidationError) as raised:
        Trace.parse(data)
    assert raised.value.field == key
    assert f"did you mean `{meant}`?" in raised.value.message


@pytest.mark.parametrize(
    ("key", "meant"), [("item", "items"), ("label", "labels"), ("metdata", "metadata")]
)
def test_a_near_miss_beside_the_field_or_of_an_optional_key_is_kept_and_reported(key, meant):
    """Nothing the trace says is lost (``items`` is there; ``labels`` and ``metadata`` are
    optional): the key is kept and reported by the reader, the line evaluated."""
    from ragguard.schema.fields import stray_keys

    trace = Trace.parse({**BASE, "items": PASSAGES, key: "x"})
    assert trace.model_extra == {key: "x"}
    given = {**dict.fromkeys(trace.model_fields_set), **trace.model_extra}
    ((found, note),) = stray_keys(given, Trace.model_fields)
    assert found == key and f"did you mean `{meant}`?" in note


def test_fields_the_product_writes_are_never_taken_for_typos():
    trace = Trace.parse(
        {**BASE, "items": PASSAGES, **{k: {"x": 1} for k in PRODUCT_FIELDS}, "my_tag": "a"}
    )
    assert trace.model_extra is not None and {"pipeline", "otel", "my_tag"} <= set(
        trace.model_extra
    )


def test_every_missing_required_field_is_reported_with_the_key_meant_for_it():
    with pytest.raises(TraceValidationError) as raised:
        Trace.parse({"trace_id": "t", "question": "Where?", "answer": "Paris."}, line=2)
    text = str(raised.value)
    assert text.startswith("line 2, trace 't': query: Field required")
    assert "(found `question`: rename it `query`)" in text
    assert "response: Field required (found `answer`: rename it `response`)" in text


def test_a_bad_key_skips_its_line_and_is_counted_like_any_bad_line(tmp_path):
    path = tmp_path / "traces.jsonl"
    lines = [{**BASE, "items": PASSAGES}, {**BASE, "trace_id": "t2", "contexts": ["Paris."]}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    read = [parsed for _, parsed in read_traces(path)]
    assert isinstance(read[0], Trace)
    assert isinstance(read[1], TraceValidationError) and read[1].line == 2


def test_a_trace_without_items_round_trips_without_them():
    trace = Trace.parse(BASE)
    assert not trace.has_context and "items" not in trace.model_dump()
    assert Trace.parse(trace.model_dump_json()).has_context is False
    assert Trace.parse({**BASE, "items": []}).has_context


def test_older_logs_replay_as_before(tmp_path):
    """A log line written before the contract, with another tool's key kept as an extra and
    the empty items of those days, is read as it was (the key check is for new input)."""
    log = tmp_path / "live.jsonl"
    record = {**BASE, "items": [], "contexts": ["kept"], "logged_at": "2026-01-01T00:00:00"}
    log.write_text(json.dumps(record) + "\n")
    ((_, logged),) = list(read_log([log]))
    assert not isinstance(logged, TraceValidationError)
    assert logged.trace.has_context and logged.trace.model_extra == {"contexts": ["kept"]}


def test_edit_distance_counts_a_swap_as_one():
    assert edit_distance("itmes", "items") == 1
    assert edit_distance("reponse", "response") == 1
    assert edit_distance("timing", "timing_ms") == 3

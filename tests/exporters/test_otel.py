"""The OpenTelemetry exporter: a wrapped LangChain chain's requests become a
``ragguard.evaluation`` span (``gen_ai.evaluation.result`` events) under the request's span,
with a ``retrieval`` child (GenAI and OpenInference document attributes), checked with the
SDK's in-memory exporter and through OTLP/HTTP to a receiver on loopback."""

import json
import os
import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

import ragguard
from ragguard.exporters import otel
from ragguard.exporters.base import Finished
from ragguard.exporters.otel import OtelExporter
from ragguard.exporters.traceparent import current_traceparent, parent_context
from ragguard.schema.otel_names import EVALUATION_EVENT
from tests.support.exporters_fixtures import (
    IMAGE_URI,
    KeywordRetriever,
    judged_made_up,
    made_up,
    wrapped_chain,
)
from tests.support.live_fixtures import DOCS, QUESTIONS, SUPPORTED, UNSUPPORTED


def by_name(spans, name):
    return [s for s in spans if s.name == name]


def results(span):
    """The span's evaluation events by evaluation name."""
    assert {e.name for e in span.events} == {EVALUATION_EVENT}
    return {e.attributes["gen_ai.evaluation.name"]: dict(e.attributes) for e in span.events}


def test_a_wrapped_chains_evaluation_is_exported_under_the_request_span(guard, memory):
    provider, spans = memory
    exporter = OtelExporter(tracer_provider=provider, pipeline="qa")
    chain, monitor, evaluations = wrapped_chain(
        guard, [SUPPORTED, UNSUPPORTED], exporters=[exporter]
    )
    app = provider.get_tracer("app")
    request_spans = []
    for _ in range(2):
        with app.start_as_current_span("POST /ask") as request_span:
            chain.invoke(QUESTIONS["paris"])
        request_spans.append(request_span)
    assert ragguard.flush(60)
    assert monitor.stats.evaluated == 2 and monitor.stats.export_errors == 0

    finished = spans.get_finished_spans()
    evaluated = by_name(finished, "ragguard.evaluation")
    assert len(evaluated) == 2 and len(by_name(finished, "retrieval")) == 2
    for request_span, evaluation in zip(request_spans, evaluations, strict=True):
        # the evaluation finished after the request span closed, and is still its child
        (span,) = [
            s for s in evaluated if s.attributes["gen_ai.response.id"] == evaluation.trace_id
        ]
        assert span.parent.span_id == request_span.context.span_id
        assert span.context.trace_id == request_span.context.trace_id
        assert span.start_time > request_span.end_time
        assert span.attributes["openinference.span.kind"] == "EVALUATOR"
        assert span.attributes["ragguard.pipeline"] == "qa"
        found = results(span)
        metrics = evaluation.metrics
        assert found["ragguard.support_rate"]["gen_ai.evaluation.score.value"] == pytest.approx(
            metrics.support_rate
        )
        assert found["ragguard.relevance"]["gen_ai.evaluation.score.value"] == pytest.approx(
            metrics.mean_relevance
        )
        label = found["ragguard.hallucination"]["gen_ai.evaluation.score.label"]
        assert label == ("hallucinated" if metrics.hallucination else "grounded")
        assert {e["gen_ai.response.id"] for e in found.values()} == {evaluation.trace_id}

        (retrieval,) = [
            s for s in finished if s.parent and s.parent.span_id == span.context.span_id
        ]
        assert retrieval.name == "retrieval"
        assert retrieval.attributes["gen_ai.operation.name"] == "retrieval"
        documents = json.loads(retrieval.attributes["gen_ai.retrieval.documents"])
        retrieved = [d.id for d in KeywordRetriever().invoke(QUESTIONS["paris"])]
        assert [d["id"] for d in documents] == [i.id for i in evaluation.items] == retrieved
        assert retrieved[0] == "paris" and retrieved[2] == "photo"
        assert [d["relevance"] for d in documents] == [i.relevance for i in evaluation.items]
        assert [d["score"] for d in documents] == pytest.approx([0.9, 0.8, 0.5])
        # the image by id, unscored, never its bytes nor (content being off) its URI
        assert documents[2] | {"error": None} == {
            "id": "photo", "score": 0.5, "relevance": None, "relevant": None,
            "modality": "image", "error": None,
        }  # fmt: skip
        assert not any(IMAGE_URI in str(v) for v in retrieval.attributes.values())
        assert retrieval.attributes["retrieval.documents.2.document.id"] == "photo"
        assert retrieval.attributes["retrieval.documents.0.document.score"] == pytest.approx(0.9)
        metadata = json.loads(retrieval.attributes["retrieval.documents.0.document.metadata"])
        assert "source" not in metadata  # the document's own metadata is content too
        assert metadata["ragguard.relevance"] == pytest.approx(evaluation.items[0].relevance)
        # content is opt-in: no text of the query, documents or answer went out
        values = [str(v) for s in (span, retrieval) for v in s.attributes.values()]
        values += [str(v) for e in span.events for v in e.attributes.values()]
        for text in (QUESTIONS["paris"], DOCS["paris"], SUPPORTED, UNSUPPORTED):
            assert not any(text in value for value in values)

    # the second answer is unsupported: one event per flagged span
    flagged = results(evaluated[1])["ragguard.span_support"]
    (unsupported,) = [s for s in evaluations[1].spans if s.supported is False]
    assert flagged["gen_ai.evaluation.score.label"] == "unsupported"
    assert flagged["gen_ai.evaluation.score.value"] == pytest.approx(unsupported.support)
    assert "ragguard.span_support" not in results(evaluated[0])


def test_content_is_exported_only_when_asked(memory):
    provider, spans = memory
    trace, evaluation = made_up()
    OtelExporter(tracer_provider=provider, include_content=True).export(
        [Finished(trace, evaluation)]
    )
    (evaluated,) = by_name(spans.get_finished_spans(), "ragguard.evaluation")
    (retrieval,) = by_name(spans.get_finished_spans(), "retrieval")
    assert evaluated.attributes["input.value"] == trace.query
    assert evaluated.attributes["output.value"] == trace.response
    assert retrieval.attributes["gen_ai.retrieval.query.text"] == trace.query
    assert retrieval.attributes["retrieval.documents.0.document.content"] == trace.items[0].text
    assert "retrieval.documents.1.document.content" not in retrieval.attributes  # an image
    documents = json.loads(retrieval.attributes["gen_ai.retrieval.documents"])
    assert documents[1]["uri"] == trace.items[1].image  # its URI, with content on
    flagged = results(evaluated)["ragguard.span_support"]
    assert "It moved to Rome." in flagged["gen_ai.evaluation.explanation"]
    assert "entity: 'Rome' vs 'Paris' in d1" in flagged["gen_ai.evaluation.explanation"]
    # an evaluation with no captured request span is a root span, correlated by response id
    assert evaluated.parent is None
    assert evaluated.attributes["gen_ai.response.id"] == "t1"


def test_span_reasons_name_the_check_and_item_without_content(memory):
    provider, spans = memory
    OtelExporter(tracer_provider=provider).export([Finished(*made_up())])
    (evaluated,) = by_name(spans.get_finished_spans(), "ragguard.evaluation")
    explanation = results(evaluated)["ragguard.span_support"]["gen_ai.evaluation.explanation"]
    assert "entity check, d1" in explanation
    assert "Rome" not in explanation and "Paris" not in explanation


def test_the_judge_scores_are_attributes_of_the_evaluation_span(memory):
    provider, spans = memory
    exporter = OtelExporter(tracer_provider=provider)
    exporter.export([Finished(*judged_made_up())])
    exporter.export([Finished(*made_up("t2"))])
    judged, plain = by_name(spans.get_finished_spans(), "ragguard.evaluation")
    assert list(judged.attributes["ragguard.judge.scores"]) == [0.8, 0.3]
    assert list(judged.attributes["ragguard.judge.scored_spans"]) == [0, 1]
    assert "ragguard.judge.scores" not in plain.attributes  # no judge, no attribute


def test_inline_image_bytes_never_leave(memory):
    provider, spans = memory
    trace, evaluation = made_up()
    pixels = "data:image/png;base64," + "A" * 64
    trace.items[1].image = pixels
    trace.items[1].metadata["thumbnail"] = pixels
    OtelExporter(tracer_provider=provider).export([Finished(trace, evaluation)])
    (retrieval,) = by_name(spans.get_finished_spans(), "retrieval")
    assert "uri" not in json.loads(retrieval.attributes["gen_ai.retrieval.documents"])[1]
    assert not any(pixels in str(v) for v in retrieval.attributes.values())


def test_an_exporter_error_is_counted_and_never_reaches_the_chain(guard, memory, caplog):
    class Broken:
        def export(self, batch):
            raise RuntimeError("collector down")

        def shutdown(self):
            raise RuntimeError("collector down")

    provider, spans = memory
    broken, working = Broken(), OtelExporter(tracer_provider=provider)
    chain, monitor, evaluations = wrapped_chain(guard, [SUPPORTED] * 3, exporters=[broken, working])
    for _ in range(3):
        assert chain.invoke(QUESTIONS["paris"]) == SUPPORTED
    assert ragguard.flush(60)
    monitor.shutdown(5)
    assert monitor.stats.export_errors == 4  # three exports and the shutdown
    tracebacks = [r for r in caplog.records if r.exc_info and "Broken" in r.getMessage()]
    assert len(tracebacks) == 1  # printed once, then only counted
    assert len(evaluations) == 3  # on_evaluation still ran
    assert len(by_name(spans.get_finished_spans(), "ragguard.evaluation")) == 3  # so did the next
    monitor.exporters.remove(broken)  # not to be logged again at interpreter exit


def test_traceparent_round_trips_and_rejects_garbage(memory):
    provider, _ = memory
    assert current_traceparent() is None
    with provider.get_tracer("app").start_as_current_span("request") as span:
        captured = current_traceparent()
    context = span.get_span_context()
    flags = int(context.trace_flags)
    assert flags & 1  # sampled
    assert captured == f"00-{context.trace_id:032x}-{context.span_id:016x}-{flags:02x}"
    from opentelemetry import trace

    parent = trace.get_current_span(parent_context(captured)).get_span_context()
    assert (parent.trace_id, parent.span_id) == (context.trace_id, context.span_id)
    for bad in (None, "", "00-zz-yy-01", "00-" + "0" * 32 + "-" + "0" * 16 + "-01", "00-1"):
        assert parent_context(bad) is None


def test_without_a_provider_or_endpoint_spans_wait_for_the_application(monkeypatch, caplog):
    for variable in otel.OTLP_ENDPOINT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    from opentelemetry.trace import ProxyTracerProvider

    assert isinstance(otel.default_provider(), ProxyTracerProvider)
    assert "no tracer provider" in caplog.text


APP_PROVIDER_SCRIPT = """
import json
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from tests.support.exporters_fixtures import made_up
from ragguard.adapters.capture import Request
from ragguard.config import ExportConfig
from ragguard.exporters import build_exporters
from ragguard.exporters.base import Finished

memory = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(memory))
assert not build_exporters(ExportConfig(prometheus=False))  # no SDK provider yet: off
trace.set_tracer_provider(provider)
assert not build_exporters(ExportConfig(otel=False, prometheus=False))
# the application installed an SDK provider: on by default
(exporter,) = build_exporters(ExportConfig(pipeline="app", prometheus=False))
with trace.get_tracer("app").start_as_current_span("request") as request_span:
    captured = Request("run-1", None, None).traceparent   # what capture records
made, evaluation = made_up()
exporter.export([Finished(made.model_copy(update={"traceparent": captured}), evaluation)])
(evaluated,) = [s for s in memory.get_finished_spans() if s.name == "ragguard.evaluation"]
print(json.dumps({
    "same_provider": exporter.provider is provider,
    "parent": evaluated.parent.span_id == request_span.context.span_id,
    "pipeline": evaluated.attributes["ragguard.pipeline"],
}))
"""


def test_on_by_default_with_the_applications_own_tracer_provider():
    """In a fresh interpreter: the global provider can be set only once per process."""
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(APP_PROVIDER_SCRIPT)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=__file__.rsplit("/", 2)[0],
        env={**os.environ, "PYTHONPATH": __file__.rsplit("/", 3)[0]},  # this checkout's ragguard
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"same_provider": True, "parent": True, "pipeline": "app"}


class _OtlpReceiver(BaseHTTPRequestHandler):
    """A minimal OTLP/HTTP trace receiver: decodes each protobuf export request."""

    def do_POST(self):
        request = ExportTraceServiceRequest()
        request.ParseFromString(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.received.append((self.path, request))
        body = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _OtlpReceiver)
    server.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_otlp_export_from_the_standard_environment_variables(guard, receiver, monkeypatch):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{receiver.server_port}")
    monkeypatch.setenv("OTEL_SERVICE_NAME", "qa-service")
    monkeypatch.setattr(otel, "_OWN", [])  # this test's own ragguard provider
    chain, monitor, evaluations = wrapped_chain(
        guard, [UNSUPPORTED], config={"exporters": {"otel": True, "pipeline": "qa"}}
    )
    chain.invoke(QUESTIONS["paris"])
    assert monitor.shutdown(60)  # flushes the evaluation, then the span batch
    paths = {path for path, _ in receiver.received}
    spans = {}
    for _, request in receiver.received:
        for resource_spans in request.resource_spans:
            resource = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
            assert resource["service.name"] == "qa-service"
            for scope_spans in resource_spans.scope_spans:
                assert scope_spans.scope.name == "ragguard"
                spans.update({s.name: s for s in scope_spans.spans})
    assert paths == {"/v1/traces"}
    evaluated, retrieval = spans["ragguard.evaluation"], spans["retrieval"]
    assert retrieval.parent_span_id == evaluated.span_id
    attributes = {a.key: a.value for a in evaluated.attributes}
    assert attributes["gen_ai.response.id"].string_value == evaluations[0].trace_id
    events = {
        {a.key: a.value for a in e.attributes}["gen_ai.evaluation.name"].string_value: e
        for e in evaluated.events
    }
    assert {e.name for e in evaluated.events} == {EVALUATION_EVENT}
    assert {"ragguard.support_rate", "ragguard.hallucination", "ragguard.span_support"} <= set(
        events
    )
    documents = {a.key: a.value for a in retrieval.attributes}["gen_ai.retrieval.documents"]
    ids = [d["id"] for d in json.loads(documents.string_value)]
    assert ids == [i.id for i in evaluations[0].items] == ["paris", ids[1], "photo"]


WITHOUT_OTEL_SCRIPT = """
import sys
sys.modules["opentelemetry"] = None  # as if not installed
from ragguard.config import ExportConfig
from ragguard.errors import RagguardError
from ragguard.exporters import build_exporters
from ragguard.exporters.traceparent import current_traceparent, parent_context

assert current_traceparent() is None
assert parent_context("00-" + "1" * 32 + "-" + "2" * 16 + "-01") is None
try:
    build_exporters(ExportConfig(otel=True))
except RagguardError as error:
    print(error)
"""


def test_ragguard_works_without_opentelemetry_and_says_what_to_install():
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_OTEL_SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "pip install 'ragguard-eval[otel]'" in run.stdout


def test_the_evaluator_span_carries_openinference_feedback(guard, memory):
    """Each result is also OpenInference feedback on the EVALUATOR span, under both of its
    vocabularies, with an identifier that a re-evaluation of the trace repeats."""
    from ragguard.exporters.otel import OtelExporter
    from ragguard.schema import Trace

    trace = Trace.parse(
        {
            "trace_id": "t-feedback",
            "query": "Where is the Eiffel Tower?",
            "items": [{"id": "d1", "text": "The Eiffel Tower is a lattice tower in Paris."}],
            "response": "The Eiffel Tower is in Berlin.",
        }
    )
    provider, spans = memory
    exporter = OtelExporter(tracer_provider=provider)
    for _ in range(2):
        exporter.export([Finished(trace, guard.evaluate(trace))])
    first, again = [s for s in spans.get_finished_spans() if s.name == "ragguard.evaluation"]
    attributes = first.attributes
    names = {v for k, v in attributes.items() if k.endswith(".annotation.name")}
    assert {"ragguard.hallucination", "ragguard.span_support"} <= names
    index = next(
        k.split(".")[1]
        for k, v in attributes.items()
        if k.endswith(".annotation.name") and v == "ragguard.span_support"
    )
    assert attributes[f"annotations.{index}.annotation.label"] == "unsupported"
    assert attributes[f"evaluations.{index}.evaluation.label"] == "unsupported"
    assert attributes[f"annotations.{index}.annotation.annotator_kind"] == "CODE"
    identifiers = [k for k in attributes if k.endswith(".annotation.identifier")]
    assert [attributes[k] for k in identifiers] == [again.attributes[k] for k in identifiers]

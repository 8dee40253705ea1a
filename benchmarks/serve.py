"""What ``ragguard serve`` sustains: spans/s received, traces/s evaluated, the latency from
a root span's arrival to its verdict, memory with 10,000 traces buffered, and the share of
the receiver (decoding, buffering, assembly) in the evaluation's time.

    python benchmarks/serve.py [--buffered 10000] [--evaluated 300]

Traces are the passages, questions and answers of examples/traces.jsonl as OpenInference
spans (a chain over a retriever and an LLM, 3 spans), 50 traces per OTLP/HTTP protobuf
request as an SDK's batch processor sends them, posted over one keep-alive connection
from this process (so the client's own cost is counted against the receiver: an upper
bound). Each question gets the request number appended, so no relevance comes from a
cache.

1. Receiving: grace and idle timeout an hour, so nothing is evaluated (``queue_size`` as
   large as ``--buffered``: complete traces waiting count against it); spans/s over the
   whole run, and the process's resident memory before and after ``--buffered`` traces.
2. Assembly: ``assemble`` over the buffered traces, per trace.
3. Evaluating, in a burst: ``--evaluated`` traces posted at once; traces/s from the first
   request to the last verdict (batches as the live worker forms them).
4. Latency, paced: traces posted one request (50 traces) at a time at half the burst's
   rate; root-to-verdict p50/p95 (the grace period, 0.5 s here, is part of it).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent.parent))

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from ragguard.serve.app import ServeApp
from ragguard.serve.join import join_spans

EXAMPLES = Path(__file__).parent.parent / "examples" / "traces.jsonl"
PER_REQUEST = 50


def _attributes(values: dict[str, Any]) -> list[KeyValue]:
    out = []
    for key, value in values.items():
        any_value = (
            AnyValue(double_value=value)
            if isinstance(value, float)
            else AnyValue(string_value=str(value))
        )
        out.append(KeyValue(key=key, value=any_value))
    return out


def requests(count: int, offset: int, per_request: int = PER_REQUEST) -> list[tuple[bytes, int]]:
    """``count`` traces as protobuf request bodies, with the number of spans in each."""
    examples = [json.loads(line) for line in EXAMPLES.read_text().splitlines()]
    bodies = []
    for start in range(0, count, per_request):
        request = ExportTraceServiceRequest()
        resource = request.resource_spans.add()
        resource.resource.attributes.extend(_attributes({"service.name": "bench"}))
        spans = resource.scope_spans.add().spans
        for number in range(start, min(start + per_request, count)):
            example = examples[number % len(examples)]
            trace_id = (offset + number + 1).to_bytes(16, "big")
            query = f"{example['query']} ({number})"
            root, retriever, llm = (bytes([kind]) + trace_id[-7:] for kind in (1, 2, 3))
            documents: dict[str, Any] = {
                "openinference.span.kind": "RETRIEVER",
                "input.value": query,
            }
            for i, item in enumerate(example["items"]):
                documents[f"retrieval.documents.{i}.document.id"] = item["id"]
                documents[f"retrieval.documents.{i}.document.content"] = item.get("text") or ""
            answer = {
                "openinference.span.kind": "LLM",
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": example["response"],
            }
            chain = {"openinference.span.kind": "CHAIN", "input.value": query}
            now = time.time_ns()
            for span_id, parent, attributes in (
                (retriever, root, documents),
                (llm, root, answer),
                (root, b"", chain),
            ):
                span = spans.add()
                span.trace_id, span.span_id, span.parent_span_id = trace_id, span_id, parent
                span.name = attributes["openinference.span.kind"].lower()
                span.start_time_unix_nano, span.end_time_unix_nano = now, now + 1000
                span.attributes.extend(_attributes(attributes))
        bodies.append((request.SerializeToString(), 3 * (min(start + per_request, count) - start)))
    return bodies


def post_all(port: int, bodies: list[tuple[bytes, int]], pace_s: float = 0.0) -> float:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    for body, _ in bodies:
        connection.request("POST", "/v1/traces", body, {"Content-Type": "application/x-protobuf"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        if pace_s:
            time.sleep(pace_s)
    connection.close()
    return time.perf_counter() - started


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def app_with(**serve: Any) -> ServeApp:
    config = {"serve": {**serve}, "exporters": {"otel": False, "prometheus": False}}
    app = ServeApp(config, otlp_http="127.0.0.1:0", otlp_grpc="", metrics="127.0.0.1:0")
    app.start()
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--buffered", type=int, default=10_000)
    parser.add_argument("--evaluated", type=int, default=300)
    args = parser.parse_args()
    figures: dict[str, Any] = {}

    # 1. receiving (nothing evaluated)
    bodies = requests(args.buffered, offset=0)
    app = app_with(
        grace_s=3600, idle_timeout_s=3600, max_traces=args.buffered, queue_size=args.buffered
    )
    app.guard.warmup()
    before = rss_mb()
    wall = post_all(app.ports["http"], bodies)
    spans = sum(n for _, n in bodies)
    after = rss_mb()
    assert app.buffer.held_traces == args.buffered
    figures["receive_spans_per_s"] = spans / wall
    figures["receive_ms_per_trace"] = 1000 * wall / args.buffered
    figures["buffered_traces"] = args.buffered
    figures["buffered_rss_mb"] = after - before

    # 2. assembly of the buffered traces
    dues = app.buffer.drain()
    started = time.perf_counter()
    for due in dues:
        join_spans(due.trace_id, due.spans)
    figures["assemble_ms_per_trace"] = 1000 * (time.perf_counter() - started) / len(dues)
    app.stop(0)

    # 3. evaluating a burst
    app = app_with(grace_s=0.5, queue_size=100_000)
    app.guard.warmup()
    burst = requests(args.evaluated, offset=10**6)
    started = time.perf_counter()
    post_all(app.ports["http"], burst)
    while app.stats().traces.get("evaluated", 0) < args.evaluated:
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    figures["evaluate_traces_per_s"] = args.evaluated / elapsed
    figures["evaluate_ms_per_trace"] = 1000 * elapsed / args.evaluated

    # 4. latency at half that rate
    app.counters.latencies.clear()
    paced = requests(args.evaluated, offset=2 * 10**6)
    pace = PER_REQUEST / (figures["evaluate_traces_per_s"] / 2)
    post_all(app.ports["http"], paced, pace_s=pace)
    while app.stats().traces.get("evaluated", 0) < 2 * args.evaluated:
        time.sleep(0.05)
    latencies = sorted(app.counters.latencies)
    figures["latency_p50_s"] = statistics.median(latencies)
    figures["latency_p95_s"] = latencies[int(0.95 * (len(latencies) - 1))]
    app.stop(10)

    receiver = figures["receive_ms_per_trace"] + figures["assemble_ms_per_trace"]
    figures["receiver_share_of_evaluation"] = receiver / figures["evaluate_ms_per_trace"]
    for name, value in figures.items():
        print(
            f"{name:32s} {value:10.3f}" if isinstance(value, float) else f"{name:32s} {value:10d}"
        )


if __name__ == "__main__":
    main()

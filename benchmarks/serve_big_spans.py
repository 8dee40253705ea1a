"""``ragguard serve``'s memory against its one budget, each case against a fresh
``ragguard serve`` process with its defaults (``max_held_bytes`` 256 MB,
``max_inflight_bytes`` 64 MB, ``max_values_per_request`` 200,000). The server's RSS when
``/readyz`` first answers (ready) and its peak (``VmHWM``) are reported, with the answers.
A 429 is counted and not retried.

    python benchmarks/serve_big_spans.py [--runs 1] [--cases all] [--json out]

Cases:
- ``sequential``: 80 non-root spans of 12 MB, one per OTLP/HTTP protobuf request, each its
  own trace (none ever complete);
- ``concurrent``: 8 such bodies of 15 MB at once;
- ``gzip-64``: 64 clients at once, each a gzip protobuf body of one such 12 MB span (about
  12 KB on the wire), 64 traces;
- ``bomb-gzip``, ``bomb-grpc``, ``bomb-json``: 4 decode bombs at once: gzip protobuf
  bodies of 15.9 MB of empty spans (15.5 KB on the wire), the same message over gRPC,
  and a JSON list of ``{}``;
- ``complete``: 40 complete traces (root, retriever and LLM spans) with a 12 MB document,
  4 clients at once.

Targets: a bomb case at most ready + 400 MB; every other case at most ready +
``max_held_bytes`` + 200 MB (``complete`` with 429s).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from serve_soak import ROOT, free_port

MB = 1_000_000
HELD_MB = 256.0
"""``serve.max_held_bytes`` at its default, in MB."""
TARGETS = {
    "bomb": 400.0,
    **dict.fromkeys(("sequential", "concurrent", "gzip", "complete"), HELD_MB + 200.0),
}
"""MB over ready: each bomb case, and every other (``max_held_bytes`` + 200 MB: requests in
flight and the evaluation's working set)."""


def span_body(number: int, size: int, complete: bool = False) -> bytes:
    """Trace ``number``: one non-root span with a ``size``-byte attribute, or (``complete``)
    a root chain, a retriever holding a ``size``-byte document and an LLM answer."""
    message = ExportTraceServiceRequest()
    spans = message.resource_spans.add().scope_spans.add().spans
    trace_id = number.to_bytes(16, "big")
    root, retriever, llm = (bytes([kind]) + trace_id[-7:] for kind in (1, 2, 3))
    text = chr(ord("a") + number % 26) * size
    kinds = [(retriever, b"\x0f" * 8, {"input.value": text})]
    if complete:
        document = {"retrieval.documents.0.document.content": text, "input.value": "q?"}
        kinds = [
            (root, b"", {"openinference.span.kind": "CHAIN", "input.value": "q?"}),
            (retriever, root, {"openinference.span.kind": "RETRIEVER", **document}),
            (llm, root, {"openinference.span.kind": "LLM", "output.value": "An answer."}),
        ]
    for span_id, parent, attributes in kinds:
        span = spans.add()
        span.trace_id, span.span_id, span.parent_span_id = trace_id, span_id, parent
        span.name, span.start_time_unix_nano, span.end_time_unix_nano = "s", 1, 2
        for key, value in attributes.items():
            entry = span.attributes.add()
            entry.key, entry.value.string_value = key, value
    return bytes(message.SerializeToString())


def empty_spans(size: int) -> bytes:
    """An OTLP request of ``size`` bytes of empty spans (2 bytes each)."""
    spans = b"\x12\x00" * (size // 2)
    scope = b"\x12" + _varint(len(spans)) + spans
    return b"\x0a" + _varint(len(scope)) + scope


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def memory(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.split()
    return int(fields["VmRSS"][0]) / 1024, int(fields["VmHWM"][0]) / 1024


def start(folder: Path) -> tuple[subprocess.Popen[bytes], dict[str, int]]:
    """``ragguard serve`` (HTTP, gRPC, metrics on free loopback ports) once ready."""
    config = folder / "ragguard.toml"
    config.write_text(f'[exporters]\ntrace_log = "{folder / "serve.jsonl"}"\notel = false\n')
    ports = {name: free_port() for name in ("http", "grpc", "metrics")}
    command = [sys.executable, "-m", "ragguard.cli", "serve", "-c", str(config)]
    for name, port in ports.items():
        command += [f"--{'otlp-' if name != 'metrics' else ''}{name}", f"127.0.0.1:{port}"]
    process = subprocess.Popen(
        command, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL
    )
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{ports['metrics']}/readyz", timeout=5):
                return process, ports
        except OSError:  # not bound yet, or 503 while the models load
            time.sleep(0.5)
    raise SystemExit("ragguard serve did not get ready in 5 minutes")


def http_post(port: int, payload: bytes, headers: dict[str, str]) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        connection.request("POST", "/v1/traces", payload, headers)
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


def grpc_post(port: int, payload: bytes) -> int:
    import grpc

    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        export = channel.unary_unary(
            "/opentelemetry.proto.collector.trace.v1.TraceService/Export",
            request_serializer=None,
            response_deserializer=None,
        )
        try:
            export(payload, timeout=300)
            return 200
        except grpc.RpcError as error:
            return int(error.code().value[0])  # gRPC status numbers: 8 RESOURCE_EXHAUSTED


PROTOBUF = {"Content-Type": "application/x-protobuf"}


def requests_for(case: str, ports: dict[str, int]) -> tuple[list[Callable[[], int]], int]:
    """The case's requests and how many clients send them at once."""
    http_port = ports["http"]
    if case == "sequential":
        bodies = [span_body(n, 12 * MB) for n in range(1, 81)]
        return [lambda b=b: http_post(http_port, b, PROTOBUF) for b in bodies], 1
    if case == "concurrent":
        bodies = [span_body(n, 15 * MB) for n in range(1, 9)]
        return [lambda b=b: http_post(http_port, b, PROTOBUF) for b in bodies], 8
    if case == "gzip-64":
        gzip_headers = {**PROTOBUF, "Content-Encoding": "gzip"}
        bodies = [gzip.compress(span_body(n, 12 * MB), 6) for n in range(1, 65)]
        return [lambda b=b: http_post(http_port, b, gzip_headers) for b in bodies], 64
    if case == "bomb-gzip":
        bomb = gzip.compress(empty_spans(15_900_000), 9)
        headers = {**PROTOBUF, "Content-Encoding": "gzip"}
        return [lambda: http_post(http_port, bomb, headers)] * 4, 4
    if case == "bomb-grpc":
        bomb = empty_spans(15_900_000)
        return [lambda: grpc_post(ports["grpc"], bomb)] * 4, 4
    if case == "bomb-json":
        spans = b",".join([b"{}"] * 5_300_000)
        bomb = b'{"resourceSpans":[{"scopeSpans":[{"spans":[' + spans + b"]}]}]}"
        json_headers = {"Content-Type": "application/json"}
        return [lambda: http_post(http_port, bomb, json_headers)] * 4, 4
    bodies = [span_body(n, 12 * MB, complete=True) for n in range(1, 41)]
    return [lambda b=b: http_post(http_port, b, PROTOBUF) for b in bodies], 4


def run(case: str) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="serve-big-"))
    process, ports = start(folder)
    codes: Counter[int] = Counter()
    try:
        ready_mb = memory(process.pid)[0]
        calls, clients = requests_for(case, ports)
        lock = threading.Lock()

        def client() -> None:
            while True:
                with lock:
                    if not calls:
                        return
                    call = calls.pop(0)
                status = call()
                with lock:
                    codes[status] += 1

        threads = [threading.Thread(target=client) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(1.0)
        rss, peak = memory(process.pid)
    finally:
        process.terminate()
        process.wait(120)
    return {
        "case": case,
        "ready_mb": round(ready_mb, 1),
        "after_mb": round(rss, 1),
        "peak_mb": round(peak, 1),
        "codes": dict(sorted(codes.items())),
    }


CASES = ("sequential", "concurrent", "gzip-64", "bomb-gzip", "bomb-grpc", "bomb-json", "complete")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--cases", default="all", help="comma-separated, or all")
    parser.add_argument("--json", help="write the runs here")
    args = parser.parse_args()
    cases = CASES if args.cases == "all" else tuple(args.cases.split(","))
    results = [run(case) for case in cases for _ in range(args.runs)]
    print("| case | RSS ready MB | RSS after MB | peak MB | peak - ready MB | target | answers |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for result in results:
        case = str(result["case"])
        over = float(result["peak_mb"]) - float(result["ready_mb"])  # type: ignore[arg-type]
        target = TARGETS.get(case.split("-")[0])
        limit = f"{target:.0f}" if target else ""
        print(
            f"| {case} | {result['ready_mb']} | {result['after_mb']} | {result['peak_mb']} "
            f"| {over:.1f} | {limit} | {result['codes']} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

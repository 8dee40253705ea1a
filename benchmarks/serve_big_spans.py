"""``ragguard serve``'s memory under large spans: 80 non-root spans of 12 MB each, one per
OTLP/HTTP protobuf request, each its own trace (so none is ever complete), against a
``ragguard serve`` process with its defaults (``max_held_bytes`` 256 MB). A 429 is counted
and not retried (the held traces only leave at ``idle_timeout_s``). The server's RSS is
sampled after each request; its peak (``VmHWM``) and its RSS after the last request are
reported, for each of ``--runs`` fresh processes.

    python benchmarks/serve_big_spans.py [--runs 3] [--spans 80] [--mb 12] [--json out]

The target: RSS at most 800 MB after the 80 requests, in every run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from serve_soak import start  # the serve process on free loopback ports, once ready

TARGET_MB = 800.0


def body(number: int, size: int) -> bytes:
    """One non-root span of trace ``number`` with one ``size``-byte attribute."""
    message = ExportTraceServiceRequest()
    span = message.resource_spans.add().scope_spans.add().spans.add()
    span.trace_id = number.to_bytes(16, "big")
    span.span_id = (number + 1).to_bytes(8, "big")
    span.parent_span_id = b"\x0f" * 8
    span.name = "retrieve"
    entry = span.attributes.add()
    entry.key = "input.value"
    entry.value.string_value = chr(ord("a") + number % 26) * size
    return bytes(message.SerializeToString())


def memory(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.split()
    return int(fields["VmRSS"][0]) / 1024, int(fields["VmHWM"][0]) / 1024


def run(spans: int, size: int) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="serve-big-"))
    process, ports, _ = start(folder, None)
    try:
        ready_mb = memory(process.pid)[0]
        connection = http.client.HTTPConnection("127.0.0.1", ports["http"], timeout=120)
        codes: dict[int, int] = {}
        highest = 0.0
        for number in range(1, spans + 1):
            payload = body(number, size)
            connection.request(
                "POST", "/v1/traces", payload, {"Content-Type": "application/x-protobuf"}
            )
            response = connection.getresponse()
            response.read()
            codes[response.status] = codes.get(response.status, 0) + 1
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", ports["http"], timeout=120)
            highest = max(highest, memory(process.pid)[0])
        connection.close()
        time.sleep(1.0)
        rss, peak = memory(process.pid)
    finally:
        process.terminate()
        process.wait(120)
    return {
        "ready_mb": round(ready_mb, 1),
        "after_mb": round(rss, 1),
        "highest_sampled_mb": round(highest, 1),
        "peak_mb": round(peak, 1),
        "accepted": codes.get(200, 0),
        "refused_429": codes.get(429, 0),
        "other": sum(v for k, v in codes.items() if k not in (200, 429)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--spans", type=int, default=80)
    parser.add_argument("--mb", type=float, default=12.0)
    parser.add_argument("--json", help="write the runs here")
    args = parser.parse_args()
    results = [run(args.spans, int(args.mb * 1_000_000)) for _ in range(args.runs)]
    print("| run | RSS ready (MB) | RSS after (MB) | peak (MB) | 200 | 429 | other |")
    print("|---|---|---|---|---|---|---|")
    for number, result in enumerate(results, 1):
        print(
            f"| {number} | {result['ready_mb']} | {result['after_mb']} | {result['peak_mb']} "
            f"| {result['accepted']} | {result['refused_429']} | {result['other']} |"
        )
    worst = max(result["after_mb"] for result in results)
    print(f"worst RSS after: {worst} MB (target <= {TARGET_MB:.0f} MB in every run)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

"""A soak of ``ragguard serve``: one process, traces posted at a steady rate for a long
time, watching its memory, threads and descriptors and counting every trace from request
to trace log.

    python benchmarks/serve_soak.py [--minutes 30] [--rate 20] [--warmup-minutes 10]
                                    [--every 10] [--json out]

``ragguard serve`` runs as its own process (its RSS is not the sender's), with a trace
log and its defaults otherwise (the byte bound on). Each request is one RAG trace (three
OpenInference spans, as ``benchmarks/serve.py`` builds them) with a unique question, over
OTLP/HTTP protobuf, paced to ``--rate`` requests per second from one thread. A 429 is
retried after its ``Retry-After``, as an OTLP exporter does, and counted. At the end the
server gets SIGTERM; then the trace log is read: every acknowledged trace must be in it
(losses = acknowledged traces missing from the log). The verdict is "flat" when the
server's RSS grew less than 5% from the end of the warm-up to the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from serve import requests  # benchmarks/serve.py: the request builder
from soak import growth, milestones, sample, soak_arguments  # benchmarks/soak.py's

ROOT = Path(__file__).resolve().parents[1]


def scrape(port: int) -> dict[str, float]:
    """The receiver's own gauges and counters from ``/metrics``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    wanted = {
        "ragguard_serve_held_traces": "held_traces",
        "ragguard_serve_held_bytes": "held_bytes",
        "ragguard_serve_queue_depth": "queue_depth",
        'ragguard_serve_traces_total{status="evaluated"}': "evaluated",
        'ragguard_serve_traces_total{status="dropped"}': "dropped",
        "ragguard_serve_refused_for_room_total": "refused_for_room",
    }
    found = {name: 0.0 for name in wanted.values()}
    for line in text.splitlines():
        metric, _, value = line.rpartition(" ")
        if metric in wanted:
            found[wanted[metric]] = float(value)
    return found


def start(
    folder: Path, late_span_window_s: float | None
) -> tuple[subprocess.Popen[bytes], dict[str, int], Path]:
    """``ragguard serve`` with a trace log in ``folder`` on two free loopback ports, once
    its models are loaded (``/readyz``)."""
    log = folder / "serve.jsonl"
    config = folder / "ragguard.toml"
    window = "" if late_span_window_s is None else f"late_span_window_s = {late_span_window_s}\n"
    config.write_text(
        f'[exporters]\ntrace_log = "{log}"\notel = false\n[serve]\ngrace_s = 0.5\n'
        f"shutdown_timeout_s = 60\n{window}"
    )
    ports = {name: free_port() for name in ("http", "metrics")}
    addresses = {name: f"127.0.0.1:{port}" for name, port in ports.items()}
    command = [sys.executable, "-m", "ragguard.cli", "serve", "-c", str(config)]
    command += ["--otlp-grpc", "", "--otlp-http", addresses["http"]]
    process = subprocess.Popen(
        [*command, "--metrics", addresses["metrics"]],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://{addresses['metrics']}/readyz", timeout=5):
                return process, ports, log
        except OSError:  # not bound yet, or 503 while the models load
            time.sleep(0.5)
    raise SystemExit("ragguard serve did not get ready in 5 minutes")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def post(connection: http.client.HTTPConnection, body: bytes) -> tuple[int, float]:
    connection.request("POST", "/v1/traces", body, {"Content-Type": "application/x-protobuf"})
    response = connection.getresponse()
    response.read()
    return response.status, float(response.headers.get("Retry-After") or 1)


def main() -> None:
    parser = soak_arguments(__doc__)
    parser.add_argument(
        "--late-span-window-s",
        type=float,
        help="serve.late_span_window_s (default: serve's, 300 s: every trace is kept that long)",
    )
    args = parser.parse_args()

    count = int(args.minutes * 60 * args.rate) + 1
    bodies = [body for body, _ in requests(count, offset=7 * 10**6, per_request=1)]
    folder = Path(tempfile.mkdtemp(prefix="serve-soak-"))
    process, ports, log = start(folder, args.late_span_window_s)
    connection = http.client.HTTPConnection("127.0.0.1", ports["http"], timeout=60)
    curve: list[dict] = []
    acknowledged = refused = sent = 0
    started = time.monotonic()
    end = started + args.minutes * 60
    next_sample = started
    while (now := time.monotonic()) < end and sent < len(bodies):
        if now >= next_sample:
            point = {"t_s": round(now - started, 1), "sent": sent, "refused": refused}
            curve.append({**point, "serve": sample(process.pid), **scrape(ports["metrics"])})
            next_sample += args.every
        code, retry_after = post(connection, bodies[sent])
        if code == 429:
            refused += 1
            time.sleep(min(retry_after, 1.0))  # the exporter's retry, shortened
            continue
        assert code == 200, code
        acknowledged += 1
        sent += 1
        time.sleep(max(0.0, started + sent / args.rate - time.monotonic()))
    elapsed = time.monotonic() - started
    connection.close()
    point = {"t_s": round(time.monotonic() - started, 1), "sent": sent, "refused": refused}
    curve.append({**point, "serve": sample(process.pid), **scrape(ports["metrics"])})
    process.send_signal(signal.SIGTERM)
    stopping = time.monotonic()
    process.wait(600)
    exit_s = time.monotonic() - stopping
    logged = {json.loads(line)["trace_id"] for line in log.read_text().splitlines() if line}
    report(args, curve, acknowledged, refused, elapsed, len(logged), exit_s, process.returncode)
    if args.json:
        Path(args.json).write_text(json.dumps(curve, indent=1))


def report(
    args: argparse.Namespace,
    curve: list[dict],
    acknowledged: int,
    refused: int,
    elapsed: float,
    logged: int,
    exit_s: float,
    code: int | None,
) -> None:
    warm_s = args.warmup_minutes * 60
    print(
        f"\nserve soak: {args.minutes:g} min at {args.rate:g} requests/s asked, "
        f"{acknowledged / elapsed:.1f}/s acknowledged; {refused} answers 429 (retried); "
        f"{acknowledged} traces acknowledged, {logged} in the trace log, "
        f"{acknowledged - logged} lost; exit {code} {exit_s:.1f} s after SIGTERM; machine: "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end"
    )
    print("point          | t (s) | serve RSS MB | threads / fds | held traces | held MB | queue")
    for name, row in milestones(curve, warm_s):
        serve = row["serve"]
        print(
            f"{name:<14} | {row['t_s']:>5.0f} | {serve['rss_mb']:>12.1f} | "
            f"{serve['threads']:>7.0f} / {serve['fds']:<5.0f} | {row['held_traces']:>11.0f} | "
            f"{row['held_bytes'] / 1e6:>7.1f} | {row['queue_depth']:.0f}"
        )
    rise = growth(curve, "serve", warm_s)
    print(
        f"serve RSS growth from the end of warm-up to the end: {100 * rise:+.1f}% -> "
        f"{'flat' if rise < 0.05 else 'NOT flat'} (< 5%)"
    )


if __name__ == "__main__":
    main()

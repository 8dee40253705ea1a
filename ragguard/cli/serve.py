"""``ragguard serve``: evaluate the RAG traces that instrumented applications send over
OTLP (OpenInference, OpenLLMetry, OTel GenAI conventions), in any language."""

from __future__ import annotations

import argparse
import logging
import signal
import threading
from types import FrameType
from typing import Any


def add_to(commands: Any) -> None:
    serve = commands.add_parser(
        "serve", help="an OTLP receiver that evaluates the RAG traces of instrumented apps"
    )
    serve.add_argument("-c", "--config", help="TOML or JSON config file ([serve] section)")
    serve.add_argument(
        "--otlp-http", help="HOST:PORT for OTLP/HTTP (default: [serve] otlp_http, 127.0.0.1:4318)"
    )
    serve.add_argument(
        "--otlp-grpc",
        help="HOST:PORT for OTLP/gRPC, '' for none (default: [serve] otlp_grpc, 127.0.0.1:4317)",
    )
    serve.add_argument(
        "--metrics",
        help="HOST:PORT for /metrics, /healthz, /readyz (default: [serve] metrics, 127.0.0.1:9464)",
    )
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ragguard.live import close_all
    from ragguard.serve import ServeApp

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    app = ServeApp(
        args.config, otlp_http=args.otlp_http, otlp_grpc=args.otlp_grpc, metrics=args.metrics
    )
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    app.start()
    previous = {
        signum: signal.signal(signum, on_signal) for signum in (signal.SIGTERM, signal.SIGINT)
    }
    print(app.startup_line(), flush=True)
    try:
        while not stop.wait(1.0):
            pass
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    left = app.stop()
    close_all(0.0)  # stop() spent shutdown_timeout_s: what is still pending is lost, now
    return 0 if left == 0 else 1

"""What ``ragguard serve`` says when it starts: a port it cannot listen on, named with the
endpoint and the flag or setting that moves it, and, once bound, one line saying where it
listens and where the verdicts go.

4317 and 4318 are the defaults of every local OpenTelemetry Collector, Jaeger and Phoenix,
so a taken port is the usual first failure; gRPC's own report of it is a C-core log line and
a bare RuntimeError. So every address is tried with a plain socket before anything starts
(no thread, no gRPC server), and every clash is named at once, not one per attempt.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ragguard.config import Config
from ragguard.errors import ServeStartError
from ragguard.exporters import destinations
from ragguard.serve.addresses import parse

T = TypeVar("T")


@dataclass(frozen=True)
class Endpoint:
    name: str
    flag: str
    key: str


ENDPOINTS = {
    "http": Endpoint("the OTLP/HTTP receiver", "--otlp-http", "otlp_http"),
    "grpc": Endpoint("the OTLP/gRPC receiver", "--otlp-grpc", "otlp_grpc"),
    "metrics": Endpoint("the /metrics and health endpoint", "--metrics", "metrics"),
}
"""serve's three listening sockets, keyed as ``ServeApp.ports``."""

_USUAL_HOLDERS = {
    4317: "an OpenTelemetry Collector, Jaeger or Phoenix listens there by default",
    4318: "an OpenTelemetry Collector, Jaeger or Phoenix listens there by default",
    9464: "another Prometheus exporter may listen there by default",
}


def start_error(
    which: str, address: str, port: int, error: OSError, why: str | None = None
) -> ServeStartError:
    """The error for an endpoint that could not listen on ``address`` (``why``: said in
    place of what ``error`` says)."""
    endpoint = ENDPOINTS[which]
    why = why or _why(error, port)
    off = "; '' turns it off" if which == "grpc" else ""
    return ServeStartError(
        f"cannot listen on {address} for {endpoint.name}: {why}. Choose another address with "
        f"{endpoint.flag} HOST:PORT or the [serve] {endpoint.key} setting{off}",
        endpoint=which,
        address=address,
    )


def _why(error: OSError, port: int) -> str:
    if error.errno == errno.EADDRINUSE:
        holder = _USUAL_HOLDERS.get(port)
        return "the port is in use by another process" + (f" ({holder})" if holder else "")
    if error.errno == errno.EACCES:
        return "permission denied (ports below 1024 need privileges)"
    if error.errno == errno.EADDRNOTAVAIL:
        return "no interface of this machine has that address"
    return error.strerror or str(error)


def listening(which: str, address: str, port: int, start: Callable[[], T]) -> T:
    """``start()``, with an OSError turned into ``start_error``."""
    try:
        return start()
    except OSError as error:
        raise start_error(which, address, port, error) from None


def check_free(which: str, address: str, host: str, port: int) -> None:
    """Bind ``host:port`` with a plain socket and release it, so that a taken port gets
    ``start_error`` instead of gRPC's C-core log line (port 0 is always free)."""
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC binds
        listening(which, address, port, lambda: probe.bind((host, port)))


def check_addresses(addresses: dict[str, str]) -> None:
    """Try every endpoint's address (keyed as ``ENDPOINTS``) before anything starts; one
    ``ServeStartError`` naming every address that cannot be listened on, a port given to
    two endpoints included."""
    errors: list[ServeStartError] = []
    claimed: dict[tuple[str, int], str] = {}
    for which, address in addresses.items():
        host, port = parse(address)
        first = claimed.setdefault((host, port), which) if port else which
        if first != which:
            same = f"{ENDPOINTS[first].name} is given the same address"
            errors.append(start_error(which, address, port, OSError(errno.EADDRINUSE, ""), same))
            continue
        try:
            check_free(which, address, host, port)
        except ServeStartError as error:
            errors.append(error)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ServeStartError(
            f"cannot listen on {len(errors)} addresses:\n"
            + "\n".join(f"  - {error}" for error in errors),
            endpoint=",".join(error.endpoint for error in errors),
            address=",".join(error.address for error in errors),
        )


def verdict_destinations(config: Config, extra_sinks: int = 0) -> str:
    """Where serve's verdicts go, in words, for the start-up line."""
    exporters = config.exporters
    places = ["/metrics (Prometheus)", *destinations(exporters)]
    if extra_sinks:
        places.append(f"{extra_sinks} exporter(s) given in code")
    text = "verdicts go to " + ", ".join(places)
    if exporters.trace_log is None:
        text += " only (no trace log to replay: set [exporters] trace_log)"
    return text


def startup_line(ports: dict[str, int], hosts: dict[str, str], destinations: str) -> str:
    """The one line serve prints once it listens."""

    def where(which: str, label: str) -> str:
        if which not in ports:
            return f"{label} off"
        host = hosts[which]
        host = f"[{host}]" if ":" in host else host
        return f"{label} on {host}:{ports[which]}"

    listens = ", ".join(
        where(which, label)
        for which, label in (("http", "OTLP/HTTP"), ("grpc", "OTLP/gRPC"), ("metrics", "/metrics"))
    )
    return f"ragguard serve: {listens}; {destinations}"

"""The OTLP/HTTP receiver against hostile connections and bodies: TLS handshakes off the
accepting thread (an idle socket delays no one), a cap on connections, a read timeout,
and a 400 (counted, no traceback) for every malformed body."""

from __future__ import annotations

import http.client
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest

from tests.serve.test_receivers import _post, json_span, otlp_json
from tests.support.serve_clients import metrics_text, running_app, wait_for

BODY = otlp_json([json_span("ab" * 16, "cd" * 8, "", {"http.route": "/"})])


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "serve.pem", folder / "serve-key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def https_post(port: int, cert: Path, timeout: float = 5.0) -> int:
    context = ssl.create_default_context(cafile=str(cert))
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=context)
    try:
        connection.request("POST", "/v1/traces", BODY, {"Content-Type": "application/json"})
        return connection.getresponse().status
    finally:
        connection.close()


def test_an_idle_tcp_connection_does_not_hold_up_https(tmp_path, guard) -> None:
    cert, key = certificate(tmp_path)
    with running_app(tmp_path, guard, tls_cert=str(cert), tls_key=str(key)) as app:
        port = app.ports["http"]
        with socket.create_connection(("127.0.0.1", port)):  # connects, never says hello
            time.sleep(0.2)
            started = time.monotonic()
            assert https_post(port, cert) == 200
            assert time.monotonic() - started < 1.0


def test_a_handshake_past_its_deadline_is_closed_and_counted(tmp_path, guard) -> None:
    cert, key = certificate(tmp_path)
    settings = {"tls_cert": str(cert), "tls_key": str(key), "tls_handshake_timeout_s": 0.3}
    with running_app(tmp_path, guard, **settings) as app:
        with socket.create_connection(("127.0.0.1", app.ports["http"])) as idle:
            idle.settimeout(5)
            assert idle.recv(1) == b""  # the server hung up
        wait_for(lambda: app.stats().connections.get("handshake_failed"), 5)


def test_connections_past_the_cap_are_closed_at_once(tmp_path, guard) -> None:
    with running_app(tmp_path, guard, max_connections=2) as app:
        port = app.ports["http"]
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        try:
            time.sleep(0.2)
            with socket.create_connection(("127.0.0.1", port)) as third:
                third.settimeout(5)
                assert third.recv(1) == b""
            assert app.stats().connections["over_cap"] == 1
        finally:
            for connection in held:
                connection.close()
        wait_for(lambda: _post(app, BODY, "application/json")[0] == 200, 5)


def test_a_silent_connection_times_out(tmp_path, guard) -> None:
    with running_app(tmp_path, guard, connection_timeout_s=0.3) as app:
        with socket.create_connection(("127.0.0.1", app.ports["http"])) as slow:
            slow.sendall(b"POST /v1/traces HTTP/1.1\r\n")  # and nothing more
            slow.settimeout(5)
            started = time.monotonic()
            assert slow.recv(1000) == b""
            assert time.monotonic() - started < 2.0
        wait_for(lambda: app.stats().connections.get("timed_out"), 5)


MALFORMED = {
    "nested_100k_deep": b'{"resourceSpans": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "5000_digit_literal": b'{"resourceSpans": [], "x": ' + b"9" * 5000 + b"}",
    "scope_not_an_object": (b'{"resourceSpans": [{"scopeSpans": [{"scope": "x", "spans": []}]}]}'),
    "resource_a_list": b'{"resourceSpans": [{"resource": [1], "scopeSpans": []}]}',
    "attributes_a_number": (
        b'{"resourceSpans": [{"resource": {"attributes": 5}, "scopeSpans": []}]}'
    ),
    "array_values_a_number": otlp_json(
        [
            {
                **json_span("ab" * 16, "cd" * 8, "", {}),
                "attributes": [{"key": "k", "value": {"arrayValue": {"values": 7}}}],
            }
        ]
    ),
    "kvlist_nested_past_the_limit": otlp_json(
        [
            {
                **json_span("ab" * 16, "cd" * 8, "", {}),
                "attributes": [
                    {"key": "k", "value": {"kvlistValue": {"values": [{"key": "k", "value": {}}]}}}
                ],
            }
        ]
    ).replace(
        b'"value": {}',
        b'"value": '
        + b'{"kvlistValue": {"values": [{"key": "k", "value": ' * 40
        + b"{}"
        + b"}]}}" * 40,
    ),
}


def test_every_malformed_json_body_gets_400_counted_without_a_traceback(
    tmp_path, guard, capfd
) -> None:
    with running_app(tmp_path, guard, max_body_bytes=1_000_000) as app:
        for name, body in MALFORMED.items():
            code, _, reply = _post(app, body, "application/json")
            assert code == 400, (name, code, reply[:200])
        text = metrics_text(app)
    assert (
        f'ragguard_serve_requests_total{{protocol="http",result="400"}} {len(MALFORMED)}.0' in text
    )
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("length", ["\u00b2", "-5", " 1_0", "1" * 30])
def test_a_content_length_that_is_not_ascii_digits_gets_400(tmp_path, guard, length) -> None:
    request = (
        b"POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + b"Content-Length: "
        + length.encode("latin-1")
        + b"\r\n\r\n{}"
    )
    with running_app(tmp_path, guard) as app:
        raw = socket.create_connection(("127.0.0.1", app.ports["http"]))
        with raw:
            raw.settimeout(5)
            raw.sendall(request)
            assert raw.recv(100).startswith(b"HTTP/1.1 400")

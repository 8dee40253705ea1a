"""The OTLP/HTTP receiver against hostile connections and bodies: TLS handshakes off the
accepting thread (an idle socket delays no one), a cap on connections, a read timeout,
and a 400 (counted, no traceback) for every malformed body."""

from __future__ import annotations

import contextlib
import http.client
import select
import socket
import ssl
import subprocess
import threading
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


def test_at_the_cap_an_idle_connection_makes_way_for_a_new_one(tmp_path, guard) -> None:
    with running_app(tmp_path, guard, max_connections=2) as app:
        port = app.ports["http"]
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        try:
            time.sleep(0.2)
            assert _post(app, BODY, "application/json")[0] == 200
            # an idle one was closed to make way (which of two opened together is oldest
            # depends on the order the server accepted them)
            readable, _, _ = select.select(held, [], [], 5)
            assert len(readable) == 1 and readable[0].recv(1) == b""
            assert app.stats().connections["preempted"] == 1
        finally:
            for connection in held:
                connection.close()


def test_connections_past_the_cap_are_closed_at_once_when_all_are_inside_requests(
    tmp_path, guard
) -> None:
    head = (
        b"POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )
    with running_app(tmp_path, guard, max_connections=2) as app:
        port = app.ports["http"]
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        try:
            for connection in held:
                connection.sendall(head)  # inside a request: its body is being read
            time.sleep(0.3)
            with socket.create_connection(("127.0.0.1", port)) as third:
                third.settimeout(5)
                assert third.recv(1) == b""
            assert app.stats().connections["over_cap"] == 1
        finally:
            for connection in held:
                connection.close()
        wait_for(lambda: _accepted_after_the_cap(app), 5)


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


def _raw(port: int, request: bytes, timeout: float = 10.0) -> bytes:
    """``request`` sent as is on one connection; what comes back until the server closes."""
    with socket.create_connection(("127.0.0.1", port)) as raw:
        raw.settimeout(timeout)
        raw.sendall(request)
        reply = b""
        with contextlib.suppress(ConnectionError):
            while chunk := raw.recv(65536):
                reply += chunk
        return reply


CHUNKED_HEAD = (
    b"POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n"
)


@pytest.mark.parametrize("size", [b"-1", b"-0x10", b"+2", b"0x2", b"1_0", b"\xb2", b" ", b"1" * 9])
def test_a_chunk_size_that_is_not_hex_digits_gets_400_without_reading_on(
    tmp_path, guard, size
) -> None:
    """``int(-1, 16)`` is -1 and ``read(-1)`` reads to the end: the body would be read
    whole, past every cap, before an answer."""
    with (
        running_app(tmp_path, guard, max_body_bytes=4096) as app,
        socket.create_connection(("127.0.0.1", app.ports["http"])) as raw,
    ):
        raw.settimeout(10)
        raw.sendall(CHUNKED_HEAD + size + b"\r\n" + b"x" * 100_000)  # and keeps the line open
        assert raw.recv(100).startswith(b"HTTP/1.1 400")


def test_chunked_bodies_are_bounded_by_max_body_bytes(tmp_path, guard) -> None:
    chunk = b"1000\r\n" + b"x" * 4096 + b"\r\n"
    with running_app(tmp_path, guard, max_body_bytes=8192) as app:
        port = app.ports["http"]
        assert _raw(port, CHUNKED_HEAD + chunk * 3 + b"0\r\n\r\n").startswith(b"HTTP/1.1 413")
        half = len(BODY) // 2
        parts = [BODY[:half], BODY[half:]]
        framed = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"
        closing = CHUNKED_HEAD.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")
        assert _raw(port, closing + framed).startswith(b"HTTP/1.1 200")


def _drip(port: int, data: bytes, first: bytes = b"") -> float:
    """``first`` at once, then ``data`` one byte every 0.1 s until the server hangs up;
    seconds from the first dripped byte to the hang-up."""
    with socket.create_connection(("127.0.0.1", port)) as drip:
        drip.settimeout(5)
        drip.sendall(first)
        started = time.monotonic()
        with contextlib.suppress(ConnectionError):
            for byte in data:
                drip.sendall(bytes([byte]))
                time.sleep(0.1)
        assert drip.recv(100) == b""
        return time.monotonic() - started


def test_a_head_dripped_a_byte_at_a_time_is_cut_off_at_its_deadline(tmp_path, guard) -> None:
    """Every read comes within ``connection_timeout_s``, yet the head may not take longer
    than ``header_timeout_s`` from its first byte."""
    with running_app(tmp_path, guard, header_timeout_s=0.6, connection_timeout_s=5) as app:
        assert _drip(app.ports["http"], b"POST /v1/traces HTTP/1.1\r\nHost: x\r\n") < 2.0
        wait_for(lambda: app.stats().connections.get("timed_out"), 5)


def test_a_body_dripped_past_the_request_deadline_is_cut_off(tmp_path, guard) -> None:
    head = (
        b"POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + b"Content-Length: %d\r\n\r\n" % len(BODY)
    )
    with running_app(tmp_path, guard, request_timeout_s=0.6, connection_timeout_s=5) as app:
        assert _drip(app.ports["http"], BODY[:30], first=head) < 2.5
        wait_for(lambda: app.stats().connections.get("timed_out"), 5)


def test_drippers_filling_every_slot_do_not_lock_out_an_authorised_client(
    tmp_path, guard, monkeypatch
) -> None:
    """More connections than the cap, each sending one header byte now and then: a client
    with the token still gets in at once (the oldest head-reading connection makes way),
    and the drippers' heads are cut off at their deadline."""
    monkeypatch.setenv("R1_TOKEN", "sesame")
    settings = {"max_connections": 4, "auth_token_env": "R1_TOKEN", "header_timeout_s": 30}
    with running_app(tmp_path, guard, **settings) as app:
        port = app.ports["http"]
        drippers = []
        try:
            for _ in range(7):
                dripper = socket.create_connection(("127.0.0.1", port))
                dripper.sendall(b"P")
                drippers.append(dripper)
            time.sleep(0.3)
            for _ in range(3):
                started = time.monotonic()
                code, _, _ = _post(app, BODY, "application/json", Authorization="Bearer sesame")
                assert code == 200
                assert time.monotonic() - started < 2.0
        finally:
            for dripper in drippers:
                dripper.close()
        assert app.stats().connections["preempted"] >= 3


def test_a_burst_of_connects_is_queued_by_the_kernel_not_refused(tmp_path, guard) -> None:
    """socketserver's backlog of 5 made a burst of 150 connects wait for SYN retries (a
    second each); the listening socket queues them."""
    with running_app(tmp_path, guard) as app:
        port = app.ports["http"]
        times: list[float] = []

        def connect() -> None:
            started = time.monotonic()
            with socket.create_connection(("127.0.0.1", port), timeout=10):
                times.append(time.monotonic() - started)

        threads = [threading.Thread(target=connect) for _ in range(150)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(15)
        assert len(times) == 150 and max(times) < 0.9, sorted(times)[-5:]


def test_a_scrape_dripped_a_byte_at_a_time_is_cut_off_too(tmp_path, guard, monkeypatch) -> None:
    import ragguard.serve.metrics_http as metrics_http

    monkeypatch.setattr(metrics_http, "HEAD_TIMEOUT_S", 0.5)
    with running_app(tmp_path, guard) as app:
        assert _drip(app.ports["metrics"], b"GET /metrics HTTP/1.1\r\nHost: x\r\n") < 2.0


def _accepted_after_the_cap(app: object) -> bool:
    """A POST gets 200; one that arrives before the server has seen the held connections
    close is still over the cap and is turned away, which is no failure: ask again (urllib
    reports the closed socket as a ``URLError``, an ``OSError``, when it closes mid-send)."""
    try:
        return _post(app, BODY, "application/json")[0] == 200
    except (OSError, http.client.HTTPException):
        return False

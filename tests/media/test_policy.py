"""The media policy (issue 13, item 5): a trace's image or video source is read only inside
``media.local_roots``, only as a regular file under a byte cap, and fetched only when remote
fetch is on, from an allowed host, within a byte cap and a timeout, never redirected to a
private address. The HTTP server is real and listens on 127.0.0.1 only."""

from __future__ import annotations

import base64
import os
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pydantic import ValidationError

from benchmarks.synthetic_media import save_photos, tiny_clip
from ragguard import Config, Guard
from ragguard.config import MediaConfig
from ragguard.errors import MediaError
from ragguard.evaluation.evaluator import Evaluator
from ragguard.media.images import load_image
from ragguard.media.video import sample_frames


class Server:
    """A loopback HTTP server that counts requests: ``/photo.jpg`` is a JPEG, ``/redirect``
    sends to ``/photo.jpg`` on 127.0.0.1, ``/big`` streams without a length, ``/drip`` sends a
    byte every 0.2 s."""

    def __init__(self, jpeg: bytes) -> None:
        self.requests: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                outer.requests.append(self.path)
                if self.path == "/photo.jpg":
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(jpeg)))
                    self.end_headers()
                    self.wfile.write(jpeg)
                elif self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", f"{outer.url}/photo.jpg")
                    self.end_headers()
                elif self.path.startswith("/to/"):  # a redirect to any http URL
                    self.send_response(302)
                    self.send_header("Location", "http://" + self.path[len("/to/") :])
                    self.end_headers()
                elif self.path in ("/big", "/drip"):
                    self.send_response(200)
                    self.end_headers()
                    for _ in range(40):
                        self.wfile.write(b"x" * (1000 if self.path == "/big" else 1))
                        self.wfile.flush()
                        if self.path == "/drip":
                            time.sleep(0.2)
                else:
                    self.send_error(404)

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_port}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return save_photos(tmp_path_factory.mktemp("allowed"), ("coffee",))


@pytest.fixture
def server(photos: dict[str, Path]) -> Iterator[Server]:
    running = Server(photos["coffee"].read_bytes())
    yield running
    running.http.shutdown()


def allowing(root: Path, **settings: object) -> MediaConfig:
    return MediaConfig.model_validate({"local_roots": [str(root)], **settings})


def refused(source: str, policy: MediaConfig, match: str) -> None:
    with pytest.raises(MediaError, match=match) as caught:
        load_image(source, max_side=64, policy=policy)
    assert caught.value.field == "image"


def test_by_default_no_local_path_is_read(photos):
    refused(str(photos["coffee"]), MediaConfig(), r"outside media.local_roots \(none configured\)")


def test_paths_are_read_only_inside_the_roots(photos, tmp_path):
    inside = photos["coffee"]
    policy = allowing(inside.parent)
    assert load_image(str(inside), max_side=64, policy=policy).size == (64, 43)
    assert load_image(inside.as_uri(), max_side=64, policy=policy).size == (64, 43)
    outside = tmp_path / "coffee.jpg"
    outside.write_bytes(inside.read_bytes())
    refused(str(outside), policy, "outside media.local_roots")
    refused(str(inside.parent / ".." / tmp_path.name / "coffee.jpg"), policy, "outside")
    link = inside.parent / "link.jpg"
    link.unlink(missing_ok=True)
    link.symlink_to(outside)  # a symlink inside a root pointing out of it
    refused(str(link), policy, "outside media.local_roots")


@pytest.mark.parametrize("source", ["/etc/shadow", "/proc/self/environ", "/dev/zero"])
def test_system_files_are_outside_any_ordinary_root(photos, source):
    refused(source, allowing(photos["coffee"].parent), "outside media.local_roots")


def test_only_regular_files_are_read_even_inside_a_root(tmp_path):
    os.mkfifo(tmp_path / "fifo.jpg")  # opening it to read would block forever
    refused(str(tmp_path / "fifo.jpg"), allowing(tmp_path), "not a regular file")
    refused("/dev/zero", allowing(Path("/dev")), "not a regular file")  # 4.8 GB before


def test_a_file_over_the_byte_cap_is_refused_before_decoding(photos):
    size = photos["coffee"].stat().st_size
    policy = allowing(photos["coffee"].parent, max_image_bytes=size - 1)
    refused(str(photos["coffee"]), policy, f"larger than {size - 1} bytes")
    inline = "data:image/jpeg;base64," + base64.b64encode(photos["coffee"].read_bytes()).decode()
    refused(inline, policy, "inline image larger than")


def test_videos_follow_the_same_roots_and_cap(tmp_path):
    video = tmp_path / "clip.mp4"
    video.write_bytes(b"\x00" * 1000)
    for policy, message in (
        (MediaConfig(), "outside media.local_roots"),
        (allowing(tmp_path, max_video_bytes=999), "larger than 999 bytes"),
    ):
        with pytest.raises(MediaError, match=message) as caught:
            sample_frames(str(video), frames=2, fps=None, max_frames=2, max_side=32, policy=policy)
        assert caught.value.field == "video"


def test_remote_fetch_is_off_by_default_and_sends_nothing(server):
    refused(f"{server.url}/photo.jpg", MediaConfig(), "remote fetch is off")
    assert server.requests == []


def test_remote_fetch_needs_an_allowlist():
    with pytest.raises(ValidationError, match=r"needs media\.allowed_hosts"):
        MediaConfig(remote_fetch=True)


def test_only_allowed_hosts_are_fetched(server):
    other = MediaConfig(remote_fetch=True, allowed_hosts=["images.example.com"])
    refused(f"{server.url}/photo.jpg", other, "host '127.0.0.1' is not in media.allowed_hosts")
    assert server.requests == []
    ours = MediaConfig(remote_fetch=True, allowed_hosts=["127.0.0.1"])
    assert load_image(f"{server.url}/photo.jpg", max_side=64, policy=ours).size == (64, 43)
    assert server.requests == ["/photo.jpg"]


def test_a_redirect_to_a_private_address_is_refused(server):
    policy = MediaConfig(remote_fetch=True, allowed_hosts=["127.0.0.1"])
    refused(f"{server.url}/redirect", policy, "a redirect to '127.0.0.1' has a private address")
    assert server.requests == ["/redirect"]  # the target was never requested


def test_downloads_are_capped_in_bytes_and_time(server, photos):
    size = photos["coffee"].stat().st_size
    small = MediaConfig(remote_fetch=True, allowed_hosts=["127.0.0.1"], max_image_bytes=size - 1)
    refused(f"{server.url}/photo.jpg", small, "larger than")  # by its Content-Length
    tiny = small.model_copy(update={"max_image_bytes": 5000})
    refused(f"{server.url}/big", tiny, "larger than 5000 bytes")  # no length: counted
    slow = MediaConfig(remote_fetch=True, allowed_hosts=["127.0.0.1"], fetch_timeout_s=1.0)
    started = time.monotonic()
    refused(f"{server.url}/drip", slow, "took longer than the timeout")  # 8 s to send it all
    assert time.monotonic() - started < 6


def test_traces_cannot_make_the_evaluator_read_or_fetch(embedder, server, tmp_path, photos):
    """End to end with an image model: every forbidden source is an error on its item, the
    server sees no request, and the trace is still evaluated."""
    config = Config.model_validate(
        {
            "image": {"backend": "clip", "model": tiny_clip(tmp_path / "clip")},
            "media": {"local_roots": [str(photos["coffee"].parent)]},
        }
    )
    guard = Guard(config, evaluator=Evaluator(config, embedder=embedder))
    sources = ["/etc/shadow", "/proc/self/environ", "/dev/zero", f"{server.url}/photo.jpg"]
    items = [{"id": f"i{n}", "image": source} for n, source in enumerate(sources)]
    items.append({"id": "ok", "image": str(photos["coffee"])})
    evaluation = guard.evaluate(
        {"trace_id": "t", "query": "A cup?", "items": items, "response": "A cup of coffee."}
    )
    errors = {e.field: e.message for e in evaluation.errors}
    assert set(errors) == {f"items[{n}].image" for n in range(4)}
    assert all("outside media.local_roots" in errors[f"items[{n}].image"] for n in range(3))
    assert "remote fetch is off" in errors["items[3].image"]
    assert server.requests == []
    assert evaluation.items[-1].relevance is not None


def test_an_allowed_name_with_a_private_address_is_refused_on_the_first_request(server):
    port = server.http.server_port
    policy = MediaConfig(remote_fetch=True, allowed_hosts=["localhost"])
    refused(f"http://localhost:{port}/photo.jpg", policy, "'localhost' has a private address")
    assert server.requests == []


PUBLIC = "93.184.216.34"


@pytest.fixture
def rebinding(monkeypatch):
    """``rebind.example`` answers a public address the first time, then loopback."""
    real = socket.getaddrinfo
    answers: list[str] = []

    def resolve(host, port, *args, **kwargs):
        if host != "rebind.example":
            return real(host, port, *args, **kwargs)
        answers.append(PUBLIC if not answers else "127.0.0.1")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[-1], port or 0))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    return answers


def test_dns_rebinding_cannot_steer_a_redirect_to_loopback(server, rebinding):
    port = server.http.server_port
    hosts = ["127.0.0.1", "rebind.example"]
    policy = MediaConfig(remote_fetch=True, allowed_hosts=hosts, fetch_timeout_s=1.0)
    refused(f"{server.url}/to/rebind.example:{port}/photo.jpg", policy, "cannot fetch")
    assert rebinding == [PUBLIC]  # resolved once; the connection went to that address
    assert server.requests == [f"/to/rebind.example:{port}/photo.jpg"]  # never the photo

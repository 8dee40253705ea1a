"""``ragguard review`` as a real server on loopback: the token, CSRF, body bounds, two
writers and a crash mid-label, resuming, and ``--summary``."""

import http.client
import json
import signal
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from ragguard.calibration.labels import read_labelled
from ragguard.errors import TraceValidationError
from ragguard.review import current_labels, render_text, summarize
from tests.support.cli_process import run_ragguard
from tests.support.review_fixtures import LIVE_LOG, ReviewServer, label_lines


def call(url, data=None, headers=None, method=None):
    """(status, body text, headers) of a request."""
    body = (
        None if data is None else (data if isinstance(data, bytes) else json.dumps(data).encode())
    )
    head = {"Content-Type": "application/json"} if data is not None else {}
    request = urllib.request.Request(url, body, {**head, **(headers or {})}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers


def post_label(url, number, choice, reviewer="ana", key=None):
    if key is None:
        key = json.loads(call(f"{url}api/card/{number}")[1])["hash"]
    payload = {"number": number, "choice": choice, "hash": key, "reviewer": reviewer}
    return call(f"{url}api/label", payload)


@pytest.fixture
def server(tmp_path):
    with ReviewServer(
        str(LIVE_LOG), "--labels", "labels.jsonl", "--sample", "30", "--seed", "5", cwd=tmp_path
    ) as running:
        yield running


def test_the_page_and_the_label_endpoint_need_the_token(server):
    parts = urlsplit(server.url)
    root = f"{parts.scheme}://{parts.netloc}/"
    status, body, headers = call(server.url)
    assert status == 200 and "<title>ragguard review</title>" in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert call(root)[0] == 404
    assert call(root + "wrong-token-0123456789/")[0] == 404
    assert call(root + "api/state")[0] == 404
    assert call(root + "x/api/label", {"number": 0, "choice": "supported"})[0] == 404
    assert call(f"{server.url}static/review.js")[0] == 200
    assert call(f"{server.url}static/../../etc/passwd")[0] == 404


def test_a_label_from_another_origin_a_form_or_a_big_body_is_refused(server, tmp_path):
    key = json.loads(call(f"{server.url}api/card/0")[1])["hash"]
    good = {"number": 0, "choice": "supported", "hash": key}
    assert call(f"{server.url}api/label", good, {"Origin": "http://evil.example"})[0] == 403
    assert call(f"{server.url}api/label", good, {"Sec-Fetch-Site": "cross-site"})[0] == 403
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    assert call(f"{server.url}api/label", b"number=0&choice=supported", form)[0] == 415
    big = {**good, "note": "x" * 20_000}
    assert call(f"{server.url}api/label", big)[0] == 413
    host = {"Host": "attacker.example:80"}
    assert call(f"{server.url}api/state", headers=host)[0] == 421
    assert call(f"{server.url}api/label", {**good, "hash": "sha256:other"})[0] == 400
    assert not (tmp_path / "labels.jsonl").read_text()
    same = {"Origin": f"http://{urlsplit(server.url).netloc}"}
    assert call(f"{server.url}api/label", good, same)[0] == 200
    assert len(label_lines(tmp_path / "labels.jsonl")) == 1


def test_two_reviewers_and_two_servers_on_one_file_lose_no_label(server, tmp_path):
    with ReviewServer(
        str(LIVE_LOG), "--labels", "labels.jsonl", "--sample", "30", "--seed", "5", cwd=tmp_path
    ) as second:
        keys = [json.loads(call(f"{server.url}api/card/{n}")[1])["hash"] for n in range(30)]

        def label_all(url, reviewer):
            for number, key in enumerate(keys):
                assert post_label(url, number, "supported", reviewer, key)[0] == 200

        threads = [
            threading.Thread(target=label_all, args=(url, name))
            for url, name in ((server.url, "ana"), (server.url, "bo"), (second.url, "cy"))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    lines = label_lines(tmp_path / "labels.jsonl")
    assert len(lines) == 90
    assert len(current_labels(tmp_path / "labels.jsonl")) == 90
    read = list(read_labelled(tmp_path / "labels.jsonl"))
    assert len(read) == 90 and not any(isinstance(r, TraceValidationError) for r in read)


def test_a_server_killed_mid_label_leaves_a_file_read_whole(tmp_path):
    args = (str(LIVE_LOG), "--labels", "labels.jsonl", "--sample", "40", "--seed", "2")
    running = ReviewServer(*args, cwd=tmp_path)
    keys = [json.loads(call(f"{running.url}api/card/{n}")[1])["hash"] for n in range(40)]
    acknowledged = []
    stop = threading.Event()

    def keep_labelling():
        number = 0
        while not stop.is_set():
            try:
                status = post_label(
                    running.url, number % 40, "unsupported", "ana", keys[number % 40]
                )[0]
            except (OSError, http.client.HTTPException):  # the server died mid-answer
                return
            if status == 200:
                acknowledged.append(number)
            number += 1

    writer = threading.Thread(target=keep_labelling)
    writer.start()
    time.sleep(1.5)
    running.stop(signal.SIGKILL)
    stop.set()
    writer.join()
    lines = (tmp_path / "labels.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) - 1 >= len(acknowledged) > 0
    read = list(read_labelled(tmp_path / "labels.jsonl"))
    assert not any(isinstance(r, TraceValidationError) for r in read)
    resumed = ReviewServer(*args, cwd=tmp_path)
    try:
        state = json.loads(call(f"{resumed.url}api/state?reviewer=ana")[1])
        # every whole line counts, with a label written but killed before its answer
        labelled = state["counts"]["unsupported"]
        assert state["seed"] == 2 and labelled == min(len(lines) - 1, 40)
        assert labelled >= min(len(acknowledged), 40)
        assert post_label(resumed.url, 0, "supported")[0] == 200
    finally:
        resumed.stop()


def test_reopening_resumes_the_same_sample_where_the_reviewer_left_off(tmp_path):
    args = (str(LIVE_LOG), "--labels", "labels.jsonl", "--sample", "10")
    with ReviewServer(*args, cwd=tmp_path) as first:
        seed = json.loads(call(f"{first.url}api/state")[1])["seed"]
        cards = [json.loads(call(f"{first.url}api/card/{n}")[1])["hash"] for n in range(10)]
        for number in range(4):
            assert post_label(first.url, number, "supported", "ana", cards[number])[0] == 200
    with ReviewServer(*args, cwd=tmp_path) as again:
        state = json.loads(call(f"{again.url}api/state?reviewer=ana")[1])
        assert state["seed"] == seed and state["next"] == 4 and state["left"] == 6
        assert json.loads(call(f"{again.url}api/card/3")[1])["hash"] == cards[3]
    with ReviewServer("labels.jsonl", "--reviewer", "bo", cwd=tmp_path) as continued:
        state = json.loads(call(f"{continued.url}api/state")[1])
        assert state["total"] == 4 and state["next"] == 0 and state["reviewer"] == "bo"


def test_summary_prints_what_the_page_shows(server, tmp_path):
    for number in range(12):
        assert (
            post_label(server.url, number, "supported" if number % 3 else "unsupported")[0] == 200
        )
    page = json.loads(call(f"{server.url}api/summary")[1])
    done = run_ragguard("review", "--summary", str(tmp_path / "labels.jsonl"))
    assert done.returncode == 0, done.stderr
    labels = list(current_labels(tmp_path / "labels.jsonl").values())
    assert done.stdout.strip() == render_text(
        summarize(labels, labels_path=str(tmp_path / "labels.jsonl"))
    )
    assert "labels: 12 (12 random)" in done.stdout and page["labels"] == 12
    assert "ragguard calibrate" in done.stdout
    svg = call(f"{server.url}reliability.svg")
    assert svg[0] == 200 and svg[1].startswith("<svg") and "threshold" in svg[1]


def test_off_loopback_needs_a_token_file_and_a_bad_source_is_named(tmp_path):
    done = run_ragguard("review", str(LIVE_LOG), "--host", "0.0.0.0", "--port", "0")
    assert done.returncode == 2 and "--token-file" in done.stderr
    traces = tmp_path / "traces.jsonl"
    traces.write_text('{"trace_id": "t", "query": "q", "items": [], "response": "r"}\n')
    done = run_ragguard("review", str(traces), "--port", "0")
    assert done.returncode == 2 and "holds no verdicts" in done.stderr
    short = tmp_path / "token"
    short.write_text("short")
    done = run_ragguard("review", str(LIVE_LOG), "--token-file", str(short), "--port", "0")
    assert done.returncode == 2 and "at least 16" in done.stderr

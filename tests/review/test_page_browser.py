"""The review page in a real browser: Debian chromium driven by Playwright for Python
(``executable_path``, no browser download), against ``ragguard review`` on loopback."""

import http.server
import json
import os
import statistics
import threading
import tomllib
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.support.cli_process import run_ragguard
from tests.support.replay_fixtures import INJECTION
from tests.support.review_fixtures import (
    CHROMIUM,
    ReviewServer,
    label_lines,
    live_records,
    write_log,
)

DATA = Path(__file__).parent / "data" / "scitail_200.jsonl"
SCREENSHOT = os.environ.get("RAGGUARD_REVIEW_SCREENSHOT")
"""Where test 2 also saves its screenshot (docs/review.png when the docs are refreshed)."""


class Canary:
    """A loopback HTTP server counting every request: injected text that loads anything
    would reach it."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                hits.append(self.path)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def hostile(records, canary):
    """Every text a card shows carries markup, script, URLs and bidi controls."""
    payloads = [
        INJECTION,
        "</script><script>window.pwned=1</script>",
        f'<a href="javascript:window.pwned=1">link</a><img src="{canary}/img">',
        f'<svg onload="window.pwned=1"><image href="{canary}/svg"/></svg>',
        f'<div style="background:url({canary}/css)">x</div>'
        f"<style>@import url({canary}/imp);</style>",
    ]
    mixed = " ".join(payloads)
    for number, record in enumerate(records):
        record["trace_id"] = f'<b onclick="window.pwned=1">t{number}</b>'
        record["evaluation"]["trace_id"] = record["trace_id"]
        record["query"] = mixed + " " + record["query"]
        record["response"] += " \u202eevil\u202c " + payloads[number % len(payloads)]
        for item in record["items"]:
            item["text"] += " " + mixed
            item["id"] = f"<i>{item['id']}</i>"
        record["items"].append({"id": "picture", "image": f"{canary}/remote.png"})
    return records


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


def card_number(page):
    return page.inner_text("#card-number") if page.is_visible("#card") else "done"


def act(page, action):
    """Do ``action`` (a key or a click) and wait until another card is shown."""
    before = card_number(page)
    action()
    page.wait_for_function(
        "before => (document.getElementById('card').hidden ? 'done' : "
        "document.getElementById('card-number').textContent) !== before",
        arg=before,
    )


def saved(page, progress):
    """Wait until the page's labels are saved: the progress text the server's answer sets."""
    page.wait_for_function(
        "text => document.getElementById('progress-text').textContent.startsWith(text)",
        arg=progress,
    )


def figure(page, name):
    return page.inner_text(f'tr[data-figure="{name}"] td:nth-child(2)')


def test_labelling_twenty_cards_with_keys_and_mouse_undo_and_resume(tmp_path):
    canary = Canary()
    log = write_log(tmp_path / "ragguard.jsonl", hostile(live_records()[:14], canary.url))
    args = (str(log), "--labels", "labels.jsonl", "--sample", "24", "--seed", "11")
    console = []
    try:
        with (
            sync_playwright() as playwright,
            ReviewServer(*args, "--reviewer", "ana", cwd=tmp_path) as server,
        ):
            browser = launch(playwright)
            page = browser.new_page()
            page.on("console", lambda message: console.append(message.text))
            page.goto(server.url)
            page.wait_for_selector("body[data-ready]")
            assert page.is_visible("#answer mark") and page.inner_text(".ctl") == "U+202E"
            choices = ["supported", "unsupported", "not_a_claim", "supported"]
            keys = {"supported": "s", "unsupported": "n", "not_a_claim": "o"}
            made = []
            for index in range(20):
                choice = choices[index % 4]
                if index % 2:
                    act(page, lambda c=choice: page.click(f"#b-{c}"))
                else:
                    act(page, lambda c=choice: page.keyboard.press(keys[c]))
                made.append(choice)
            timings = page.evaluate("() => window.reviewTimings")
            shown_before_undo = card_number(page)
            act(page, lambda: page.keyboard.press("u"))
            assert card_number(page) == "20"  # the last labelled card is back
            page.reload()
            page.wait_for_selector("body[data-ready]")
            assert card_number(page) == "20"  # resumed at the first card left
            assert page.inner_text("#progress-text").startswith("19 of 24 labelled")
            act(page, lambda: page.keyboard.press("n"))
            assert card_number(page) == shown_before_undo
            saved(page, "20 of 24 labelled")
            page.wait_for_function(
                "() => (document.querySelector('tr[data-figure=labels] td:nth-child(2)') || "
                "{textContent: ''}).textContent.startsWith('20 ')"
            )
            assert page.evaluate("() => window.pwned") is None
            assert page.title() == "ragguard review"
            shown = {
                name: figure(page, name)
                for name in (
                    "precision of the flags",
                    "recall of unsupported claims",
                    "balanced accuracy",
                )
            }
            browser.close()
    finally:
        canary.close()
    assert canary.hits == []  # nothing injected loaded, and no image was fetched remotely
    assert not [m for m in console if "Content Security Policy" in m or "pwned" in m]
    assert statistics.median(timings) < 100, timings

    lines = label_lines(tmp_path / "labels.jsonl")
    assert [line["review"]["choice"] for line in lines] == [*made, "undone", "unsupported"]
    assert lines[19]["hash"] == lines[20]["hash"] == lines[21]["hash"]
    assert len({line["hash"] for line in lines[:20]}) == 20
    for line in lines:
        assert line["reviewer"] == "ana" and line["design"] == "random"
        assert line["review"]["sample"]["seed"] == 11
        span = line["review"]["span"]
        expected = {"supported": True, "unsupported": False}.get(line["review"]["choice"])
        assert line["labels"][span] is expected
        assert sum(label is not None for label in line["labels"]) == (expected is not None)

    summary = run_ragguard("review", "--summary", str(tmp_path / "labels.jsonl"))
    assert summary.returncode == 0, summary.stderr
    for name, value in shown.items():
        assert f"{name}: {value}" in summary.stdout
    calibrated = run_ragguard(
        "calibrate", str(tmp_path / "labels.jsonl"), "-o", str(tmp_path / "calibrated.toml")
    )
    assert calibrated.returncode == 0 and "skipped" not in calibrated.stderr, calibrated.stderr


def _scitail_traces(path):
    pairs = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    with path.open("w", encoding="utf-8") as out:
        for number, pair in enumerate(pairs):
            trace = {
                "trace_id": f"scitail-{number:03d}",
                "query": pair["claim"],
                "items": [{"id": "evidence", "text": pair["evidence"]}],
                "response": pair["claim"],
                "response_spans": [pair["claim"]],
            }
            out.write(json.dumps(trace) + "\n")
    return {f"scitail-{n:03d}": pair["label"] for n, pair in enumerate(pairs)}


def test_two_hundred_gold_labels_calibrate_and_evaluate_with_the_card(tmp_path):
    gold = _scitail_traces(tmp_path / "traces.jsonl")
    evaluated = run_ragguard(
        "evaluate", str(tmp_path / "traces.jsonl"), "-o", str(tmp_path / "results.jsonl")
    )
    assert evaluated.returncode == 0, evaluated.stderr
    args = (
        str(tmp_path / "results.jsonl"),
        "--traces",
        str(tmp_path / "traces.jsonl"),
        "--labels",
        "labels.jsonl",
        "--sample",
        "200",
        "--reviewer",
        "gold",
    )
    with sync_playwright() as playwright, ReviewServer(*args, cwd=tmp_path) as server:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1200, "height": 1500})
        page.goto(server.url)
        page.wait_for_selector("body[data-ready]")
        total = int(page.inner_text("#progress-text").split(" of ")[1].split()[0])
        assert total >= 190
        for index in range(total):
            trace_id = page.inner_text("#trace-id")
            choice = "supported" if gold[trace_id] else "unsupported"
            act(page, lambda c=choice: page.click(f"#b-{c}"))
            if index == total - 60:
                page.wait_for_function("() => document.getElementById('reliability').complete")
                shot = SCREENSHOT or str(tmp_path / "review.png")
                page.screenshot(path=shot, full_page=True)
        assert page.is_visible("#done")
        saved(page, f"{total} of {total} labelled")
        browser.close()
    assert Path(shot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    labels = tmp_path / "labels.jsonl"
    assert len(label_lines(labels)) == total
    config = tmp_path / "calibrated.toml"
    calibrated = run_ragguard("calibrate", str(labels), "-o", str(config))
    assert calibrated.returncode == 0, calibrated.stderr
    assert "threshold" in calibrated.stdout
    fitted = tomllib.loads(config.read_text())["calibration"]["fitted"]
    assert fitted["n_labels"] == total
    moved = not fitted.get("kept_default", False)
    assert moved or "kept the default" in calibrated.stdout  # the card says why it stayed
    few = tmp_path / "few.jsonl"  # a few traces show the calibrated threshold in force
    few.write_text("".join((tmp_path / "traces.jsonl").read_text().splitlines(True)[:10]))
    again = run_ragguard(
        "evaluate", str(few), "--config", str(config), "-o", str(tmp_path / "calibrated.jsonl")
    )
    assert again.returncode == 0, again.stderr
    first = json.loads((tmp_path / "calibrated.jsonl").read_text().splitlines()[0])
    assert first["thresholds"]["support"] == pytest.approx(fitted["threshold"])

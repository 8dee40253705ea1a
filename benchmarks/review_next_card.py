"""``ragguard review``: how soon the next card is on screen after a label, measured in the
browser.

    python benchmarks/review_next_card.py [--log examples/live_log.jsonl] [--cards 80]
        [--read-ms 500]

Starts ``ragguard review LOG`` on loopback, opens the page in Debian chromium through
Playwright (``/usr/bin/chromium``, no browser download) and labels ``--cards`` cards with
the ``s`` and ``n`` keys, each ``--read-ms`` after its card is shown (a reviewer reads the
card meanwhile, and the page fetches the next one; 0 presses at once). The time counted
runs from the key event (its ``timeStamp``) to a task queued from the first animation frame
after the card number changed, that is, once the frame showing the new card has been laid
out and painted. Also prints the page's own figure (``window.reviewTimings``: from the
label's handler to the card drawn in the document, which the first browser test requires
under 100 ms at the median), the load average and the command.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
WATCH = """() => {
  window.benchTimes = [];
  window.addEventListener("keydown", (event) => { window.benchKey = event.timeStamp; }, true);
  const painted = () => {
    const key = window.benchKey;
    requestAnimationFrame(() => setTimeout(() => window.benchTimes.push(performance.now() - key)));
  };
  const watched = {childList: true, characterData: true, subtree: true};
  new MutationObserver(painted).observe(document.getElementById("card-number"), watched);
}"""
"""Installed in the page: the key event's time, and the time once the frame that follows the
card's change has run (an animation frame, then a task after it)."""


def start_review(log: Path, labels: Path, cards: int) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "ragguard.cli", "review", str(log), "--labels", str(labels)]
    command += ["--sample", str(cards + 1), "--seed", "1", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    for line in server.stdout:
        if "open http" in line:
            return server, line.rsplit(" ", 1)[-1].strip()
    server.kill()
    raise SystemExit("ragguard review did not start")


def measure(url: str, cards: int, read_ms: int) -> tuple[list[float], list[float]]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready]")
        page.evaluate(WATCH)
        for number in range(cards):
            page.wait_for_timeout(read_ms)
            page.keyboard.press("s" if number % 2 else "n")
            page.wait_for_function("n => window.benchTimes.length >= n", arg=number + 1)
        times: list[float] = page.evaluate("() => window.benchTimes")
        drawn: list[float] = page.evaluate("() => window.reviewTimings")
        browser.close()
    return times, drawn


def spread(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    median = statistics.median(times)
    return f"median {median:.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log", type=Path, default=ROOT / "examples" / "live_log.jsonl")
    parser.add_argument("--cards", type=int, default=80)
    parser.add_argument("--read-ms", type=int, default=500)
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_review(args.log, Path(folder) / "labels.jsonl", args.cards)
        try:
            times, drawn = measure(url, args.cards, args.read_ms)
        finally:
            server.terminate()
            server.wait(timeout=60)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"next card, key event to painted ({len(times)} cards): {spread(times)}")
    print(f"next card, label handler to drawn (the page's own figure): {spread(drawn)}")


if __name__ == "__main__":
    main()

"""The replay report in a real headless browser (Debian ``chromium``; CI installs it)."""

import shutil
import subprocess
from datetime import UTC, datetime, timedelta

from ragguard.replay.report import ReportBuilder
from ragguard.runtime.log_record import LoggedTrace
from tests.support.replay_fixtures import evaluation, trace

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium(profile, *args):
    binary = shutil.which("chromium")
    assert binary, "Debian chromium is required for this test (apt-get install -y chromium)"
    command = [binary, *FLAGS, f"--user-data-dir={profile}", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


def test_the_report_renders_its_charts_and_highlights_and_runs_no_injected_code(tmp_path):
    builder = ReportBuilder()
    start = datetime(2025, 6, 2, 8, tzinfo=UTC)
    for index in range(6):
        logged = LoggedTrace(
            "live.jsonl",
            index + 1,
            trace(f"t{index}"),
            evaluation(f"t{index}", second_supported=index % 2 == 0),
            start + timedelta(minutes=40 * index),
        )
        builder.add(logged, evaluation(f"t{index}", support_threshold=0.6))
    page = tmp_path / "report.html"
    page.write_text(builder.render(title="replay report", meta={}), encoding="utf-8")
    url = page.as_uri()

    dom = chromium(tmp_path / "profile", "--dump-dom", url).stdout
    assert dom.count("<svg") == 4 and dom.count("<polygon") == 4 and "<polyline" in dom
    assert dom.count('<mark class="span-unsupported') == 1 + 6  # the key, one per trace
    assert dom.count('<mark class="span-unsupported changed"') == 3  # supported when live
    assert "<title>replay report</title>" in dom  # the injected handlers never ran
    assert "<img" not in dom and "<script" not in dom

    shot = tmp_path / "report.png"
    chromium(tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,2000", url)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000

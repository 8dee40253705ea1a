"""The headline Python example (the README's, and the Python API page's) runs and reads
as its comments say."""

import re

import pytest

from tests.support.docs_blocks import ROOT, blocks

STATED = re.compile(r"^(?P<expr>\S.*?)\s+#\s+(?P<value>True|False|\"[^\"]*\")")


def headline_example(page: str) -> str:
    (code,) = [code for _, code in blocks(ROOT / page, "python") if "guard.evaluate(trace)" in code]
    return code


@pytest.mark.parametrize("page", ["README.md", "docs/python-api.md"])
def test_the_python_example_gives_the_verdicts_its_comments_state(guard, monkeypatch, page):
    code = headline_example(page)
    monkeypatch.setattr("ragguard.Guard", lambda *args, **kwargs: guard)  # models load once
    namespace: dict = {}
    exec(compile(code, page, "exec"), namespace)
    stated = [m for line in code.splitlines() if (m := STATED.match(line))]
    assert len(stated) >= 4
    for match in stated:
        assert eval(match["expr"], namespace) == eval(match["value"]), match.group(0)


def test_the_wrap_quick_start_with_its_exporters_line_gives_a_trace_log_and_metrics(tmp_path):
    """The README's wrap quick start, its `wrap` line replaced by the line it gives for the
    trace log and /metrics (on a free port here), then its guard example: the log gets the
    request, /metrics shows it, and the guard's annotation is on the message."""
    import json
    import os
    import socket
    import subprocess
    import sys

    from tests.support.docs_blocks import PARSE_ONLY

    readme = (ROOT / "README.md").read_text()
    runnable = [code for _, code in blocks(ROOT / "README.md", "python")]
    (quick_start,) = [code for code in runnable if "chain = ragguard.wrap(chain)" in code]
    (guard_example,) = [code for code in runnable if 'mode="guard"' in code]
    (exporters_line,) = [
        code for _, code in blocks(ROOT / "README.md", "python", True) if "trace_log" in code
    ]
    assert PARSE_ONLY + "```python\n" + exporters_line in readme
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    wrap_line = next(line for line in quick_start.splitlines() if "ragguard.wrap(chain)" in line)
    code = quick_start.replace(wrap_line, exporters_line.strip().replace("9464", str(port)))
    code += (
        "\nimport urllib.request\n"
        f"metrics = urllib.request.urlopen('http://127.0.0.1:{port}/metrics').read().decode()\n"
        "print([l for l in metrics.splitlines() if l.startswith('ragguard_responses_total')])\n"
        + guard_example
        + "\nprint('guard', result.status, result.evaluation.metrics.support_rate)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)},
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    (logged,) = [
        json.loads(line) for line in (tmp_path / "ragguard.jsonl").read_text().splitlines()
    ]
    assert logged["evaluation"]["metrics"]["support_rate"] == 1.0
    assert 'ragguard_responses_total{pipeline="default"} 1.0' in run.stdout
    assert "guard evaluated 1.0" in run.stdout

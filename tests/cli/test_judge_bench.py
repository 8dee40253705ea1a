"""``ragguard judge-bench`` and ``benchmarks/judge_devsets.py`` against the test server:
lite, judge alone and the cascade on a few dev-set pairs, with the share sent and the
tokens. The tiny model's accuracy is not a claim; only the report's shape and bookkeeping
are asserted."""

import importlib.util
import json
import re
import sys
from pathlib import Path

from ragguard.cli import main
from tests.support.llama_server import MODEL


def write_dev_sets(data: Path) -> Path:
    """One labelled pair per set, in the two development sets' own file formats."""
    (data / "wice-dev").mkdir(parents=True)
    (data / "factcheck-gpt").mkdir()
    wice = {
        "label": "supported",
        "claim": "The Eiffel Tower is in Paris.",
        "evidence": ["The Eiffel Tower is a lattice tower in Paris, France."],
    }
    (data / "wice-dev" / "oracle_chunks_claim_dev.jsonl").write_text(json.dumps(wice) + "\n")
    stance = {
        "claim": "Water boils at 50 degrees Celsius at sea level.",
        "evidence": "At sea level, water boils at 100 degrees Celsius.",
        "stance": "refute",
    }
    path = data / "factcheck-gpt" / "subtask3_claim_evidence_stance.jsonl"
    path.write_text(json.dumps(stance) + "\n")
    return data


def _devsets_benchmark():
    """benchmarks/judge_devsets.py, loaded as the benchmark runs (its folder on the path)."""
    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("judge_devsets", folder / "judge_devsets.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(folder))


def test_judge_bench_reports_each_tier_against_the_server(judge_server, tmp_path, capsys):
    data = write_dev_sets(tmp_path / "data")
    config = tmp_path / "judge.toml"
    config.write_text(
        f'[judge]\nbackend = "openai"\nbase_url = "{judge_server.base_url}"\n'
        f'model = "{MODEL}"\nmax_output_tokens = 48\ntimeout_s = 120\nband = [0.0, 1.0]\n'
        "max_evidence_chars = 300\n"
    )
    benchmark = _devsets_benchmark()
    code = benchmark.main(["-c", str(config), "--data", str(data), "--limit", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    rows = {
        cells[0]: cells
        for line in out.splitlines()
        if (cells := [c.strip() for c in line.strip("|").split("|")])[0]
        in ("wice-dev", "factcheck-gpt")
    }
    assert set(rows) == {"wice-dev", "factcheck-gpt"}
    for cells in rows.values():
        _, n, lite, judge, cascade, sent, unanswered, judge_tokens, cascade_tokens, _ = cells
        assert n == "1" and sent == "1.000"  # the band [0, 1] sends every pair
        assert all(re.fullmatch(r"\d\.\d{3}|nan", v) for v in (lite, judge, cascade))
        assert int(judge_tokens) == int(cascade_tokens) > 0 or unanswered == "1"


def test_judge_bench_needs_a_judge(tmp_path, capsys):
    labels = tmp_path / "labels.jsonl"
    labels.write_text("")
    assert main(["judge-bench", "-c", str(tmp_path / "none.toml"), "--labels", str(labels)]) == 2
    (tmp_path / "off.toml").write_text("[judge]\n")
    assert main(["judge-bench", "-c", str(tmp_path / "off.toml"), "--labels", str(labels)]) == 2
    assert 'backend = "openai"' in capsys.readouterr().err

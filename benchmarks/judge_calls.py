"""Judge calls per span in a ``ragguard evaluate`` run with answer relevance on.

    python benchmarks/judge_calls.py --data DIR [--set factcheck-gpt|fever] [--limit 400]
                                     [--max-calls-per-trace N]

One-sentence answers: each distinct claim of the set (Factcheck-GPT, a dev set, reports;
``fever`` = FEVER-NLI, a training set, for choosing) is the answer of a trace whose passage
is its evidence and whose question is "Tell me about X." (X: the claim's first name, else
its first four words: none of the sets hold questions). The traces go through the CLI,
``ragguard evaluate``, with the default config plus ``[judge]`` on a stand-in
OpenAI-compatible judge on loopback (``benchmarks/accuracy_judge.py``: the gold label,
flipped for 20% of claims) and ``[calibration] source = "judge"`` (so a first pass asks
about the calibration sample). Counted: every request the stand-in judge received (first
pass included), over the spans of the output, and the output's calls by use.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets
from accuracy_judge import standin_judge

from ragguard.schema import Evaluation
from ragguard.scoring.checks.proper_names import names

ROOT = Path(__file__).resolve().parent.parent


def cases(data: Path, which: str, limit: int) -> list[tuple[str, str, bool]]:
    """(claim, evidence, supported) of up to ``limit`` distinct claims."""
    if which == "fever":
        from ragguard.train.datasets import SUPPORT_SOURCES

        pairs = SUPPORT_SOURCES["fever-nli-binary"](data)
        rows = ((p.statement, p.context, bool(p.label)) for p in pairs)
    else:
        rows = ((c.claim, c.evidence, c.label) for c in devsets.factcheck_gpt(data))
    unique = {claim: (claim, evidence, label) for claim, evidence, label in rows}
    return list(itertools.islice(unique.values(), limit))


def question(claim: str) -> str:
    found = names(claim)
    return f"Tell me about {found[0] if found else ' '.join(claim.split()[:4])}."


def run(data: Path, which: str, limit: int, cap: int | None) -> dict[str, object]:
    rows = cases(data, which, limit)
    with (
        tempfile.TemporaryDirectory() as folder,
        standin_judge({c: label for c, _, label in rows}) as judge,
    ):
        traces, config, out = (Path(folder) / n for n in ("t.jsonl", "c.toml", "o.jsonl"))
        with traces.open("w", encoding="utf-8") as handle:
            for n, (claim, evidence, _) in enumerate(rows):
                trace = {
                    "trace_id": f"t{n}",
                    "query": question(claim),
                    "items": [{"id": "d1", "text": evidence}],
                    "response": claim,
                }
                handle.write(json.dumps(trace) + "\n")
        capped = "" if cap is None else f"max_calls_per_trace = {cap}\n"
        config.write_text(
            f'[judge]\nbackend = "openai"\nbase_url = "{judge.base_url}"\nmodel = "standin"\n'
            f'{capped}max_calls_per_minute = 100000\n\n[calibration]\nsource = "judge"\n'
        )
        command = [sys.executable, "-m", "ragguard.cli", "evaluate", str(traces), "-c", str(config)]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "standin"}
        done = subprocess.run(
            [*command, "-o", str(out)], capture_output=True, text=True, env=env, check=False
        )
        if done.returncode not in (0, 3):
            raise SystemExit(done.stderr[-2000:])
        spans, uses = 0, Counter()
        for line in out.read_text(encoding="utf-8").splitlines():
            evaluation = Evaluation.model_validate_json(line)
            spans += len(evaluation.spans)
            for span in evaluation.spans:
                if span.judge is not None and not span.judge.cached:
                    uses["sample" if span.calibration_sample else "span"] += 1
            answer = evaluation.answer_judge
            uses["answer"] += answer is not None and not answer.cached
        requests = len(judge.judge.instructions)
        judge_line = [ln for ln in done.stdout.splitlines() if ln.lstrip("| ").startswith("judge")]
    return {
        "set": which,
        "traces": len(rows),
        "spans": spans,
        "judge requests": requests,
        "requests per span": round(requests / max(spans, 1), 3),
        "in the output, by use": dict(uses),
        "summary judge line": judge_line[:1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--set", choices=("factcheck-gpt", "fever"), default="factcheck-gpt")
    parser.add_argument("--limit", type=int, default=400)
    parser.add_argument("--max-calls-per-trace", type=int, default=None)
    args = parser.parse_args()
    print(json.dumps(run(args.data, args.set, args.limit, args.max_calls_per_trace), indent=1))


if __name__ == "__main__":
    main()

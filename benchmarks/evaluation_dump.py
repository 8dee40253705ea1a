"""Every evaluation of the example traces and of dev-set pairs, timings removed, one JSON
object per line: run it before and after a refactor and diff the two folders (an empty
diff means the change moved no verdict, score or reason).

    python benchmarks/evaluation_dump.py OUT_DIR --data DIR [--limit 400] [--judge]

With ``--judge`` the cascade runs in the loop: the stand-in judge of
``accuracy_judge.py`` (gold labels for the dev pairs, flip 0.2, seeded) answers every
span the cascade sends it, so a refactor of the judge tier is diffed too.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import devsets
from accuracy_judge import standin_judge

from ragguard import Evaluation, Guard, Trace

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "traces.jsonl"


def _without_timings(value: Any) -> Any:
    """The value with every wall-clock field (``timing_ms``, ``latency_ms``) removed."""
    if isinstance(value, dict):
        return {
            key: _without_timings(item)
            for key, item in value.items()
            if key not in ("timing_ms", "latency_ms")
        }
    if isinstance(value, list):
        return [_without_timings(item) for item in value]
    return value


def _record(evaluation: Evaluation) -> str:
    return json.dumps(_without_timings(evaluation.model_dump(mode="json")), sort_keys=True)


@contextlib.contextmanager
def _guard(with_judge: bool, gold: Mapping[str, bool]) -> Iterator[Guard]:
    """The default guard, or one whose judge is the stand-in (every budget lifted)."""
    if not with_judge:
        yield Guard()
        return
    with standin_judge(gold, flip=0.2, seed=0) as server:
        judge = {
            "backend": "openai",
            "base_url": server.base_url,
            "model": "standin",
            "api_key_env": "RAGGUARD_NO_KEY",
            "timeout_s": 60,
            "max_calls_per_minute": None,
            "max_tokens_per_day": None,
        }
        yield Guard({"judge": judge})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    devsets.add_data_argument(parser)
    parser.add_argument("--limit", type=int, default=400, help="pairs per dev set")
    parser.add_argument("--judge", action="store_true", help="the stand-in judge in the loop")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    gold: dict[str, bool] = {}
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    sets = {"examples": [Trace.model_validate_json(line) for line in lines if line.strip()]}
    for name, reader in (("wice", devsets.wice), ("fcgpt", devsets.factcheck_gpt)):
        cases = reader(args.data)[: args.limit]
        gold |= {case.claim: case.label for case in cases}
        sets[name] = [
            Trace(
                trace_id=f"{name}{i}",
                query="What is stated?",
                response=case.claim,
                items=[{"id": "d1", "text": case.evidence}],
            )
            for i, case in enumerate(cases)
        ]
    with _guard(args.judge, gold) as guard:
        for name, traces in sets.items():
            with open(args.out / f"{name}.jsonl", "w", encoding="utf-8") as handle:
                for evaluation in guard.evaluate_many(traces):
                    handle.write(_record(evaluation) + "\n")
    print(f"wrote {sum(map(len, sets.values()))} evaluations to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

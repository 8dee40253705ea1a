"""Every evaluation of the example traces and of dev-set pairs, timings removed, one JSON
object per line: run it before and after a refactor and diff the two folders (an empty
diff means the change moved no verdict, score or reason).

    python benchmarks/evaluation_dump.py OUT_DIR --data DIR [--limit 400]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import devsets

from ragguard import Evaluation, Guard, Trace

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "traces.jsonl"


def _record(evaluation: Evaluation) -> str:
    fields: dict[str, Any] = evaluation.model_dump(mode="json")
    fields.pop("timing_ms", None)
    return json.dumps(fields, sort_keys=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    devsets.add_data_argument(parser)
    parser.add_argument("--limit", type=int, default=400, help="pairs per dev set")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    guard = Guard()
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    sets = {"examples": [Trace.model_validate_json(line) for line in lines if line.strip()]}
    for name, reader in (("wice", devsets.wice), ("fcgpt", devsets.factcheck_gpt)):
        sets[name] = [
            Trace(
                trace_id=f"{name}{i}",
                query="What is stated?",
                response=case.claim,
                items=[{"id": "d1", "text": case.evidence}],
            )
            for i, case in enumerate(reader(args.data)[: args.limit])
        ]
    for name, traces in sets.items():
        with open(args.out / f"{name}.jsonl", "w", encoding="utf-8") as handle:
            for evaluation in guard.evaluate_many(traces):
                handle.write(_record(evaluation) + "\n")
    print(f"wrote {sum(map(len, sets.values()))} evaluations to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
